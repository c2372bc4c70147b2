"""The thirty-fifth holdout (tests/fixtures/foreign-specs-holdout35, specs 213-218), its data for
test_foreign_specs_holdouts.py. Blind at a29bc0f2 (BLIND-RESULTS.md): 6 of 6 validate (213-217 read by their skill
calls, spec.wired52; 218 by the anchored markdown reader), 5 of 26 steps fully right, 19 of 30 policy lines as meant,
0 of 6 success checks right (216's `filed == 1` misread, the others not read), 0 of 13 runs at their final output
(214, 215 and 218 refuse every run at start for their inputs; 213, 216 and 217 fail at step 1 or 2 on a reference
string bound as a literal), 13 of 13 statuses honest; its kinds are a PHP config array, a Tcl script, an Elixir
module, a SAS program and an AutoHotkey script used as runbooks, and a tree surgeon's plain-text handover note. It is
tuning data now. Main at b24539f5 (after round 54's php54, tcl54, elixir54, prose54 and approval54 readers) reads it
as meant: 26 of 26 steps (the scorer), every policy line on its step, 6 of 6 success checks and 213's limit, 13 of 13
runs at their author's output (216's approval asked only for a RED band, its silence held). What is left is listed
below with its reason: 213's l.31 retry read as a rule on code errors only (its policy line case holds; the
step case asks it as the step's own retry).

`WHEN` and `APPROVAL` are as in holdout_book20.py. 213's steps 3 and 4 are the two arms of `'if' =>
'class-capacity.spaces > 0'` / `'else' => '3a'`, 218's of 'if the tree IS protected it goes to consent-application
... If it's not protected it goes to book-crew instead', each one's next step after whichever ran. 216's approval
(l.27-29) is asked only for a RED band, waits 4 hours and silence stops the run: its first run does not meet it
(green), its second is approved and resumed, its third is met by silence and held at the approval (expect.yaml's
`approval_answer`). What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout35"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
DANCE, AOI, FLORIST, DAIRY, DRIVING, TREE = (_BY_NUMBER[n] for n in ("213", "214", "215", "216", "217", "218"))

_SPACES = "steps['#2'].output.spaces > 0"
_PROTECTED = "steps['#1'].output.protected"
_RED = "steps['#2'].output.band == 'red'"

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (DANCE, 3): (35, (_SPACES,)),  # "'if'    => 'class-capacity.spaces > 0',"
    (DANCE, 4): (40, (f"not ({_SPACES})", "steps['#2'].output.spaces <= 0",
                      "steps['#2'].output.spaces == 0")),  # "'else'  => '3a',"
    (TREE, 3): (8, (_PROTECTED, f"{_PROTECTED} == true", f"{_PROTECTED} is true")),  # 'if the tree IS protected'
    (TREE, 4): (8, (f"not ({_PROTECTED})", f"not {_PROTECTED}", f"{_PROTECTED} == false",
                    f"not ({_PROTECTED} == true)")),  # "If it's not protected it goes to book-crew instead"
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (DAIRY, 3): {"required": True, "timeout_s": 14400.0, "on_timeout": "reject",
                 "when": (_RED, _RED.replace("'", '"'), "steps['#2'].output.band | lower == \"red\"")},  # "RED band only: Mr Haldane (herd vet) must OK the notice"
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
    (DANCE, 2): "l.31's 'if it throws an error have another go - 3 goes in all, 10s in between' is read as a rule on "
                "code errors only (`on: code_error`, 2 retries 10 s apart), not as the step's own retry: the step "
                "keeps `max_retries` 0 for any other failure (l.30's 20 s is read as meant)",
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
# or a part left unread that is not, checked against the plan at b24539f5; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
    (FLORIST, 38): "''don't ever retry' and 'twice' contradict each other': 'books twice if you do' is the reason, "
                   "and no retry is read as meant",
    (DRIVING, 3): "'not understood: 'abort'': the whole run's 180 s is read as meant at l.3",
}
