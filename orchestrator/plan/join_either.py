"""A step said to run after whichever of two branches ran, in words its reader did not place.

    ... status / worklist ID from step 3 or step 4 (whichever ran)      after step-3 or step-4
    post-terrain-board – after 4a or 4b, whichever ran                   after the two steps before it
    Hand it the totals, after whichever of the two ran                   the same
    Once the branch is done, send the summary                            the same

A step that says nothing else of what it waits for (no `Depends on`, no dependency sentence) and whose
text says a join (`spec.branch_join.join_said`: "whichever ran", "the one that ran", "after either
branch", "once the branch is done") runs once after whichever of the steps it names ran (`join:
any`): the steps named by number ("step 3 or step 4", "4 / 5", "#3 or #4"), else, when the numbers
carry letters ("4a or 4b", branches of one numbered step) or no step is named ("whichever of the
two"), the two steps right before it; steps named by their titles or words ("whichever of Offset quote / POD
setup ran", "whichever of the feed one or the rest one went") and "whichever <word> ran" (the latest choice
before it: a step and its other branch) are `spec.join_whichever`'s. Its inputs are then taken from the one that ran (the planner's
join binding). Before, the text was only warned ("does not run after a choice of branches") and the
step waited for one branch by its data. The reading is a warning at the step's line saying which
steps and how to write it plainly (`Depends on: step 3 or step 4`); a step whose steps do not
resolve to two earlier steps is left as it was.

`read_either_joins` is a pure pass over the spec, one step at a time, before the dependencies are
derived (`plan.build`).
"""

from __future__ import annotations

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.spec.branch_join import join_said
from orchestrator.spec.join_whichever import latest_choice, named_steps
from orchestrator.spec.model import Reading, StepSpec, WorkflowSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "plan.join-either"

# two or more steps named by number, joined by "or" / "/" / ",": "step 3 or step 4", "4a or 4b", "#4 / #5"
_REF = r"(?:steps?\s*+|#\s*+)?(\d{1,4}+)([a-z]?+)(?!\w)(?!\.\d)"
_PAIR = _rx(rf"(?i)(?<![\w.]){_REF}\s*+(?:or|/|,|\|)\s*+{_REF}")
# the join said with no step named: "whichever of the two ran", "once the branch is done"
_NO_NAME = _rx(r"(?i)(?<!\w)(?:whichever\s++(?:of\s++)?(?:the\s++)?(?:two|branches|paths)|"
               r"(?:once|when|after)\s++the\s++(?:branch|path|route)\s++(?:is\s++|has\s++)?(?:done|finished|"
               r"over|run|ran|complete)|after\s++either\s++(?:branch|path|one|of\s++them)|"
               r"(?:the\s++)?one\s++that\s++ran)(?!\w)")
_RAN = _rx(r"(?i)(?<!\w)(?:whichever|either|the\s++one\s++that)(?!\w)")


def _text(step: StepSpec) -> str:
    return " ".join([step.name, *(t.text for t in step.texts), step.description])


def _named(text: str, earlier: list[str], before: list[StepSpec]) -> tuple[list[str], bool] | None:
    """The steps the join names and whether they are a guess (lettered or unnamed: the two before)."""
    if (said := named_steps(text, before)) is not None:  # "whichever of Offset quote / POD setup ran"
        return said, False
    for m in _PAIR.finditer(text):
        numbers = [m.group(1), m.group(3)]
        letters = [m.group(2), m.group(4)]
        if any(letters):
            return (earlier[-2:], True) if len(earlier) >= 2 else None
        ids = [f"step-{n}" for n in numbers]
        if all(i in earlier for i in ids) and ids[0] != ids[1]:
            return ids, False
    if (choice := latest_choice(text, before)) is not None:  # "whichever plan ran": the latest choice
        return choice, True
    if _NO_NAME.search(text) and len(earlier) >= 2:
        return earlier[-2:], True
    return None


def read_either_joins(spec: WorkflowSpec) -> tuple[WorkflowSpec, list[Diagnostic]]:
    """The spec with each step said to run after whichever branch ran made so (module docstring)."""
    found: list[Diagnostic] = []
    steps: list[StepSpec] = []
    earlier: list[str] = []
    before: list[StepSpec] = []
    changed = False
    for step in spec.steps:
        text = _text(step)
        if (not step.depends_on and step.depends_where is None and step.join != "any" and not step.for_each
                and _RAN.search(text) and (join_said(text, after_choice=True) or _NO_NAME.search(text))):
            named = _named(text, earlier, before)
            if named is not None:
                ids, guessed = named
                said = " or ".join(ids)
                step = step.model_copy(update={
                    "depends_on": tuple(ids), "depends_where": step.where, "join": "any",
                    "readings": (*step.readings, Reading(what="join", where=step.where, text=text[:160],
                                                         note=f"runs once after whichever of {said} ran")),
                })
                changed = True
                how = "the two steps before it (the text names them by letters or not at all)" if guessed else said
                if guessed and ids != earlier[-2:]:  # "whichever plan ran": a word, no step
                    how = f"{said}, the branches of the latest choice before it (the text names them by a word only)"
                found.append(warning_at(step.where, spec.path, f"{step.id} ({step.name[:60]}): the text says it runs "
                                        f"after whichever branch ran: read as once after whichever of {how} ran, "
                                        f"its inputs from that one; to say so plainly write `Depends on: {said}` "
                                        "(whichever ran)", CODE))
        steps.append(step)
        earlier.append(step.id)
        before.append(step)
    if not changed:
        return spec, found
    return spec.model_copy(update={"steps": tuple(steps)}), found


_rx.save()
