"""The twenty-first holdout (tests/fixtures/foreign-specs-holdout21, specs 129-134), its data for
test_foreign_specs_holdouts.py. Blind at 0579ed1 (BLIND-RESULTS.md): 5 of 6 validate (the JSON file refused),
8 of 29 steps fully right, 0 of 9 runs at their final output, 7 of 9 statuses honest (130 `succeeded` twice with
the wrong output); its kinds are JSON in an author-made schema, a Python settings module of `dict(...)` steps, a
markdown FAQ, a theatre calling script with cues, a crontab with comments and an RFC-style memo. It is tuning data
now; what main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. `ANSWERED` gives the answers of runs whose expect.yaml says them
only in its notes ("this output assumes they sign off"); such a run is approved and resumed. What is not so yet is
listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout21"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
RESTOCK, PAVILION, OVERDUE, CUES, DENTAL, VLAN = (_BY_NUMBER[n] for n in ("129", "130", "131", "132", "133", "134"))

_BIG = "steps['#1'].output.attendees"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (PAVILION, 3): (28, (f"{_BIG} > 150",)),
    (PAVILION, 4): (34, (f"not ({_BIG} > 150)", f"{_BIG} <= 150")),
}
_INCIDENTS = "steps['#3'].output.incident_count"
_RISK = "steps['#4'].output.risk"
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (CUES, 4): {"required": True, "timeout_s": 2700.0, "on_timeout": "approve",
                "when": (f"{_INCIDENTS} > 0", _INCIDENTS)},
    (VLAN, 5): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                "when": (f"{_RISK} == 'high'", f'{_RISK} == "high"')},
}
# (folder, run) -> (author's step -> "approved" or "silence", why): answers said only in expect.yaml's notes
ANSWERED: dict[tuple[str, int], tuple[dict[int, str], str]] = {
    (CUES, 0): ({4: "approved"}, "one incident: the PM is asked; the output is the same whether she approves or is "
                                 "silent (no reply in 45 min = send it anyway)"),
    (VLAN, 1): ({5: "approved"}, "risk high: the CAB is asked; 'this output assumes they sign off'"),
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, line, n-th policy of that line[, author's step where two steps' policies share the line]) -> why that
# policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int] | tuple[str, int, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (OVERDUE, "success", 18): "the success check (sent at least one notice, its total equal to fine-calc's) is "
                              "not checked (warned: not a comparison of an output field with a value)",
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
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
