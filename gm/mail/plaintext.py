"""Markdown reports as plain text that reads like a judge's report in a mail client.

The engines write their reports in markdown; the HTML part of a report mail is that
markdown rendered, and the text part is this module's: headings underlined (`=` for
the first level, `-` for the second, `~` below), pipe tables aligned in fixed width
with a rule under the header row, lists with hanging indents, fenced blocks (boards)
kept verbatim, and none of markdown's markup characters (`#`, `**`, `_`, backticks,
`|`, link brackets). Running text is wrapped at 72 columns; table rows and fenced
blocks are never wrapped (a table cut in two reads worse than a long line).

Only the markdown the engines write is handled (CommonMark's block structure is not
reimplemented): ATX headings, paragraphs, `-`/`*`/`+`/`1.` lists nested by indent,
pipe tables, fenced code, block quotes, thematic breaks, emphasis, inline code, links
and images, backslash escapes.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata

WIDTH = 72
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ITEM = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")
_UNDERLINES = {1: "=", 2: "-"}


def display_width(text: str) -> int:
    """Columns `text` takes in a fixed-width font (wide East Asian characters count 2,
    combining marks 0), so table columns line up beyond ASCII."""
    if text.isascii():  # no wide or combining character: one column each (most cells)
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)[^)]*\)")
_CODE = re.compile(r"(`+)(.+?)\1")
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_EM_STAR = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])")
_EM_UNDERSCORE = re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
# every pattern above, and the entities, needs one of these characters to match: a text
# without any is its own plain text (most table cells and many lines of a report)
_MARKUP = frozenset("<[`*_~\\&")


def inline(text: str) -> str:
    """Inline markdown to plain words: emphasis and code marks dropped, links as
    "text <url>" (or the bare url when the text is the url), images as their alt text."""
    if _MARKUP.isdisjoint(text):
        return text
    text = _AUTOLINK.sub(r"\1", text)
    text = _IMAGE.sub(lambda m: m.group(1) or "image", text)
    text = _LINK.sub(lambda m: m.group(2) if m.group(1) == m.group(2)
                     else f"{m.group(1)} <{m.group(2)}>", text)
    text = _CODE.sub(lambda m: m.group(2).strip(), text)
    text = _STRONG.sub(r"\2", text)
    text = _EM_STAR.sub(r"\1", text)
    text = _EM_UNDERSCORE.sub(r"\1", text)
    text = _STRIKE.sub(r"\1", text)
    text = _BREAK.sub(" ", text)
    text = _ESCAPE.sub(r"\1", text)
    # the entities markdown text uses for the characters HTML would read as markup
    # (a game's title in a report heading: gm.play.actions.compose_report)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') \
        .replace("&amp;", "&")


def _wrap(text: str, first: str = "", rest: str = "", width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|") and not row.endswith("\\|"):
        row = row[:-1]
    return [inline(c.strip()).replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def table(rows: list[str]) -> list[str]:
    """Pipe-table lines (header, rule, body) as aligned columns; numbers right-aligned
    where the rule asks for it (`---:`)."""
    header = _cells(rows[0])
    align = [c.strip() for c in rows[1].strip().strip("|").split("|")]
    right = [a.endswith(":") and not a.startswith(":") for a in align]
    body = [_cells(r) for r in rows[2:]]
    n = max(len(header), *(len(r) for r in body)) if body else len(header)
    grid = [r + [""] * (n - len(r)) for r in [header, *body]]
    widths = [max(display_width(r[i]) for r in grid) for i in range(n)]
    right += [False] * (n - len(right))

    def line(cells: list[str]) -> str:
        parts = []
        for i, cell in enumerate(cells):
            pad = " " * (widths[i] - display_width(cell))
            parts.append(pad + cell if right[i] else cell + pad)
        return "  ".join(parts).rstrip()

    out = [line(grid[0])]
    out.append("  ".join("-" * w for w in widths).rstrip() if any(widths) else "")
    out += [line(r) for r in grid[1:]]
    return out


def render(markdown: str, width: int = WIDTH) -> str:
    """The plain text of `markdown` (see the module docstring)."""
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    para: list[str] = []

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    def flush() -> None:
        if para:
            out.extend(_wrap(inline(" ".join(p.strip() for p in para)), width=width))
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            blank()
            mark = fence.group(1)
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(mark):
                out.append(lines[i].rstrip())
                i += 1
            i += 1
            blank()
            continue
        if not line.strip():
            flush()
            blank()
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            blank()
            level, text = len(heading.group(1)), inline(heading.group(2))
            out.extend(_wrap(text, width=width))
            out.append(_UNDERLINES.get(level, "~") * min(width, max(
                display_width(x) for x in _wrap(text, width=width))))
            out.append("")
            i += 1
            continue
        if _RULE.match(line) and not para:
            blank()
            out.append("-" * width)
            out.append("")
            i += 1
            continue
        if "|" in line and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]) \
                and "-" in lines[i + 1]:
            flush()
            blank()
            rows = [line, lines[i + 1]]
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                rows.append(lines[i])
                i += 1
            out.extend(table(rows))
            out.append("")
            continue
        item = _ITEM.match(line)
        if item:
            flush()
            indent = len(item.group(1).expandtabs(4))
            depth = indent // 2
            marker = item.group(2)
            bullet = "-" if marker in "-*+" else marker
            text = [item.group(3)]
            i += 1
            while i < len(lines) and lines[i].strip() and not _ITEM.match(lines[i]) \
                    and not _HEADING.match(lines[i]) and not _FENCE.match(lines[i]) \
                    and len(lines[i]) - len(lines[i].lstrip()) > indent:
                text.append(lines[i].strip())
                i += 1
            lead = "  " * depth
            out.extend(_wrap(inline(" ".join(text)), f"{lead}{bullet} ",
                             lead + " " * (len(bullet) + 1), width=width))
            continue
        if line.lstrip().startswith(">"):
            flush()
            quoted = []
            while i < len(lines) and lines[i].lstrip().startswith(">"):
                quoted.append(lines[i].lstrip()[1:].strip())
                i += 1
            out.extend("  " + q if q else "" for q in
                       render("\n".join(quoted), width=width - 2).split("\n"))
            continue
        para.append(line)
        i += 1
    flush()
    while out and out[-1] == "":
        out.pop()
    while out and out[0] == "":
        out.pop(0)
    return "\n".join(out) + "\n"
