"""Reading a raw message: identity, addresses, loop signs and the text the player wrote.

Everything here is pure (bytes in, values out) so the pipeline, the benchmark and the
tests share it. Decoding is the email package's (transfer encodings, RFC 2047 headers).
Charsets are decoded leniently: clients label Latin-1 text as UTF-8 (or name charsets
Python does not know) and believe they sent UTF-8, so a byte that does not fit is read
as Windows-1252/Latin-1, never a reason to refuse mail whose order lines are readable.
"""

from __future__ import annotations

import codecs
import hashlib
import importlib.util
import re
from dataclasses import dataclass, field
from email import policy
from email.errors import HeaderParseError
from email.header import decode_header, make_header
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from typing import Any

# compat32 parsing into EmailMessage objects (`parse_message`): get_body()/is_attachment()
# work, and headers stay raw strings (decoded only where needed), which is ~15x faster
# than policy.default parsing every header into objects (see bench/inbound.py).


class _Boundary:
    """What `re.compile` of the email package's boundary pattern gives, without compiling
    a regular expression: the line starts with the separator, and the fixed rest of the
    pattern is matched by one expression compiled once."""

    __slots__ = ("separator", "at")
    TAIL = r"(?P<end>--)?(?P<ws>[ \t]*)(?P<linesep>\r\n|\r|\n)?$"
    _tail = re.compile(TAIL)

    def __init__(self, separator: str) -> None:
        self.separator = separator
        self.at = len(separator)

    def match(self, line: str) -> re.Match[str] | None:
        if not line.startswith(self.separator):
            return None
        return self._tail.match(line, self.at)


class _BoundaryRe:
    """The `re` module as the private feed parser below sees it. The email package
    compiles `(?P<sep>--<boundary>)(?P<end>--)?...` for every multipart it reads, and every
    message has its own boundary: a fresh compile each time (about a third of the parse
    of a multipart mail), and one that pushes other patterns out of `re`'s cache. Any
    other pattern goes to `re` itself."""

    _head, _end = "(?P<sep>", ")" + _Boundary.TAIL
    escape = staticmethod(re.escape)

    @classmethod
    def compile(cls, pattern: str, flags: int = 0) -> Any:
        if not flags and pattern.startswith(cls._head) and pattern.endswith(cls._end):
            escaped = pattern[len(cls._head):-len(cls._end)]
            separator = re.sub(r"\\(.)", r"\1", escaped, flags=re.DOTALL)
            if re.escape(separator) == escaped:
                return _Boundary(separator)
        return re.compile(pattern, flags)


def _feedparser_module() -> Any:
    """A private copy of `email.feedparser` whose `re` is `_BoundaryRe` (the module the
    rest of the process imports is left as it is)."""
    spec = importlib.util.find_spec("email.feedparser")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.re = _BoundaryRe
    return module


_FEED = _feedparser_module()


def parse_message(raw: bytes, *, headersonly: bool = False) -> EmailMessage:
    """`BytesParser(_class=EmailMessage, policy=compat32).parsebytes(raw, headersonly)`,
    through the private feed parser (same bytes in, same message out)."""
    parser = _FEED.BytesFeedParser(_factory=EmailMessage, policy=policy.compat32)
    if headersonly:
        parser._set_headersonly()
    parser.feed(raw)
    return parser.close()


_LOOP_LOCALPARTS = {"mailer-daemon", "postmaster", "noreply", "no-reply", "do-not-reply",
                    "donotreply", "bounce", "bounces"}
_BULK_PRECEDENCE = {"bulk", "list", "junk"}


class NoText(ValueError):
    """The message has no text part we could read (only attachments, or nothing)."""


def _byte_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: a byte that is not valid in the declared charset is read as
    Windows-1252, or Latin-1 for the five bytes Windows-1252 leaves undefined."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    bad = exc.object[exc.start:exc.end]
    return "".join(_cp1252(b) for b in bad), exc.end


def _cp1252(byte: int) -> str:
    try:
        return bytes([byte]).decode("cp1252")
    except UnicodeDecodeError:
        return bytes([byte]).decode("latin-1")


codecs.register_error("gm-cp1252", _byte_fallback)


@dataclass
class Envelope:
    """What the transport knows beside the message (SMTP RCPT TO / MAIL FROM, webhooks)."""

    recipients: list[str] = field(default_factory=list)
    sender: str | None = None


@dataclass
class Mail:
    message: EmailMessage
    message_id: str
    sha256: str
    sender: str
    recipients: list[str]
    subject: str
    references: list[str]  # oldest first; the In-Reply-To message is the last
    size: int
    headers_only: bool
    in_reply_to: str = ""  # "<id>", or "" when the header is missing


