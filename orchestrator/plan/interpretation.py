"""Sentences the grammar could not read, read by the model once and kept in `<spec>.lock.json`.

    apply_lockfile(spec, spec_path, settings, interpret=False) -> WorkflowSpec

Every plan of a spec reads its lockfile (offline, deterministic): an unread
sentence with an entry there becomes a reading with provenance "llm" (the model
that made it, the sentence, its line), and its "not understood" warning goes.
With `interpret` (`plan --interpret`, `validate --interpret`) the sentences
still missing are sent to the interpreter the compile pipeline passes (the
model, `llm.interpret`, created by `orchestrator.compile`), each answer is added to
the lockfile, and the lockfile is written. Without a key or `--llm-replay`,
`interpret` is an error (exit 2) before anything is sent.

An entry whose sentence changed (an unread sentence at the same place with
other text) is stale: a warning says so and the sentence stays unread until
`--interpret` reads it again. An entry whose sentence is gone is reported too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from orchestrator.config import Settings
from orchestrator.errors import ConfigError, Diagnostic, LLMError, Severity
from orchestrator.hints import Hint, HintAction
from orchestrator.lockfile import LockEntry, Lockfile, load_lock, lock_path, save_lock, text_sha256
from orchestrator.plan.location import split_where
from orchestrator.policy import PolicyStatement
from orchestrator.spec.model import SentenceReading, UnreadSentence, WorkflowSpec
from orchestrator.spec.prose import PARTIAL_CODE, UNREAD_CODE

STALE_CODE = "lock.stale"
# (sentences) -> one reading or error per sentence; `llm.interpret.PolicyInterpreter` is the real one
Interpreter = Callable[[Sequence[UnreadSentence]], Sequence[object]]


def _reading(entry: LockEntry, sentence: UnreadSentence) -> SentenceReading:
    statement = PolicyStatement.model_validate(entry.reading)
    return SentenceReading(text=sentence.text, where=sentence.where, section=sentence.section,
                           steps=sentence.steps, statement=statement, specific=bool(sentence.steps),
                           source="llm", model=entry.model, note=entry.reason)


def _place(where: str) -> tuple[str, int | None]:
    return split_where(where, "")


def _warning(where: str, message: str, hint: Hint | None = None) -> Diagnostic:
    file, line = _place(where)
    return Diagnostic(file=file, line=line, message=message, severity=Severity.WARNING, code=STALE_CODE, hint=hint)


def _without_warning(warnings: list[Diagnostic], sentence: UnreadSentence) -> list[Diagnostic]:
    """The warnings but the ones the model's reading of `sentence` answers."""
    file, line = _place(sentence.where)
    quoted = " ".join(sentence.text.split())[:40]
    return [w for w in warnings if not (w.code in (UNREAD_CODE, PARTIAL_CODE) and w.file == file
                                        and w.line == line and quoted in w.message)]


def _replacing(readings: list[SentenceReading], sentence: UnreadSentence, reading: SentenceReading) -> list[SentenceReading]:
    """`reading` in place of the grammar's partial reading of the same sentence, if any."""
    kept = [r for r in readings if not (r.source == "spec" and r.where == sentence.where and r.text == sentence.text)]
    return [*kept, reading]


def _stale(lock: Lockfile, spec: WorkflowSpec, unread: Sequence[UnreadSentence]) -> list[Diagnostic]:
    """Entries of no current sentence: changed at the same place (stale), or gone."""
    current = {text_sha256(u.text) for u in spec.unread} | {text_sha256(r.text) for r in spec.readings}
    by_place = {(u.section, u.steps, _place(u.where)[1]): u for u in unread}
    found: list[Diagnostic] = []
    for entry in lock.entries:
        if entry.kind != "policy" or entry.sha256 in current:
            continue
        moved = by_place.get((entry.section, entry.steps, _place(entry.where)[1]))
        if moved is not None:
            found.append(_warning(moved.where, f"the lockfile's reading of this sentence is stale: it was made for "
                                               f"'{entry.text}'", Hint(action=HintAction.INTERPRET)))
        else:
            found.append(_warning(spec.path, f"the lockfile has a reading of '{entry.text}' ({entry.where}), which "
                                             "is no longer in the spec; it is not used"))
    return found


def apply_lockfile(
    spec: WorkflowSpec, spec_path: Path, settings: Settings, *, interpret: bool = False,
    interpreter: Interpreter | None = None,
) -> WorkflowSpec:
    """The spec with the lockfile's (and, with `interpret`, the model's) readings (module docstring)."""
    path = lock_path(spec_path)
    lock = load_lock(path) or Lockfile(spec=spec_path.name)
    readings = list(spec.readings)
    warnings = list(spec.warnings)
    missing: list[UnreadSentence] = []
    for sentence in spec.unread:
        entry = lock.find("policy", sentence.text, settings.model)
        if entry is None:
            missing.append(sentence)
            continue
        readings = _replacing(readings, sentence, _reading(entry, sentence))
        warnings = _without_warning(warnings, sentence)
    warnings += _stale(lock, spec, missing)
    if interpret and missing:
        lock, read, more = _interpret(missing, lock, settings, interpreter)
        for sentence, reading in read:
            readings = _replacing(readings, sentence, reading)
            warnings = _without_warning(warnings, sentence)
        warnings += more
        missing = [s for s in missing if s not in {s for s, _ in read}]
        if read:
            save_lock(path, lock)
    return spec.model_copy(update={
        "readings": tuple(readings),
        "unread": tuple(missing),
        "warnings": tuple(sorted(dict.fromkeys(warnings), key=lambda d: (d.line or 0, d.message))),
    })


def _interpret(
    missing: list[UnreadSentence], lock: Lockfile, settings: Settings, interpreter: Interpreter | None
) -> tuple[Lockfile, list[tuple[UnreadSentence, SentenceReading]], list[Diagnostic]]:
    if interpreter is None:
        # the compile pipeline passes the model (`orchestrator.compile`); the plan calls none itself
        raise ConfigError("reading the sentences the grammar could not needs a model, and none was given")
    answers = list(interpreter(missing))
    read: list[tuple[UnreadSentence, SentenceReading]] = []
    problems: list[Diagnostic] = []
    for sentence, answer in zip(missing, answers, strict=True):
        if isinstance(answer, LLMError):
            problems.append(_warning(sentence.where, f"the model could not read '{sentence.text}': {answer.message}"))
            continue
        statement = getattr(answer, "statement", None)
        if not isinstance(statement, PolicyStatement):
            continue
        model = str(getattr(answer, "model", "") or settings.model)
        entry = LockEntry(kind="policy", sha256=text_sha256(sentence.text), model=model, text=sentence.text,
                          where=f"{Path(_place(sentence.where)[0]).name}:{_place(sentence.where)[1] or ''}",
                          section=sentence.section, steps=sentence.steps,
                          reading=statement.model_dump(mode="json", exclude_defaults=True),
                          reason=str(getattr(answer, "reason", "")))
        lock = lock.with_entry(entry)
        read.append((sentence, _reading(entry, sentence)))
    return lock, read, problems
