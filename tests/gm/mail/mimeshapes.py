"""Real MIME in the shapes common clients produce, written with Python's email package.

Each builder returns bytes as they would arrive at the MTA: headers, transfer encodings
and charsets as Gmail, Outlook, Apple Mail, the iPhone, Thunderbird and Windows Mail write
them (their quoting styles included). `orders` is everything the player typed above the
quote, greetings and sign-offs included; `charset` picks the body charset where the
client lets its user choose (or picks one itself by the text).
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.charset import BASE64, QP, Charset
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from email.utils import format_datetime, formataddr, make_msgid, parseaddr

QUOTED_NOTICE = ("Test combat_dice (game 1), turn 1 is open.\nYou play seat P1.\n"
                 "Example: ADD 2")


def _headers(msg, *, sender: str, to: str, subject: str, message_id: str | None,
             in_reply_to: str | None = None, extra: dict[str, str] | None = None) -> None:
    name, addr = parseaddr(sender)
    msg["From"] = formataddr((name, addr), charset="utf-8") if name else addr
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


def gmail(orders: str, *, sender: str, to: str, message_id: str | None = None,
          charset: str = "utf-8") -> bytes:
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
    cs = Charset(charset)
    cs.body_encoding = QP
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id)
    return msg.as_bytes()


def outlook(orders: str, *, sender: str, to: str, message_id: str | None = None,
            charset: str = "windows-1252") -> bytes:
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
    cs = Charset(charset)
    cs.body_encoding = BASE64
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="RE: [Test] turn 1: your orders",
             message_id=message_id,
             extra={"Thread-Topic": "[Test] turn 1", "X-MS-Has-Attach": ""})
    return msg.as_bytes()


def apple(orders: str, *, sender: str, to: str, message_id: str | None = None,
          charset: str = "utf-8") -> bytes:
    """iPhone Mail: QP text, "Sent from my iPhone", then a quote introduced by
    "> On ..., at ..., GM wrote:"; HTML with blockquote type=cite."""
    text = (f"{orders}\n\nSent from my iPhone\n\n> On 29 Nov 2026, at 11:00, GM <gm@localhost>"
            " wrote:\n>\n" + "\n".join(f"> {line}" for line in QUOTED_NOTICE.split("\n")))
    html = ("<html><body dir=\"auto\">" + "".join(f"<div>{line}</div>" for line in
                                                 orders.split("\n"))
            + "<div><br><div dir=\"ltr\">Sent from my iPhone</div><blockquote type=\"cite\">"
            + QUOTED_NOTICE.replace("\n", "<br>") + "</blockquote></div></body></html>")
    msg = MIMEMultipart("alternative")
    cs = Charset(charset)
    cs.body_encoding = QP
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id)
    return msg.as_bytes()


iphone = apple


def apple_mail(orders: str, *, sender: str, to: str, message_id: str | None = None,
               charset: str = "utf-8") -> bytes:
    """Apple Mail on a Mac: multipart/alternative, text/plain QP in the charset of the
    text (us-ascii when it can), the quote as "> " lines under "On ..., GM wrote:", and an
    HTML part with the reply in <div>s and the quote in blockquote type=cite."""
    text = (f"{orders}\n\n> On 29 Nov 2026, at 11:00, GM <gm@localhost> wrote:\n> \n"
            + "\n".join(f"> {line}" for line in QUOTED_NOTICE.split("\n")) + "\n")
    html = ('<html><head><meta http-equiv="content-type" content="text/html; charset='
            f'{charset}"></head><body style="overflow-wrap: break-word;">'
            + "".join(f"<div>{line or '<br>'}</div>" for line in orders.split("\n"))
            + '<div><br><blockquote type="cite"><div>On 29 Nov 2026, at 11:00, GM &lt;'
            'gm@localhost&gt; wrote:</div><br><div><div>'
            + QUOTED_NOTICE.replace("\n", "<br>") + "</div></div></blockquote></div>"
            "</body></html>")
    msg = MIMEMultipart("alternative", boundary="Apple-Mail=_0A1B2C3D-4E5F")
    cs = Charset(charset)
    cs.body_encoding = QP
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id, extra={"X-Mailer": "Apple Mail (2.3774.200.91.1.1)"})
    return msg.as_bytes()


def thunderbird_html(orders: str, *, sender: str, to: str, message_id: str | None = None,
                     charset: str = "utf-8", below_quote: bool = False) -> bytes:
    """Thunderbird composing HTML only: one text/html part, 8bit, <p> per paragraph,
    the quote under div.moz-cite-prefix in blockquote type=cite, the signature in
    pre.moz-signature; `below_quote` writes the reply under the quote (bottom-posting,
    Thunderbird's default), else above it."""
    paragraphs = "".join(f"<p>{line}<br></p>" if line else "" for line in orders.split("\n"))
    quote = ("<div class=\"moz-cite-prefix\">On 29/11/2026 11:00, GM wrote:<br>\n    </div>"
             "\n    <blockquote type=\"cite\" cite=\"mid:notice@gm.example\">"
             f"{QUOTED_NOTICE.replace(chr(10), '<br>')}</blockquote>\n")
    signature = ("<pre class=\"moz-signature\" cols=\"72\">-- \nDave (Thunderbird)</pre>\n")
    inner = (quote + paragraphs + signature) if below_quote else \
        (paragraphs + signature + quote)
    html = ("<!DOCTYPE html>\n<html>\n  <head>\n    <meta http-equiv=\"content-type\" "
            f"content=\"text/html; charset={charset.upper()}\">\n  </head>\n  <body>\n"
            f"    {inner}  </body>\n</html>\n")
    msg = MIMEText(html, "html", charset)
    del msg["Content-Transfer-Encoding"]
    msg.set_payload(html.encode(charset))
    msg["Content-Transfer-Encoding"] = "8bit"
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id,
             extra={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 "
                                  "Thunderbird/128.5.0"})
    return msg.as_bytes()


