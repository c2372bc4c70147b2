"""The thirty-third holdout (tests/fixtures/foreign-specs-holdout33, specs 201-206), its data for
test_foreign_specs_holdouts.py. Blind at 5b05160b (BLIND-RESULTS.md): 2 of 6 validate (202, 203, 204 and 206
refused), 1 of 30 steps fully right, 7 of 30 policy lines as meant, 0 of 6 success checks read, 0 of 13 runs at
their final output (201 refuses both runs at start on unknown inputs, 205 fails all three at step 1); its kinds are
a GraphQL SDL schema, a Perl runbook script, a Node.js config module, a Fortran namelist, an SMS thread copied off
a phone and a mainframe JCL job deck. It is tuning data now: at c186d848 202, 203, 205 and 206 are read by round
50's readers (`spec.perl50`, `spec.js_config50`, `spec.sms50`, `spec.jcl50`) and 202's, 203's and 206's runs end
with their author's output; 201 (GraphQL) is read by `spec.graphql50` since r51gql, both runs at their author's
output (its l.17 check not read), and 204 (namelist) by `spec.namelist50` since r51nml, both runs at their
author's output; 205's 'what time they rang' is `call_time` since round 52 (`plan.said_names52`), its runs still
refused at start on `door_type`. Round 52 also reads 201's l.17 and 203's `doneWhen` as
the run's checks, 204's l.24 'dead or slow' as the fallback on every failure and 206's l.39 'DO NOT RESTART' as no
retry. What main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 203's steps 2 and 3 are `when: "strip.angle === 'overhang'"`
and `when: 'otherwise'`, 204's steps 4 and 5 `only_if = "step3%band == 'high'"` and `only_if = 'otherwise'`, each
one's next step after whichever ran. 205's approval (l.14) is asked only when the quote is over £150, waits 10
minutes and silence is no booking: its first run does not meet it (£85), its second is approved and resumed, its
third is met by silence and held at the approval. What is not so yet is listed with its reason: one that starts
passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import INPUTS_REFUSED, inputs_refused

NAME = "foreign-specs-holdout33"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
RESET, POSTAL, WALL, FLOOD, LOCKOUT, DORMANT = (_BY_NUMBER[n] for n in ("201", "202", "203", "204", "205", "206"))

_OVERHANG = "steps['#1'].output.angle == 'overhang'"
_HIGH = "steps['#3'].output.band == 'high'"
_DOOR = ("l.7's 'door type' is read as the skill's `door`, not the author's `door_type` (a word after the name is "
         "not taken as the author's name: holdout13 84's 'origin country' meant the skill's `origin`, round 52)")
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (WALL, 2): (28, (_OVERHANG, 'steps[\'#1\'].output.angle == "overhang"')),  # when: "strip.angle === 'overhang'"
    (WALL, 3): (35, (f"not ({_OVERHANG})", "steps['#1'].output.angle != 'overhang'")),  # when: 'otherwise'
    (FLOOD, 4): (37, (_HIGH, 'steps[\'#3\'].output.band == "high"')),  # only_if = "step3%band == 'high'"
    (FLOOD, 5): (43, (f"not ({_HIGH})", "steps['#3'].output.band != 'high'")),  # only_if = 'otherwise'
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (LOCKOUT, 3): {"required": True, "timeout_s": 600.0, "on_timeout": "reject",
                   "when": ("steps['#2'].output.price > 150",)},  # "BUT if the quote's over £150 text me first ..."
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (LOCKOUT, 1, "input door"): _DOOR,
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
}
# (folder, line) -> the failure class a rule read at that line is on, where the line names one, with why
RULE_ON: dict[tuple[str, int], tuple[str, str]] = {
    (RESET, 28): ("transient", "'when `rota-assign` is down ... use `rota-even-split` instead': the fallback is said "
                               "for the service being down, and the step's own fallback is the same skill on any "
                               "failure, as meant"),
    (POSTAL, 37): ("timeout", "'register db is slow in the afternoons - give it 5 minutes then give up': the giving up "
                              "is said of the 5 minutes running out, so a rule on the timeout that fails the step"),
    (WALL, 21): ("timeout", "'CAD export hangs sometimes. anything over 45 sec, fail it': the failing is said of the "
                            "45 s running out, so a rule on the timeout that fails the step"),
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (DORMANT, "limit", 10): "the 30 minutes are read (wall 1800 s) but from the JOB card's `TIME=30` and cited at "
                            "l.1, not at l.10's comment that says what TIME=30 means, and nothing is said at l.10",
}
# folder -> why its success check is not on the step, field and value meant at its line yet
KNOWN_CHECK: dict[str, str] = {
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
    (DORMANT, 10, "limit"): "the limit is read as meant but cited at the JOB card (l.1): l.10 says nothing "
                            "(KNOWN_WHOLE)",
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
    **{(LOCKOUT, n): (inputs_refused, INPUTS_REFUSED + "door_type (" + _DOOR + ")") for n in (0, 1, 2)},
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at c186d848; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
    (DORMANT, 33): "'step-3: 'WAITS FOR EVERY STEP02 LETTER.' states a policy that was not understood': it says the "
                   "dependency the SYSIN card `LETTERS=STEP02.*` already makes (step 3 after step 2, its letters all "
                   "of step 2's), read as meant",
}
