"""Steps of a labelled list whose author says where each value comes from: a step that names no earlier
step waits for none.

     i.   wind-check for the application date.
     ii.  field-rate-calc, one go per field on the list, with the product.     names no earlier step: a root
     iii. tank-mix-plan once every field's back ...                            "once": waits, as ever
     iv.  record-spray-log: the load plan from iii and the wind reading from i.

A list read in order makes each step wait for the one before it. When its author instead writes
where values come from by the items' labels ("from iii", "of (a)", "from 1a") at least twice, and
once from an item that is not the one just before ("the wind reading from i" in item iv), the order
of the list is no order of work: a step (not the first) whose text names no earlier item (by label,
"step N" or the earlier step's skill), says no word of order ("then", "after", "once", "next",
"when ... back", "last", "finally", "first"; not "after 10 sec then 30 sec then give up", which times its
own tries), says no condition ("only if", "unless"; in its text or its title, round 49) and has no
condition, otherwise or dependency of its
own does not wait for the one before it (it still waits for any step whose output it reads). Each
such step is a reading and a warning at its line. A list with no such cross-references is left to
be read in order.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the label an item's line opens with: "i.", "iv)", "(b)", "2a.", "3)"
_ITEM_LABEL = _rx(r"^[ \t]*+\(?(?P<label>[ivx]{1,5}+|[a-h]|\d{1,2}+[a-z]?+)[.)][ \t]")
# a value said to come from an item: "from iii", "of (a)", "from 1a", "in step 2"
# "of (b)/(c)", "from (b) or (c)": each label of such a list cites its item (a bracket opened is closed)
_L = r"[ivx]{1,5}+|[a-h]|\d{1,2}+[a-z]?+"
_CITED = _rx(rf"(?i)\b(?:from|of|in|off|out\s++of)\s++(?:step\s++)?(?:\((?P<label>{_L})\)|(?P<bare>{_L}))(?=[\s,.;:)/]|$)"
             rf"|(?<=\))[ \t]*+(?:/|or|and|&|,)[ \t]*+\((?P<next>{_L})\)(?=[\s,.;:)/]|$)")
_ORDER = _rx(r"(?i)\b(?:then|after|afterwards|once|next|following|last|lastly|finally|first|before|until|"
             r"when\b[^.;]{0,60}?\b(?:back|done|finished|ready|complete|in))\b")
# order words that time a step's own tries, not its place ("try again after 10 sec then 30 sec then give up"),
# and an order word that is a name in a list ("its group, text and until,"): no clause after it
_NOT_ORDER = _rx(r"(?i)\b(?:until|before|after)(?=\s*+(?:[,.;:)]|and\b|or\b|$))|"
                 r"\b(?:after|then|wait)\s++(?:another\s++|a\s++further\s++)?\d{1,4}+\s*+(?:s|secs?|seconds?|m|mins?|"
                 r"minutes?|h|hrs?|hours?)\b|\bthen\s++(?:give\s++up|stop|quit|fail|leave\s++it)\b")
# a condition on the step's running: it is a branch, not a start ("only if the patient is on insulin")
_CONDITION = _rx(r"(?i)\b(?:only\s++(?:if|when|for)|unless|skip\s++(?:it|this)\s++(?:if|when))\b")
_MIN_CITES = 2
# the note of each reading made here: a start read from the list's cross-references, no words about items
ROOT_NOTE = "does not wait for the step before it: the list says where its values come from by the items' labels"


def _label(m: re.Match[str]) -> str:
    return next(g for g in (m.group("label"), m.group("bare"), m.group("next")) if g is not None).lower()


def _as_step(m: re.Match[str], n: int) -> str:
    """The cite of `m` with its label written "step N": "of (b)" -> "of step 2", "/(c)" -> "/step 3"."""
    group = next(g for g in ("label", "bare", "next") if m.group(g) is not None)
    head = re.sub(r"(?i)(?:\(|step\s++)$", "", m.string[m.start():m.start(group)])  # "from step 1": "step" once
    return f"{head}step {n}"


def _labels(steps: list[StepSpec], src: Source) -> list[str | None]:
    out: list[str | None] = []
    for step in steps:
        line = src.line_text(int(step.where.rsplit(":", 1)[1])) if step.where.rsplit(":", 1)[-1].isdigit() else ""
        m = _ITEM_LABEL.match(line)
        out.append(m.group("label").lower() if m else None)
    return out


def _cited(text: str, labels: list[str | None], upto: int) -> set[int]:
    """The indexes of the steps before `upto` that `text` names by their labels."""
    found: set[int] = set()
    for m in _CITED.finditer(text):
        said = _label(m)
        if re.search(r"(?i)\bstep\s", m.group(0)):  # "from (a)" the anchored reader wrote "from step 1"
            found |= {int(said) - 1} if said.isdigit() and 0 < int(said) <= upto else set()
            continue
        found |= {i for i, lab in enumerate(labels[:upto]) if lab == said}
    return found


def _said_as_steps(step: StepSpec, labels: list[str | None], upto: int) -> StepSpec:
    """The step with each earlier item it cites by label written "step N" ("the wind reading from i" ->
    "... from step 1"), so the planner reads the value it takes from that step."""
    def rewrite(text: str) -> str:
        def one(m: re.Match[str]) -> str:
            said = _label(m)
            found = [i for i, lab in enumerate(labels[:upto]) if lab == said]
            return m.group(0) if len(found) != 1 else _as_step(m, found[0] + 1)
        return _CITED.sub(one, text)
    return step.model_copy(update={"description": rewrite(step.description),
                                   "texts": tuple(t.model_copy(update={"text": rewrite(t.text)}) for t in step.texts)})


def said_roots(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, those read as roots by the rule of the module docstring marked so (a reading and a
    warning each); the same list when the document does not say where its values come from."""
    if len(steps) < 3 or any(s.form not in ("list", "paragraph") for s in steps):
        return steps
    labels = _labels(steps, src)
    if sum(1 for lab in labels if lab) < len(steps) or len(set(labels)) < len(labels):
        return steps
    texts = [" ".join([s.description, *(t.text for t in s.texts)]) for s in steps]
    cites = [_cited(text, labels, i) for i, text in enumerate(texts)]
    if sum(len(c) for c in cites) < _MIN_CITES or not any(j < i - 1 for i, c in enumerate(cites) for j in c):
        return steps
    example = next(labels[j] for c in cites for j in sorted(c))
    out = [_said_as_steps(s, labels, i) if cites[i] else s for i, s in enumerate(steps)]
    for i, step in enumerate(steps[1:], start=1):
        if cites[i] or step.depends_on or step.depends_where or step.unordered_where or step.starts_with \
                or step.when or step.otherwise_where or (step.for_each and "step" in step.for_each):
            continue
        text = texts[i]
        if _ORDER.search(_NOT_ORDER.sub(" ", text)) or _CONDITION.search(f"{step.name} {text}") or re.search(r"(?i)\bstep(?:\s++|-)\d", text) \
                or any(named in text for s in steps[:i] if (named := s.skill or (s.name if "-" in s.name else ""))):
            continue
        line = int(step.where.rsplit(":", 1)[1])
        note = f"{ROOT_NOTE}, and item {labels[i]} names no earlier item"
        reading = Reading(what="depends_on", where=step.where, text=" ".join(text.split())[:160], note=note)
        out[i] = out[i].model_copy(update={"unordered_where": step.where, "readings": (*step.readings, reading)})
        src.warn(line, f"{step.id} ({step.name}): read as not waiting for {steps[i - 1].id}: the list names where its "
                       f"values come from ('from {example}', ...) and item {labels[i]} "
                       f"names no earlier item; write 'after {labels[i - 1]}' in it if it waits",
                 "spec.reading")
    return out


_rx.save()
