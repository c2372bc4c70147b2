"""The twentieth holdout (tests/fixtures/foreign-specs-holdout20, specs 123-128), its data for
test_foreign_specs_holdouts.py. Blind at f193050 (BLIND-RESULTS.md): 6 of 6 validate, 6 of 29 steps fully right,
0 of 11 runs at their final output (9 refused for inputs not taken as their author names them), 11 of 11 statuses
honest; its kinds are a Makefile with `##` comments on targets, a law-firm memo with (a)-(e) prose, an intranet HTML
page (`<ul>` inputs, `<ol>` steps), a passage-plan form with dotted fill-in lines, a spray job sheet and a LaTeX
description list. It is tuning data now; what main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x)` is `x == false` for a flag; a count's truth is
`> 0`; 125's "found no holds" is `not has_hold` or `not holds`, the flag or the empty list of holds). A run its author answers (`approvals: {4: approved}`) is approved and resumed; one met by silence
(`final_output: null`) must hold at its approval, whose timeout and `on_timeout` are checked on the plan. What is
not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout20"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
REPRICE, MATTER, TRANSCRIPT, PASSAGE, SPRAY, SURVEY = (_BY_NUMBER[n] for n in ("123", "124", "125", "126", "127",
                                                                              "128"))

_HOLD, _HOLDS = "steps['#1'].output.has_hold", "steps['#1'].output.holds"  # a flag, and the list of holds
_KEPT = "steps['#2'].output.kept_n"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (TRANSCRIPT, 3): (16, (f"not {_HOLD}", f"not ({_HOLD})", f"{_HOLD} == false", f"{_HOLD} is false",
                           f"not {_HOLDS}", f"not ({_HOLDS})")),
    (TRANSCRIPT, 4): (17, (_HOLD, f"{_HOLD} == true", f"{_HOLD} is true", f"not (not {_HOLD})",
                           f"not (not ({_HOLD}))", f"not ({_HOLD} == false)", _HOLDS, f"not (not {_HOLDS})",
                           f"not (not ({_HOLDS}))")),
    (SURVEY, 3): (25, (f"{_KEPT} >= 10",)),
    (SURVEY, 4): (28, (f"not ({_KEPT} >= 10)", f"{_KEPT} < 10")),
}
_HITS = "steps['#3'].output.hit_count"
_WAVE, _UKC = "steps['#2'].output.max_wave_m", "steps['#1'].output.ukc_m"
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (MATTER, 4): {"required": True, "timeout_s": 28800.0, "on_timeout": "reject",
                  "when": (f"{_HITS} > 0 or inputs.fee_estimate > 25000", f"{_HITS} or inputs.fee_estimate > 25000")},
    (PASSAGE, 4): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                   "when": (f"{_WAVE} > 3.0 or {_UKC} < 0.5", f"{_WAVE} > 3 or {_UKC} < 0.5")},
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
