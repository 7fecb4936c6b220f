from django.contrib.auth import views as auth_views
from django.urls import path

from . import reset, views

urlpatterns = [
    path("signup/", views.signup_page, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup-sent"),
    path("signup/c/<str:token>/", views.signup_link, name="signup-link"),
    # the former long, signed links, honoured until the last one mailed expires
    path("signup/confirm/<str:token>/", views.signup_confirm, name="signup-confirm"),
    path("password-reset/", reset.ResetView.as_view(), name="password-reset"),
    path("password-reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("password-reset/<uidb64>/<token>/", reset.ResetConfirmView.as_view(),
         name="password_reset_confirm"),
    path("password-reset/done/", reset.ResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("account/", views.account, name="account"),
    path("account/confirm/<str:token>/", views.confirm_email, name="account-confirm"),
    path("account/confirm-again/", views.resend_confirmation, name="account-confirm-again"),
    path("account/tokens/", views.new_token, name="account-token-new"),
    path("account/tokens/<int:token_id>/revoke/", views.revoke_token,
         name="account-token-revoke"),
]
