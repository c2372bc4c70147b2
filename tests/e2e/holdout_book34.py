"""The thirty-fourth holdout (tests/fixtures/foreign-specs-holdout34, specs 207-212), its data for
test_foreign_specs_holdouts.py. Blind at 6fb5d5e2 (BLIND-RESULTS.md): 4 of 6 validate (209 and 210 refused),
2 of 29 steps fully right, 19 of 30 policy lines as meant, 3 of 6 success checks read, 0 of 13 runs at their
final output (207 fails both runs at step 1, 208, 211 and 212 refuse every run at start), 13 of 13 statuses
honest; its kinds are an awk script, a Haskell program, a Go program and a Swift playground used as runbooks, a
rafting base's radio log sheet and a voicemail transcription. It is tuning data now. Since spec.wired52 (merged at
a29bc0f2) main reads the four code specs by their skill calls: 6 of 6 validate, 20 of 29 steps with no entry below
(bench/reader_score.py: 28/29, 23 of 24 step policy lines), 3 of 6 success checks read (207, 209, 212; 208's l.10,
210's l.12 and 211's l.25 not), 9 of 13 runs at their final output (207, 208 and 209 both runs, 210 all three; 211
and 212 refused at start for their inputs), 13 of 13 statuses honest. Round 54 reads 210's l.12 check
(`spec.success_done54`), 209's l.38 retry on every failure and 208's l.27 limit with no rule of its own
(`spec.error_retry54`), 211's inputs said in words (l.8-10, 'put_in is heads out, landed is heads in' l.14-15) and
212's one input and 'tuner Maggie': 11 of 13 runs at their final output (211 both; 212's fail at step 2 for its
unread `start`). What it does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 209's steps 3 and 4 are the two arms of `if
scan.Int("damage_points") > 0 { } else { }`, 211's of 'Item 3, ONLY if headcount says missing more than 0' /
'Item 4, when nobody is missing', each one's next step after whichever ran. 210's approval (l.22) is asked only
for pieces over 4 hours, waits an hour and silence is no booking: its first run does not meet it (3 h), its second
is approved and resumed, its third is met by silence and held at the approval (expect.yaml's `approval_answer`). What is not so yet
is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout34"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
LINEN, GRADING, CARHIRE, TATTOO, RAFTING, PIANO = (_BY_NUMBER[n] for n in ("207", "208", "209", "210", "211", "212"))

_DAMAGE = "steps['#1'].output.damage_points > 0"
_AWK_IN = ("the usage line's `-v hotel=.. -v bags=..` (l.3) is not read as the run's inputs: the awk reader binds the "
           "call's `\"f=\" v` argument to the literal '' (optional, cited to the skill's SKILL.md), no warning at plan "
           "time (the run says 'inputs 'bags', 'hotel' are not taken')")
_AWK_JGET = ("`jget(x, \"f\")` is read for the order only ('no data handed over'): the input is bound to the literal "
             "'', not to the earlier step's field, and nothing says so")
_AWK_BEGIN = ("the BEGIN block's UPPERCASE literal (`RATE = 1.85` l.12, `ACCTS = \"accounts@..\"` l.13) is not read as "
              "the value of the variable the call passes: the input is bound to the literal ''")
_HS_SHIFT = ("the header's 'finished = grower-statement hands back ...' (l.10) names grower-statement first, so it is "
             "planned as step 1 (warned) and every author's step after it is one place on")
_HS_INPUTS = ("the header's run.json fields (l.3-4: grower, intake_date, bins) are not read as the run's inputs: the "
              "inputs are the skills' own names")
_VOICE_LIT = ("a value said in words in the message ('tuner name is me, Maggie, always' l.8, 'the start is always the "
              "workshop ... S-Y-23 1AA' l.11-12, 'forty five p a mile, so nought point four five' l.13) is not read "
              "as the literal of the input it is for")
_MISSING = "steps['#2'].output.missing > 0"

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (CARHIRE, 3): (50, (_DAMAGE,)),  # 'if scan.Int("damage_points") > 0 {'
    (CARHIRE, 4): (53, (f"not ({_DAMAGE})", "steps['#1'].output.damage_points <= 0")),  # '} else {'
    (RAFTING, 3): (17, (_MISSING,)),  # 'Item 3, ONLY if headcount says missing more than 0:'
    (RAFTING, 4): (20, (f"not ({_MISSING})", "steps['#2'].output.missing <= 0",
                        "steps['#2'].output.missing == 0")),  # 'Item 4, when nobody is missing:'
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (TATTOO, 3): {"required": True, "timeout_s": 3600.0, "on_timeout": "reject",
                  "when": ("steps['#2'].output.hours > 4",)},  # "BIG pieces (over 4 hours) need Jess to OK first ..."
}

# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (PIANO, 2, "input start"): "not bound (warned): " + _VOICE_LIT,
    (PIANO, 3, "input rate"): "not bound (warned): " + _VOICE_LIT,
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
    (LINEN, 5): "l.30's 'ONCE only, the hotels moan about duplicates' is not cited: the step has no retry by default, "
                "so it behaves as meant, but nothing reads the line",
    (PIANO, 1): "l.10's minute read but cited at l.6, where the message's paragraph starts",
    (PIANO, 2): "`start` not bound (KNOWN); l.12's waits read as 2 retries (KNOWN_POLICY), cited at l.11",
    (PIANO, 3): "`rate` not bound (KNOWN)",
    (PIANO, 4): "l.15 and l.16 read but both cited at l.14, where text-clients' sentence starts; l.16's value lost "
                "(KNOWN_POLICY)",
}
# folder -> why test_foreign_specs_holdouts's no-step-made-up case does not hold for it yet
MADE_UP: dict[str, str] = {
}
# (folder, line) -> the failure class a rule read at that line is on, where the line names one, with why
RULE_ON: dict[tuple[str, int], tuple[str, str]] = {
    (LINEN, 27): ("transient", "'when the accounts box is down (most Fridays) use invoice-manual-pdf instead': the "
                               "fallback is said for the service being down, and the step's own fallback is the "
                               "same skill on any failure, as meant"),
    (CARHIRE, 51): ("transient", "'if the bodyshop pricing API is down use damage-quote-flat instead': said for the "
                                 "pricing service being down; the step's own fallback is the same skill on any "
                                 "failure, as meant"),
    (RAFTING, 12): ("transient", "'If the gauge site is down use gauge-from-ea-site for the same station': said for "
                                 "the gauge site being down; the step's own fallback is the same skill on any "
                                 "failure, as meant"),
    (TATTOO, 30): ("transient", "'if texting is down carry on with sent = false': said for the texting service being "
                                "down; the step's own fallback is `{\"sent\": false}` on any failure, as meant"),
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (GRADING, 39, 0): "'do NOT retry, just fail, someone has to fix the table first' is read as no retry and a "
                      "fallback `escalate` (its message the rest of the line with the code after it), not `fail`: the "
                      "run ends escalated for a person",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (GRADING, "success", 10): "'finished = grower-statement hands back a statement_id (not empty)' is not read as "
                              "the run's check (it makes grower-statement the plan's step 1), and nothing says so",
    (RAFTING, "success", 25): "'Done when daily-log-entry says logged true.' (wrapped onto l.26) is not read as the "
                              "run's check, and nothing says so",
}
# folder -> why its success check is not on the step, field and value meant at its line yet
KNOWN_CHECK: dict[str, str] = {
    GRADING: "no run check: l.10 not read (KNOWN_WHOLE)",
    RAFTING: "no run check: l.25 not read (KNOWN_WHOLE)",
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
    (GRADING, 39, "policy"): "read as no retry and `escalate` (KNOWN_POLICY), cited at l.38, and nothing says so at "
                             "l.39",
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
    **{(PIANO, n): "step 2 (plan-route) fails: its `start` has no value ('the start is always the workshop, S Y two "
                   "three, one A A, so S-Y-23 1AA' l.11-12 not read as its literal, KNOWN), so the run fails there, "
                   "honestly (the week is the run's one input and 'tuner Maggie' its literal since prose54)"
       for n in (0, 1)},
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at a1fceb74; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
    (CARHIRE, 58): "'bill: '5: final-bill, once the quote (either one) and the fuel are both in' states a policy that "
                   "was not understood (not understood: 'once'); it is not in the plan' (at a29bc0f2): the line says "
                   "the join, and final-bill waits for whichever arm ran and fuel-check, as meant",
    (RAFTING, 22): "'step-6: '1618 OPS BASE Whole close-out wrapped inside 30 mins please.' states a policy that was "
                   "not understood': the 30 minutes are the whole run's limit, read as meant at l.25",
    (PIANO, 19): "''ready true' names no step's output, so that part is not checked': the run check ready == true on "
                 "route-sheet is read as meant",
}
