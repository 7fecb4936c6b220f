"""Guides written for people, rendered in the site: the player's and GM's guides
(docs/players.md, docs/gm.md at /help/ and /help/gm/) and a help page per ruleset
(docs/players/<ruleset>.md at /rules/<ruleset>/).

The guides are markdown in the repository so that they read on a code host too. Three
things are added when the site renders them:

* Tables of designed content are generated from the engine's own data files, never
  copied by hand: a line `<!-- table games/<name>/data/<file>.toml <collection> [key=value]:
  field=Header, field=Header -->` becomes a markdown table of that collection (an array of
  tables, a table of tables or of plain values (`key`, `value`), or `*` for the file's
  top-level tables), optionally filtered on one field.
  On a code host the comment is invisible and the text around it points to the site.
* Headings get anchors (`{#order-move}` written in the file, otherwise a slug as code
  hosts make them), and a contents list is built from them.
* Links between the guides point at their pages in the site; a link to a document the
  site does not show keeps its words only.

The result is sanitised with nh3 like every other markdown the site shows.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import markdown as md
import nh3
from django.conf import settings

DOCS = Path(settings.BASE_DIR) / "docs"
GAMES = Path(settings.BASE_DIR) / "games"

_TABLE = re.compile(r"^<!--\s*table\s+(?P<file>\S+)\s+(?P<coll>[\w*]+)(?:\s+(?P<fk>\w+)=(?P<fv>[^:\s]+))?"
                    r"\s*:\s*(?P<cols>.*?)\s*-->\s*$", re.M)
_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "div", "dl", "dt", "em",
         "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "li", "ol", "p", "pre", "span",
         "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul", "nav"}
_ID = {"id"}
_ATTRIBUTES = {"a": {"href", "title", "id"}, "td": {"align"}, "th": {"align"},
               "abbr": {"title"}, "code": {"class"}, "span": {"id"}, "div": {"class"},
               **{f"h{n}": _ID for n in range(1, 7)}}


def slugify(value: str, separator: str = "-") -> str:
    """A heading's anchor as code hosts make it: lower case, punctuation dropped, each
    space a hyphen (tests/docs checks links against the same rule)."""
    value = re.sub(r"<[^>]+>", "", value).strip().lower()
    value = re.sub(r"[^\w\- ]", "", value)
    return value.replace(" ", separator)


def _cell(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_signed(v)}" for k, v in value.items()) or "–"
    if isinstance(value, list | tuple):
        return ", ".join(_cell(v) for v in value) or "–"
    if value is None or value == "":
        return "–"
    if isinstance(value, str):
        value = value.replace("_", " ")  # ids such as spirit_twin read as words
    return str(value).replace("|", "/").replace("\n", " ")


def _signed(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:+d}"
    return _cell(value)


def data_rows(file: str, collection: str, where: tuple[str, str] | None = None
              ) -> list[dict[str, Any]]:
    """The records of a data file's collection: an array of tables; a table of tables
    (each key as the field `key`); a table of plain values (fields `key` and `value`);
    `*` for every top-level table."""
    path = (Path(settings.BASE_DIR) / file).resolve()
    if GAMES.resolve() not in path.parents or path.suffix != ".toml":
        raise ValueError(f"a table may only come from an engine's data file: {file}")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    found: Any = data if collection == "*" else data.get(collection, [])
    if isinstance(found, list):
        rows = [r for r in found if isinstance(r, dict)]
    elif all(isinstance(v, dict) for v in found.values()):
        rows = [{"key": k, **v} for k, v in found.items()]
    elif collection == "*":
        rows = [{"key": k, **v} for k, v in found.items() if isinstance(v, dict)]
    else:  # a table of plain values: one row per key
        rows = [{"key": k, "value": v} for k, v in found.items()]
    if where:
        rows = [r for r in rows if str(r.get(where[0])) == where[1]]
    return rows


def table_markdown(match: re.Match[str]) -> str:
    """One `<!-- table ... -->` line as a markdown table built from the data file."""
    columns = [c.split("=", 1) for c in match["cols"].split(",") if c.strip()]
    columns = [(c[0].strip(), (c[1] if len(c) > 1 else c[0]).strip()) for c in columns]
    where = (match["fk"], match["fv"]) if match["fk"] else None
    rows = data_rows(match["file"], match["coll"], where)
    lines = ["| " + " | ".join(h for _, h in columns) + " |",
             "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row.get(f)) for f, _ in columns) + " |")
    return "\n" + "\n".join(lines) + "\n"


# Where each guide lives in the site; other documents are named but not linked.
def _site_link(target: str) -> str | None:
    path, _, anchor = target.partition("#")
    name = Path(path).name
    hash_ = f"#{anchor}" if anchor else ""
    if not path:
        return hash_
    if name == "players.md" and Path(path).parent.name != "players":
        return "/help/" + hash_
    if name == "gm.md":
        return "/help/gm/" + hash_
    if Path(path).parent.name != "players" and name in (
            "absence.md", "substitutes.md", "notifications.md", "gm-adjudicated.md"):
        return f"/help/{name[:-3]}/" + hash_
    if name == "README.md" and Path(path).parent.parent.name == "games":
        return f"/rules/{Path(path).parent.name}/readme/" + hash_  # an engine's README
    if Path(path).parent.name == "players" and name.endswith(".md"):
        return f"/rules/{name[:-3]}/" + hash_
    return None


_LINK = re.compile(r"\[(?P<text>[^\]]+)\]\((?P<target>(?!https?:|mailto:|/)[^)\s]+)\)")


def _relink(text: str) -> str:
    def one(m: re.Match[str]) -> str:
        url = _site_link(m["target"])
        return f"[{m['text']}]({url})" if url is not None else m["text"]
    return _LINK.sub(one, text)


@dataclass(frozen=True)
class Guide:
    title: str
    html: str
    toc: str
    anchors: frozenset[str]
    order_sections: tuple[tuple[str, str], ...] = ()  # (anchor, short label) per order


@lru_cache(maxsize=32)
def render_guide(relpath: str) -> Guide | None:
    """docs/<relpath> rendered for the site, or None when there is no such guide."""
    path = DOCS / relpath
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    title_match = re.search(r"^# (.+)$", text, re.M)
    title = title_match[1].strip() if title_match else relpath
    text = re.sub(r"^# .+\n", "", text, count=1, flags=re.M)  # the page's own h1
    # a hand-written contents list (for code hosts): the page builds its own
    text = re.sub(r"^## Contents\n.*?(?=^## )", "", text, count=1, flags=re.M | re.S)
    text = _TABLE.sub(table_markdown, text)
    text = _relink(text)
    conv = md.Markdown(extensions=["tables", "fenced_code", "sane_lists", "attr_list",
                                   "toc"],
                       extension_configs={"toc": {"slugify": slugify, "toc_depth": "2"}})
    html = conv.convert(text)
    # wide tables scroll inside their card on a phone rather than widening the page
    html = html.replace("<table>", '<div class="scroll"><table>').replace(
        "</table>", "</table></div>")
    clean = nh3.clean(html, tags=_TAGS, attributes=_ATTRIBUTES,
                      url_schemes={"http", "https", "mailto"}, link_rel=None)
    toc = nh3.clean(conv.toc, tags={"div", "ul", "li", "a"}, attributes={"a": {"href"}},
                    link_rel=None)
    anchors = frozenset(re.findall(r'\sid="([^"]+)"', clean))
    # the order sections, listed compactly under the contents (a phone reaches the order
    # it needs without scrolling through a long contents list)
    sections = tuple((m[1], re.sub(r"<[^>]+>", "", m[2]).split(":")[0].strip())
                     for m in re.finditer(r'<h3 id="(order-[\w-]+)">(.*?)</h3>', clean))
    return Guide(title, clean, toc, anchors, sections)


def order_anchors(ruleset: str) -> list[str]:
    """The order words that have a section of their own in a ruleset's help
    (`order-<word>` anchors): the game page links the line being written to it."""
    guide = render_guide(f"players/{ruleset}.md")
    if guide is None:
        return []
    return sorted(a[len("order-"):].upper() for a in guide.anchors if a.startswith("order-"))
