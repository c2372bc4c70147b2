"""The twenty-fourth holdout (tests/fixtures/foreign-specs-holdout24, specs 147-152), its data for
test_foreign_specs_holdouts.py. Blind at ea7dc36d (BLIND-RESULTS.md): 4 of 6 validate (148 and 150 refused),
12 of 27 steps fully right, 12 of 26 policy lines as meant, 2 of 10 runs at their final output (149's two, right
only because both branches ran), 10 of 10 statuses honest; its kinds are an XML file in its author's own schema, a
Terraform-like HCL file, a GitHub pull-request description, a ship's engine-room log, a youth-football session
plan and a pub-quiz host sheet. It is tuning data now; what main does not read as meant yet is listed below with
its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py; expect.yaml does not give the line of 150's approval, so its
APPROVAL entry does (`line`); its wait and what silence does are also a policy line of step 3 (line 16). 150's
first run is approved and resumed (`final_output_after_approval`); its second meets silence for 2 hours and is
held at the approval, its timeout and `on_timeout` checked on the plan (never waited out). What is not so yet is
listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout24"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
SCAN, ROOFTOP, REFUND, BUNKER, SESSION, QUIZ = (_BY_NUMBER[n] for n in ("147", "148", "149", "150", "151", "152"))

_AMOUNT = "steps['#1'].output.amount"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (REFUND, 2): (10, (f"{_AMOUNT} > 100",)),
    (REFUND, 3): (11, (f"not ({_AMOUNT} > 100)", f"{_AMOUNT} <= 100")),
    (BUNKER, 3): (14, ("steps['#2'].output.margin_t < 60",)),
    (QUIZ, 4): (15, ("inputs.teams > 12",)),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (BUNKER, 3): {"required": True, "timeout_s": 7200.0, "on_timeout": "skip", "line": 15, "when": (None,)},
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
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
