from django.urls import path

from . import views

urlpatterns = [
    path("account/substitute/", views.volunteer, name="substitute-volunteer"),
    path("substitutes/", views.open_seats, name="substitute-open-seats"),
    path("substitutes/offers/<int:offer_id>/accept/", views.accept, name="substitute-accept"),
    path("players/<str:username>/", views.profile, name="player-profile"),
    path("games/<int:pk>/leave/", views.leave, name="game-leave"),
    path("games/<int:pk>/seats/", views.seats, name="game-seats"),
    path("games/<int:pk>/seats/policy/", views.gm_policy, name="game-seat-policy"),
    path("games/<int:pk>/seats/offer/", views.gm_offer_seat, name="game-seat-offer"),
    path("games/<int:pk>/seats/offers/<int:offer_id>/<str:what>/", views.gm_offer,
         name="game-seat-offer-act"),
    path("games/<int:pk>/briefing/", views.briefing_page, name="game-briefing"),
]