def thunderbird_flowed(orders: str, *, sender: str, to: str, message_id: str | None = None,
                       charset: str = "utf-8") -> bytes:
    """Thunderbird composing plain text: format=flowed, long lines wrapped at 72 with a
    trailing space, 8bit, "-- " signature, the quote as "> " lines."""
    wrapped = []
    for line in orders.split("\n"):
        while len(line) > 72:
            cut = line.rfind(" ", 0, 72)
            if cut <= 0:
                break
            wrapped.append(line[:cut + 1])  # the space stays: a soft break
            line = line[cut + 1:]
        wrapped.append(line)
    body = ("\r\n".join(wrapped) + "\r\n\r\n-- \r\nDave\r\n\r\nOn 29/11/2026 11:00, GM wrote:\r\n"
            + "\r\n".join(f"> {line}" for line in QUOTED_NOTICE.split("\n")) + "\r\n")
    return raw_bytes(body.encode(charset), sender=sender, to=to,
                     charset=f"{charset}; format=flowed", message_id=message_id)


def windows_mail(orders: str, *, sender: str, to: str, message_id: str | None = None,
                 charset: str = "utf-8") -> bytes:
    """Windows 10/11 Mail: multipart/alternative, both parts base64, CRLF, "Sent from
    Mail for Windows" and an Outlook-style "From: / Sent:" header block above the quote."""
    text = (orders.replace("\n", "\r\n") + "\r\n\r\nSent from Mail for Windows\r\n\r\n"
            "From: GM\r\nSent: Sunday, 29 November 2026 11:00\r\nTo: " + sender + "\r\n"
            "Subject: [Test] turn 1: your orders\r\n\r\n" + QUOTED_NOTICE.replace("\n", "\r\n")
            + "\r\n")
    html = ('<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta '
            'http-equiv=Content-Type content="text/html; charset=' + charset + '"></head>'
            '<body lang=EN-GB><div class=WordSection1>'
            + "".join(f"<p class=MsoNormal>{line or '<o:p>&nbsp;</o:p>'}</p>"
                      for line in orders.split("\n"))
            + '<p class=MsoNormal><o:p>&nbsp;</o:p></p><p class=MsoNormal>Sent from <a '
            'href="https://go.microsoft.com/fwlink/?LinkId=550986">Mail</a> for Windows</p>'
            '<p class=MsoNormal><o:p>&nbsp;</o:p></p><div style="mso-element:para-border-div;'
            'border:none;border-top:solid #E1E1E1 1.0pt"><p class=MsoNormal><b>From: </b>GM'
            '<br><b>Sent: </b>Sunday, 29 November 2026 11:00</p></div><p class=MsoNormal>'
            + QUOTED_NOTICE.replace("\n", "<br>") + "</p></div></body></html>")
    msg = MIMEMultipart("alternative")
    cs = Charset(charset)
    cs.body_encoding = BASE64
    msg.attach(MIMEText(text, "plain", cs))
    msg.attach(MIMEText(html, "html", cs))
    _headers(msg, sender=sender, to=to, subject="RE: [Test] turn 1: your orders",
             message_id=message_id)
    return msg.as_bytes()


