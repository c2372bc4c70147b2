"""The nineteenth holdout (tests/fixtures/foreign-specs-holdout19, specs 117-122), its data for
test_foreign_specs_holdouts.py. Blind at 9291db3 (BLIND-RESULTS.md): 6 of 6 validate, 7 of 27 steps fully right,
0 of 10 runs at their final output (6 refused for inputs not taken from where their author lists them), 10 of 10
statuses honest; its kinds are a "+" list of sentence steps with the inputs named in the intro, headings with a
quoted line of the team's own fields ("tool · pulls from · hands over"), YAML in its author's own schema with an
`asks_for:` and an `overall:` block, and three uncommon ones (an aircraft work card with a "data to be entered"
block, a lab SOP with numbered sections and "Note:" paragraphs, a podcast run sheet with a lettered cue grid and
notes keyed by its letters). After the lead's fixes on its first failures (a97bb27: a form's block of fields to
fill in, "I run it with three things: ...") 11 of 27 steps. It is tuning data now: at f193050 (round 22 merged) all
six plan, and of its 282 cases 54 are listed below (inputs given in a block or keys of the author's own, conditions
said in a heading or a cue grid, success checks said in words, two approvals, a fallback made a step).

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x)` is `x == false` for a flag). What is not so yet is
listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import INPUTS_REFUSED, inputs_refused, still_misread

NAME = "foreign-specs-holdout19"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
PICKUPS, CRATING, SWEEP, WORKCARD, SEEDS, RUNSHEET = (_BY_NUMBER[n] for n in ("117", "118", "119", "120", "121",
                                                                             "122"))

_IN_SPEC = "steps['#2'].output.within_spec"
_OFF = "steps['#1'].output.off_target"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (CRATING, 3): (17, (_IN_SPEC, f"{_IN_SPEC} == true", f"{_IN_SPEC} is true")),
    (CRATING, 4): (20, (f"not ({_IN_SPEC})", f"not {_IN_SPEC}", f"{_IN_SPEC} == false", f"not ({_IN_SPEC} == true)")),
    (RUNSHEET, 3): (17, (_OFF, f"{_OFF} == true", f"{_OFF} is true")),
    (RUNSHEET, 4): (18, (f"not ({_OFF})", f"not {_OFF}", f"{_OFF} == false", f"not ({_OFF} == true)")),
}
_CRANE = "steps['#3'].output.needs_crane"
_WORN = "steps['#1'].output.any_worn"
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (SWEEP, 4): {"required": True, "timeout_s": 5400.0, "on_timeout": "approve",
                 "when": (_CRANE, f"{_CRANE} == true", f"{_CRANE} is true")},
    (WORKCARD, 3): {"required": True, "timeout_s": 1800.0, "on_timeout": "reject",
                    "when": (_WORN, f"{_WORN} == true", f"{_WORN} is true")},
}
# folder -> why `skillweave plan` refuses it (every case of the folder is a strict xfail for that reason)
REFUSED: dict[str, str] = {
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    (PICKUPS, 2, "input date"): "'the road outlook for pickup_date with road-weather' (line 6) does not give road-weather's "
                                "`date` the workflow input `pickup_date`: `date` is made a required input of its own",
    **{(CRATING, n, "depends_on"): f"'{said}' in the heading (line {line}) is not read as a condition on ②, so the step "
                                   "runs after ① only" for n, said, line in ((3, "only when ② says within_spec", 17),
                                                                           (4, "if ② is out of spec instead", 20))},
    (CRATING, 3, "condition"): "'only when ② says within_spec' in the heading (line 17) is not read: the step always runs",
    (CRATING, 4, "condition"): "'if ② is out of spec instead' in the heading (line 20) is not read as the otherwise of ③a: "
                               "the step always runs",
    (CRATING, 5, "depends_on"): "'crate_type + crates (whichever ③ ran)' (line 26) is not read: the step runs after ① only",
    (CRATING, 5, "join"): "'whichever ③ ran' (line 26) is not a join: no branch before it is conditional (warned "
                          "spec.join-not-read)",
    **{(CRATING, 5, f"input {name}"): f"'{name} (whichever ③ ran)' (line 26) is not bound to ③a "
                                      "or ③b: nothing gives it (warned plan.input-not-given)"
       for name in ("crate_type", "crates")},
    **{(SWEEP, n, f"input {name}"): f"`{name}: ask.{said}` (line {line}) is bound as the literal 'ask.{said}': the "
                                    "`asks_for:` block (lines 5-7) is not read as the workflow inputs (warned at line 5)"
       for n, name, said, line in ((1, "site", "site", 15), (2, "site", "site", 20), (2, "date", "sweep_date", 20),
                                   (4, "date", "sweep_date", 38))},
    (SWEEP, 4, "approval"): "`sign_off:`'s `hold_for: 90m` and `silence_means: go ahead` (lines 42-43) are not read "
                            "(warned there): the approval has no timeout and rejects",
    (WORKCARD, 1, "input limit_mm"): "'limit 1.0 mm' (line 19) is not read as the literal 1.0: `limit_mm` is made a "
                                     "workflow input (derived-inputs)",
    (WORKCARD, 2, "input nominal_psi"): "'NOM PSI' (lines 11, 23) is read as the workflow input `nominal_psi` (only its "
                                        "last word said), not `nom_psi`",
    (WORKCARD, 3, "approval"): "'RII: IF ANY BRAKE IS WORN (step 1), DUPLICATE INSPECTION ...' (lines 28-31) is not read as "
                               "an approval: its 'Wait max 30 min' is read as retries with a continue fallback",
    (WORKCARD, 3, "input brakes"): "'worn brake positions from step 1' (line 26) is not bound to step 1's `worn`: nothing "
                                   "gives `brakes` (warned plan.input-not-given)",
    (WORKCARD, 3, "input tyres"): "'tyre positions to remove from step 2' (line 27) is not bound to step 2's `remove`: "
                                  "nothing gives `tyres` (warned plan.input-not-given)",
    (SEEDS, 3, "input threshold"): "'against the bank standard of 85 %' (line 34) is not read as the literal 85 "
                                   "('against' warned as an unread policy): nothing gives `threshold`",
    (SEEDS, 4, "depends_on"): "'the summary from 5.3' (line 38) is not bound to 5.3's output, so 5.4 does not run after 5.3",
    (SEEDS, 4, "input test_id"): "'giving test ID' (line 37) is bound to step 1's output `test_id` (warned ambiguous-input), "
                                 "not the workflow input `test_id`",
    (SEEDS, 4, "input summary"): "'the summary from 5.3' (line 38) is not bound to viability-summary's whole output: "
                                 "nothing gives `summary` (warned plan.input-not-given)",
    (RUNSHEET, 3, "condition"): "'ONLY if A = off' in the cue grid (line 17) is not read: C1 always runs",
    (RUNSHEET, 4, "condition"): "'else:' in the cue grid (line 18) is not read as the otherwise of C1: C2 always runs",
    (RUNSHEET, 5, "depends_on"): "'D - waits on B and whichever C ran' (line 29) is not read (warned): D runs after B only",
    (RUNSHEET, 5, "join"): "'whichever C ran' (line 29) is not a join: no branch before it is conditional (warned "
                           "spec.join-not-read)",
    (RUNSHEET, 5, "input episode_no"): "'EP#' (the fill-in block, line 6; WITH column, line 19) is not read as the "
                                       "workflow input `episode_no`: nothing gives it",
    (RUNSHEET, 5, "input final_lufs"): "'final lufs from C1/C2 (whichever)' (lines 19-20) is not bound to C1 or C2: nothing "
                                       "gives `final_lufs` (warned plan.input-not-given)",
}
# (folder, line, n-th policy of that line) -> why that policy is not on its step as meant yet
KNOWN_POLICY: dict[tuple[str, int, int], str] = {
    (PICKUPS, 6, 0): "'assume drive_ok true, max_trips 3, outlook \"unknown, check before leaving\"' (line 6) is read as "
                     "a default with drive_ok only: max_trips and outlook are dropped",
    (PICKUPS, 8, 0): "'If it falls over, wait 10 sec and try again, then 1 min' (line 8) is put on road-weather (step 2, "
                     "warned spec.placed), not van-runs: step 4 keeps no retry",
    (CRATING, 28, 0): "'switch to `flat-rate-cover`' (line 28) is made a step of its own (step-6, warned spec.own-fallback), "
                      "not ④'s fallback",
    (SWEEP, 16, 0): "`when_it_breaks: {again: 4, gap: \"20s, doubling each time\"}` (line 16): `again` and `gap` are not "
                    "understood (warned): no retry",
    (SWEEP, 27, 0): "`give_up_after: 45s` (line 27) is read as a 45 s retry budget with 5 retries, not the step's 45 s "
                    "timeout",
    (WORKCARD, 21, 0): "'if no result in 2 MIN, abandon' (line 21) is read as a rule on timeouts with 3 retries 120 s apart, "
                       "not a 120 s timeout that fails the step",
    (WORKCARD, 32, 0): "'retry after 1 min, then 2 min, then 5 min' (line 32) loses to 'Wait max 30 min' (line 29, read as "
                       "exponential retries; warned policy-conflict)",
    (SEEDS, 31, 0): "'Record that lot as pct 0 and continue' (line 31) is read as the default value {'lot': 'pct'}, not "
                    "{'pct': 0}",
}
# (folder, kind, line) -> why the whole run's limit or success check is not read as meant yet
KNOWN_WHOLE: dict[tuple[str, str, int], str] = {
    (CRATING, "success", 31): "'④ has handed back a certificate number and a premium above zero' (line 31) is not checked: "
                              "not a comparison of an output field (warned)",
    (SWEEP, "limit", 9): "`stop_everything_after: 60m` under `overall:` (line 9) is not read (key not understood, warned): "
                         "the wall time is the default 3600 s, the same by chance",
    (SWEEP, "success", 10): "`good_if: \"raise_wo gave back a wo_number\"` (line 10) is not checked: not a comparison of "
                            "an output field (warned)",
    (WORKCARD, "success", 37): "'CARD COMPLETE WHEN: tech log status entered (...)' (line 37) is not read as the run's "
                               "success check",
    (SEEDS, "success", 43): "'complete when curator-report returns status \"filed\" and a report ID beginning GR-' "
                            "(lines 43-44) is not checked: not a comparison of an output field (warned)",
    (RUNSHEET, "success", 34): "'DONE = feed shows status scheduled for the right guid' (line 34) is not checked: not a "
                               "comparison of an output field (warned)",
}
# (folder, line) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int], str] = {
    (PICKUPS, 6): "drive_ok is read, max_trips 3 and the outlook are dropped without a word at line 6",
    (CRATING, 17): "the heading's 'only when ② says within_spec' is neither read nor warned at line 17",
    (CRATING, 20): "the heading's 'if ② is out of spec instead' is neither read nor warned at line 20",
    (SWEEP, 27): "`give_up_after: 45s` is read as a retry budget without a word at line 27",
    (SWEEP, 40): "the sign-off's hold_for and silence_means are warned at lines 42-43, not at line 40 where it is said",
    (WORKCARD, 21): "the 2 min abandon is read as retries on timeout without a word at line 21",
    (WORKCARD, 28): "the RII inspection is neither read as an approval nor warned at line 28",
    (WORKCARD, 37): "'CARD COMPLETE WHEN' is neither read nor warned at line 37",
    (SEEDS, 31): "'Record that lot as pct 0' is read as {'lot': 'pct'} without a word at line 31",
    (RUNSHEET, 17): "the grid's 'ONLY if A = off' is neither read nor warned at line 17",
    (RUNSHEET, 18): "the grid's 'else:' is neither read nor warned at line 18",
}
# (folder, run) -> (what stops it reaching the author's output, asserted on the plan, and why); not made
NOT_RUN: dict[tuple[str, int], Any] = {
    (PICKUPS, 0): (still_misread(2, "input date"),
                   "road-weather's `date` is a required input of its own, not `pickup_date`: the run is refused "
                   "('missing required input date')"),
    **{(WORKCARD, n): (inputs_refused, INPUTS_REFUSED + "`nom_psi` (NOM PSI, line 11) is read as `nominal_psi`")
       for n in (0, 1)},
    **{(RUNSHEET, n): (inputs_refused, INPUTS_REFUSED + "`episode_no` (EP#, line 6) is not an input") for n in (0, 1)},
}
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (SWEEP, 1): (4, "C02 at 12.6 mm/s needs a crane: the ops manager signs off (lines 39-43) before the work order"),
    (WORKCARD, 1): (3, "brake 3 at 0.8 mm is worn: the RII inspector signs off (lines 28-31) before the stores call"),
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why, to leave the
# list once it pauses (a run that ends `succeeded` here is a success short of what its author meant)
UNPAUSED: dict[tuple[str, int], str] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
    **{(CRATING, n): "④ (wall-to-wall-quote) gets no crate_type or crates ('whichever ③ ran', line 26, not read): its "
                     "script refuses its input, the run fails" for n in (0, 1)},
    **{(SWEEP, n): "`ask.site` / `ask.sweep_date` are literal strings (the `asks_for:` block, lines 5-7, not read): "
                   "pull or roster refuses its input, the run fails" for n in (0, 1)},
    (SEEDS, 0): "curator-report gets no `summary` ('the summary from 5.3', line 38, not bound): its script refuses its "
                "input, the run fails",
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
