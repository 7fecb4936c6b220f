from django.urls import path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("account/", views.account, name="account"),
    path("account/confirm/<str:token>/", views.confirm_email, name="account-confirm"),
    path("account/confirm-again/", views.resend_confirmation, name="account-confirm-again"),
    path("account/tokens/", views.new_token, name="account-token-new"),
    path("account/tokens/<int:token_id>/revoke/", views.revoke_token,
         name="account-token-revoke"),
]
