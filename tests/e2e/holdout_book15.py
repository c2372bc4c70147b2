"""The fifteenth holdout (tests/fixtures/foreign-specs-holdout15, specs 93-98), its data for
test_foreign_specs_holdouts.py. Blind at 5c74870 and again at 5bd331d (BLIND-RESULTS*.md): 6 of 31 steps fully
right, 2 of 9 runs at their final output, 94 and 96 refused; three of its kinds are uncommon shapes (a Notion
export, an INI file, a typed letter) and 95 is YAML in its author's own schema. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x >= 1)` is `x == 0` for a count). What is not so yet
is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import still_misread

NAME = "foreign-specs-holdout15"
PLATELET, SLATE, RACE, KICKOFF, CRANE, HARVEST = folders_of(FIXTURES / NAME)

_FITS = "steps['#3'].output.fits"
_RISK = "steps['#3'].output.risk"
_READY = "steps['#1'].output.ready_count"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (SLATE, 4): (54, (_FITS, f"{_FITS} == true", f"{_FITS} is true")),
    (SLATE, 5): (71, (f"not ({_FITS})", f"not {_FITS}", f"{_FITS} == false", f"not ({_FITS} == true)")),
    (CRANE, 4): (36, (f"{_RISK} == 'high'",)),
    (CRANE, 5): (44, (f"not ({_RISK} == 'high')", f"{_RISK} != 'high'")),
    # "at least one block is ready": a count, so >= 1 and > 0 are one case, and "no block" is == 0
    (HARVEST, 3): (22, (f"{_READY} >= 1", f"{_READY} > 0")),
    (HARVEST, 4): (28, (f"not ({_READY} >= 1)", f"{_READY} == 0", f"{_READY} < 1", f"not ({_READY} > 0)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (PLATELET, 5): {"required": True, "timeout_s": 900.0, "on_timeout": "approve",
                    "when": ("steps['#4'].output.total_units > 12",)},
    (KICKOFF, 4): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                   "when": ("steps['#1'].output.headcount > steps['#2'].output.seats",)},
    (HARVEST, 3): {"required": True, "timeout_s": 10800.0, "on_timeout": "reject",
                   "when": (f"{_READY} > 2",)},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
_NO_STEP = "'{}' (line {}) is not read as a step (warned at line {}: not a spec section): no plan step runs `{}`"
_MERGED = ("'If no block is ready, then instead plan-resample chooses the day' (line 28) is read as part of step-3 "
           "(warned at line 28): no plan step runs `plan-resample`")
_HARVEST_JOIN = ("'Whichever of the two happened' (line 30): plan-resample is no step (line 28 merged into step-3), so "
                 "`{}` is bound to book-pick-crew's alone, not to whichever of the two ran")
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    **{(SLATE, 4, a): _NO_STEP.format("4a. Lock it", 51, 51, "lock-schedule")
       for a in ("skill", "depends_on", "for_each", "condition", "approval", "input program")},
    **{(SLATE, 5, a): _NO_STEP.format("4b. Trim it", 68, 51, "trim-block")
       for a in ("skill", "depends_on", "for_each", "condition", "approval", "input program", "input block_minutes")},
    (SLATE, 6, "skill"): "with 4a and 4b not read the plan has 4 steps: send-to-printer is its step 4, not 6",
    (SLATE, 6, "depends_on"): "'after 4a or 4b (whichever happened)' (line 85): with 4a and 4b not read, send-to-printer "
                              "waits on step 3 alone (warned at line 85: join not read)",
    (SLATE, 6, "join"): "'whichever happened' (line 85) has no branches to join (warned at line 85)",
    **{(SLATE, 6, f"input {name}"): f"'`schedule` and `status` from 4a/4b' (line 88): with 4a and 4b not read, `{name}` "
                                    "is a workflow input of its own derived from the skill (warned at line 11)"
       for name in ("schedule", "status")},
    (HARVEST, 3, "condition"): "'When both are done: if at least one block is ready' (line 22) is read as the condition "
                               "'both are done', which names no value (warned at line 22): book-pick-crew runs on every run",
    (HARVEST, 3, "approval"): "'Marguerite must agree before the crew is booked' (line 25) is read as an approval asked "
                              "on every run (warned at line 25), its condition 'more than 2 blocks' and its 3 hours "
                              "(line 26, warned 'not understood: 3 hours') not: no timeout",
    **{(HARVEST, 4, a): _MERGED for a in ("skill", "depends_on", "for_each", "condition", "approval",
                                          "input harvest_date", "input rain_coming", "input blocks")},
    (HARVEST, 5, "skill"): "with plan-resample merged into step-3 the plan has 4 steps: notify-cellar is its step 4, not 5",
    (HARVEST, 5, "depends_on"): "'Whichever of the two happened' (line 30): plan-resample is no step, so notify-cellar "
                                "waits on book-pick-crew alone (warned at line 30: join not read)",
    (HARVEST, 5, "join"): "'Whichever of the two happened' (line 30) has no branches to join (warned at line 30)",
    **{(HARVEST, 5, f"input {name}"): _HARVEST_JOIN.format(name) for name in ("plan", "blocks", "date")},
    (KICKOFF, 4, "approval"): "the approval callout after the steps table (line 51) is not read (warned 'not a step' at "
                              "line 51): step 4 sends with no sign-off",
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (SLATE, 37, 0): "'Mark it `cleared: false` and keep going' is read as continue with {title: null, runtime_min: null, "
                    "cleared: false}: the other outputs are set to null, without a word",
    (SLATE, 66, 0): _NO_STEP.format("4a. Lock it", 51, 51, "lock-schedule") + ", so its policy is on no step",
    (SLATE, 94, 0): "'after that stop and email Dolores at the print shop' is read as an escalation to a person "
                    "(`escalate`, 'email Dolores at the print shop'), not as the step failing, without a word",
    (KICKOFF, 28, 0): "the `<details>` toggle (lines 24-30) holding line 28 is not read as step-1's text (warned 'not a "
                      "step'): no retry",
    (KICKOFF, 34, 0): "the `<details>` toggle holding line 34 is not read as step-2's text (warned 'not a step'): no timeout",
    (KICKOFF, 35, 0): "the `<details>` toggle holding line 35 is not read as step-2's text (warned 'not a step'): no "
                      "value to carry on with",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (SLATE, "success", 98): "'the printer job comes back with at least 3 films on it' is not tied to send-to-printer's "
                            "`films` and not checked (warned at line 98: not a comparison of an output field with a value)",
    (CRANE, "limit", 10): "`max_total = 20min` (line 10) is read as step-1's 1200 s attempt timeout ([general] is read as "
                          "step-1's policy, warned at line 6), not as the whole run's limit: the run has the default 3600 s",
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
    (SLATE, 37): "'Mark it `cleared: false`' becomes a value with the step's other outputs null, without a word",
    (SLATE, 54): "the condition is in the section '4a. Lock it', which is not read: the only word is at line 51",
    (SLATE, 66): "the policy is in the section '4a. Lock it', which is not read: the only word is at line 51",
    (SLATE, 71): "the otherwise is in the section '4b. Trim it', which is not read: the only word is at line 51",
    (SLATE, 94): "'stop and email Dolores' is read as an escalation, not as the step failing, without a word",
    (CRANE, 10): "the 20 min limit is warned at line 6 only ('not understood: 20min', [general] read as step-1's "
                 "policy), none at line 10",
}
# (folder, run: 0 the author's inputs, n the n-th of more_runs) -> (what stops it reaching the author's
# output, asserted on the plan, and why); these runs are not made
NOT_RUN = {
    **{(SLATE, n): (still_misread(6, "input schedule"),
                    "'4a. Lock it' and '4b. Trim it' are not read, so send-to-printer's `schedule` is a workflow input "
                    "of its own the author does not give: the run is refused ('missing required input schedule')")
       for n in (0, 1)},
    (KICKOFF, 0): (still_misread(4, "approval"),
                   "step-4 (send) asks for approval on every run (the callout's condition, more kids than the room has "
                   "seats, line 51, is not read), so the run pauses where its author expects none"),
    (HARVEST, 0): (still_misread(3, "approval"),
                   "step-3 (book-pick-crew) asks for Marguerite's approval on every run (its condition, more than 2 "
                   "blocks, is not read), so the run pauses although 2 blocks are ready; the author expects no approval "
                   "here, so approving it would not be their run"),
    (HARVEST, 1): (still_misread(4, "skill"),
                   "no block is ready, so the author's run takes plan-resample (line 28), which is no step (merged into "
                   "step-3): the run pauses for step-3's approval instead"),
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly (never
# `succeeded`), and one that reaches its author's output must leave this list
FAILS: dict[tuple[str, int], str] = {
}
