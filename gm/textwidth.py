"""The width of mail text: every line of a mail's text part within 72 columns.

The one rule for it, used by every mail the service writes (gm.mail.compose re-exports
it; gm.accounts' sign-up mail uses it before the mail app is involved), so it sits below
both apps.
"""

from __future__ import annotations

import functools
import textwrap
from collections.abc import Collection

WIDTH = 72


def wrap(text: str, verbatim: Collection[str] = ()) -> str:
    """The text part of a mail with every line within WIDTH columns: a longer line is
    broken at spaces, each piece keeping its indentation and a "> " mark, and never
    inside a word, so an address or a URL stays whole (on a line of its own when it is
    longer than WIDTH by itself); an indented line's continuation hangs two columns
    further in. Lines in `verbatim` are kept as they are (a report's
    tables and boards, which plaintext.render draws wider on purpose). Every text part
    goes through here as its outbox row is written (`outbox.enqueue`, the notices'
    `Mailing.add`, the inbound reply): a text already within WIDTH costs one pass of
    length checks."""
    lines = text.split("\n")
    if all(len(line) <= WIDTH for line in lines):
        return text
    out: list[str] = []
    for line in lines:
        if len(line) <= WIDTH or line in verbatim:
            out.append(line)
        else:
            out += _wrap_line(line)
    return "\n".join(out)


@functools.lru_cache(maxsize=4096)
def _wrap_line(line: str) -> tuple[str, ...]:
    """One line longer than WIDTH, wrapped (see `wrap`). Kept per process: the same long
    lines come back in every notice (the footer's one-click link, one per player and
    kind; an engine's prompt help, the same every turn), and textwrap was most of the
    cost of a notice's text."""
    body = line.lstrip(" ")
    indent = more = line[:len(line) - len(body)]
    if body.startswith("> "):
        indent = more = indent + "> "
        body = body[2:]
    elif indent:  # an indented item (an order, a choice) hangs under its first word
        more = indent + "  "
    pieces = textwrap.wrap(body, WIDTH, initial_indent=indent, subsequent_indent=more,
                           break_long_words=False, break_on_hyphens=False) or [line]
    # A continuation that would start with ">" ("IF hp > 3 ...") reads as a quote when
    # pasted back: it takes the word before it along.
    for i in range(1, len(pieces)):
        rest = pieces[i][len(more):]
        head, _, last = pieces[i - 1].rpartition(" ")
        if rest.startswith(">") and head.strip() and head.strip() != ">":
            pieces[i - 1], pieces[i] = head, f"{more}{last} {rest}"
    return tuple(pieces)
