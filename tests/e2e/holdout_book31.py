"""The thirty-first holdout (tests/fixtures/foreign-specs-holdout31, specs 189-194), its data for
test_foreign_specs_holdouts.py. Blind at 814acf97 (BLIND-RESULTS.md): 4 of 6 validate (190 and 192 refused),
8 of 29 steps fully right, 10 of 30 policy lines as meant, 0 of 6 success checks read, 0 of 13 runs at their final
output (189, 191 and 194 refuse every run at start, 193 fails at step 3), 13 of 13 statuses honest; its kinds are a
Mermaid sequence diagram, a Windows batch file, a Java .properties file, an R script, a fax cover sheet typed as
plain text and a Graphviz DOT graph. It is tuning data now: at 843d74df all 6 are planned and all 13 runs end with
their author's output; what main does not read as meant yet is listed below with its reason. The script-comment
checks of 190, 192 and 194 and 194's l.14 read as meant since r48check; 191's done key is the run's check, and the
warnings that named 192 l.20's call, 193's dotted inputs, 194's `(once per target)` and its edges unread are gone
since r50warn (WARNED_MISREAD empty).

`WHEN` and `APPROVAL` are as in holdout_book20.py. 189's steps 3 and 4 are the two arms of `alt current_kts more
than 1.5 / else otherwise`, 190's of `if %outliers% GTR 0 ( ) else ( )`, each one's step 5 after whichever ran.
193's approval is asked only under a condition (the price from step 3 over 150): its first run does not meet it
(149, no approval); its second is approved and resumed, its third meets four hours of silence and is held at the
approval, its timeout and what silence does (reject: the notice not placed, the run stops) checked on the plan.
What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout31"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
BOATDAY, STAKEOUT, NIGHTAUDIT, CATCHQC, FAX, SCOPE = (_BY_NUMBER[n] for n in ("189", "190", "191", "192", "193", "194"))

_FAST = "steps['#1'].output.current_kts > 1.5"
_OUTLIERS = "steps['#2'].output.outliers > 0"

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (BOATDAY, 3): (21, (_FAST,)),  # "alt current_kts more than 1.5"
    (BOATDAY, 4): (25, (f"not ({_FAST})", "steps['#1'].output.current_kts <= 1.5")),  # "else otherwise"
    (STAKEOUT, 3): (21, (_OUTLIERS,)),  # "if %outliers% GTR 0 ("
    (STAKEOUT, 4): (23, (f"not ({_OUTLIERS})", "steps['#2'].output.outliers == 0")),  # ") else ("
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (FAX, 4): {"required": True, "timeout_s": 14400.0, "on_timeout": "reject",
               "when": ("steps['#3'].output.price > 150",)},  # "IF the price from 3 is over 150 pounds the family ..."
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case (the skill named, no input, retry,
# time limit or way on not said, each policy line read at its line) does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
    (SCOPE, 2): "l.14's 90 s is read as meant (attempt timeout 90 s, then fail), but cited at l.13: the DOT reader "
                "joins a // comment line of its own to the node line above it, so the step's policies are at l.13",
}
# (folder, line) -> the failure class a rule read at that line is on, where the line names one (the same case asks that
# every other rule is the step's own, `on: any`), with why that is the line's meaning
RULE_ON: dict[tuple[str, int], tuple[str, str]] = {
    (BOATDAY, 19): ("timeout", "'if the roster hasnt answered in 45s dont wait, go on with ...': going on is said for "
                               "the 45 s running out"),
    (NIGHTAUDIT, 39): ("transient", "'mail server down -> use sms-gm instead': the fallback is said for the server "
                                    "being down (BLIND-RESULTS: meant)"),
    (SCOPE, 16): ("code_error", "'if it crashes don't stop - go on with plan = [] and count = 0': read for a crash, "
                                "and the step's own fallback goes on with the same values on any failure, as meant"),
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
}
# folder -> why its success check is not on the step, field and value meant at its line yet (test_foreign_specs_holdouts's
# own success-check case)
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
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at 843d74df; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
}
