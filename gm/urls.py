"""Top-level URLs: the stable external interface of ARCHITECTURE.md."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("gm.api.urls")),
    path("api/", include("gm.referee.api_urls")),
    path("api/", include("gm.gmadj.api_urls")),  # issue 27: the adjudication desk
    path("api/", include("gm.substitutes.api_urls")),  # issue 25: substitutes
    path("mail/", include("gm.mail.urls")),
    path("", include("gm.notify.urls")),  # issue 26: notifications (pages and API)
    path("", include("gm.accounts.urls")),
    path("", include("gm.referee.urls")),
    path("", include("gm.absence.urls")),  # vacations, grace, if-I-miss orders, bots
    path("", include("gm.gmadj.urls")),  # issue 27: the adjudication desk
    path("", include("gm.substitutes.urls")),  # issue 25: substitutes, seats, profiles
    path("", include("gm.web.urls")),
]

# JSON for API clients, a short page for browsers; a database outage is a 503.
handler400 = "gm.accounts.errorpages.bad_request"
handler404 = "gm.api.errors.not_found"
handler500 = "gm.accounts.errorpages.server_error"
