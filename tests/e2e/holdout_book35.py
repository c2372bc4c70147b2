"""The thirty-fifth holdout (tests/fixtures/foreign-specs-holdout35, specs 213-218), its data for
test_foreign_specs_holdouts.py. Blind at a29bc0f2 (BLIND-RESULTS.md): 6 of 6 validate (213-217 read by their skill
calls, spec.wired52; 218 by the anchored markdown reader), 5 of 26 steps fully right, 19 of 30 policy lines as meant,
0 of 6 success checks right (216's `filed == 1` misread, the others not read), 0 of 13 runs at their final output
(214, 215 and 218 refuse every run at start for their inputs; 213, 216 and 217 fail at step 1 or 2 on a reference
string bound as a literal), 13 of 13 statuses honest; its kinds are a PHP config array, a Tcl script, an Elixir
module, a SAS program and an AutoHotkey script used as runbooks, and a tree surgeon's plain-text handover note. It is
tuning data now. Main at 5da53ce5 reads 216's `out.field` references and 217's `InputBox, LearnerNo` (a workflow input
`LearnerNo`, warned): 216 and 217 plan as meant but for 216's approval (asked on every run, no time limit: its
RED-only condition and 4 hours lost) and 216 l.21 (a retry on timeouts only); 217's two runs reach their output and
succeed, 216's approved run reaches its output but ends failed on the `filed == 1` check (the skill says `true`).
213 still binds every `'ask.x'` / `'3a/3b.y'` reference as a literal (its runs fail at step 1), 214, 215 and 218 still
refuse their runs for their inputs, and 215 still has an invented first step `done`. What it does not read as meant
yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 213's steps 3 and 4 are the two arms of `'if' =>
'class-capacity.spaces > 0'` / `'else' => '3a'`, 218's of 'if the tree IS protected it goes to consent-application
... If it's not protected it goes to book-crew instead', each one's next step after whichever ran. 216's approval
(l.27-29) is asked only for a RED band, waits 4 hours and silence stops the run: its first run does not meet it
(green), its second is approved and resumed, its third is met by silence and held at the approval (expect.yaml's
`approval_answer`). What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import INPUTS_REFUSED, inputs_refused

NAME = "foreign-specs-holdout35"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
DANCE, AOI, FLORIST, DAIRY, DRIVING, TREE = (_BY_NUMBER[n] for n in ("213", "214", "215", "216", "217", "218"))

_SPACES = "steps['#2'].output.spaces > 0"
_PROTECTED = "steps['#1'].output.protected"
_RED = "steps['#2'].output.band == 'red'"

_PHP_ASK = ("the `'ask' => ['child' => '', ...]` blanks (l.11-14) are not read as the run's inputs and an `'ask.x'` "
            "string in a step's `'in'` array is bound as the literal text ('ask.child'), not the input x (the "
            "warning at the `'in'` line says it is 'not read')")
_PHP_KEY = ("`'term_start' => 'term_start'` is bound to the literal text 'term_start', not to the top-level key's "
            "value `'term_start' => '2027-01-11'` (l.17)")
_PHP_JOIN = ("`'3a/3b.status'` (whichever of enrol-pupil and waitlist-add ran) is bound as the literal text, and "
             "send-welcome depends on nothing: a root that runs first")
_PHP_ELSE = ("`'else' => '3a'` (l.40) is not read as the otherwise arm of enrol-pupil's `'if'` (warned: '`else` is "
             "no input of the skill waitlist-add'): waitlist-add depends on nothing and runs on every run")
_TCL_ARGV = ("`set panel [lindex $argv 0]` / `set clockno [lindex $argv 1]` (l.7-8) are not read as the run's "
             "inputs; panel_id is the literal 'SMT' from the header's 'SMT line 2' (warned)")
_TCL_VARS = ("a Tcl variable (`$sn`, `$PASSMARK`, `$res`, `$LINE`, `$clockno`) in `skill x name $var` is not read "
             "as what sets it: the input is a workflow input of the skill's own name (warned at l.18)")
_TCL_ORDER = ("the script's order and its `[dict get $x f]` / `$var` hand-overs are not read as dependencies: the "
              "step depends on nothing")
_EX_DONE = ("the moduledoc's 'Order counts as done when book-courier comes back with booked: true' (l.5) is read as "
            "an invented first step `done` running book-courier, so each author's step is one plan step on")
_EX_REF = ("`order.item` / `zone.zone` / `&1.date` in an `sw(\"x\", %{f: ...})` map is bound as the literal text "
           "(warned 'names no step, input or item this file sets'): the `run(order)` map's fields are not the "
           "run's inputs and a `zone = Task.await(zone)` result is not the step's output")
_TXT_INPUTS = ("l.4's 'the customer's name, the site address and the date they'd like us' is not read as the run's "
               "inputs: the inputs are the skills' own names (only `address`, warned)")
_TXT_CREW = ("'If it's not protected it goes to book-crew instead' (l.8) is not read as a step running book-crew: the "
             "plan's step-4 runs consent-application again (warned 'book-crew is named here but no step runs it')")
_TXT_BOTH = ("'it does two things at once ... When both of those are back' (l.6, l.8) is not read as the join: the "
             "steps follow the document's order")

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
    (DANCE, 1, "input dob"): _PHP_ASK,
    (DANCE, 1, "input term_start"): _PHP_KEY,
    (DANCE, 2, "input class_code"): _PHP_ASK,
    (DANCE, 3, "input pupil_name"): _PHP_ASK,
    (DANCE, 3, "input class_code"): _PHP_ASK,
    (DANCE, 4, "depends_on"): _PHP_ELSE,
    (DANCE, 4, "condition"): _PHP_ELSE,
    (DANCE, 4, "input pupil_name"): _PHP_ASK,
    (DANCE, 4, "input class_code"): _PHP_ASK,
    (DANCE, 5, "depends_on"): _PHP_JOIN,
    (DANCE, 5, "input pupil_name"): _PHP_ASK,
    (DANCE, 5, "input status"): _PHP_JOIN,
    (DANCE, 5, "input ref"): _PHP_JOIN,
    (DANCE, 5, "input parent_email"): _PHP_ASK,
    (AOI, 1, "input panel_id"): _TCL_ARGV,
    (AOI, 2, "depends_on"): _TCL_ORDER,
    (AOI, 2, "for_each"): "`foreach sn [dict get $pnl boards] { lappend res [skill aoi-inspect ...] }` (l.23-24) is "
                          "not read as a for-each over load-panel's boards, and nothing says so",
    (AOI, 2, "input serial"): _TCL_VARS,
    (AOI, 2, "input threshold"): _TCL_VARS + "; `set PASSMARK 0.85` is lost",
    (AOI, 3, "depends_on"): _TCL_ORDER,
    (AOI, 3, "input results"): _TCL_VARS,
    (AOI, 4, "depends_on"): _TCL_ORDER,
    (AOI, 4, "input panel_id"): _TCL_ARGV,
    (AOI, 4, "input yield_pct"): _TCL_VARS,
    (AOI, 4, "input line"): _TCL_VARS + "; `set LINE \"SMT-2\"` is lost",
    (AOI, 4, "input operator"): _TCL_VARS + "; `$clockno` is the run's second argument",
    (FLORIST, 1, "skill"): _EX_DONE,
    (FLORIST, 1, "input bouquet"): _EX_DONE,
    (FLORIST, 1, "input size"): _EX_DONE,
    (FLORIST, 2, "skill"): _EX_DONE,
    (FLORIST, 2, "input postcode"): _EX_DONE,
    (FLORIST, 3, "skill"): _EX_DONE,
    (FLORIST, 3, "depends_on"): _EX_DONE + "; price-order itself depends on nothing (its `zone.zone`, "
                                           "`stock.in_stock` are literals)",
    (FLORIST, 3, "input bouquet"): _EX_DONE,
    (FLORIST, 3, "input size"): _EX_DONE,
    (FLORIST, 3, "input zone"): _EX_DONE,
    (FLORIST, 3, "input in_stock"): _EX_DONE,
    (FLORIST, 4, "skill"): _EX_DONE,
    (FLORIST, 4, "depends_on"): _EX_DONE + "; book-courier itself depends on nothing (the `|>` pipeline's "
                                           "`price.total`, `&1.date` are literals)",
    (FLORIST, 4, "input zone"): _EX_DONE,
    (FLORIST, 4, "input delivery_date"): _EX_DONE,
    (FLORIST, 4, "input total"): _EX_DONE,
    (FLORIST, 4, "input card_message"): _EX_DONE,
    (TREE, 1, "input address"): "a workflow input `address` (the skill's name, warned): " + _TXT_INPUTS,
    (TREE, 2, "depends_on"): _TXT_BOTH + ": weather-window waits for tpo-lookup",
    (TREE, 2, "input from_date"): "not bound (warned): " + _TXT_INPUTS,
    (TREE, 3, "depends_on"): _TXT_BOTH + ": consent-application waits for tpo-lookup only",
    (TREE, 3, "condition"): "'if the tree IS protected' (l.8) is taken as step-4's condition and not read there "
                            "(warned at l.8): consent-application runs on every run",
    (TREE, 3, "input address"): "a workflow input `address` (warned): " + _TXT_INPUTS,
    (TREE, 4, "skill"): _TXT_CREW,
    (TREE, 4, "depends_on"): _TXT_CREW,
    (TREE, 4, "for_each"): _TXT_CREW,
    (TREE, 4, "condition"): _TXT_CREW,
    (TREE, 4, "approval"): _TXT_CREW,
    (TREE, 4, "input window_start"): _TXT_CREW,
    (TREE, 4, "input crew_size"): _TXT_CREW,
    (TREE, 5, "depends_on"): "'either way' / 'whichever of those two ran' (l.10) is not read as the join after "
                             "whichever arm ran (warned): quote-letter waits for step-4 only",
    (TREE, 5, "input client"): "not bound (warned): " + _TXT_INPUTS,
    (TREE, 5, "input plan"): "bound to step-4's output only, not whichever arm ran (warned)",
    (TREE, 5, "input earliest_date"): "bound to step-4's output only, not whichever arm ran (warned)",
}
# (folder, author's step number) -> why test_foreign_specs_holdouts's own step case does not hold for it yet
KNOWN_STEP: dict[tuple[str, int], str] = {
    (DANCE, 2): "l.30's 20 s and l.31's 3 goes 10 s apart (`//` comments under the step array) are not read: the step "
                "keeps no retry and no time limit (KNOWN_POLICY)",
    (DANCE, 4): "l.42's carry-on value {status: waitlisted, ref: WL-MANUAL} is not read (KNOWN_POLICY)",
    (DANCE, 5): "l.48's 'NO retry on this one' is not cited: the step has no retry by default, so it behaves as "
                "meant, but nothing reads the line",
    (AOI, 1): "l.19's 'just fail the whole run, don't retry' is not cited: the defaults behave as meant, but nothing "
              "reads the line (its only warning: '`inspect` is no input of load-panel')",
    (FLORIST, 1): _EX_DONE + ": the author's step 1 is the invented `done`, with none of l.15-16's policies",
    (FLORIST, 2): "l.15-16's 25 s and retries (said under check-stock) land on delivery-zone, the retries as a rule "
                  "on timeouts only (`on: timeout`)",
    (FLORIST, 4): _EX_DONE + ": the author's step 4 is the plan's price-order, which has none of l.38's 'don't ever "
                             "retry'",
    (TREE, 1): "l.6's fallback tpo-local-register is not read (warned, but on step-2) and `address` is the skill's "
               "name, not the run's `site_address` (KNOWN)",
    (TREE, 2): "`from_date` not bound (KNOWN)",
    (TREE, 4): _TXT_CREW,
    (TREE, 5): "`client` not bound (KNOWN); l.10's minute not read (warned: 'not understood: 'a minute'')",
}
# folder -> why test_foreign_specs_holdouts's no-step-made-up case does not hold for it yet
MADE_UP: dict[str, str] = {
    FLORIST: _EX_DONE + " (warned only as the inputs read from the skills, l.5)",
}
# (folder, line) -> the failure class a rule read at that line is on, where the line names one, with why
RULE_ON: dict[tuple[str, int], tuple[str, str]] = {
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int] | tuple[str, int, int, int], str] = {
    (DANCE, 30, 0): "'give it 20 seconds then give up on it' (a `//` comment under class-capacity's array) is not "
                    "read, and nothing says so",
    (DANCE, 31, 0): "'have another go - 3 goes in all, 10s in between' is not read, and nothing says so",
    (DANCE, 42, 0): "'carry on as status 'waitlisted', ref 'WL-MANUAL'' is not read, and nothing says so",
    (FLORIST, 15, 0): "'25 s tops for the stock check' is put on delivery-zone (the next call), not check-stock; "
                      "check-stock's place is the invented `done`'s (MADE_UP)",
    (FLORIST, 16, 0): "'if it errors retry it twice, 5 seconds apart' is put on delivery-zone as a rule on timeouts "
                      "only, not on check-stock",
    (TREE, 6, 0, 1): "'let tpo-local-register do the check instead' is not read as tpo-lookup's fallback (warned, "
                     "as step-2's: 'not understood: 'instead'')",
    (TREE, 8, 0): _TXT_CREW + "; its 'don't let it try again, just stop' is on that step (as meant for book-crew)",
    (TREE, 10, 0): "'If the letter hasn't come out inside a minute, kill it' is not read (warned: 'not understood: "
                   "'a minute'')",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (DANCE, "limit", 18): "`'give_up_after' => '10 min'` is not read as the whole run's limit (the default 3600 s), "
                          "and nothing says so",
    (DANCE, "success", 19): "`'done_when' => 'send-welcome says sent = true'` is not read as the run's check, and "
                            "nothing says so",
    (AOI, "success", 5): "'panel is good when post-to-mes returns posted 1' (a header comment) is not read as the "
                         "run's check, and nothing says so",
    (FLORIST, "success", 5): _EX_DONE + "; no run check",
    (TREE, "success", 13): "'It's finished when quote-letter hands back a letter (not blank)' is not read (warned: "
                           "'not a comparison of an output field with a value')",
}
# folder -> why its success check is not on the step, field and value meant at its line yet
KNOWN_CHECK: dict[str, str] = {
    DANCE: "no run check: l.19 not read (KNOWN_WHOLE)",
    AOI: "no run check: l.5 not read (KNOWN_WHOLE)",
    FLORIST: "no run check: l.5 made a step (KNOWN_WHOLE)",
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
    (DANCE, 18, "limit"): "not read and not warned (KNOWN_WHOLE)",
    (DANCE, 19, "success"): "not read and not warned (KNOWN_WHOLE)",
    (DANCE, 30, "policy"): "not read and not warned (KNOWN_POLICY)",
    (DANCE, 31, "policy"): "not read and not warned (KNOWN_POLICY)",
    (DANCE, 42, "policy"): "not read and not warned (KNOWN_POLICY)",
    (AOI, 5, "success"): "not read and not warned (KNOWN_WHOLE)",
    (FLORIST, 5, "success"): "made a step; the only warning at l.5 is of the inputs read from the skills",
    (FLORIST, 15, "policy"): "put on delivery-zone (KNOWN_POLICY), and nothing says so",
    (FLORIST, 16, "policy"): "put on delivery-zone, on timeouts only (KNOWN_POLICY), and nothing says so",
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
    **{(AOI, n): (inputs_refused, INPUTS_REFUSED + "clockno, panel") for n in (0, 1)},
    **{(FLORIST, n): (inputs_refused, INPUTS_REFUSED + "item, postcode, size") for n in (0, 1)},
    **{(TREE, n): (inputs_refused, INPUTS_REFUSED + "customer_name, site_address, wanted_date") for n in (0, 1)},
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
    **{(DANCE, n): "fails (exit 1) at the first step given the literal text of an `'ask.x'` reference (KNOWN): "
                   "age-band refuses 'ask.dob' ('dates must be YYYY-MM-DD', both runs at 5da53ce5); waitlist-add and "
                   "send-welcome are roots and may act before it (blind: a waiting-list entry for 'ask.child')" for n in (0, 1)},
}
# runs that reach their author's output and end otherwise: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why
UNPAUSED: dict[tuple[str, int], str] = {
}
# Not a test list: lines the tests take as read as meant (or warned at their line) whose warnings name a misreading
# or a part left unread that is not, checked against the plan at 5da53ce5; (folder, line) -> what the warning says
# and why it misdescribes the plan.
WARNED_MISREAD: dict[tuple[str, int | None], str] = {
    (DANCE, 38): "'waitlist-add: '3b - class full -> waiting list instead' states a policy that was not understood': "
                 "the line is the step's title, no policy",
    (FLORIST, 38): "''don't ever retry' and 'twice' contradict each other': 'books twice if you do' is the reason, "
                   "and no retry is read as meant",
    (DRIVING, 3): "'not understood: 'abort'': the whole run's 180 s is read as meant at l.3",
    (TREE, 6): "'step-2: 'The council map site falls over a lot - when it does, let tpo-local-register...' not "
               "understood': the fallback is step 1's (tpo-lookup), not weather-window's",
}
