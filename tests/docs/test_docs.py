"""The documentation is checked like code: README.md and everything under docs/.

* Every relative link points at a file that exists, and every `#anchor` at a heading
  (slugged as code hosts do, or an explicit `{#id}`) or an `id="..."` of its target.
  Only links that are in the files are checked: a guide another branch adds later is
  checked once it is linked.
* Commands: the lines starting with `$ ` in ```console blocks are meant to be run. Each
  must match the allowlist below (safe, quick, no network, no server left running) and
  exit 0. The README's quick start (`make run`, `make test` in its ```sh block) is
  checked with `make -n`, which proves the targets exist without running a server.
* Every `<!-- table ... -->` line of the players' help names an engine data file and
  fields that its records have (gm.web.playerdocs renders them).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^(```+|~~~+)\s*([\w-]*)\s*\n(.*?)^\1\s*$", re.M | re.S)
LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
ALLOWED = [
    re.compile(r"^\.venv/bin/python manage\.py [a-z_]+ --help$"),
    re.compile(r"^\.venv/bin/python -m games\.core\.verify --help$"),
    re.compile(r"^\.venv/bin/python -m pytest -q --co [\w/.:-]+ -p no:cacheprovider$"),
    re.compile(r"^\.venv/bin/ruff check [\w/.-]+$"),
    re.compile(r"^\.venv/bin/lint-imports$"),
]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def _prose(text: str) -> str:
    """The text without fenced blocks and inline code (links there are examples)."""
    text = FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    from gm.web.playerdocs import slugify

    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # link text only
    return slugify(heading.replace("`", "").replace("*", ""))


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"^#{1,6}\s+(.*?)\s*$", line)
        if not m:
            continue
        explicit = re.search(r"\{#([\w-]+)\}\s*$", m[1])
        if explicit:
            found.add(explicit[1])
            continue
        base = slug(m[1])
        n = counts.get(base, 0)
        counts[base] = n + 1
        found.add(base if n == 0 else f"{base}-{n}")
    found.update(re.findall(r'\bid="([\w-]+)"', text))
    return found


def links() -> list[tuple[Path, str]]:
    out = []
    for doc in DOCS:
        prose = _prose(doc.read_text(encoding="utf-8"))
        for target in LINK.findall(prose) + IMAGE.findall(prose):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
                continue  # external, or a path of the running site
            out.append((doc, target))
    return out


def test_there_are_docs_and_links_to_check():
    assert (ROOT / "docs").is_dir() and len(DOCS) > 5
    assert len(links()) > 20


@pytest.mark.parametrize("doc,target", links(), ids=lambda v: v if isinstance(v, str)
                         else _rel(v))
def test_every_relative_link_resolves(doc, target):
    path, _, anchor = target.partition("#")
    dest = (doc.parent / path).resolve() if path else doc
    assert dest.exists(), f"{_rel(doc)}: {target} -> no such file"
    assert ROOT in dest.parents or dest == ROOT, f"{_rel(doc)}: {target} leaves the repository"
    if anchor and dest.suffix == ".md":
        assert anchor in anchors(dest), (
            f"{_rel(doc)}: {target} -> no heading #{anchor} in {_rel(dest)}")


def test_the_anchor_rule_matches_code_hosts():
    assert slug("Exactly once: each guarantee and its limits") == (
        "exactly-once-each-guarantee-and-its-limits")
    assert slug("`EQUIP`: choose your kit") == "equip-choose-your-kit"
    assert slug("Players' help") == "players-help"


def commands() -> list[tuple[Path, str]]:
    out = []
    for doc in DOCS:
        for _, lang, body in FENCE.findall(doc.read_text(encoding="utf-8")):
            if lang == "console":
                out += [(doc, line[2:].strip()) for line in body.splitlines()
                        if line.startswith("$ ")]
    return out


def test_console_blocks_hold_commands():
    assert len(commands()) >= 8


def _argv(command: str) -> list[str]:
    argv = shlex.split(command)
    if argv[0] == ".venv/bin/python":
        argv[0] = sys.executable
    elif argv[0] == ".venv/bin/ruff":
        ruff = Path(sys.executable).with_name("ruff")
        argv[0] = str(ruff) if ruff.exists() else (shutil.which("ruff") or "ruff")
    return argv


@pytest.mark.parametrize("doc,command", commands(),
                         ids=lambda v: v if isinstance(v, str) else _rel(v))
def test_every_console_command_is_allowed_and_runs(doc, command):
    assert any(rule.match(command) for rule in ALLOWED), (
        f"{_rel(doc)}: `{command}` is not on the allowlist of commands the docs may give "
        "as runnable (tests/docs/test_docs.py); put it in a ```sh block if it must not run")
    env = {**os.environ}
    if not env.get("SECRET_KEY"):
        env.setdefault("DEBUG", "1")  # manage.py refuses to start with neither
    done = subprocess.run(_argv(command), cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, f"{_rel(doc)}: `{command}` exited {done.returncode}:\n" + (
        done.stdout[-2000:] + done.stderr[-2000:])


def test_the_quick_start_commands_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line.split("#")[0].strip() for _, lang, body in FENCE.findall(readme)
             if lang == "sh" for line in body.splitlines() if line.startswith("make ")]
    assert lines[:2] == ["make run", "make test"], lines
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    for line in lines:
        done = subprocess.run(["make", "-n", *line.split()[1:]], cwd=ROOT, capture_output=True,
                              text=True, timeout=60, env={**os.environ, "MAKEFLAGS": ""})
        assert done.returncode == 0, f"`{line}`: {done.stderr}"


def test_the_readme_is_a_front_door():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    assert IMAGE.search(readme), "the README shows a screenshot"
    operators = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")
    mail = operators[operators.index("## Mail set-up"):]
    first = mail.split("\n\n")[1]
    assert "GM_MAIL_AUTHSERV_ID" in first and "forged" in first.lower()


def tables() -> list[tuple[Path, str]]:
    from gm.web.playerdocs import _TABLE

    return [(doc, m[0]) for doc in DOCS for m in _TABLE.finditer(doc.read_text("utf-8"))]


def test_players_help_tables_come_from_data_files():
    from gm.web.playerdocs import _TABLE, data_rows

    found = tables()
    assert len(found) >= 10
    for doc, line in found:
        m = _TABLE.match(line)
        rows = data_rows(m["file"], m["coll"], (m["fk"], m["fv"]) if m["fk"] else None)
        assert rows, f"{_rel(doc)}: {line} has no rows"
        for field in (c.split("=")[0].strip() for c in m["cols"].split(",")):
            assert any(field in r for r in rows), f"{_rel(doc)}: no field {field!r} in {line}"
