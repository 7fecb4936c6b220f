from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from gm.accounts.views import obtain_token

from . import views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script for the CSP.
    path("docs/", SpectacularSwaggerSplitView.as_view(
        url_name="schema", template_name="api/swagger_ui.html"), name="api-docs"),
    path("token/", obtain_token, name="api-token"),
    path("rulesets/", views.rulesets, name="api-rulesets"),
    path("games/", views.games, name="api-games"),
    path("games/<int:pk>/", views.game_detail, name="api-game"),
    path("games/<int:pk>/seats/", views.join, name="api-join"),
    path("games/<int:pk>/start/", views.start, name="api-start"),
    path("games/<int:pk>/orders/", views.orders, name="api-orders"),
    path("games/<int:pk>/reports/", views.reports, name="api-reports"),
    path("games/<int:pk>/reports/<int:number>/", views.report, name="api-report"),
    path("games/<int:pk>/export/", views.export, name="api-export"),
    path("games/<int:pk>/thread/", views.thread, name="api-thread"),
]
