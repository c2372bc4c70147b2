"""The run's success check said in any words, anywhere in the document.

People say when a run counts as a success in their own words and in their own place: a lesson
plan's "The lesson is a success only when every pupil's `score` is at least 5", an RFC's "A
sweep is successful if and only if ...", a voice memo's "we'll call it a success if ...", a
docstring's `.. important::`, a handover table's last row. The cue is the meaning of the
sentence: something (any subject) *counts as* / *is* / *passes as* done, successful, a success,
accepted, green, or *passes*, *succeeds*, *worked*, *only when* / *if* / *once* what follows
(`success_cue`). What follows is the check:

- one comparison of an output field with a literal (`ok: true`, `verified = true`, `count >= 3`,
  "`status` is \"PASS\"") is checked on one step's output: the step the sentence names (its skill,
  its number, a word of its name only it has), else "this step" (the step whose text holds the
  line), else the one step whose output has the field, else the last step; the plan shows where
  it went (a warning at the line and a reading on the step);
- a comparison of two values (an output with another step's output or a workflow input: "the
  summary's `count` equals `row_count` from split"), or a check in words ("the digest mentions
  the team"), cannot be written as a check on one output: it is warned at its line as not checked.

A sentence some reader already took (a success warning or check at its line) is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from orchestrator.spec.elsewhere import keys_of, named_step
from orchestrator.spec.model import ContractSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success import check_schema, read_criteria
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_doc import Said, line_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.success"
_STATE = r"[\"“'`*_]?(?:done|good|successful|a\s+success|a\s+pass|passed|ok|complete|completed|accepted|green)[\"”'`*_]?"
# "... counts as done when", "... is only "done" when", "... is successful if and only if", "... passes only when"
_CUE = _rx(r"(?i)^(?P<subject>[^.;:]{0,80}?)(?<![\w-])(?:(?:only\s+)?(?:counts?|is\s+counted|is\s+marked|is\s+considered|"
           rf"is\s+deemed|passes)\s+as\s+{_STATE}|(?:is|are|was|will\s+be)\s+(?:only\s+)?(?:(?:considered|deemed|judged|"
           rf"regarded|counted|marked)\s+(?:as\s+)?)?{_STATE}|"
           r"(?:only\s+)?(?:passes|succeeds|succeeded|worked|is\s+a\s+success)|call\s+(?:it|the\s+\w+)\s+(?:a\s+success|"
           r"done|good|successful))\s+(?:only\s+)?(?P<when>when|if\s+and\s+only\s+if|if|once|provided)(?![\w-])\s*+"
           r"(?P<clause>.+)$")
# a subject that makes the sentence about something else than the run ("the step is done when ..." is fine)
_NOT_RUN = _rx(r"(?i)(?<![\w-])(?:retry|retries|attempt|timeout|approval|request|call|it\s+times|nobody|no\s+one)(?![\w-])")
_IDENT = r"(?:``?|\*\*)?(?P<{n}>[A-Za-z_][\w]*+(?:\.[A-Za-z_]\w*+)*+)(?:``?|\*\*)?"
_LITERAL = r"(?P<value>true|false|null|yes|no|-?\d+(?:\.\d+)?|\"[^\"]{0,60}\"|'[^']{0,60}'|“[^”]{0,60}”)"
# `ok: true`, verified = true, `count` >= 3, "status is "PASS"", `all_ok == true` (in or out of backticks)
_FIELD_VALUE = _rx(rf"(?i)`?{_IDENT.format(n='field')}\s*+(?P<op>==|=|:|>=|<=|!=|>|<|≥|≤|\s(?:is|equals)\s)\s*+`?"
                   rf"{_LITERAL}`?(?![\w-])")
# two named values compared: "`count` equals `row_count`", "packages_scanned ... equals the `count`"
_TWO = _rx(r"(?i)(?P<a>``?[A-Za-z_]\w*+``?)[^`]{0,80}?(?<![\w-])(?:equals?|==|matches|is\s+the\s+same\s+as|is\s+equal\s+to)"
           r"(?![\w-])[^`]{0,40}?(?P<b>``?[A-Za-z_]\w*+``?)")
_THIS_STEP = _rx(r"(?i)(?<![\w-])this\s+(?:step|stage|task|job)(?![\w-])")
_WORDS_TO_BOOL = {"yes": True, "no": False}


@dataclass(frozen=True)
class Check:
    """A success sentence read: the step it is on, the comparison, how the step was found."""

    step: int  # index in the steps
    clause: str
    how: str


def success_cue(sentence: str) -> str | None:
    """The check of a sentence that says when the run (or any thing) counts as a success, or None."""
    m = _CUE.match(sentence)
    if m is None or _NOT_RUN.search(m.group("subject")):
        return None
    clause = m.group("clause").strip().rstrip(".").strip()
    return clause or None


def _value(raw: str) -> str:
    low = raw.lower()
    if low in _WORDS_TO_BOOL:
        return "true" if _WORDS_TO_BOOL[low] else "false"
    if raw[:1] == "“":
        return f'"{raw[1:-1]}"'
    return raw


def comparison(clause: str) -> str | None:
    """The clause's one comparison of a field with a literal, as `spec.success` reads it
    ("`ok: true`" -> "ok == true"), or None when it has none or several."""
    found = list(_FIELD_VALUE.finditer(clause))
    if len(found) != 1:
        return None
    m = found[0]
    op = m.group("op").strip().lower()
    op = {":": "==", "=": "==", "is": "==", "equals": "==", "≥": ">=", "≤": "<="}.get(op, op)
    text = f"{m.group('field')} {op} {_value(m.group('value'))}"
    checks, rest = read_criteria(text)
    return text if checks and not rest else None


def two_values(clause: str) -> tuple[str, str] | None:
    """The two named values a clause compares ("`count` equals `row_count`"), or None."""
    m = _TWO.search(clause)
    return (m.group("a").strip("`"), m.group("b").strip("`")) if m else None


def _skill(step: StepSpec, vocabulary: Vocabulary) -> str | None:
    said = (step.skill or "").strip().strip("`").strip()
    return said or next((s for m in step.mentions if (s := vocabulary.skill_for(m.text))), None)


def _line(step: StepSpec) -> int:
    return line_of(step.where) or 0


def _owner(field: str, steps: list[StepSpec], vocabulary: Vocabulary) -> int | None:
    owners = [i for i, s in enumerate(steps) if field in {f.name for f in s.outputs}
              or field in ((vocabulary.outputs_of(k) or frozenset()) if (k := _skill(s, vocabulary)) else frozenset())]
    return owners[0] if len(owners) == 1 else None


def place(said: Said, clause: str, steps: list[StepSpec], src: Source) -> Check | None:
    """The step a one-comparison check goes on (module docstring), or None for no steps."""
    if not steps:
        return None
    keys = keys_of([(i + 1, s.name, _skill(s, src.vocabulary)) for i, s in enumerate(steps)])
    named = named_step(said.text, keys, src.vocabulary)
    if named is not None:
        return Check(named[0] - 1, clause, named[1])
    if _THIS_STEP.search(said.text):
        before = [i for i, s in enumerate(steps) if 0 < _line(s) <= said.line]
        if before:
            return Check(max(before, key=lambda i: _line(steps[i])), clause, "'this step': the step whose text holds it")
    field = clause.split(" ", 1)[0]
    owner = _owner(field, steps, src.vocabulary)
    if owner is not None:
        return Check(owner, clause, f"the one step whose output has `{field}`")
    return Check(len(steps) - 1, clause, "the last step (the run's final output)")


def read_success(said: Said, steps: list[StepSpec], src: Source) -> tuple[list[StepSpec], ContractSpec | None] | None:
    """A sentence that states the run's success check (`success_cue`): checked on a step (the steps
    updated, with the check's contract) or warned at its line; None when it states none."""
    clause = success_cue(said.text)
    if clause is None:
        return None
    said = said.at(clause)
    one = comparison(clause)
    two = two_values(clause)
    check = place(said, one, steps, src) if one is not None and two is None else None
    if check is None:
        if two is not None:
            why = (f"it compares two values (`{two[0]}` with `{two[1]}`), and a check compares one output field "
                   "with a value written in the spec")
        else:
            why = "it is not a comparison of an output field with a value (`ok == true`, `count >= 3`)"
        src.warn(said.line, f"the run's success check '{clause[:80]}' is not checked: {why}; the run succeeds "
                            "without it", CODE)
        return steps, None
    step = steps[check.step]
    src.warn(said.line, f"{step.id} ({step.name}): '{clause[:60]}' is read as the run's success check ({one}), on "
                        f"this step's output ({check.how}): check the plan, or write `- Success criteria: {one}` "
                        "under the step", CODE)
    reading = Reading(what="success", where=src.where(said.line), text=" ".join(said.text.split())[:160],
                      note=f"the run's success check `{one}`, checked on {step.id}'s output ({check.how})")
    out = list(steps)
    out[check.step] = step.model_copy(update={"readings": (*step.readings, reading)})
    checks, _ = read_criteria(check.clause)
    contract = ContractSpec(producer=step.id, consumer=None, where=src.where(said.line), validation=(check.clause,),
                            constraints={"": check_schema(checks)})
    return out, contract


_rx.save()
