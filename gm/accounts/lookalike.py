"""Usernames that read like an existing one ("аlice" with a Cyrillic "а" beside "alice").

Usernames are shown to other players, who tell each other apart by them: a look-alike
name could pose as a known player in the thread, in press and in the seat lists. A new
name is compared by its skeleton (Unicode TR 39's idea, on a small table): accents
dropped, compatibility forms folded (NFKD/NFKC), case folded, and the letters of other
scripts that look like Latin ones (Cyrillic, Greek, a few Latin variants), and 0/1,
mapped to those Latin letters. A name whose skeleton is an existing user's is refused.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.db.models.functions import Length

# look-alike -> the Latin letter it passes for (lower case: applied after casefold)
_LOOKS_LIKE = {
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
    "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin variants and digits
    "ı": "i", "ȷ": "j", "ℓ": "l", "ɑ": "a", "ɩ": "i", "ʟ": "l", "0": "o", "1": "l",
}
_TABLE = str.maketrans(_LOOKS_LIKE)


def skeleton(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFKC", bare.casefold().translate(_TABLE)).translate(_TABLE)


def existing_lookalike(name: str) -> str | None:
    """The existing username that `name` reads like (not an exact, case-blind match:
    that one is "taken"), or None. Only names of the same length are read (a look-alike
    swaps letters one for one; NFKC may change the length, so both lengths count)."""
    target = skeleton(name)
    lengths = {len(name), len(unicodedata.normalize("NFKC", name)), len(target)}
    users = get_user_model().objects.annotate(n=Length("username")).filter(n__in=lengths)
    for other in users.values_list("username", flat=True).iterator():
        if other.casefold() != name.casefold() and skeleton(other) == target:
            return other
    return None
