"""Every policy line of the foreign specs is read as its author meant, or is a documented miss.

The specs in tests/fixtures/foreign-specs/ (copied verbatim) were written by someone who
never saw this code; each `expect.yaml` lists, per step, the lines that carry a policy
and what they mean, in the neutral format of the phrasing corpus. Most of these specs
only parse as steps once steps written as numbered lists, tables, stage headings and
prose runbooks are read (issue 22), so the policy lines are read here with the readers
the spec reader uses for them, at the level they work without steps:

    a sentence or bullet  the sentence reader, on the sentences the splitter cuts from
                          the paragraph or bullet holding the line
    an Error Recovery row the table reader (its columns, its step or catch-all)
    a steps table's row   its Max Attempts cell, as the `max attempts` label
    a YAML key            the YAML reader of that key

Each reading is compared with the meaning through the corpus test's adapter (the
plan's policy model). Where a sentence holds two policies the author lists apart,
each meaning must be part of the sentence's reading. `MISSES` documents the lines
that are read differently, each with why and with the warning that reports it, so
nothing is dropped silently; `test_no_policy_line_is_dropped_silently` checks every
line of every spec.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt
from markdown_it.tree import SyntaxTreeNode
from test_policy_corpus import Policy, _same_fallback, actual, expected
from yaml.nodes import MappingNode, SequenceNode

from orchestrator.spec.blocks import Bullet, Para, Table, read_blocks
from orchestrator.spec.effect import effect_of, fallback_of, retry_of
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.prose import sentences
from orchestrator.spec.recovery_section import _row, table_columns
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_node import NodeReader

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "foreign-specs"
SPECS = sorted(p for p in ROOT.iterdir() if (p / "expect.yaml").is_file())

# (spec folder, line) -> why the reading differs, and the warning code that reports it (None: read, differently)
MISSES: dict[tuple[str, int], tuple[str, str | None]] = {
    ("02-ticket-triage", 46): (
        "'if it errors' reads as any failure to the author (a catch-all rule); the reader keeps the backoff as "
        "the step's retry, which covers the transient failures a resolver has", None),
    ("09-dependency-audit", 35): (
        "'assume no known vulns' is read as the output contract's empty value, which the engine builds from "
        "the skill's schema: {vulns: []} when the contract says vulns is a list", None),
    ("09-dependency-audit", 37): (
        "'PyPI lookup fails' names no failure class the grammar knows (the author means a network failure); "
        "the row applies to any failure of step 8, and a warning says the failure was not classified",
        "spec.unclassified"),
    ("10-nightly-kpi-mail", 58): (
        "'go to the no-data notice instead' names a step by its heading; binding names to steps is issue 22's "
        "(structure); until then it is read as no retry, and the fallback is reported", "spec.policy-partial"),
}


def _expect(folder: Path) -> dict[str, Any]:
    return yaml.safe_load((folder / "expect.yaml").read_text(encoding="utf-8"))


def _policies(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    e = _expect(folder)
    found = [(str(s["number"]), p) for s in e["steps"] for p in s.get("policies", [])]
    return found + [("workflow", p) for p in e.get("workflow_policies", [])]


CASES = [(folder, owner, p) for folder in SPECS for owner, p in _policies(folder)]


def _spec_file(folder: Path) -> Path:
    return next(folder / n for n in ("spec.md", "spec.yaml") if (folder / n).exists())


# -- the readers, as the spec reader uses them -------------------------------------------


def _blocks(path: Path) -> list[Any]:
    root = SyntaxTreeNode(MarkdownIt("commonmark").enable("table").parse(path.read_text(encoding="utf-8")))
    out: list[Any] = []
    for node in root.children:
        out += read_blocks([node]) if node.type != "heading" else []
    return out


def _flat(blocks: list[Any]) -> list[Any]:
    out: list[Any] = []
    for b in blocks:
        out.append(b)
        if isinstance(b, Bullet):
            out += _flat(list(b.children))
    return out


def _texts(path: Path) -> list[tuple[str, int]]:
    """Every unit of text the sentence reader sees: paragraph sentences and bullets, with lines."""
    units: list[tuple[str, int]] = []
    for block in _flat(_blocks(path)):
        if isinstance(block, Para) and not block.text.lstrip().startswith("|"):
            units += sentences(block.text, block.line)
        elif isinstance(block, Bullet):
            units.append((block.text, block.line))
    return units


def _near(units: list[tuple[str, int]], text: str, line: int) -> list[str]:
    """The units holding `text` (by its words), nearest the expected line."""
    words = " ".join(text.split())[:40].lower()
    hits = [(abs(ln - line), u) for u, ln in units if words in " ".join(u.split()).lower()]
    best = min((d for d, _ in hits), default=None)
    return [u for d, u in hits if d == best]


def _merge(readings: list[Policy]) -> Policy:
    fields: dict[str, Any] = {}
    for r in readings:
        for name in ("retry", "timeout_s", "fallback", "regenerate", "on"):
            if getattr(r, name) is not None:
                fields.setdefault(name, getattr(r, name))
    return Policy(**fields)


def _covers(got: Policy, want: Policy) -> bool:
    """Every field the meaning sets is the reading's (the reading may hold more: the sentence's other clauses)."""
    for name in ("retry", "timeout_s", "regenerate"):
        if getattr(want, name) is not None and getattr(got, name) != getattr(want, name):
            return False
    if want.fallback is not None and not _same_fallback(got.fallback, want.fallback):
        return False
    return want.on is None or got.on == want.on


def _table_reading(path: Path, line: int, owner: str, n_steps: int) -> Policy | None:
    ids = [f"step-{i}" for i in range(1, n_steps + 1)]
    for block in _blocks(path):
        if not isinstance(block, Table):
            continue
        for row_line, cells in block.rows:
            if row_line != line:
                continue
            header = [h.lower() for h in block.header]
            if "skill" in header:  # a steps table: its Max Attempts cell
                cell = cells[next(i for i, h in enumerate(header) if "attempt" in h)]
                return actual(f"max attempts: {cell}")[0]
            src = Source(path.read_text(encoding="utf-8"), str(path))
            rows = _row(block, line, cells, table_columns(block, src), src, ids)
            sid = f"step-{owner}" if owner.isdigit() else ids[0]
            row = next(r for r in rows if r.step == sid)
            return Policy(retry=row.rule.retry if row.rule.retry != _NO_RETRY_DEFAULT or "retr" in row.recovery.lower()
                          else None, timeout_s=row.timeout_s, fallback=row.rule.fallback,
                          regenerate=row.rule.regenerate or None, on=None if row.rule.on == "any" and not
                          row.every_step and owner == "workflow" else str(row.rule.on))
    return None


_NO_RETRY_DEFAULT = retry_of(read_phrase("no retry").statement)[0]


def _yaml_reading(path: Path, line: int) -> Policy | None:
    src = Source(path.read_text(encoding="utf-8"), str(path))
    reader = NodeReader(src)
    root = yaml.compose(src.text, Loader=yaml.SafeLoader)
    assert isinstance(root, MappingNode)
    steps = next(v for k, v in root.value if k.value == "steps")
    assert isinstance(steps, SequenceNode)
    for step in steps.value:
        for key, value in step.value:
            if key.start_mark.line + 1 != line:
                continue
            if key.value == "retry":
                return Policy(retry=reader.retry(value))
            if key.value == "timeout":
                return Policy(timeout_s=reader.seconds(value, "timeout"))
            if key.value == "on_error":
                return Policy(fallback=fallback_of(read_phrase(f"on error: {reader.value(value)}").statement.on_failure))
    return None


def reading(folder: Path, owner: str, policy: dict[str, Any]) -> Policy | None:
    path = _spec_file(folder)
    text, line = str(policy["text"]), int(policy["line"])
    if path.suffix == ".yaml":
        return _yaml_reading(path, line)
    if text.lstrip().startswith("|"):
        return _table_reading(path, line, owner, len(_expect(folder)["steps"]))
    if path.read_text(encoding="utf-8").splitlines()[line - 1].lstrip().startswith("|"):  # a sentence in a cell
        cells = [c for b in _blocks(path) if isinstance(b, Table) for ln, row in b.rows if ln == line for c in row]
        return _merge([actual(t)[0] for c in cells for t, _ in sentences(c, line) if text[:20] in t])
    held = _near(_texts(path), text, line)
    assert held, f"{folder.name}:{line}: the sentence reader never sees {text!r}"
    return _merge([actual(u)[0] for u in held])


# -- the tests ---------------------------------------------------------------------------


def test_the_foreign_specs_are_the_stranger_s_files_verbatim() -> None:
    source = Path("/work/coord/foreign/visible")
    assert len(SPECS) >= 10
    if source.is_dir():  # on the machine they were written on: byte for byte
        for folder in SPECS:
            for file in folder.rglob("*"):
                if file.is_file():
                    assert file.read_bytes() == (source / folder.name / file.relative_to(folder)).read_bytes(), file


@pytest.mark.parametrize(("folder", "owner", "policy"), CASES,
                         ids=[f"{f.name[:2]}-{o}-{p['line']}" for f, o, p in CASES])
def test_each_policy_line_is_read_as_its_author_meant(folder: Path, owner: str, policy: dict[str, Any]) -> None:
    miss = MISSES.get((folder.name, int(policy["line"])))
    got = reading(folder, owner, policy)
    assert got is not None, f"{folder.name}:{policy['line']}: no reader found {policy['text']!r}"
    want = expected(policy["meaning"])
    if miss is None:
        assert _covers(got, want), f"{folder.name}:{policy['line']} {policy['text']!r}\n got  {got}\n want {want}"
    else:
        assert not _covers(got, want), f"{folder.name}:{policy['line']} is read now: remove it from MISSES"


@pytest.mark.parametrize(("key", "why"), sorted(MISSES.items()), ids=[f"{k[0][:2]}-{k[1]}" for k in sorted(MISSES)])
def test_a_documented_miss_is_warned_when_it_is_not_read(key: tuple[str, int], why: tuple[str, str | None]) -> None:
    folder, line = ROOT / key[0], key[1]
    reason, code = why
    assert reason
    if code is None:
        return  # read, differently, for the reason given
    path = _spec_file(folder)
    if code == "spec.unclassified":  # a table row's failure cell: the table reader warns
        table = next(b for b in _blocks(path) if isinstance(b, Table) and any(ln == line for ln, _ in b.rows))
        src = Source(path.read_text(encoding="utf-8"), str(path))
        cells = next(c for ln, c in table.rows if ln == line)
        _row(table, line, cells, table_columns(table, src), src, [f"step-{i}" for i in range(1, 11)])
        assert [w.line for w in src.warnings if w.code == code] == [line]
        return
    units = [u for u, ln in _texts(path) if ln == line] or [
        " ".join(c for c in cells) for b in _blocks(path) if isinstance(b, Table) for ln, cells in b.rows if ln == line]
    assert units and any(read_phrase(u).problems for u in units), f"{key}: not reported"


@pytest.mark.parametrize("folder", SPECS, ids=[f.name for f in SPECS])
def test_no_policy_line_is_dropped_silently(folder: Path) -> None:
    """Every sentence, bullet and table cell with a policy word is read or reported."""
    path = _spec_file(folder)
    if path.suffix == ".yaml":
        units = [(line.split("#", 1)[0], n) for n, line in enumerate(path.read_text().splitlines(), 1)]
    else:
        units = _texts(path) + [(c, ln) for b in _blocks(path) if isinstance(b, Table) for ln, cells in b.rows
                                for c in cells]
    for text, line in units:
        phrase = read_phrase(text)
        if phrase.signal:  # a failure cell names its class: that is its reading
            accounted = phrase.read or phrase.problems or phrase.statement.applies_to is not None
            assert accounted, f"{folder.name}:{line}: {text!r} is neither read nor reported"


@pytest.mark.parametrize("folder", SPECS, ids=[f.name for f in SPECS])
def test_lines_the_author_says_carry_no_policy_give_none(folder: Path) -> None:
    path = _spec_file(folder)
    lines = path.read_text(encoding="utf-8").splitlines()
    for item in _expect(folder).get("unactionable_lines", []):
        text = lines[item - 1] if isinstance(item, int) else str(item)
        if path.suffix == ".yaml" and text.lstrip().startswith("#"):
            continue  # a YAML comment is never read as policy
        text = re.sub(r"^\s*(?:[-*#]+|\d+\.)\s*", "", text)
        phrase = read_phrase(text)
        effect = effect_of(phrase.statement)
        assert (effect.retry, effect.attempt_timeout_s, effect.fallback, effect.regenerations) == (None,) * 4, (
            f"{folder.name}: {text!r} gave {phrase.statement}")
