"""From a message body to the orders: HTML to text, quoted replies and signatures off.

Quote and signature detection is mail-parser-reply's (client headers like "On ... wrote:"
and Outlook's "From: ... Sent:" in many languages, "Sent from my iPhone", `--`); the
order grammar's own `order_lines` rules (END, `>`, `--`) apply after it in the engine.
HTML mail loses the quoted part by structure (Gmail's gmail_quote, Apple's
blockquote type=cite, Outlook's divRplyFwdMsg, Thunderbird's moz-cite-prefix and
moz-signature), not by guessing at text; Thunderbird's quote is skipped rather than cut
at, so a reply written below it is read.

A reply written below the quote (bottom-posting: Thunderbird and mutt in plain text,
Apple Mail with the notice quoted first) starts with the quote: `leading_quote` finds it
(the "> " lines, with the attribution line above them, "On ... wrote:" in the languages
below, wrapped over up to three lines) and the orders are read from the first line after
it; a later quoted line (an interleaved reply: quote, orders, quote, more text) ends
them, like a quote below top-posted orders. Only a text whose first line starts with
">", or whose first lines are followed by one, is looked at: one string test otherwise.

A forward ("---------- Forwarded message ---------", "Begin forwarded message:",
Thunderbird's "-------- Forwarded Message --------", their translations) ends the
player's own text: what follows was written by someone else, so it is never read as
orders, even when it looks like orders.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from html.parser import HTMLParser

from mailparser_reply.parser import EmailMessage as ReplyMessage

LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "pl", "pt"]
_BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table",
           "ul", "ol", "section", "article", "header", "footer"}
_SKIP = {"script", "style", "head", "title"}
_QUOTE_MARKERS = {("div", "class", "gmail_quote"), ("div", "id", "divrplyfwdmsg"),
                  ("div", "id", "appendonsend"), ("div", "class", "yahoo_quoted"),
                  ("div", "id", "mail-editor-reference-message-container"),
                  ("pre", "class", "moz-signature"),
                  ("div", "class", "moz-forward-container"),
                  ("div", "class", "moz-signature")}
# Skipped, not stopped at: Thunderbird's "On ..., X wrote:" line above a quote, so a
# reply written below the quote (bottom-posting) is still read.
_SKIP_MARKERS = {("div", "class", "moz-cite-prefix")}
_FORWARD_LINE = re.compile(
    r"^[\s>]*(?:-{2,}\s*(?:forwarded message|weitergeleitete nachricht|"
    r"message transf[ée]r[ée]|mensaje reenviado|messaggio inoltrato|doorgestuurd bericht|"
    r"vidarebefordrat meddelande|wiadomo[sś][cć] przekazana|mensagem encaminhada)\s*-{2,}|"
    r"begin forwarded message:|anfang der weitergeleiteten nachricht:|"
    r"d[ée]but du message r[ée]exp[ée]di[ée]\s*:|inicio del mensaje reenviado:)\s*$",
    re.IGNORECASE)
# "On <date>, <name> wrote:" above a quote, as the clients of LANGUAGES write it in plain
# text (Gmail, Thunderbird, Apple Mail, mutt...): matched on the lines before the first
# "> " line, joined, and only when such a line follows them.
_ATTRIBUTION = re.compile(
    r"^.*\b(?:wrote|a\s+[ée]crit|schrieb|escribi[óo]|ha\s+scritto|schreef|skrev|escreveu|"
    r"napisa[łl])\b.*:\s*$", re.IGNORECASE)
# Any other attribution a client can be set to write ("* GM <gm@...> [2026-12-01 14:00]:",
# mutt's popular custom form): a line ending in ":" that names an address, right above
# the quote. A player's own line (an order, "here you go:") names no address.
_ADDRESS_ATTRIBUTION = re.compile(r"^.*[\w.+-]+@[\w-]+(?:\.[\w-]+)+.*:\s*$")
_ATTRIBUTION_LINES = 3
# How an attribution's first line starts, as clients write it ("On <date>, <name> wrote:",
# "Le ...", "Am ...", "El ...", "Il giorno ...", "Op ...", "Den ...", "Em ...", Polish
# Gmail's "wt., 1 gru 2026 ...", Thunderbird's "01/12/2026 14:00, GM wrote:", mutt's
# "* GM <...> [date]:"). Case matters: orders are written "ON"/"on", not "On". With it,
# an attribution glued to the player's last line (no blank line between) is told apart
# from that line: without it, only a blank line above says where an attribution starts.
_ATTRIBUTION_START = re.compile(
    r"^\s*(?:(?:On|Le|Am|El|Il|Op|Den|Em|Dnia|W dniu|Quoting|Zitat von|Citando)\s|\*\s|\d|"
    r"(?:pon|wt|śr|czw|pt|sob|niedz)\.,)")
# The one line a phone or webmail client adds under what its user wrote ("Sent from my
# iPhone", "Sent with Proton Mail secure email.", "Get Outlook for Android"): the end of
# the player's text, like a "-- " signature (mail-parser-reply knows some, not all; and
# "Sent ..." is one slip from an order word such as SET, so it must not reach the orders).
_CLIENT_SIGNATURE = re.compile(
    r"^\s*(?:sent (?:from|with|via|using) (?:my\b|proton\s?mail|yahoo mail|outlook|aol|"
    r"mail for windows|zoho|fastmail|tuta|gmx|web\.de|samsung|k-9|thunderbird)|"
    r"get outlook for (?:ios|android|mac|windows)|envoy[ée] (?:de|depuis) mon|"
    r"von meinem .{1,40} gesendet|enviado desde mi|inviato da(?:l mio)? |"
    r"verzonden (?:vanaf|met) mijn|skickat fr[åa]n min|wys[łl]ane z (?:mojego|aplikacji))",
    re.IGNORECASE)
_FORWARD_SUBJECT = re.compile(r"^\s*(?:\[[^\]]*\]\s*)?(?:fwd?|fw|wg|tr|rv|enc|doorst|vs|vb)\s*:",
                              re.IGNORECASE)
# What autoresponders put first in their subject (Outlook's "Automatic reply:" in its
# languages, "Auto-Reply:", "Out of Office:", webmailers' "Abwesenheitsnotiz",
# "Réponse automatique"...): the only sign left by those that set none of the headers
# `mime.loop_reason` knows (Auto-Submitted, X-Autoreply, Precedence). A reply written by
# a person starts "Re:" (or its translations) and never matches.
_AUTO_REPLY_SUBJECT = re.compile(
    r"^\s*(?:(?:\[[^\]]*\]\s*)?(?:automatic reply|auto[- ]?reply|auto[- ]?response|"
    r"autoresponder|automated reply|out of (?:the )?office(?: auto ?reply)?|"
    r"vacation (?:reply|response)|away from (?:the )?office|"
    r"abwesenheitsnotiz|automatische antwort|abwesenheitsmeldung|"
    r"r[ée]ponse automatique|absen(?:t|te|ce) du bureau|respuesta autom[áa]tica|"
    r"fuera de la oficina|risposta automatica|fuori ufficio|automatisch antwoord|"
    r"afwezigheidsmelding|automatiskt svar|autosvar|automatyczna odpowied[źz]|"
    r"resposta autom[áa]tica|fora do escrit[óo]rio))(?=\s*(?::|$|-|\(|until\b|from\b|"
    r"bis\b|jusqu|hasta\b|fino\b|tot\b|till\b|do\b|at[ée]\b|\[|re\b))",
    re.IGNORECASE)
_FORWARD_HTML = re.compile(r"moz-forward-container|forwarded message|begin forwarded message",
                           re.IGNORECASE)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.quote = 0
        self.stopped = False
        self.forwarded = False
        self.skipped_divs = 0  # depth inside a div of _SKIP_MARKERS

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        values = {(k, (v or "").lower()) for k, v in attrs}
        for mtag, attr, value in _QUOTE_MARKERS:
            if tag == mtag and any(k == attr and value in v.split() + [v] for k, v in values):
                self.stopped = True  # everything from here on is the quoted thread
                self.forwarded = value == "moz-forward-container"
                return
        if tag == "div" and (self.skipped_divs or any(
                tag == mtag and any(k == attr and value in v.split() for k, v in values)
                for mtag, attr, value in _SKIP_MARKERS)):
            self.skipped_divs += 1
        if tag == "blockquote":
            self.quote += 1
        elif tag in _SKIP:
            self.skip += 1
        elif tag == "hr" and not self.quote:
            self.out.append("\n")
        if tag in _BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self.skipped_divs:
            self.skipped_divs -= 1
        if tag == "blockquote" and self.quote:
            self.quote -= 1
        elif tag in _SKIP and self.skip:
            self.skip -= 1
        if tag in _BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if self.stopped and not self.forwarded and _FORWARD_HTML.search(data):
            self.forwarded = True  # Gmail puts its forward line inside gmail_quote
        if not (self.stopped or self.skip or self.quote or self.skipped_divs):
            self.out.append(re.sub(r"[ \t\r\n]+", " ", data))


def html_to_text(html: str) -> str:
    """Readable text of an HTML body, without the quoted thread below it. A forward
    found in the cut part leaves its marker line, so `strip_reply` can say so."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [line.strip().replace("\xa0", " ") for line in "".join(parser.out).split("\n")]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    if parser.forwarded:
        text += "\n\n" + FORWARD_MARK
    return text


