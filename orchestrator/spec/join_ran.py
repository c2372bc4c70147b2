"""A step said to run after whichever of a group of branches ran, the group named by the mark its branches share.

    ④ Wall-to-wall cover ... crate_type + crates (whichever ③ ran)     after ③a or ③b, whichever ran
    D  - waits on B and whichever C ran                                after B, and C1 or C2, whichever ran
    5. Report — once whichever step 3 ran is done                      after 3a or 3b

Branches are often numbered as one step with letters or sub-numbers (③a / ③b, 3a / 3b, 3.1 / 3.2, cues
C1 / C2); the step after them names the group by its bare mark: "whichever ③ ran", "whichever C ran",
"whichever step 3 ran". The mark (a circled number, a number, a capital letter, with or without
"step"/"cue") names the earlier steps whose title, or grid row key (`spec.cue_notes.cue_labels`), opens
with it and a letter or number more ("③a", "C1", "3.2"); two or more such steps, at least one with a
condition or as another's other branch, are the branches. The step then runs once after whichever of
them ran (`join: any`), its inputs from the one that ran (the planner's join binding); steps named
before "and whichever" ("waits on B and whichever C ran") are waited for too. A step that already says
what it depends on, or whose mark names fewer than two steps, is left as it was (the planner's guard
warns a join it does not run as). Each reading is warned at the step (`spec.join-ran`), with what to write.

`read_ran_joins` runs after `spec.branch_join.join_after_conditions`, once the branches' conditions are read.
"""

from __future__ import annotations

import re

from orchestrator.spec.cue_notes import cue_labels
from orchestrator.spec.heading_condition import circled, step_ref
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.join-ran"

_MARKS = "\u2460-\u2473\u2776-\u277f\u2780-\u2793"
# "whichever ③ ran", "whichever C ran", "whichever step 3 was run", "whichever cue C ran"
_WHICHEVER = _rx(rf"(?i)(?<![\w-])whichever[ \t]++(?:of[ \t]++)?+(?:(?:step|cue|stage)[ \t]++)?+"
                 rf"(?P<k>[{_MARKS}]|(?-i:[A-Z])|\d{{1,3}}+)[ \t]++(?:(?:step|one|branch|path)[ \t]++)?+"
                 r"(?:actually[ \t]++)?+(?:ran|runs|went|happened|fired|was[ \t]++(?:run|done|used|picked)|"
                 r"got[ \t]++run|is[ \t]++done|finished)(?![\w-])")
# "waits on B and whichever ...", "after ① and whichever ...": the steps said before it
_OTHERS = _rx(r"(?i)(?<![\w-])(?:(?:waits?|waiting|runs?|goes)[ \t]++)?+(?:on|for|after)[ \t]++(?P<o>[^.;:\n]{1,60}?)"
              r"[ \t]++and[ \t]++whichever(?![\w-])")
_SPLIT = _rx(r"(?<![ \t])[ \t]*+(?:,|\+|&|(?<![\w-])and(?![\w-]))[ \t]*+")


def _key_of(step: StepSpec, labels: dict[str, str]) -> str:
    """The mark opening the step's title or its grid row key ("③a", "C1", "3.2", "4b")."""
    row = next((label for label, sid in labels.items() if sid == step.id), None)
    if row is not None:
        return row
    m = re.match(rf"(?i)^[ \t]*+(?:step[ \t]*+)?([{_MARKS}][a-z0-9]?+|\d{{1,3}}+(?:\.\d{{1,2}}+|[a-z](?![a-z]))?+)",
                 step.name)
    return m.group(1) if m is not None else ""


def _group(key: str, earlier: list[StepSpec], labels: dict[str, str]) -> list[str]:
    """The earlier steps whose mark is `key` with one letter or number more."""
    out = []
    for s in earlier:
        mark = _key_of(s, labels)
        rest = mark[len(key):] if mark.startswith(key) else ""
        if rest and (re.fullmatch(r"[a-z]|\d{1,2}", rest) or re.fullmatch(r"\.\d{1,2}", rest)) and not (
                key.isdigit() and rest.isdigit()):
            out.append(s.id)
    return out


def _text(step: StepSpec) -> str:
    return "\n".join([step.name, step.description, *(t.text for t in step.texts),
                      *(r.text for r in step.readings if r.what != "join")])


def read_ran_joins(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each said to run after whichever of a marked group ran, made so (module docstring)."""
    labels = cue_labels(steps, src) if any(s.form != "heading" for s in steps) else {}
    out: list[StepSpec] = []
    for step in steps:
        joined = step.join == "any" and step.depends_where == step.where  # a join read before, of the branches
        if (step.depends_on and not joined) or (step.depends_where is not None and not joined) or step.for_each:
            out.append(step)
            continue
        text = _text(step)
        m = _WHICHEVER.search(text)
        if m is not None:
            key = m.group("k")
            key = key if circled(key) is not None or key.isdigit() else key.upper()
            group = _group(key, out, labels)
            by_id = {s.id: s for s in out}
            if len(group) >= 2 and any(by_id[g].when or by_id[g].otherwise_of or by_id[g].otherwise_where
                                       for g in group) and (not joined or set(step.depends_on) <= set(group)):
                others: list[str] = []
                if (o := _OTHERS.search(text[:m.end()])) is not None:
                    for part in _SPLIT.split(o.group("o")):
                        sid = step_ref(part, out, labels) if part.strip() else None
                        if sid is not None and sid not in group and sid not in others:
                            others.append(sid)
                if not joined or others:
                    step = _joined(step, [*others, *group], group, m.group(0), src)
                step = _read_text(step, m.group(0))
        out.append(step)
    return out


# a note that says only the join: "D - waits on B and whichever C ran.", "whichever ③ ran"
_ONLY_JOIN = _rx(r"(?i)^[ \t]*+(?:(?-i:[A-Z])[0-9]{0,2}+|\d{1,3}+[a-z]?+)?+[ \t]*+[-–—:)]?+[ \t]*+"
                 r"(?:(?:it[ \t]++)?(?:waits?|runs?|goes)[ \t]++(?:on|for|after)[ \t]++[^.;:\n]{1,60}?[ \t]++and[ \t]++)?+"
                 r"(?P<w>whichever[^.;!\n]{1,40}+)[.!;]?+[ \t]*+$")


def _read_text(step: StepSpec, said: str) -> StepSpec:
    """The step without a text that says only the join ("D - waits on B and whichever C ran."): read here."""
    kept = tuple(t for t in step.texts
                 if (m := _ONLY_JOIN.match(t.text)) is None or m.group("w").strip() != said.strip())
    return step if len(kept) == len(step.texts) else step.model_copy(update={"texts": kept})


def _joined(step: StepSpec, deps: list[str], group: list[str], said: str, src: Source) -> StepSpec:
    line = step.where.rpartition(":")[2]
    branches = " or ".join(group)
    src.warn(int(line) if line.isdigit() else 1,
             f"{step.id} ({step.name.strip()[:60]}): '{said}' is read as a join: it runs once after whichever of "
             f"{branches} ran (the steps whose mark opens with the one said), its inputs from that one"
             + (f", and after {', '.join(d for d in deps if d not in group)}" if len(deps) > len(group) else "")
             + f"; to say so plainly write `Depends on: {', '.join(deps)}` (whichever ran)", CODE)
    reading = Reading(what="join", where=step.where, text=said[:160], note=f"runs once after whichever of {branches} ran")
    return step.model_copy(update={"depends_on": tuple(deps), "depends_where": step.where, "join": "any",
                                   "readings": (*step.readings, reading)})


_rx.save()