def forward(inner_text: str, *, client: str, sender: str, to: str, above: str = "",
            message_id: str | None = None) -> bytes:
    """A forwarded mail as `client` writes it inline: "gmail" (plain + HTML, the forward
    inside div.gmail_quote), "apple" ("Begin forwarded message:"), "thunderbird" (HTML
    only, div.moz-forward-container) or "outlook" (only the subject says FW:)."""
    when = "Sun, 29 Nov 2026 at 11:00"
    if client == "gmail":
        text = (f"{above}\n\n---------- Forwarded message ---------\nFrom: GM <gm@localhost>"
                f"\nDate: {when}\nSubject: [Test] turn 1: your orders\nTo: <{sender}>\n\n"
                f"{inner_text}\n")
        html = (f'<div dir="ltr">{above}<br><br><div class="gmail_quote"><div dir="ltr" '
                'class="gmail_attr">---------- Forwarded message ---------<br>From: <strong '
                f'class="gmail_sendername">GM</strong><br></div><br>'
                f'{inner_text.replace(chr(10), "<br>")}</div></div>')
        msg = MIMEMultipart("alternative")
        msg.attach(MIMEText(text, "plain", "utf-8"))
        msg.attach(MIMEText(html, "html", "utf-8"))
        subject = "Fwd: [Test] turn 1: your orders"
    elif client == "apple":
        text = (f"{above}\n\nBegin forwarded message:\n\n> From: GM <gm@localhost>\n"
                f"> Subject: [Test] turn 1: your orders\n> Date: {when}\n\n{inner_text}\n")
        msg = MIMEText(text, "plain", "utf-8")
        subject = "Fwd: [Test] turn 1: your orders"
    elif client == "thunderbird":
        html = (f"<html><body><p>{above}</p><div class=\"moz-forward-container\"><br><br>"
                "-------- Forwarded Message --------<table class=\"moz-email-headers-table\">"
                "<tr><th>Subject:</th><td>[Test] turn 1</td></tr></table><br>"
                f"<pre>{inner_text}</pre></div></body></html>")
        msg = MIMEText(html, "html", "utf-8")
        subject = "Fwd: [Test] turn 1: your orders"
    elif client == "outlook":
        text = (f"{above}\r\n\r\n________________________________\r\nFrom: GM <gm@localhost>"
                f"\r\nSent: {when}\r\nTo: {sender}\r\nSubject: [Test] turn 1: your orders"
                f"\r\n\r\n{inner_text}\r\n")
        msg = MIMEText(text, "plain", "windows-1252")
        subject = "FW: [Test] turn 1: your orders"
    else:
        raise ValueError(client)
    _headers(msg, sender=sender, to=to, subject=subject, message_id=message_id)
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


# Replies written below the quote (bottom-posting), in plain text. `quoted` is the
# notice as quoted; the player's text follows it.
def _quote_lines(text: str = QUOTED_NOTICE, prefix: str = "> ") -> list[str]:
    return [f"{prefix}{line}" for line in text.split("\n")]


def thunderbird_plain_below(orders: str, *, sender: str, to: str,
                            message_id: str | None = None, charset: str = "utf-8") -> bytes:
    """Thunderbird composing plain text below the quote (its default): format=flowed,
    8bit, CRLF, "On 01/12/2026 14:00, GM wrote:", the "> " quote, a blank line, the
    reply, then the "-- " signature."""
    body = ("On 01/12/2026 14:00, GM wrote:\r\n" + "\r\n".join(_quote_lines()) + "\r\n\r\n"
            + orders.replace("\n", "\r\n") + "\r\n\r\n-- \r\nDave\r\n")
    return raw_bytes(body.encode(charset), sender=sender, to=to,
                     charset=f"{charset}; format=flowed", message_id=message_id,
                     extra={"User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) "
                                          "Gecko/20100101 Thunderbird/128.5.0"})


