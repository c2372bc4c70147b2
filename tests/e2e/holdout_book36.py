"""The thirty-sixth holdout (tests/fixtures/foreign-specs-holdout36, specs 219-224), its data for
test_foreign_specs_holdouts.py. Blind at 5da53ce5 (BLIND-RESULTS.md): 6 of 6 validate (219, 220 and 222 read by
their skill calls, spec.wired52; 221, 223 and 224 by the anchored markdown reader), 13 of 24 steps fully right, 27 of
30 policy lines as meant, 3 of 6 success checks right, 2 of 13 runs at their final output (222's approved run, and its
silent run held at the gate as meant), 13 of 13 statuses honest, no false succeeded, no approval skipped; phrasings 29
of 40 exactly (phrasings-holdout36.yaml, scored there, not here). Its kinds are a Ruby script, a C header, an INI
file, a Scala object used as runbooks, a trawler's deck log and a school kitchen's batch card. It is tuning data now.
Main at b47879fd read it as blind. Main at b24539f5 (after round 54's approval54, log54 and prose54 readers) reads
222, 223 and 224 as meant (4 of 4 steps each, by the scorer): 222's approval asked only over 300 (run 1 no longer
paused), 223's `catch_kg` and its hour and decl_no check read, 224's 'use-by 2 days' bound; their runs reach their
author's output (223's three steps keep a policy cited a line early). Since elixir54 219 reads as meant, and since
tcl54 (spec.c_macros54) 220: its banner's fill-ins are the inputs, `#define STYLE` a literal, the `for_each` a
for-each, `ALL(reading)` the gather (4 of 4 steps, both runs at their output). 221 reads as the lists below say: its
`[run]` section is a first step raise-invoice and its runs are refused (loa, nights). What it does not read as meant
yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 221's steps 2 and 3 are the two arms of `only_if = {1.band} is
large` / `otherwise_of = 2`. 222's approval (l.20-21) is asked only when price-job's price is over 300, waits 1 hour
and silence stops the run: its first run does not meet it (70), its second is approved and resumed, its third is met
by silence and held at the approval (expect.yaml's `approval_answer`). What is not so yet is listed with its reason:
one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout36"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
BAKE, TANKS, BERTH, PRESS, LANDING, CARD = (_BY_NUMBER[n] for n in ("219", "220", "221", "222", "223", "224"))

_OVER_300 = "steps['#1'].output.price > 300"
_LARGE = "steps['#1'].output.band == 'large'"


# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (BERTH, 2): (20, (_LARGE,)),  # "only_if = {1.band} is large"
    (BERTH, 3): (27, (f"not ({_LARGE})", "steps['#1'].output.band != 'large'")),  # "otherwise_of = 2"
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (PRESS, 3): {"required": True, "timeout_s": 3600.0, "on_timeout": "reject",
                 "when": (_OVER_300, _OVER_300.replace("'", '"'))},  # 'if quote("price") is over 300 Maggie signs'
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
    (LANDING, 1): "l.7's retry is right but cited at l.5 (the paragraph's first line)",
    (LANDING, 2): "l.9's fallback last-weeks-price is right but cited at l.8",
    (LANDING, 3): "l.11's 'only once, no second tries' is right but cited at l.10",
}
# folder -> why test_foreign_specs_holdouts's no-step-made-up case does not hold for it yet
MADE_UP: dict[str, str] = {
}
# (folder, line) -> the failure class a rule read at that line is on, where the line names one, with why
RULE_ON: dict[tuple[str, int], tuple[str, str]] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int] | tuple[str, int, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# folder -> why its success check is not on the step, field and value meant at its line yet
KNOWN_CHECK: dict[str, str] = {
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output and end otherwise: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at b47879fd (222-224's again at b24539f5); (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
    (BAKE, 13): "'fetch-orders: '1+2 go off at the same time, no point waiting on each other' ... not understood: "
                "'waiting'': the line says the two calls are roots, as read",
    (PRESS, 3): "'whole run: ... not understood: 'waiting'': the 2 hours are read as meant",
    (PRESS, 23): "'not understood: 'a second'': 'a second print run' is the reason, and no retry is read as meant",
    (LANDING, 8): "'not understood: 'waiting'': the 2 min are read as meant",
}
