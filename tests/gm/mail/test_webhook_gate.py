"""Inbound provider webhooks over real HTTP (issue 29): a webhook not enabled does not
exist, an enabled one without its secret refuses everything, and a wrong or missing
secret is refused before any row is stored."""

from __future__ import annotations

import base64
import json

import pytest
import requests
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db(transaction=True)

HOOKS = ["postmark/inbound/", "sendgrid/inbound/", "mailgun/inbound_mime/",
         "amazon_ses/inbound/", "mailjet/inbound/", "sparkpost/inbound/"]


def _forged_orders(game) -> tuple[str, bytes]:
    """A post "From: <the player>" to the seat's reply address: what a stranger sends."""
    p1 = seat(game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<forged@stranger.example>")
    return p1.reply_address, raw


def _postmark(url: str, raw: bytes, rcpt: str, auth: str | None = None) -> requests.Response:
    headers = {"Content-Type": "application/json"}
    if auth is not None:
        headers["Authorization"] = "Basic " + base64.b64encode(auth.encode()).decode()
    body = {"RawEmail": raw.decode(), "OriginalRecipient": rcpt, "Headers": []}
    return requests.post(f"{url}/mail/anymail/postmark/inbound/", data=json.dumps(body),
                         headers=headers, timeout=20)


@pytest.mark.parametrize("hook", HOOKS)
def test_no_webhook_exists_by_default(live_server, tally_game, hook):
    rcpt, raw = _forged_orders(tally_game)
    response = requests.post(f"{live_server.url}/mail/anymail/{hook}",
                             data={"body-mime": raw.decode(), "email": raw.decode(),
                                   "recipient": rcpt, "to": rcpt}, timeout=20)
    assert response.status_code == 404
    assert not InboundMessage.objects.exists()
    assert not Submission.objects.exists()


def test_an_enabled_webhook_without_a_secret_refuses_and_fails_the_check(
        live_server, tally_game, settings):
    settings.GM_MAIL_WEBHOOKS = ["postmark", "sendgrid"]
    settings.ANYMAIL = {}
    rcpt, raw = _forged_orders(tally_game)
    assert _postmark(live_server.url, raw, rcpt).status_code == 403
    sendgrid = requests.post(f"{live_server.url}/mail/anymail/sendgrid/inbound/",
                             data={"email": raw.decode(), "to": rcpt}, timeout=20)
    assert sendgrid.status_code == 403
    assert not InboundMessage.objects.exists()
    with pytest.raises(SystemCheckError, match="gm.E001"):
        call_command("check")


def test_an_enabled_webhook_needs_its_secret(live_server, tally_game, settings, on_commit):
    settings.GM_MAIL_WEBHOOKS = ["postmark"]
    settings.ANYMAIL = {"WEBHOOK_SECRET": "hook:s3cret-value"}
    call_command("check")  # configured: no error
    rcpt, raw = _forged_orders(tally_game)
    assert _postmark(live_server.url, raw, rcpt).status_code == 400
    assert _postmark(live_server.url, raw, rcpt, auth="hook:wrong").status_code == 400
    assert not InboundMessage.objects.exists()
    # The other providers and every tracking webhook stay absent.
    for url in ("sendgrid/inbound/", "postmark/tracking/", "mailgun/inbound_mime/"):
        assert requests.post(f"{live_server.url}/mail/anymail/{url}", data={},
                             timeout=20).status_code == 404
    # The provider, with its credentials, gets through to the pipeline.
    assert _postmark(live_server.url, raw, rcpt, auth="hook:s3cret-value").status_code == 200
    row = InboundMessage.objects.get()
    assert (row.transport, row.outcome) == ("webhook:Postmark", Outcome.ACCEPTED)


def test_an_unknown_provider_name_is_a_check_error(settings):
    settings.GM_MAIL_WEBHOOKS = ["nosuchmail"]
    with pytest.raises(SystemCheckError, match="gm.E001"):
        call_command("check")