def mutt(orders: str, *, sender: str, to: str, message_id: str | None = None,
         charset: str = "utf-8") -> bytes:
    """(Neo)mutt with text_flowed: "On Tue, Dec 01, 2026 at 02:00:00PM +0000, GM wrote:",
    the quote with flowed soft breaks (a trailing space) inside it, the reply below, a
    "-- " signature; quoted-printable."""
    quote = ["> Test combat_dice (game 1), turn 1 is open. You play seat P1. ",
             "> Orders are due by Thu 3 Dec 2026 14:00 UTC.", ">", "> Example: ADD 2"]
    body = ("On Tue, Dec 01, 2026 at 02:00:00PM +0000, GM wrote:\n" + "\n".join(quote)
            + "\n\n" + orders + "\n\n-- \nDave\n")
    cs = Charset(charset)
    cs.body_encoding = QP
    msg = MIMEText(body, "plain", cs)
    msg.set_param("format", "flowed")
    _headers(msg, sender=sender, to=to, subject="Re: [Test] turn 1: your orders",
             message_id=message_id, extra={"User-Agent": "NeoMutt/20241002"})
    return msg.as_bytes()


def apple_mail_below(orders: str, *, sender: str, to: str, message_id: str | None = None,
                     charset: str = "utf-8") -> bytes:
    """Apple Mail, plain text, the reply typed below the quote: the quote first, its
    attribution inside it ("> On 1 Dec 2026, at 14:00, GM <...> wrote:"), QP."""
    body = ("> On 1 Dec 2026, at 14:00, GM <play+abc@gm.example> wrote:\n> \n"
            + "\n".join(_quote_lines()) + "\n\n" + orders + "\n")
    return plain(body, sender=sender, to=to, message_id=message_id, charset=charset,
                 cte="quoted-printable", subject="Re: [Test] turn 1: your orders",
                 extra={"X-Mailer": "Apple Mail (2.3774.200.91.1.1)"})


ATTRIBUTIONS = {
    "gmail-en": "On Tue, 1 Dec 2026 at 14:00, GM <play+abc@gm.example> wrote:",
    # Gmail wraps a long attribution line in its plain-text part
    "gmail-en-wrapped": "On Tue, 1 Dec 2026 at 14:00, Game Master of the Dungeon <\n"
                        "play+abcdefghijklmnop@gm.example> wrote:",
    "gmail-fr": "Le mar. 1 déc. 2026 à 14:00, GM <play+abc@gm.example> a écrit :",
    "gmail-de": "Am Di., 1. Dez. 2026 um 14:00 Uhr schrieb GM <play+abc@gm.example>:",
    "thunderbird-de": "Am 01.12.26 um 14:00 schrieb GM:",
    "thunderbird-fr": "Le 01/12/2026 à 14:00, GM a écrit :",
    "gmail-es": "El mar, 1 dic 2026 a las 14:00, GM (<play+abc@gm.example>) escribió:",
    "gmail-nl": "Op di 1 dec. 2026 om 14:00 schreef GM <play+abc@gm.example>:",
    "gmail-pl": "wt., 1 gru 2026 o 14:00 GM <play+abc@gm.example> napisał(a):",
}


def below_quote(orders: str, *, sender: str, to: str, attribution: str = "gmail-en",
                message_id: str | None = None, cte: str = "quoted-printable",
                crlf: bool = False, charset: str = "utf-8") -> bytes:
    """A plain-text reply below the quote, introduced by `attribution` (a key of
    ATTRIBUTIONS), with a blank line between the attribution and the quote as Gmail
    writes it; CRLF line ends when `crlf`."""
    body = (ATTRIBUTIONS[attribution] + "\n\n" + "\n".join(_quote_lines()) + "\n\n"
            + orders + "\n")
    if crlf:
        body = body.replace("\n", "\r\n")
    return plain(body, sender=sender, to=to, message_id=message_id, charset=charset,
                 cte=cte, subject="Re: [Test] turn 1: your orders")
