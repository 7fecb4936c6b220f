"""The Celery app. Without CELERY_BROKER_URL tasks run eagerly, in-process."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gm.settings")

app = Celery("gm")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