# One plain address, bare or in angle brackets after a plain or quoted display name: what
# nearly every header holds, read here without the email package's address parser (which
# gives the same address for these, at several times the cost). Anything else goes to it.
_ADDR_SPEC = r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
_PLAIN_ADDRESS = re.compile(rf"\s*(?:(?P<bare>{_ADDR_SPEC})|"
                            rf"(?:[A-Za-z0-9_' -]*|\"[^\"\\]*\")\s*<(?P<angle>{_ADDR_SPEC})>)\s*\Z")


def _plain(value: str) -> str | None:
    found = _PLAIN_ADDRESS.match(value)
    return (found.group("bare") or found.group("angle")) if found else None


def _addr(value: str) -> str:
    plain = _plain(value)
    return (plain if plain is not None else parseaddr(value)[1].strip()).lower()


def _addresses(values: list[str]) -> list[str]:
    """The addresses in header values, as `getaddresses` reads them (empty ones left out)."""
    plain = [_plain(v) for v in values]
    if None not in plain:
        return plain
    return [a for _n, a in getaddresses(values) if a]


def normalise_message_id(value: str | None) -> str:
    value = (value or "").strip()
    match = re.search(r"<([^<>\s]+)>", value)
    return (match.group(1) if match else value.strip("<> ")).strip()[:250]


def parse(raw: bytes, envelope: Envelope | None = None, *, max_bytes: int | None = None) -> Mail:
    """Parse a message; over `max_bytes` only its headers are read (the size refusal)."""
    digest = hashlib.sha256(raw).hexdigest()
    headers_only = max_bytes is not None and len(raw) > max_bytes
    if headers_only:
        head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw[:65536] else \
            raw[:65536].split(b"\n\n", 1)[0]
        msg = parse_message(head + b"\n\n", headersonly=True)
    else:
        msg = parse_message(raw)
    mid = normalise_message_id(_header(msg, "Message-ID")) or f"sha256-{digest}@inbound"
    rcpts: list[str] = [a.lower() for a in (envelope.recipients if envelope else [])]
    for name in ("Delivered-To", "X-Original-To", "To", "Cc"):
        values = [str(v) for v in _all(msg, name)]
        if values:
            rcpts += [a.lower() for a in _addresses(values)]
    refs = re.findall(r"<[^<>\s]+>", _header(msg, "References"))
    reply_to = normalise_message_id(_header(msg, "In-Reply-To"))
    parent = f"<{reply_to}>" if reply_to else ""
    if parent:
        refs = [r for r in refs if r != parent] + [parent]
    sender = _header(msg, "From")
    if "=?" in sender:  # a display name in RFC 2047 words (or, wrongly, the whole value)
        sender = _decoded(msg, "From")
    return Mail(message=msg, message_id=mid, sha256=digest, sender=_addr(sender),
                recipients=list(dict.fromkeys(rcpts)), subject=_decoded(msg, "Subject")[:255],
                references=refs, size=len(raw), headers_only=headers_only,
                in_reply_to=parent)


def _headers(msg: EmailMessage) -> dict[str, list[tuple[str, str]]]:
    """The message's headers by lower-case name, in order, read once: `msg.get` and
    `msg.get_all` scan every header, lower-casing each name, at every call (about twenty
    calls per message here). Kept on the message, which nothing here changes."""
    found = msg.__dict__.get("_gm_headers")
    if found is None:
        found = {}
        for name, value in msg.raw_items():
            found.setdefault(name.lower(), []).append((name, value))
        msg.__dict__["_gm_headers"] = found
    return found


def _all(msg: EmailMessage, name: str) -> list[Any]:
    """`msg.get_all(name, [])`."""
    fetch = msg.policy.header_fetch_parse
    return [fetch(k, v) for k, v in _headers(msg).get(name.lower(), ())]


def _header(msg: EmailMessage, name: str) -> str:
    """A raw header value, unfolded (RFC 2047 words left as they are): `msg.get(name)`."""
    found = _headers(msg).get(name.lower())
    if not found:
        return ""
    return " ".join(str(msg.policy.header_fetch_parse(*found[0])).split())


def _decoded(msg: EmailMessage, name: str) -> str:
    """A header with RFC 2047 encoded words decoded (for display: the subject)."""
    raw = _header(msg, name)
    if "=?" not in raw:  # no encoded word: nothing to decode (the usual subject)
        return raw
    try:
        return str(make_header(decode_header(raw)))
    except (LookupError, UnicodeDecodeError, ValueError, HeaderParseError):
        return raw


