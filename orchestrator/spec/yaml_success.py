"""A YAML run-level success condition written on a bare output field (`finished_if: unassigned == 0`).

`spec.yaml_top.run_success` reads `steps.ID.output.FIELD == value`. People writing their own YAML
schema write the field alone, as they would in a sentence ("done_when: posted == true",
"finished_if: late_count == 0"), or a field said as a state ("the manifest is published", where a
step outputs `published`: read as `published == true`, said so). A clause that is one comparison of a field with a literal
(`spec.success.read_comparison`) is checked on the one step whose output has that field (its declared
outputs or its skill's), or the last of several (the run's end state), with a warning at the line
saying where it went; a field no step outputs is left to the caller, which warns it is not checked.
"""

from __future__ import annotations

from orchestrator.spec.model import SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.success import read_comparison
from orchestrator.spec.whole_success import CODE, outputs_of

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "manifest is published", "posted": a field said as a state, read as `published == true`
_STATE = _rx(r"^\s*+(?:(?:the\s+)?[\w-]{1,40}+\s+(?:is|are|was|were|got|gets|has\s+been)\s+)?(?P<field>[A-Za-z_]\w{0,60}+)\s*+$")


def bare_check(clause: str, line: int, steps: list[StepSpec], src: Source) -> tuple[int, SpecText] | None:
    """(index of the step, its success text) for a comparison on a field one step outputs, else None."""
    compared = read_comparison(clause)
    state = _STATE.match(clause) if compared is None else None
    if compared is None and state is None:
        return None
    field = compared[0] if compared is not None else state.group("field") if state is not None else ""
    owners = [i for i, s in enumerate(steps) if field in outputs_of(s, src.vocabulary)]
    if not owners:
        return None
    at = owners[-1]  # the run's end: the last step whose output has it
    step = steps[at]
    how = "the one step whose output has" if len(owners) == 1 else "the last of the steps whose output has"
    written = " ".join(clause.split()) if compared is not None else f"{field} == true"
    guess = "" if compared is not None else f" ('{' '.join(clause.split())}' names the output `{field}`: read as true)"
    src.warn(line, f"{step.id} ({step.name}): '{written[:60]}' is read as the run's success check on this step's "
                   f"output ({how} `{field}`){guess}: check the plan, or write "
                   f"`steps.{step.id}.output.{written}`", CODE)
    return at, SpecText(text=written, line=line, kind="success")
