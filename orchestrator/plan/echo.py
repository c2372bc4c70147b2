"""A step whose skill hands an input back out under the same name: an echo, no reason to wait.

    1. read-ward-counts - takes the ward and the count sheet     (its skill reads `ward`, outputs `ward`)
    2. fetch-ward-budget - takes the ward; doesn't need 1         (reads `ward`, outputs `ward`)
    3. raise-order - once 1 and 2 are done: ward, the shortfall list from 1 and budget left from 2

`ward` comes into the run from outside; step 1 reads it and gives it back among its outputs. Making
step 2 wait for step 1 for a value step 1 was given would kill the parallel start the author asked
for. So a key passed along (not data worked on: its skill does not call it a list, object, rows, text
or file, as a chain of steps that each rework `rows` does, unless its skill calls that output "echoed",
"unchanged", "as given" or "passed through") that a step's skill both reads and outputs,
that no step before it outputs but as an echo, that a later step reads and that no step's text takes
from a step by name (`ward (from Step 1)`), is an echo:

- it makes no later step depend on the echoing step (the step's other data still does);
- a later step that depends on one echoing step anyway takes that step's value, as ever (unless its
  skill calls the output echoed: then it is the workflow input's copy, said so, and the input is taken); one that
  depends on none takes the workflow input; one with several echoing steps before it and none after
  another (steps 1 and 2 for step 3) takes the workflow input, as they are copies of it.

An output its skill says it changes ("`ward` (upper-cased)", `spec.approve39.reworked`) still makes no
later step wait, but it is no copy of the workflow input: a later step that waits for several echoing
steps, one of which changes it, takes the nearest one's value (step 4 after 1, 2 and 3 gets "7B", not "7b").
Several that each change it and none waits for another (steps 1 and 2 side by side): the first listed's, said
so (`plan.dataflow.take_input_over_echoes`).

One warning at the first echoing step's line names the steps that took the workflow input, with how
to take the step's value instead. Read in one pass over the steps, keeping the names output so far.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.scope import Produced
from orchestrator.spec.model import StepSpec

# what a skill says of an output that is its input handed back as it came: "(text, echoed)", "unchanged"
_ECHOED = re.compile(r"(?i)(?<![\w-])(?:echo(?:ed|es)?|unchanged|as\s+given|passed\s+(?:through|back)|"
                     r"handed\s+back|same\s+as\s+(?:the\s+)?input)(?![\w-])")


def said_echoed(about: str) -> bool:
    """Whether the words a skill gives an output say it is its input handed back as it came (module docstring)."""
    return bool(about) and _ECHOED.search(about) is not None


# what a skill says of a value that is data to work on, not a key passed along ("list of rows", "object", "array")
_DATA = re.compile(r"(?i)\b(?:list|array|object|rows?|table|records?|items|csv|json|text|file)s?\b|[{\[]")


class Echoes:
    """The echoes of a plan's steps (module docstring), found once."""

    def __init__(self, steps: Sequence[StepSpec], produced: Mapping[str, Produced],
                 reads: Mapping[str, Mapping[str, str]], declared: Sequence[str], named: Sequence[str] = (),
                 reworks: Mapping[str, frozenset[str]] | None = None,
                 said_echoed: Mapping[str, frozenset[str]] | None = None) -> None:
        # "ward (from Step 1)", a Data Contracts edge naming `ward` (`named`): that step's, as said
        taken = {f.name for s in steps for f in s.inputs if f.source} | set(named)
        allowed = set(declared)
        last_read: dict[str, int] = {}  # name -> the last step that reads it: an echo nobody reads later is none
        for index, step in enumerate(steps):
            for n in reads.get(step.id, {}):
                last_read[n] = index
        self.first: dict[str, str] = {}  # echoed name -> the first step that echoes it
        self.by_step: dict[str, frozenset[str]] = {}  # step id -> the names it echoes
        # step id -> the names it reads that steps before it output only as echoes
        self.only_echoed: dict[str, frozenset[str]] = {}
        real: set[str] = set()  # names output so far not as echoes
        for index, step in enumerate(steps):
            made = produced[step.id]
            about = reads.get(step.id, {})
            behind = frozenset(n for n in about if n in self.first and n not in real)
            if behind:
                self.only_echoed[step.id] = behind
            own = frozenset(n for n in about if made.outputs(n) and n not in real and n not in taken
                            and last_read.get(n, -1) > index
                            and (_DATA.search(about[n]) is None or n in (said_echoed or {}).get(step.id, ()))
                            and n not in step.input_values and (not allowed or n in allowed))
            if own:
                self.by_step[step.id] = own
                for n in own:
                    self.first.setdefault(n, step.id)
            real |= (made.fields | made.aliases) - own
        self.took_input: dict[str, list[str]] = {}  # echoed name -> the steps that took the workflow input
        self.reworks = reworks or {}  # step id -> the outputs its skill says it changes: no copies of the input
        self.said_echoed = said_echoed or {}  # step id -> the outputs its skill calls echoed: copies, said so

    def for_dependencies(self, step_id: str, names: Sequence[str]) -> list[str]:
        """`names` without those the steps before `step_id` output only as echoes."""
        behind = self.only_echoed.get(step_id)
        return [n for n in names if n not in behind] if behind else list(names)

    def copies(self, name: str, step_ids: Sequence[str]) -> bool:
        """Every one of `step_ids` (two or more, or one whose skill calls `name` echoed) echoes `name`."""
        if step_ids and all(name in self.said_echoed.get(sid, ()) and name in self.by_step.get(sid, ())
                            for sid in step_ids):
            return True  # "product (text, echoed)": the workflow input's copy, said so
        return len(step_ids) > 1 and all(name in self.by_step.get(sid, ()) and name not in self.reworks.get(sid, ())
                                         for sid in step_ids)

    def warnings(self, steps: Sequence[StepSpec], path: str) -> list[Diagnostic]:
        """At each first echoing step's line: the later steps that took the workflow input."""
        found: list[Diagnostic] = []
        for step in steps:
            for name in sorted(self.by_step.get(step.id, ())):
                readers = self.took_input.get(name, [])
                if self.first.get(name) != step.id or not readers:
                    continue
                others = [sid for sid, own in self.by_step.items() if name in own and sid != step.id]
                also = f", as {', '.join(others[:4])} do{'es' if len(others) == 1 else ''}" if others else ""
                listed = ", ".join(readers[:4]) + (" and more" if len(readers) > 4 else "")
                number = step.id.rsplit("-", 1)[-1]
                found.append(warning_at(step.where, path, (
                    f"{step.id} ({step.name}): its skill reads `{name}` and gives it back among its outputs{also}; "
                    f"{listed} read `{name}` and take the workflow input, so none waits for a step only for "
                    f"that copy. To take {step.id}'s value write `{name} (from Step {number})` in the step "
                    "that needs it"), "plan.input-echo"))
        return found
