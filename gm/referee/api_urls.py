"""URLs of this app (filled in by its own issue)."""

urlpatterns: list = []
