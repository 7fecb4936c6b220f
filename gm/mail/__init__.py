"""Play by email: orders in by mail, receipts, notices and reports out by mail.

Inbound, four doors into one pipeline (`inbound.process`):

* `manage.py smtpd --host 127.0.0.1 --port 8025`: an aiosmtpd listener (self-hosting,
  the embedded default; try `swaks --server localhost:8025 --to play+<token>@localhost`);
* `manage.py ingest_email [--recipient ADDR] < message.eml`: an MTA pipe, e.g. Postfix
  `play: "|/srv/gm/.venv/bin/python /srv/gm/manage.py ingest_email"` with
  `recipient_delimiter = +` (exit 75 asks the MTA to retry);
* `manage.py poll_imap [--loop]`: a mailbox (GM_IMAP_* settings), flagged or moved only
  after each outcome is committed;
* provider webhooks through django-anymail at `/mail/anymail/<esp>/inbound/` (e.g.
  `/mail/anymail/mailgun/inbound_mime/`): only the providers in GM_MAIL_WEBHOOKS exist,
  each with its secret in the ANYMAIL setting (`webhook_gate`, check gm.E001).

Reading a body: `mime` (decoding, leniently), `bodytext` (HTML, quotes, signatures,
forwards), `greetings` (greeting and sign-off lines around the orders), `routing` (seat
and sender). Answering: `replies` (who is answered and with what), `notices` (turn open,
reports, reminders, game over), `plaintext` (the text part of markdown reports),
`compose` (headers, time zones, templates).

Outbound: replies and notices are outbox rows (one per event and recipient) delivered by
the `gm.mail.tasks.deliver` Celery task after commit, through Django's EMAIL_BACKEND.
Settings (all optional): GM_MAIL_DOMAIN, GM_MAIL_LOCALPART, GM_MAIL_MAX_BYTES (256 KiB),
GM_MAIL_REPLY_LIMIT / GM_MAIL_REPLY_WINDOW (20 replies per 3600 s per address),
GM_MAIL_REMIND_HOURS (12, at most half a turn).
"""
