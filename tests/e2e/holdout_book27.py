"""The twenty-seventh holdout (tests/fixtures/foreign-specs-holdout27, specs 165-170), its data for
test_foreign_specs_holdouts.py. Blind at 57efe9a1 (BLIND-RESULTS.md): 6 of 6 validate, 12 of 31 steps fully right,
21 of 29 policy lines as meant, 2 of 10 runs at their final output, 10 of 10 statuses honest; its kinds are a
markdown Architecture Decision Record, a glasshouse watering round in a home-made YAML schema, a dental practice's
plain-text recall notes, a dog-grooming salon's booking note, a gliding club's challenge/response launch checklist
and a print shop's Procfile. It is tuning data now; what main does not read as meant yet is listed below with its
reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py (167's `count` is the length of its `messages`, so either is the
count meant). 167's approval is asked only under a condition (`required_when`): its first run does not meet it;
its second is approved and resumed, its third meets 2 hours of silence and is held at the approval, its timeout
and what silence does (reject: nothing is sent, the run stops) checked on the plan. What is not so yet is listed
with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import falsy, truthy

NAME = "foreign-specs-holdout27"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
REFUNDS, GREENHOUSE, RECALL, GROOMING, GLIDER, PRINT = (_BY_NUMBER[n] for n in ("165", "166", "167", "168", "169",
                                                                                "170"))

_UNMATCHED = "steps['#3'].output.unmatched_total"
_MATTED = "steps['#1'].output.matted"


# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (REFUNDS, 4): (18, (f"{_UNMATCHED} > 500",)),
    (REFUNDS, 5): (19, (f"{_UNMATCHED} <= 500", f"not ({_UNMATCHED} > 500)")),
    (GROOMING, 3): (18, truthy(_MATTED)),
    (GROOMING, 4): (19, falsy(_MATTED)),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (RECALL, 4): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                  "when": ("steps['#3'].output.count > 20", "steps['#3'].output.messages | length > 20")},
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
