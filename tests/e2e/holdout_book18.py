"""The eighteenth holdout (tests/fixtures/foreign-specs-holdout18, specs 111-116), its data for
test_foreign_specs_holdouts.py. Blind at a8d54fa (BLIND-RESULTS.md): 5 of 27 steps fully right, 0 of 10 runs at
their final output, 113, 114 and 116 refused; three of its kinds are uncommon shapes (an Asana task exported as
text, a shift-handover log with lettered sub-steps, one markdown table with a row per step) and 113 is YAML in
its author's own schema, its steps keyed "10"-"40" and its policies in one block keyed by label. After the lead's
fixes on its first failures (fc9ba63: start words as a root, YAML steps keyed by numbers) 113 and 116 plan and
116's run reaches its output; 114 is still refused. It is tuning data now.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x > 320)` is `x <= 320`). What is not so yet is listed
with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import INPUTS_REFUSED, inputs_refused

NAME = "foreign-specs-holdout18"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
PANTRY, PRINT, BERTHS, HEDGEHOG, DEICE, FINDS = (_BY_NUMBER[n] for n in ("111", "112", "113", "114", "115", "116"))

_PAGES = "steps['#2'].output.pages"
_PRECIP = "steps['#1'].output.precip"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (PRINT, 3): (20, (f"{_PAGES} > 320", f"{_PAGES} >= 321")),
    (PRINT, 4): (27, (f"not ({_PAGES} > 320)", f"{_PAGES} <= 320", f"{_PAGES} < 321", f"not ({_PAGES} >= 321)")),
    (DEICE, 3): (14, (f"{_PRECIP} != 'none'", f'{_PRECIP} != "none"', f"not ({_PRECIP} == 'none')")),
    (DEICE, 4): (16, (f"not ({_PRECIP} != 'none')", f"{_PRECIP} == 'none'", f'{_PRECIP} == "none"',
                      f"not ({_PRECIP} != \"none\")", f"not (not ({_PRECIP} == 'none'))")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (BERTHS, 4): {"required": True, "timeout_s": 2700.0, "on_timeout": "reject",
                  "when": ("steps['#3'].output.unplaced_count > 0", "steps['#3'].output.unplaced_count >= 1")},
    (HEDGEHOG, 3): {"required": True, "timeout_s": 1200.0, "on_timeout": "approve",
                    "when": ("steps['#2'].output.band == 'red'", "steps['#2'].output.band == \"red\"")},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
    HEDGEHOG: "the subtasks ('N · name → skill', lines 16-28) are found only by their skill names (warned "
              "spec.anchored) and their wiring is misread: the plan is refused with dependency cycles through step-1 "
              "and step-4 (line 15) and steps 2 and 4 that can never run (lines 19, 25)",
}
_PANTRY_SHARES = ("line 8's bullet names two skills started together, `tally-donations` and `pantry-shares`, and is "
                  "read as one step: no plan step runs pantry-shares (warned)")
_NO_SHARES = "pantry-shares is lost (line 8), so the plan's step {} runs the author's step {}"
_GLYCOL_LOST = ("the lettered sub-item {} (line {}) is read as part of check-glycol's text: no plan step runs {} "
                "(warned spec.skill-not-run)")
_DEICE_JOIN = ("'then crew-brief off whichever plan ran' (line 17): both plan steps are lost (lines 14-16), so crew-brief "
               "runs after read-metar only (join warned)")
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    **{(PANTRY, 2, a): _PANTRY_SHARES
       for a in ("skill", "depends_on", "for_each", "condition", "approval", "input pantries")},
    (PANTRY, 3, "skill"): _NO_SHARES.format(3, 4),
    (PANTRY, 3, "depends_on"): "allocate-pantry waits for tally-donations only: pantry-shares is lost (line 8)",
    (PANTRY, 3, "for_each"): "'go through the pantries one by one' over the shares list (line 10) is not read (warned "
                             "spec.each-not-read): allocate-pantry runs once",
    (PANTRY, 3, "input pantry"): "nothing gives allocate-pantry its `pantry` (line 10, warned): the loop over the shares "
                                 "is not read",
    (PANTRY, 4, "skill"): _NO_SHARES.format(4, 5),
    (PANTRY, 4, "depends_on"): "'gathers all the pantry allocations' (line 12) is not read (warned spec.gather-not-read): "
                               "build-pick-sheet waits for tally-donations only",
    (PANTRY, 4, "input allocations"): "nothing gives build-pick-sheet its `allocations` (line 12, warned): the gather "
                                      "is not read",
    (PANTRY, 5, "skill"): "pantry-shares is lost (line 8), so the plan has 4 steps and no step 5",
    (PRINT, 3, "condition"): "'only when → Extent & spine says more than 320 pages' (line 20) is not read (warned): "
                             "quote-offset runs on every run",
    (PRINT, 4, "condition"): "'only when → the offset one didn't go, i.e. 320 pp or under' (line 27) is not read "
                             "(warned): setup-pod runs on every run",
    **{(PRINT, n, "input trim"): f"'the trim'/'trim' (line {line}) is bound to estimate-extent's output `trim` (warned "
                                 "ambiguous-input), not the workflow input `trim`" for n, line in ((3, 22), (4, 29))},
    (PRINT, 5, "depends_on"): "'waits for → whichever of Offset quote / POD setup actually ran' (line 34) is not read "
                              "(warned spec.join-not-read): the memo waits for Word count and Extent & spine only",
    (PRINT, 5, "join"): "'whichever of Offset quote / POD setup actually ran' (line 34) is not read (warned "
                        "spec.join-not-read)",
    **{(PRINT, 5, f"input {name}"): f"'{name} (from whichever quote ran)' (line 36) is not tied to a quote step: nothing "
                                    f"gives `{name}` (warned at line 33)" for name in ("method", "quote_ref", "unit_cost")},
    (BERTHS, 2, "input boat"): "`boat: the boat this go is about` (line 21) is given as those words (warned "
                               "plan.literal-words), not each arrival of the loop",
    (BERTHS, 3, "input fits"): "`fits: all the step-20 answers, as one list` (line 28) is given as those words (warned "
                               "plan.literal-words), not the gathered results of step 20",
    (DEICE, 2, "depends_on"): "'both go off at 05:00, neither waits for the other' (lines 10-11) is not read: "
                              "check-glycol waits for read-metar",
    (DEICE, 2, "input tanks"): "'tank levels off the gauge panel (tanks: type1_l, type4_l)' (line 9) is not read as an "
                               "input: nothing gives check-glycol its `tanks` (warned)",
    **{(DEICE, 3, a): _GLYCOL_LOST.format("b)", 14, "plan-full-deice")
       for a in ("skill", "depends_on", "for_each", "condition", "approval", "input temp_c", "input precip",
                 "input type1_l", "input type4_l")},
    **{(DEICE, 4, a): _GLYCOL_LOST.format("c)", 16, "plan-frost-only")
       for a in ("skill", "depends_on", "for_each", "condition", "approval", "input temp_c", "input type1_l")},
    (DEICE, 5, "skill"): "both plan steps are lost (lines 14-16), so the plan has 3 steps and no step 5",
    (DEICE, 5, "depends_on"): _DEICE_JOIN,
    (DEICE, 5, "join"): _DEICE_JOIN,
    **{(DEICE, 5, f"input {name}"): f"nothing gives crew-brief its `{name}` (line 18, warned at line 17): both plan steps "
                                    "are lost (lines 14-16)" for name in ("plan", "holdover_min", "aircraft_possible")},
    (DEICE, 5, "input low_stock"): "'low_stock = check-glycol's low' (line 18) is not read: nothing gives crew-brief its "
                                   "`low_stock` (warned at line 17)",
}
_BY_LABEL = ("the `policies:` block keyed by step label (lines 42-50) is not read (key 'policies' not understood, warned "
             "at line 42 only)")
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (PRINT, 17, 0): "'assume 256 pp and a 15 mm spine and keep going' (line 17): the carry-on is read, its values are "
                    "not (warned at line 14, where the step's text starts)",
    (BERTHS, 50, 0): _BY_LABEL,
    (DEICE, 13, 0): "check-glycol's 'carry on with the board figures' (line 13) is read as read-metar's policy (warned "
                    "spec.placed), its values dropped: check-glycol fails on an error",
    (FINDS, 8, 0): "'just use supervisor = \"unknown\", phase = \"unphased\" and keep going' (line 8) is read as a default "
                   "with supervisor only: the phase is dropped without a word",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (BERTHS, "limit", 9): "`give_up_after: 30m` under `overall:` (lines 8-9) is not read (key 'overall' not understood, "
                          "warned at line 8): the wall time stays 3600 s",
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
    (PRINT, 17): "the carry-on values are warned at line 14 (where the step's text starts), not at line 17",
    (BERTHS, 9): "the whole run's 30m is warned only as the unread key 'overall' at line 8",
    (DEICE, 14): "'if read-metar shows any precip' (line 14) gets no word about its condition: only the lost skill and "
                 "check-glycol's inputs are warned there",
    (FINDS, 8): "supervisor is read, phase = \"unphased\" is dropped without a word at line 8",
}
_NO_TANKS = INPUTS_REFUSED + "`tanks` ('tanks: type1_l, type4_l', line 9) is not an input"
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
    (PANTRY, 0): (inputs_refused, INPUTS_REFUSED + "`pantries` (named only in the intro, line 6) is not an input"),
    (DEICE, 0): (inputs_refused, _NO_TANKS),
    (DEICE, 1): (inputs_refused, _NO_TANKS),
}
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (BERTHS, 1): (4, "Sgian Dubh gets no berth: the duty harbourmaster signs off (lines 36-40) before the notice"),
    (HEDGEHOG, 1): (3, "score 10, band red: Bev OKs the out-of-hours callout (line 24) before the vet is booked"),
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why, to leave the
# list once it pauses (a run that ends `succeeded` here is a success short of what its author meant)
UNPAUSED: dict[tuple[str, int], str] = {
    (BERTHS, 1): "fit-boat's `boat` is the words 'the boat this go is about' (line 21): the run fails at step 20 "
                 "before the notice, and the `hm_sign_off:` block (lines 36-40) is not read, so nothing would ask",
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
    **{(PRINT, n): "both quote steps run (their conditions, lines 20 and 27, unread) and the memo gets no method, "
                   "quote_ref or unit_cost (the join at line 34 unread): production-memo refuses its input (exit 2), "
                   "the run fails at step 5" for n in (0, 1)},
    (BERTHS, 0): "fit-boat's `boat` is the words 'the boat this go is about' (line 21), not each arrival: its script "
                 "refuses its input (exit 2), the run fails at step 20",
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
