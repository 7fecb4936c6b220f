"""From a message body to the orders: HTML to text, quoted replies and signatures off.

Quote and signature detection is mail-parser-reply's (client headers like "On ... wrote:"
and Outlook's "From: ... Sent:" in many languages, "Sent from my iPhone", `--`); the
order grammar's own `order_lines` rules (END, `>`, `--`) apply after it in the engine.
HTML mail loses the quoted part by structure (Gmail's gmail_quote, Apple's
blockquote type=cite, Outlook's divRplyFwdMsg), not by guessing at text.
"""

from __future__ import annotations

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
                  ("div", "id", "mail-editor-reference-message-container")}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.skip = 0
        self.quote = 0
        self.stopped = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.stopped:
            return
        values = {(k, (v or "").lower()) for k, v in attrs}
        for mtag, attr, value in _QUOTE_MARKERS:
            if tag == mtag and any(k == attr and value in v.split() + [v] for k, v in values):
                self.stopped = True  # everything from here on is the quoted thread
                return
        if tag == "blockquote":
            self.quote += 1
        elif tag in _SKIP:
            self.skip += 1
        elif tag == "hr" and not self.quote:
            self.out.append("\n")
        if tag in _BLOCKS:
            self.out.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "blockquote" and self.quote:
            self.quote -= 1
        elif tag in _SKIP and self.skip:
            self.skip -= 1
        if tag in _BLOCKS:
            self.out.append("\n")

    def handle_data(self, data: str) -> None:
        if not (self.stopped or self.skip or self.quote):
            self.out.append(re.sub(r"[ \t\r\n]+", " ", data))


def html_to_text(html: str) -> str:
    """Readable text of an HTML body, without the quoted thread below it."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    lines = [line.strip().replace("\xa0", " ") for line in "".join(parser.out).split("\n")]
    text = "\n".join(lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


@dataclass
class Stripped:
    orders: str  # what goes to the order parser
    rest: str  # what was cut off: quotes, signature, anything after END


def strip_reply(text: str) -> Stripped:
    """Split a body into the player's new text and the rest (quotes, signature)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\xa0", " ")
    normalised = "\n".join(line.strip() for line in text.split("\n"))
    message = ReplyMessage(text=text, languages=list(LANGUAGES), keep_hyphen_lists=True).read()
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
