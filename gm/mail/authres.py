"""Is the From of an inbound message forged? What our own MTA's checks said of it.

A seat's mail is read as orders when it comes from the seat's registered address, and
a From line is easy to forge. The receiving mail server checks the sender (SPF, DKIM,
DMARC) and writes what it found in an `Authentication-Results` header (RFC 8601):

    Authentication-Results: mx.gm.example.org; dkim=none;
        spf=fail smtp.mailfrom=alice@example.org;
        dmarc=fail (p=reject dis=none) header.from=example.org

Only the headers that name our own server (`GM_MAIL_AUTHSERV_ID`, the authserv-id it
writes first) are read: anyone can put an `Authentication-Results` header in a message,
and other servers' verdicts are theirs. Unset (the default), none is read. Our server
must remove any header with our id that arrives from outside (OpenDMARC, OpenDKIM,
rspamd and Postfix's milters do).

The From is forged when our server says `dmarc=fail` for its domain; without a DMARC
verdict, when it says `spf=fail` for the envelope sender's domain or `dkim=fail` for a
signature of that domain (aligned: the From's domain or one above or below it) and no
check of that domain passed. `softfail`, `neutral`, `none`, `temperror` and `permerror`
refuse nothing. A pass grants nothing either: the registered address is still checked.
"""

from __future__ import annotations

import re

from django.conf import settings

from .mime import Mail, _headers

_COMMENT = re.compile(r"\([^()]*\)")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_RESULT = re.compile(r"\s*([A-Za-z0-9_.-]+)(?:\s*/\s*\d+)?\s*=\s*([A-Za-z0-9_-]+)(.*)\Z", re.S)
_PROPERTY = re.compile(r"([A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+)\s*=\s*([^\s;]+)")


def authserv_id() -> str:
    """Our MTA's authserv-id ("" = Authentication-Results are not read)."""
    return str(getattr(settings, "GM_MAIL_AUTHSERV_ID", "") or "").strip().lower()


def results(value: str, ours: str) -> list[tuple[str, str, dict[str, str]]]:
    """(method, result, properties) of one header's value when our server wrote it."""
    text = " ".join(value.split())
    text = _QUOTED.sub('""', text)
    while True:
        shorter = _COMMENT.sub(" ", text)
        if shorter == text:
            break
        text = shorter
    head, *resinfos = text.split(";")
    words = head.split()
    if not words or words[0].lower() != ours:
        return []
    found = []
    for resinfo in resinfos:
        match = _RESULT.match(resinfo)
        if match is None:
            continue
        method, result, rest = match.groups()
        props = {k.lower(): v.strip('"').lower() for k, v in _PROPERTY.findall(rest)}
        found.append((method.lower(), result.lower(), props))
    return found


def _domain(value: str) -> str:
    return value.rsplit("@", 1)[-1].strip("<>.").lower()


def _aligned(domain: str, from_domain: str) -> bool:
    """The same domain, or one a subdomain of the other (DMARC's relaxed alignment,
    without the public-suffix list: "mail.example.org" and "example.org")."""
    return bool(domain) and (domain == from_domain or domain.endswith("." + from_domain)
                             or from_domain.endswith("." + domain))


def forged(mail: Mail) -> str:
    """Why our mail server says the From of `mail` is forged ("dmarc=fail
    header.from=example.org"), or "" when it says nothing of the kind."""
    ours = authserv_id()
    if not ours or "@" not in mail.sender:
        return ""
    values = _headers(mail.message).get("authentication-results")
    if not values:
        return ""
    from_domain = _domain(mail.sender)
    found = [r for _name, value in values for r in results(str(value), ours)]
    dmarc = [(result, props) for method, result, props in found if method == "dmarc"
             and _aligned(_domain(props.get("header.from", from_domain)), from_domain)]
    for result, props in dmarc:
        if result == "fail":
            return f"dmarc=fail header.from={props.get('header.from', from_domain)}"
    if any(result == "pass" for result, _props in dmarc):
        return ""
    checks = []  # (result, what) of the SPF and DKIM checks of the From's domain
    for method, result, props in found:
        if method == "spf":
            sender = props.get("smtp.mailfrom") or props.get("smtp.helo", "")
            if _aligned(_domain(sender), from_domain):
                checks.append((result, f"spf=fail smtp.mailfrom={sender}"))
        elif method == "dkim":
            signer = props.get("header.d") or _domain(props.get("header.i", ""))
            if _aligned(signer, from_domain):
                checks.append((result, f"dkim=fail header.d={signer}"))
    if any(result == "pass" for result, _what in checks):
        return ""
    return next((what for result, what in checks if result == "fail"), "")
