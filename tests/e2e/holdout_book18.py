"""The eighteenth holdout (tests/fixtures/foreign-specs-holdout18, specs 111-116), its data for
test_foreign_specs_holdouts.py. Blind at a8d54fa (BLIND-RESULTS.md): 5 of 27 steps fully right, 0 of 10 runs at
their final output, 113, 114 and 116 refused; three of its kinds are uncommon shapes (an Asana task exported as
text, a shift-handover log with lettered sub-steps, one markdown table with a row per step) and 113 is YAML in
its author's own schema, its steps keyed "10"-"40" and its policies in one block keyed by label. After the lead's
fixes on its first failures (fc9ba63: start words as a root, YAML steps keyed by numbers) 113 and 116 plan and
116's run reaches its output; 114 is still refused. It is tuning data now: after round 21 (tuned on it) all six
plan, and of its 280 cases 10 are listed below (a carry-on's values in words, a limit under `overall:`, a source
said as 'from step 1', `trim` both an input and an output).

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with `#N`
for the plan id of the author's step N), with the line each is said at; an expression listed beside another
means the same for the values said (an otherwise's `not (x > 320)` is `x <= 320`). What is not so yet is listed
with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

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
}
# (folder, author's step number, aspect) -> why the plan does not have it as its author meant yet
KNOWN: dict[tuple[str, int, str], str] = {
    **{(PRINT, n, "input trim"): f"'the trim'/'trim' (line {line}) is bound to estimate-extent's output `trim` (warned "
                                 "ambiguous-input), not the workflow input `trim`" for n, line in ((3, 22), (4, 29))},
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
# runs whose author's final output assumes an approval given: (author's step that asks, why); the run must pause there
PAUSED_AT: dict[tuple[str, int], tuple[int, str]] = {
    (BERTHS, 1): (4, "Sgian Dubh gets no berth: the duty harbourmaster signs off (lines 36-40) before the notice"),
    (HEDGEHOG, 1): (3, "score 10, band red: Bev OKs the out-of-hours callout (line 24) before the vet is booked"),
}
# runs made that do not pause for the approval their author asks for: each a strict xfail with why, to leave the
# list once it pauses (a run that ends `succeeded` here is a success short of what its author meant)
UNPAUSED: dict[tuple[str, int], str] = {
}
# runs made whose end is not the author's output yet: (folder, run) -> why; each must end honestly
FAILS: dict[tuple[str, int], str] = {
}
# runs that reach their author's output and honestly end other than `succeeded`: (folder, run) -> why
NOT_A_SUCCESS: dict[tuple[str, int], str] = {
}
