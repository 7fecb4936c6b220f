from django.urls import path

from . import api

urlpatterns = [
    path("substitutes/volunteer/", api.volunteer, name="api-substitute-volunteer"),
    path("substitutes/offers/", api.offers_list, name="api-substitute-offers"),
    path("substitutes/offers/<int:offer_id>/accept/", api.accept,
         name="api-substitute-accept"),
    path("games/<int:pk>/leave/", api.leave, name="api-game-leave"),
    path("games/<int:pk>/seats/history/", api.seat_history, name="api-seat-history"),
    path("games/<int:pk>/briefing/", api.briefing_json, name="api-game-briefing"),
    path("games/<int:pk>/gm/seat-policy/", api.seat_policy, name="api-seat-policy"),
    path("games/<int:pk>/gm/seat-offers/", api.gm_offer_seat, name="api-gm-seat-offer"),
    path("games/<int:pk>/gm/seat-offers/<int:offer_id>/<str:what>/", api.gm_offer,
         name="api-gm-seat-offer-act"),
    path("players/<str:username>/record/", api.player_record, name="api-player-record"),
]