FORWARD_MARK = "---------- Forwarded message ---------"


def is_forward_subject(subject: str) -> bool:
    """"Fwd:", "FW:", "WG:", "TR:"... (a forward in Outlook shows only there)."""
    return bool(_FORWARD_SUBJECT.match(subject or ""))


def is_auto_reply_subject(subject: str) -> bool:
    """"Automatic reply: ...", "Out of office until ...", "Abwesenheitsnotiz: ...",
    "Réponse automatique : ..." (an autoresponder that sets no header says so only
    there)."""
    return bool(_AUTO_REPLY_SUBJECT.match(subject or ""))


# Characters that reach order text from phones, word processors and web pages and that
# nobody means as part of an order: invisible ones (zero-width spaces and joiners, a
# byte-order mark, soft hyphens, direction marks and embeddings), typographic dashes (a
# pasted "DEATH–WARRIOR", "2–H") and the other spaces (narrow no-break, ideographic...).
_ORDER_TEXT = {
    **dict.fromkeys(map(ord, "\u00ad\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b"
                             "\u202c\u202d\u202e\u2060\u2061\u2062\u2063\u2064\u2066"
                             "\u2067\u2068\u2069\ufeff"), None),
    **{ord(c): "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"},
    **{ord(c): " " for c in "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                            "\u2007\u2008\u2009\u200a\u202f\u205f\u3000"},
}


def order_text(text: str) -> str:
    """A mail's text as the order parser should see it (see _ORDER_TEXT): a line that
    looks right in the player's mail client reads as it looks. Orders only: press keeps
    its dashes."""
    return text.translate(_ORDER_TEXT)


@dataclass
class Stripped:
    orders: str  # what goes to the order parser
    rest: str  # what was cut off: quotes, signature, anything after END
    forwarded: bool = False  # a forwarded message was cut off


def _quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def leading_quote(lines: list[str]) -> int:
    """How many of `lines` are a quote the reply starts with (bottom-posting): blank
    lines, an optional attribution line ("On ... wrote:", up to three lines), then the
    "> " lines and the blank lines among and after them. 0 when the text does not start
    with a quote."""
    n = len(lines)
    i = 0
    while i < n and not lines[i].strip():
        i += 1
    if i == n:
        return 0
    if not _quoted(lines[i]):
        head = i
        while i < n and i - head < _ATTRIBUTION_LINES and lines[i].strip() \
                and not _quoted(lines[i]):
            i += 1
        j = i
        while j < n and not lines[j].strip():
            j += 1
        # The lines above the quote must be the attribution and nothing else: an
        # attribution glued below the player's orders ("ADD 3" / "On ... wrote:") is
        # a top-posted reply, whose orders are read (`_attribution_above`).
        if j == n or not _quoted(lines[j]) or _attribution_head(lines, head, i) != head:
            return 0
        i = j
    while i < n and (not lines[i].strip() or _quoted(lines[i])):
        i += 1
    return i


def _is_attribution(said: str) -> bool:
    return bool(_ATTRIBUTION.match(said) or _ADDRESS_ATTRIBUTION.match(said))


def _attribution_head(lines: list[str], top: int, end: int, *,
                      blank_at_top: bool = True) -> int | None:
    """Where an attribution that ends at line `end` (exclusive: the quote, or the blank
    lines above it, follow) starts, no higher than `top`; None when those lines are none.

    Up to three lines. One whose first line starts like an attribution
    (_ATTRIBUTION_START) is taken, the longest such: so an attribution glued to the
    player's last order ("MOVE EAST" / "On Tue, 1 Dec 2026 at 10:00, GM <...> wrote:")
    is told apart from it, and a wrapped one ("On ..., GM <" / "play+...> wrote:") is
    taken whole. Else the shortest with a blank line (or `top`, when `blank_at_top`)
    above it."""
    started = blank = None
    for size in range(1, _ATTRIBUTION_LINES + 1):
        head = end - size
        if head < top or not lines[head].strip():
            break
        if not _is_attribution(" ".join(line.strip() for line in lines[head:end])):
            continue
        if _ATTRIBUTION_START.match(lines[head]):
            started = head
        elif blank is None and (not lines[head - 1].strip() if head > top else
                                blank_at_top and head == top):
            blank = head
    return started if started is not None else blank


def _attribution_above(lines: list[str], quote: int) -> int:
    """Where the quote starting at line `quote` really starts: at its attribution when
    the lines just above it (up to three, then blank lines) are one ("Le ... a" /
    "écrit :", as Gmail wraps it in a top-posted reply; "On ... wrote:" right under the
    last order, with no blank line between), so that the attribution goes with the
    quote and a word of it (a name) is never read as an order. An attribution that
    does not start like one (_ATTRIBUTION_START) needs a blank line above it, or the
    player's own last line could be taken for its start: the quote then starts where it
    did."""
    end = quote
    while end > 0 and not lines[end - 1].strip():
        end -= 1
    head = _attribution_head(lines, 0, end, blank_at_top=False)
    return quote if head is None else head


def strip_reply(text: str, *, later_quote_ends: bool = True) -> Stripped:
    """Split a body into the player's new text and the rest (quotes, signature, and a
    forwarded message with everything after it).

    A quote the text starts with is skipped (the reply is below it); after it, the first
    quoted line ends the player's text when `later_quote_ends` (orders, which the order
    grammar ends there too: an interleaved reply's text after a second quote is not read,
    it is listed back, and it does not count towards the order-size limit), else the
    remainder is kept whole (press, which drops the quoted lines itself). The rest lists
    what follows the player's text first, then the skipped quote."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    lines = text.split("\n")
    skipped = ""
    if lines and (_quoted(lines[0]) or any(_quoted(line) for line in
                                           lines[1:_ATTRIBUTION_LINES + 3])):
        start = leading_quote(lines)
        if start:
            skipped = "\n".join(line.strip() for line in lines[:start]).strip()
            lines = lines[start:]
            text = "\n".join(lines)
    cut = ""  # what follows the player's text: a forward, or a quote (orders)
    forwarded = False
    for i, line in enumerate(lines):
        if _FORWARD_LINE.match(line):
            text, forwarded = "\n".join(lines[:i]), True
            cut = "\n".join(lines[i:]).strip()
            break
        if later_quote_ends and _quoted(line):
            i = _attribution_above(lines, i)
            text, cut = "\n".join(lines[:i]), "\n".join(lines[i:]).strip()
            break
        if _CLIENT_SIGNATURE.match(line):
            text, cut = "\n".join(lines[:i]), "\n".join(lines[i:]).strip()
            break
    stripped = _strip(text)
    if cut or skipped:
        rest = "\n".join(p for p in (stripped.rest, cut, skipped) if p)
        return Stripped(stripped.orders, rest, forwarded=forwarded)
    return stripped


@functools.cache
def _reply_patterns() -> dict[str, re.Pattern[str]]:
    """mail-parser-reply's three patterns for our languages, built once: it builds them
    again from its tables for every message (about half its time), and they depend on
    nothing but the languages and `keep_hyphen_lists`."""
    probe = ReplyMessage(text="", languages=list(LANGUAGES), keep_hyphen_lists=True)
    return {"_header_regex": probe.HEADER_REGEX, "_disclaimers_regex": probe.DISCLAIMERS_REGEX,
            "_signature_regex": probe.SIGNATURE_REGEX}


def _strip(text: str) -> Stripped:
    normalised = "\n".join(line.strip() for line in text.split("\n"))
    message = ReplyMessage(text=text, languages=list(LANGUAGES), keep_hyphen_lists=True,
                           **_reply_patterns()).read()
    kept = message.replies[0].body if message.replies else ""
    lines = kept.split("\n")
    for i, line in enumerate(lines):
        if line.strip().upper() == "END":
            lines = lines[:i]
            break
    orders = "\n".join(lines).strip("\n")
    start = normalised.find(orders) if orders else 0
    rest = normalised[start + len(orders):] if start >= 0 else ""
    rest = re.sub(r"^\s*END\s*$", "", rest, count=1, flags=re.MULTILINE | re.IGNORECASE)
    return Stripped(orders=orders, rest=rest.strip())
