"""The last reader: what the document says of the whole run that no other reader took.

After every reader of the document's shape has run (and the step texts are read), each sentence
of the document (`spec.whole_doc`) is looked at once more for the two things an author says of
the whole run wherever they like:

- a success check (`spec.whole_success`): read onto a step's output, or warned at its line;
- a whole-run limit (`spec.whole_limit`): read as the run's wall time and said at its line,
  or, when another line already gave one that differs, warned (the plan keeps the first).

A step's bullet the step reader warned "not read" and that is read here as the success check loses
that warning (the reading is warned at its line). A sentence is left alone when a reader already took its line for the same thing: a success
check or a success warning there, a whole-run reading or a whole-run warning there. Nothing is
read here from a YAML spec's keys, only from its comments and prose (`spec.whole_doc`).
"""

from __future__ import annotations

import re

from orchestrator.spec.check import SpecParts
from orchestrator.spec.line_run_on54 import line_run_on
from orchestrator.spec.model import ContractSpec, StepSpec
from orchestrator.spec.run_on43 import run_on_check
from orchestrator.spec.section_read43 import amended
from orchestrator.spec.source import Source
from orchestrator.spec.whole_doc import Said, document_sentences, line_of, lines_warned
from orchestrator.spec.whole_limit import CODE as LIMIT_CODE
from orchestrator.spec.whole_limit import has_limit, record_limit, whole_limit
from orchestrator.spec.whole_success import CODE as SUCCESS_CODE
from orchestrator.spec.whole_success import read_success, success_cue

_WHOLE_WORDS = ("whole run", "the run's wall time", "wall time")


def _spans(said: Said, lines: set[int]) -> bool:
    return any(n in lines for n in range(said.line, said.last + 1))


def _drop_run_on(said: Said, tail: str, src: Source) -> None:
    """A part of a success check read on its own (`spec.run_on43`) that the policy reader warned not read at
    the line of the sentence it ran on from ("'(logged = true)' after the whole run's limit is not read"):
    no longer true, so that warning is left out."""
    def stale(message: str) -> bool:
        m = re.search(r"'([^']{1,80})' after the whole run's limit is not read", message)
        return m is not None and m.group(1) in tail

    src.warnings[:] = [w for w in src.warnings if not (said.line <= (w.line or 0) <= said.last and stale(w.message))]


def _drop_bullet_unread(lines: set[int], src: Source) -> None:
    """A step's bullet warned "not read" whose line this reader read as the run's success check: the
    reading and its own warning say what became of it, so the "not read" is left out."""
    src.warnings[:] = [w for w in src.warnings if not (
        w.code == "spec.unread" and w.line in lines and "bullet '" in w.message and w.message.endswith("' not read"))
        and not (w.line in lines and _check_unread(w.message))]


def _check_unread(message: str) -> bool:
    """"step-4: 'its done when ... (sent = true).' states a policy that was not understood (...)": a done check
    the policy reader took no fallback value from (`spec.done_check50`), read here as the success check."""
    from orchestrator.spec.done_check50 import said_as_check

    m = re.search(r"^[^']{0,80}+'(?P<said>[^\n]{1,80}?)' states a policy that was not understood", message)
    return m is not None and said_as_check(m.group("said").rstrip("…"))


def _drop_block_unread(said: Said, src: Source) -> None:
    """A block reported "not read (not a step)" that is this one sentence, now read as the run's success check
    ("> [!success] Done when" over its body; "4. COMPLETION" over "Only counts as complete when ...", the
    warning showing the block's first 60 characters when it is all this sentence): the reading says what
    became of it. A block that says more than the sentence keeps its warning."""
    text = " ".join(said.text.split())
    whole = " ".join(" ".join(t for _, t in said.lines).split()) == text if said.lines else False
    src.warnings[:] = [w for w in src.warnings if not (
        w.code == "spec.unread" and w.line is not None and said.line <= w.line <= said.last
        and (w.message.endswith(f"'{text}{_UNREAD_TAIL}")
             or (whole and w.message.endswith(f"'{text[:60]}{_UNREAD_TAIL}"))))]


_UNREAD_TAIL = "' not read (not a step)"
_MAX_STATED = 100  # sentences read as the run's success check: each is read against every step


