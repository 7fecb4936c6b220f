"""Real MIME in the shapes common clients produce, written with Python's email package.

Each builder returns bytes as they would arrive at the MTA: headers, transfer encodings
and charsets as Gmail, Outlook and Apple Mail write them (their quoting styles included).
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.charset import BASE64, QP, Charset
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, make_msgid

QUOTED_NOTICE = ("Test combat_dice (game 1), turn 1 is open.\nYou play seat P1.\n"
                 "Example: ADD 2")


def _headers(msg, *, sender: str, to: str, subject: str, message_id: str | None,
             in_reply_to: str | None = None, extra: dict[str, str] | None = None) -> None:
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    msg["Message-ID"] = message_id or make_msgid(domain="client.example")
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    for name, value in (extra or {}).items():
        msg[name] = value


def plain(body: str, *, sender: str, to: str, subject: str = "Re: turn 1",
          message_id: str | None = None, charset: str = "utf-8", cte: str = "8bit",
          in_reply_to: str | None = None, extra: dict[str, str] | None = None) -> bytes:
    """A single text/plain part (cte: 7bit/8bit/quoted-printable/base64)."""
    if cte in ("quoted-printable", "base64"):
        cs = Charset(charset)
        cs.body_encoding = QP if cte == "quoted-printable" else BASE64
        msg = MIMEText(body, "plain", cs)
    else:
        msg = MIMEText(body, "plain", charset)
        if cte == "8bit":
            del msg["Content-Transfer-Encoding"]
            msg.set_payload(body.encode(charset))
            msg["Content-Transfer-Encoding"] = "8bit"
    _headers(msg, sender=sender, to=to, subject=subject, message_id=message_id,
             in_reply_to=in_reply_to, extra=extra)
    return msg.as_bytes()


def gmail(orders: str, *, sender: str, to: str, message_id: str | None = None) -> bytes:
    """Gmail: multipart/alternative, text QP-encoded with "On ... wrote:" + `> ` quote,
    HTML with the quote in div.gmail_quote/blockquote."""
    text = (f"{orders}\n\nOn Sun, Nov 29, 2026 at 11:00 AM GM <gm@localhost> wrote:\n\n"
            + "\n".join(f"> {line}" for line in QUOTED_NOTICE.split("\n")) + "\n")
    html_orders = "".join(f"<div>{line}</div>" for line in orders.split("\n"))
    html = (f'<div dir="ltr">{html_orders}</div><br><div class="gmail_quote">'
            '<div dir="ltr" class="gmail_attr">On Sun, Nov 29, 2026 at 11:00 AM GM &lt;'
            'gm@localhost&gt; wrote:<br></div><blockquote class="gmail_quote" style="margin:'
            f'0px">{QUOTED_NOTICE.replace(chr(10), "<br>")}</blockquote></div>')
    msg = MIMEMultipart("alternative")
    cs = Charset("utf-8")
    cs.body_encoding = QP
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id)
    return msg.as_bytes()


def outlook(orders: str, *, sender: str, to: str, message_id: str | None = None) -> bytes:
    """Outlook: base64 text in windows-1252, top-posted above a "From: / Sent:" block
    after an underscore line; HTML with divRplyFwdMsg."""
    text = (f"{orders}\r\n\r\nRegards,\r\nDave\r\n\r\n________________________________\r\n"
            "From: GM <gm@localhost>\r\nSent: Sunday, November 29, 2026 11:00 AM\r\n"
            f"To: {sender}\r\nSubject: [Test] turn 1: your orders\r\n\r\n"
            + QUOTED_NOTICE.replace("\n", "\r\n") + "\r\n")
    html = ("<html><head><style>p {margin:0}</style></head><body><div style=\"font-family:"
            "Calibri\">" + "<br>".join(orders.split("\n")) + "</div><div>Regards,<br>Dave"
            "</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\"><b>From:</b>"
            " GM</div><div>" + QUOTED_NOTICE.replace("\n", "<br>") + "</div></body></html>")
    msg = MIMEMultipart("alternative")
    cs = Charset("windows-1252")
    cs.body_encoding = BASE64
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="RE: [Test] turn 1: your orders",
             message_id=message_id,
             extra={"Thread-Topic": "[Test] turn 1", "X-MS-Has-Attach": ""})
    return msg.as_bytes()


def apple(orders: str, *, sender: str, to: str, message_id: str | None = None) -> bytes:
    """Apple Mail (iPhone): QP text, "Sent from my iPhone", then a quote introduced by
    "> On ..., at ..., GM wrote:"; HTML with blockquote type=cite."""
    text = (f"{orders}\n\nSent from my iPhone\n\n> On 29 Nov 2026, at 11:00, GM <gm@localhost>"
            " wrote:\n>\n" + "\n".join(f"> {line}" for line in QUOTED_NOTICE.split("\n")))
    html = ("<html><body dir=\"auto\">" + "".join(f"<div>{line}</div>" for line in
                                                 orders.split("\n"))
            + "<div><br><div dir=\"ltr\">Sent from my iPhone</div><blockquote type=\"cite\">"
            + QUOTED_NOTICE.replace("\n", "<br>") + "</blockquote></div></body></html>")
    msg = MIMEMultipart("alternative")
    cs = Charset("utf-8")
    cs.body_encoding = QP
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id)
    return msg.as_bytes()


def html_only(html: str, *, sender: str, to: str, message_id: str | None = None) -> bytes:
    msg = MIMEText(html, "html", "utf-8")
    _headers(msg, sender=sender, to=to, subject="orders", message_id=message_id)
    return msg.as_bytes()


def attachment_only(data: bytes, *, sender: str, to: str, message_id: str | None = None,
                    filename: str = "orders.txt") -> bytes:
    msg = MIMEMultipart("mixed")
    part = MIMEApplication(data, "octet-stream")
    part.add_header("Content-Disposition", "attachment", filename=filename)
    msg.attach(part)
    _headers(msg, sender=sender, to=to, subject="orders attached", message_id=message_id)
    return msg.as_bytes()


def raw_bytes(body: bytes, *, sender: str, to: str, charset: str, message_id: str | None = None,
              extra: dict[str, str] | None = None) -> bytes:
    """A hand-assembled message with exactly these body bytes and declared charset."""
    msg = EmailMessage()
    _headers(msg, sender=sender, to=to, subject="orders", message_id=message_id, extra=extra)
    head = msg.as_bytes().rstrip(b"\n")
    return (head + f"\nMIME-Version: 1.0\nContent-Type: text/plain; charset={charset}\n"
            "Content-Transfer-Encoding: 8bit\n\n".encode() + body)
