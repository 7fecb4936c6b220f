"""The notices' text shortcuts give the text the plain code gave: plaintext's inline
patterns compiled once with a fast path for text without markup, ASCII widths counted
directly, a long line's wrap kept per process, a prompt paragraph's too."""

from __future__ import annotations

import re
import textwrap
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.mail import compose, notices, plaintext

GOLDEN = sorted((Path(__file__).resolve().parents[2] / "games").glob("*/golden/*.md"))


def old_inline(text: str) -> str:
    text = re.sub(r"<(https?://[^>\s]+)>", r"\1", text)
    text = re.sub(r"!\[([^\]]*)\]\(([^)\s]*)[^)]*\)", lambda m: m.group(1) or "image", text)
    text = re.sub(r"\[([^\]]+)\]\(([^)\s]+)[^)]*\)",
                  lambda m: m.group(2) if m.group(1) == m.group(2)
                  else f"{m.group(1)} <{m.group(2)}>", text)
    text = re.sub(r"(`+)(.+?)\1", lambda m: m.group(2).strip(), text)
    text = re.sub(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", r"\2", text)
    text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"\1", text)
    text = re.sub(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])", r"\1", text)
    text = re.sub(r"~~(?=\S)(.+?)(?<=\S)~~", r"\1", text)
    text = re.sub(r"<br\s*/?>", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"\\([\\`*_{}\[\]()#+\-.!|>~])", r"\1", text)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"') \
        .replace("&amp;", "&")


def old_width(text: str) -> int:
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def old_wrap(text: str, verbatim=()) -> str:
    lines = text.split("\n")
    if all(len(line) <= compose.WIDTH for line in lines):
        return text
    out: list[str] = []
    for line in lines:
        if len(line) <= compose.WIDTH or line in verbatim:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = more = line[:len(line) - len(body)]
        if body.startswith("> "):
            indent = more = indent + "> "
            body = body[2:]
        elif indent:
            more = indent + "  "
        out += textwrap.wrap(body, compose.WIDTH, initial_indent=indent,
                             subsequent_indent=more, break_long_words=False,
                             break_on_hyphens=False) or [line]
    return "\n".join(out)


def tokens(*pieces: str, size: int) -> st.SearchStrategy[str]:
    """Texts made of these characters and longer pieces."""
    return st.lists(st.sampled_from(pieces), max_size=size).map("".join)


MARKUP = tokens(*"ab 1<>[]()!`*_~\\&;:/.#|-+é漢\u0301", "&lt;", "&amp;", "http://x.y/",
                "<br>", "**", "__", "~~", "](", "<BR/>", size=60)


@settings(max_examples=400, deadline=None)
@given(MARKUP)
def test_inline_is_the_plain_code(text):
    assert plaintext.inline(text) == old_inline(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_widths_are_the_plain_code(text):
    assert plaintext.display_width(text) == old_width(text)


def test_golden_reports_render_as_before(monkeypatch):
    assert GOLDEN
    texts = [path.read_text(encoding="utf-8") for path in GOLDEN]
    ours = [plaintext.render(text) for text in texts]
    monkeypatch.setattr(plaintext, "inline", old_inline)
    monkeypatch.setattr(plaintext, "display_width", old_width)
    assert ours == [plaintext.render(text) for text in texts]


LINES = st.lists(st.one_of(
    tokens(*"ab c-", "  ", "> ", "word ", "http://x.example/" + "u" * 70, size=60),
    st.just("Stop them: http://gm.example/mail/unsubscribe/" + "t" * 80 + "/")), max_size=8)


@settings(max_examples=300, deadline=None)
@given(LINES, st.booleans())
def test_wrap_with_its_kept_lines_is_the_plain_code(lines, verbatim_first):
    text = "\n".join(lines)
    verbatim = set(lines[:1]) if verbatim_first else ()
    assert compose.wrap(text, verbatim) == old_wrap(text, verbatim)
    assert compose.wrap(text, verbatim) == old_wrap(text, verbatim)  # from the cache


@settings(max_examples=200, deadline=None)
@given(tokens(*"ab c\n", "word ", "x" * 80, size=80))
def test_prompt_paragraphs_are_the_plain_code(help_text):
    prompt = {"title": "Orders", "help": help_text}
    lines = notices.render_prompt(prompt)
    expected = ["Orders"]
    for paragraph in help_text.split("\n") if help_text else ():  # no help: no lines
        expected += textwrap.wrap(paragraph, plaintext.WIDTH, break_long_words=False) or [""]
    assert lines == expected and notices.render_prompt(prompt) == expected
