"""The rule for one-line text that other people see: game titles, API token labels.

Such a line is shown inside pages, mail subjects and lists, next to text it does not own.
A bidirectional control character (the embeddings and overrides U+202A-U+202E, the
isolates U+2066-U+2069) is invisible and reorders what follows it, even past the field's
end ("RLO" makes 'Duel [U+202E]txt.exe' read 'Duel exe.txt'); a line break or another
control character breaks the line (a mail subject, a log line). They are refused where the
text enters the service, with the character named, never stripped silently.
"""

from __future__ import annotations

import unicodedata

from .errors import ActionError

BIDI_CONTROLS = frozenset(map(chr, [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]))


def one_line(value: str, what: str) -> str:
    """`value` with its outer white space removed, or ActionError saying why it is refused.

    `what` names the field in the error ("a game title").
    """
    text = (value or "").strip()
    for ch in text:
        if ch in BIDI_CONTROLS:
            raise ActionError(
                f"{what} cannot hold the invisible character U+{ord(ch):04X} "
                f"({unicodedata.name(ch)}), which reorders the text around it: remove it")
        if unicodedata.category(ch) == "Cc":
            kind = "a line break" if ch in "\r\n\x0b\x0c\x85" else \
                f"the control character U+{ord(ch):04X}"
            raise ActionError(f"{what} is one line: it cannot hold {kind}")
    return text