def loop_reason(mail: Mail, envelope: Envelope | None = None) -> str | None:
    """Why this message must never be answered (RFC 3834 and common practice), or None."""
    msg = mail.message
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in _BULK_PRECEDENCE:
        return f"Precedence: {precedence}"
    if _header(msg, "List-Id") or _header(msg, "List-Unsubscribe"):
        return "mailing-list mail (List-Id)"
    # (X-Auto-Response-Suppress is not a sign: it asks *us* not to send out-of-office
    # replies, and some Exchange clients put it on every personal message.)
    for name in ("X-Autoreply", "X-Autorespond"):
        value = _header(msg, name)
        if value:
            return f"{name}: {value}"
    return_path = _header(msg, "Return-Path")
    if return_path and return_path.replace(" ", "") == "<>":
        return "Return-Path: <> (a bounce)"
    if envelope is not None and envelope.sender is not None and envelope.sender in ("", "<>"):
        return "empty envelope sender (a bounce)"
    if not mail.sender:
        return "no From address"
    if mail.sender.split("@", 1)[0] in _LOOP_LOCALPARTS:
        return f"From: {mail.sender}"
    if msg.get_content_type() == "multipart/report":
        return "delivery status report"
    return None


def body_text(mail: Mail) -> tuple[str, str]:
    """(text, kind) of the message: text/plain, else text/html converted, kind names which.

    Raises NoText when only attachments (or nothing) are there.
    """
    from .bodytext import html_to_text

    parts = list(_text_parts(mail.message))
    plain = next((p for p in parts if p.get_content_subtype() == "plain"), None)
    html = next((p for p in parts if p.get_content_subtype() == "html"), None)
    if plain is not None:
        text = _decode(plain)
        if text.strip() or html is None:
            return text, "plain"
    if html is not None:
        return html_to_text(_decode(html)), "html"
    if any(p.get_content_maintype() == "message" for p in mail.message.walk()):
        raise NoText(FORWARDED_ONLY)
    raise NoText("no text part")


FORWARDED_ONLY = "only a forwarded message (attached)"


def _text_parts(part: EmailMessage):
    """Inline text/plain and text/html parts, in order, not looking inside attachments
    or attached messages (a forwarded mail's text is not the sender's orders)."""
    if part.get_content_disposition() == "attachment":
        return
    if part.get_content_maintype() == "message":
        return
    if part.is_multipart():
        for sub in part.get_payload():
            yield from _text_parts(sub)
    elif part.get_content_type() in ("text/plain", "text/html"):
        yield part


def _decode(part: EmailMessage) -> str:
    text = _decode_bytes(part)
    if str(part.get_param("format") or "").lower() == "flowed":
        text = unflow(text, delsp=str(part.get_param("delsp") or "").lower() == "yes")
    return text


def unflow(text: str, *, delsp: bool = False) -> str:
    """Undo RFC 3676 format=flowed: a line ending in a space continues on the next, so
    a long order wrapped by the sender's client is one order line again."""
    out: list[str] = []
    current = ""
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = raw[1:] if raw.startswith(" ") else raw  # space-stuffing
        if line.endswith(" ") and line != "-- " and not line.startswith(">"):
            current += line[:-1] if delsp else line
            continue
        out.append(current + line)
        current = ""
    if current:
        out.append(current)
    return "\n".join(out)


_UTF8 = {"utf-8", "utf8", "utf_8", "unicode-1-1-utf-8", "x-unicode20utf8"}


def _decode_bytes(part: EmailMessage) -> str:
    """The part's text. Strict in the declared charset when the bytes fit it; otherwise
    UTF-8 with stray bytes read as Windows-1252 (the usual mislabelling: Latin-1 text
    called UTF-8, or no charset at all), or the declared charset with U+FFFD for what
    does not fit. An unknown charset name is read as UTF-8 the same way."""
    payload = part.get_payload(decode=True) or b""
    if not isinstance(payload, bytes):  # a malformed part the email package gave back raw
        payload = str(payload).encode("utf-8", "surrogateescape")
    charset = (part.get_content_charset() or "us-ascii").strip()
    try:
        return payload.decode(charset)
    except LookupError:
        return payload.decode("utf-8", "gm-cp1252")
    except UnicodeDecodeError:
        if charset in _UTF8 or charset in ("us-ascii", "ascii", "ansi_x3.4-1968"):
            return payload.decode("utf-8", "gm-cp1252")
        return payload.decode(charset, "replace")
