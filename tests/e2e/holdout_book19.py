"""The nineteenth holdout (tests/fixtures/foreign-specs-holdout19, specs 117-122), its data for
test_foreign_specs_holdouts.py. Blind at 9291db3 (BLIND-RESULTS.md): 6 of 6 validate, 7 of 27 steps fully right,
0 of 10 runs at their final output (6 refused for inputs not taken from where their author lists them), 10 of 10
statuses honest; its kinds are a "+" list of sentence steps with the inputs named in the intro, headings with a
quoted line of the team's own fields ("tool · pulls from · hands over"), YAML in its author's own schema with an
`asks_for:` and an `overall:` block, and three uncommon ones (an aircraft work card with a "data to be entered"
block, a lab SOP with numbered sections and "Note:" paragraphs, a podcast run sheet with a lettered cue grid and
notes keyed by its letters). After the lead's fixes on its first failures (a97bb27: a form's block of fields to
fill in, "I run it with three things: ...") 11 of 27 steps. It is tuning data now: at f193050 (round 22 merged) all
six plan, and of its 282 cases 54 are listed below (inputs given in a block or keys of the author's own, conditions
said in a heading or a cue grid, success checks said in words, two approvals, a fallback made a step). After round 23 (tuned on it) 7 are listed: two step inputs said as "X from step N" under
another name, a section number ("from 5.3") as a step, and the two runs they stop (failing honestly).

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x)` is `x == false` for a flag). What is not so yet is
listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout19"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
PICKUPS, CRATING, SWEEP, WORKCARD, SEEDS, RUNSHEET = (_BY_NUMBER[n] for n in ("117", "118", "119", "120", "121",
                                                                             "122"))

_IN_SPEC = "steps['#2'].output.within_spec"
_OFF = "steps['#1'].output.off_target"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (CRATING, 3): (17, (_IN_SPEC, f"{_IN_SPEC} == true", f"{_IN_SPEC} is true")),
    (CRATING, 4): (20, (f"not ({_IN_SPEC})", f"not {_IN_SPEC}", f"{_IN_SPEC} == false", f"not ({_IN_SPEC} == true)")),
    (RUNSHEET, 3): (17, (_OFF, f"{_OFF} == true", f"{_OFF} is true")),
    (RUNSHEET, 4): (18, (f"not ({_OFF})", f"not {_OFF}", f"{_OFF} == false", f"not ({_OFF} == true)")),
}
_CRANE = "steps['#3'].output.needs_crane"
_WORN = "steps['#1'].output.any_worn"
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (SWEEP, 4): {"required": True, "timeout_s": 5400.0, "on_timeout": "approve",
                 "when": (_CRANE, f"{_CRANE} == true", f"{_CRANE} is true")},
    (WORKCARD, 3): {"required": True, "timeout_s": 1800.0, "on_timeout": "reject",
                    "when": (_WORN, f"{_WORN} == true", f"{_WORN} is true")},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (SWEEP, 1): (4, "C02 at 12.6 mm/s needs a crane: the ops manager signs off (lines 39-43) before the work order"),
    (WORKCARD, 1): (3, "brake 3 at 0.8 mm is worn: the RII inspector signs off (lines 28-31) before the stores call"),
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why, to leave the
# list once it pauses (a run that ends `succeeded` here is a success short of what its author meant)
UNPAUSED: dict[tuple[str, int], str] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
