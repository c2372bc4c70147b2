"""A spec's only line break is `\\n` (`spec.line_breaks`, probe52): a CRLF is one, a form feed,
vertical tab, NEL or U+2028/U+2029 none (a space), so `Source.lines` and the `\\n`-counting readers agree on
every line, and what follows such a character is neither cut off nor cited on the wrong line. A file with no `\\n`
at all has CR line ends; a lone CR among `\\n` lines is a space."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.spec import parse_spec
from orchestrator.spec.line_breaks import one_break
from orchestrator.spec.vocabulary import Vocabulary

_MD = "# Tidy the yard\n\n## Step 1: Sweep\nUse `sweep-yard`.\n\n## Step 2: Bin\nUse `empty-bins`.\n\n## Step 3: Lock\nUse `lock-gate`.\n"

# a deck whose second step's input card would be cut at a page break by `splitlines`
_DECK = """\
//YARD     JOB 'YARD'
//         SET SITE='NN'
//         SET GATE='NN'
//SWEEP    EXEC SKILL=SWEEP-YARD
//SYSIN    DD *
SITE=&SITE
/*
//LOCK     EXEC SKILL=LOCK-GATE
//SYSIN    DD *
SITE=&SITE
GATE=&GATE
/*
"""
_NAMES = frozenset({"sweep-yard", "empty-bins", "lock-gate"})


def _read(tmp_path: Path, name: str, data: bytes):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_bytes(data)
    return parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))


def _lines(spec) -> list[tuple[str | None, str]]:  # type: ignore[no-untyped-def]
    return [(s.name, s.where.rsplit(":", 1)[1]) for s in spec.steps]


def test_one_break_keeps_newlines_and_turns_the_others_into_breaks_or_spaces() -> None:
    assert one_break("a\r\nb\r\nc") == "a\nb\nc"
    assert one_break("a\rb\rc\r") == "a\nb\nc\n"  # an old Mac's file: CR its only line end
    assert one_break("a\r\nb\rc\nd") == "a\nb c\nd"  # near miss: a lone CR among `\n` lines is a space (`spec.sheet`)
    assert one_break("a\x0cb\u2028c\x85d\x0be\u2029f\x1eg") == "a b c d e f g"
    assert one_break("tabs\tstay, and a written \\f or \\r too\n") == "tabs\tstay, and a written \\f or \\r too\n"


@pytest.mark.parametrize("eol", ["\r\n", "\r"])
def test_crlf_and_lone_cr_files_read_as_the_newline_file(tmp_path: Path, eol: str) -> None:
    plain = _read(tmp_path, "a.md", _MD.encode())
    other = _read(tmp_path, "b.md", _MD.replace("\n", eol).encode())
    assert _lines(other) == _lines(plain) == [("Sweep", "3"), ("Bin", "6"), ("Lock", "9")]
    assert other.sha256 != plain.sha256  # the sha is the text as written


# a pasted chat: the break inside its third message must not move the later messages' lines
_THREAD = ("[09:01] Kim: can you set the yard job up\n[09:02] Kim: first `sweep-yard`\n"
           "[09:03] Kim: if sweeping{odd}fails try again after 20 secs\n[09:04] Kim: then `empty-bins`\n"
           "[09:05] Kim: then `lock-gate`, never twice\n")


@pytest.mark.parametrize("odd", ["\x0c", "\u2028", "\x85", "\x0b"])
def test_an_odd_break_inside_a_line_moves_no_later_line(tmp_path: Path, odd: str) -> None:
    plain = _read(tmp_path, "a.txt", _THREAD.format(odd=" ").encode())
    spec = _read(tmp_path, "b.txt", _THREAD.format(odd=odd).encode())
    assert _lines(spec) == _lines(plain) and [ln for _, ln in _lines(spec)][1:] == ["4", "5"]
    assert [(w.line, w.message) for w in spec.warnings] == [(w.line, w.message) for w in plain.warnings]


@pytest.mark.parametrize("odd", ["\x0c", "\u2028", "\x85"])
def test_an_odd_break_inside_a_deck_card_cuts_no_card(tmp_path: Path, odd: str) -> None:
    whole = _read(tmp_path, "A.jcl", _DECK.encode())
    paged = _read(tmp_path, "B.jcl", _DECK.replace("//         SET GATE", f"//   {odd}      SET GATE").encode())
    assert _lines(paged) == _lines(whole) == [("SWEEP", "4"), ("LOCK", "8")]
    assert [i.name for i in paged.inputs or ()] == [i.name for i in whole.inputs or ()] == ["SITE", "GATE"]
    assert [{i.name: i.source for i in s.inputs} for s in paged.steps] == [
        {i.name: i.source for i in s.inputs} for s in whole.steps]
