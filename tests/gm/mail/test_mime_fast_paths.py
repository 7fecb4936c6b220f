"""gm.mail.mime reads messages with two shortcuts around the email package (for speed,
bench/README.md): a private feed parser that matches multipart boundaries without
compiling a pattern per message, and plain addresses read without the address parser.
Both must give exactly what the email package gives."""

from __future__ import annotations

import inspect
import random
import string
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

import pytest

from gm.mail import mime
from tests.gm.mail import mimeshapes

_STDLIB = BytesParser(_class=EmailMessage, policy=policy.compat32)


def _tree(msg) -> list:
    node = [msg.get_content_type(), msg.preamble, msg.epilogue,
            [type(d).__name__ for d in msg.defects], list(msg.items())]
    if msg.is_multipart():
        return [node, [_tree(part) for part in msg.get_payload()]]
    return [node, msg.get_payload()]


def _client_shapes() -> list[bytes]:
    out = []
    for _name, build in inspect.getmembers(mimeshapes, inspect.isfunction):
        params = inspect.signature(build).parameters
        if "sender" not in params or any(
                p.default is p.empty and p.kind is p.KEYWORD_ONLY and n not in ("sender", "to")
                for n, p in params.items()):
            continue
        out.append(build("EQUIP SWORD\nADD 2", sender="Alice <a@example.org>",
                         to="play+tok@gm.example"))
    return out


_MULTIPART = ("From: a@b.c\nTo: x@y\nMIME-Version: 1.0\n"
              "Content-Type: multipart/mixed; boundary=\"{b}\"\n\npreamble\n--{b}\n"
              "Content-Type: text/plain\n\nhello\n--{b}  \nContent-Type: text/plain\n\nworld\n"
              "--{b}x\nnot a boundary\n--{b}--\nepilogue\n")
_NESTED = ("Content-Type: multipart/mixed; boundary=A\n\n--A\n"
           "Content-Type: multipart/alternative; boundary=B\n\n--B\nContent-Type: text/plain\n\n"
           "x\n--B\nContent-Type: text/html\n\n<p>y\n--B--\n--A\n"
           "Content-Type: message/rfc822\n\nFrom: q\n"
           "Content-Type: multipart/mixed; boundary=C\n\n--C\n\nz\n--C--\n--A--\n")


def _odd_boundaries() -> list[bytes]:
    out = [_NESTED.encode()]
    for b in ["simple", "a.b(c)+d?*", "==_Part_1 2", "x$^[]{}|\\", "with space ", "--dash--",
              "tab\tx", "\u00fcn\u00ef"]:
        for newline in ("\n", "\r\n", "\r"):
            text = _MULTIPART.format(b=b).replace("\n", newline)
            out.append(text.encode("utf-8"))
            out.append(text.rsplit(f"--{b}--", 1)[0].encode("utf-8"))  # never closed
    return out


@pytest.mark.parametrize("raw", _client_shapes() + _odd_boundaries())
@pytest.mark.parametrize("headersonly", [False, True])
def test_the_private_feed_parser_reads_as_the_email_package(raw, headersonly):
    assert _tree(mime.parse_message(raw, headersonly=headersonly)) == \
        _tree(_STDLIB.parsebytes(raw, headersonly=headersonly))


def test_the_email_package_s_own_feedparser_is_untouched():
    import email.feedparser
    import re

    assert email.feedparser.re is re


def _random_values(rng: random.Random, n: int) -> list[str]:
    safe = string.ascii_letters + string.digits + "_%+-."
    name = string.ascii_letters + string.digits + "_' -"
    odd = name + ',;:()<>@.[]\u00e9\t"\\'

    def addr() -> str:
        return ("".join(rng.choice(safe) for _ in range(rng.randint(1, 6))) + "@"
                + "".join(rng.choice(string.ascii_letters + "-.") for _ in range(rng.randint(1, 6))))

    values = []
    for _ in range(n):
        k = rng.random()
        if k < 0.25:
            values.append(rng.choice(["", " "]) + addr() + rng.choice(["", " "]))
        elif k < 0.5:
            values.append("".join(rng.choice(name) for _ in range(rng.randint(0, 8)))
                          + rng.choice(["", " "]) + f"<{addr()}>")
        elif k < 0.75:
            values.append('"' + "".join(rng.choice(odd) for _ in range(rng.randint(0, 8)))
                          + '"' + rng.choice(["", " "]) + f"<{addr()}>")
        else:
            values.append("".join(rng.choice(odd + "@") for _ in range(rng.randint(1, 12))))
    return values


_FORMS = ["a@b", "<a@b>", "Bob <a@b>", '"Smith, Bob" <bob@x.org>', "  play+abc@localhost  ",
          "O'Brien <ob@x.y>", "a.b@c", ".a@b", "a.@b", "a@b.", "Bob<a@b>", '"" <a@b>',
          "a@b (comment)", "<a@b", "a@b>", "Bob <a@b> x", "a@b, c@d", "", "undisclosed:;"]


def _read_as_address(value: str) -> str:
    """parseaddr's address; when that is no address, the first one getaddresses finds
    ("Müller, Alice <alice@x.org>": the unquoted comma makes parseaddr read "Müller")."""
    addr = parseaddr(value)[1].strip()
    if "@" not in addr:
        found = [a for _n, a in getaddresses([value]) if mime._ADDRESS_ONLY.match(a)]
        addr = found[0] if found else addr
    return addr.lower()


def test_an_unquoted_comma_in_the_display_name_still_gives_the_address():
    assert mime._addr("Müller, Alice <Alice@Example.org>") == "alice@example.org"
    assert mime._addr("Example, Alice <alice@example.org>") == "alice@example.org"
    assert mime._addr("Example, Alice") == "example"  # no address at all: as before
    raw = (b"From: =?iso-8859-1?Q?M=FCller=2C_Alice?= <alice@example.org>\n"
           b"To: play+x@gm.example\nSubject: x\n\nbody\n")
    assert mime.parse(raw).sender == "alice@example.org"


def test_plain_addresses_read_as_the_email_package_reads_them():
    values = _FORMS + _random_values(random.Random(13), 4000)
    for value in values:
        assert mime._addresses([value]) == [a for _n, a in getaddresses([value]) if a], value
        assert mime._addr(value) == _read_as_address(value), value
    for i in range(0, len(values) - 3, 3):
        group = values[i:i + 3]
        assert mime._addresses(group) == [a for _n, a in getaddresses(group) if a], group


_HEADERS = (b"Received: one\nreceived: two\nFrom: =?utf-8?q?J=C3=BCrgen?= <j@example.org>\n"
            b"To: a@b.c,\n  \"Smith, B\" <b@c.d>\nSubject: caf\xc3\xa9 \xe9\nX-Empty:\n"
            b"Content-Type: text/plain\n\nbody\n")


@pytest.mark.parametrize("raw", _client_shapes() + [_HEADERS])
def test_header_lookups_read_as_the_email_package(raw):
    msg = mime.parse_message(raw)
    names = {name for name, _value in msg.raw_items()} | {
        "received", "RECEIVED", "x-empty", "Missing", "cc"}
    for name in names:
        value = msg.get(name)
        assert mime._header(msg, name) == (" ".join(str(value).split()) if value is not None
                                           else "")
        assert mime._all(msg, name) == msg.get_all(name, [])