class _Stated:
    """`read_success` for at most `_MAX_STATED` sentences that state a check; those past it are skipped
    (each would be read against every step: a long document's time would grow with its square) and said."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.read_n = 0
        self.skipped: list[int] = []

    def __call__(self, said: Said, steps: list[StepSpec], *,
                 outside: bool = True) -> tuple[list[StepSpec], tuple[ContractSpec, ...]] | None:
        if self.read_n >= _MAX_STATED:
            if success_cue(said.text, outside=outside) is not None:
                self.skipped.append(said.line)
            return None
        read = read_success(said, steps, self.src, outside=outside)
        self.read_n += read is not None
        return read

    def said(self) -> None:
        if self.skipped:
            self.src.warn(self.skipped[0], f"{len(self.skipped)} more sentences from this line on seem to state the "
                                           f"run's success check; past {_MAX_STATED} they are not read: state it once",
                          SUCCESS_CODE)


def read_the_rest(parts: SpecParts, src: Source, checks: tuple[ContractSpec, ...]) -> tuple[SpecParts, tuple[ContractSpec, ...]]:
    """The parts and success checks with what the document says of the whole run and no reader
    took (module docstring)."""
    if not parts.steps:
        return parts, checks
    taken_success = lines_warned(src, SUCCESS_CODE, words=("success check", "success criteri"))
    taken_success |= {n for c in (*parts.contracts, *checks) if c.consumer is None and (n := line_of(c.where))}
    taken_success |= {n for s in parts.steps for t in s.texts if t.kind == "success" for n in [t.line]}
    taken_limit = lines_warned(src, LIMIT_CODE, words=_WHOLE_WORDS)
    taken_limit |= {n for r in src.readings if r.statement.whole_run and (n := line_of(r.where))}
    inside: set[int] = set()  # the lines of the steps' own texts
    for step in parts.steps:
        start = line_of(step.where) or 0
        inside.update(range(start, max([start, *(t.line for t in step.texts)]) + 1))
    steps = list(parts.steps)
    found: list[ContractSpec] = []
    stated = _Stated(src)
    for said in list(document_sentences(src)):
        if not _spans(said, taken_success):
            read = stated(said, steps, outside=not _spans(said, inside))
            if read is not None:
                steps, contracts = read
                found.extend(contracts)
                if contracts:
                    _drop_block_unread(said, src)
                continue
            # "... half an hour max. its done when ...", "... regardless\nit's a good run when ..." (`spec.line_run_on54`)
            if (tail := run_on_check(said.text) or line_run_on(said.text, said.lines, said.line, said.last)) is not None:
                run_on = Said(tail, said.line, said.last, said.lines).at(tail)
                if not _spans(run_on, taken_success) and (read := stated(
                        run_on, steps, outside=not _spans(run_on, inside))) is not None:
                    steps, contracts = read
                    found.extend(contracts)
                    _drop_run_on(said, tail, src)
        if _spans(said, taken_limit):
            continue
        seconds = whole_limit(said.text, outside=not _spans(said, inside))
        if seconds is None:
            continue
        before = has_limit(src) if parts.timeout_s is None else parts.timeout_s
        if before is None:
            record_limit(said.text, said.line, src, seconds)
        elif before != seconds:
            src.warn(said.line, f"whole run: '{said.text[:80]}' seems to limit the whole run to {seconds:g} s, but "
                                f"another line already limits it to {before:g} s, which the plan keeps: write one "
                                "whole-run limit", LIMIT_CODE)
    from orchestrator.spec.success_words27 import comment_sentences

    taken_success |= lines_warned(src, SUCCESS_CODE, words=("success check", "success criteri"))
    taken_success |= {n for c in found if (n := line_of(c.where))}
    for said in comment_sentences(src):  # "# pipeline counts as green only when ...": a YAML file's comment
        if not _spans(said, taken_success) and (read := stated(said, steps)) is not None:
            steps, contracts = read
            found.extend(contracts)
    stated.said()
    _drop_bullet_unread({n for c in found if (n := line_of(c.where))}, src)
    amended(src, {n: "a success check" for c in found if (n := line_of(c.where))})  # "... not read but for line 26"
    if not found and steps == list(parts.steps):
        return parts, checks
    return parts.model_copy(update={"steps": tuple(steps)}), (*checks, *found)
