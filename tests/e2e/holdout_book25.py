"""The twenty-fifth holdout (tests/fixtures/foreign-specs-holdout25, specs 153-158), its data for
test_foreign_specs_holdouts.py. Blind at 2c01b9a2 (BLIND-RESULTS.md): 5 of 6 validate (153 refused), 5 of 28 steps
fully right, 10 of 26 policy lines as meant, 0 of 11 runs at their final output, 11 of 11 statuses honest; its kinds
are a Kubernetes CronJob manifest (the workflow in its annotations), a Dockerfile-like "Skillfile", a Flyway-style SQL
migration (the process in `--` comments), a plumber's paper job ticket, a sailing club's race committee sheet and a
hospital pharmacy's compounding log (a fixed-width grid). It is tuning data now; what main does not read as meant
yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py. 153's and 157's approvals are asked only under a condition
(`required_when`): 153's first run and 157's first run do not meet it. 157's second run is approved and resumed;
153's second is approved and resumed, its third meets silence for 2 hours and is held at the approval, its timeout
and what silence does (`on_silence_meaning`: continue with posted=false, the step skipped) checked on the plan
(never waited out). What is not so yet is listed with its reason: one that starts passing must leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of

NAME = "foreign-specs-holdout25"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
RECON, DOCKS, WINBACK, TICKET, REGATTA, PHARMACY = (_BY_NUMBER[n] for n in ("153", "154", "155", "156", "157", "158"))

_AT_RISK = "steps['#2'].output.at_risk"
_IN_BAND = "steps['#2'].output.within_band"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (WINBACK, 3): (23, (f"{_AT_RISK} >= 3",)),
    (WINBACK, 4): (25, (f"not ({_AT_RISK} >= 3)", f"{_AT_RISK} < 3")),
    (PHARMACY, 3): (22, (_IN_BAND, f"{_IN_BAND} == true", f"{_IN_BAND} is true", f"{_IN_BAND} == True")),
    (PHARMACY, 4): (22, (f"not ({_IN_BAND})", f"not ({_IN_BAND} == true)", f"not {_IN_BAND}",
                         f"{_IN_BAND} == false", f"not ({_IN_BAND} is true)", f"not ({_IN_BAND} == True)")),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (None: whenever the
# step runs), `line` where it is said
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (RECON, 4): {"required": True, "timeout_s": 7200.0, "on_timeout": "skip",
                 "when": ("steps['#3'].output.gap > 250",)},
    (REGATTA, 4): {"required": True, "timeout_s": 600.0, "on_timeout": "reject",
                   "when": ("steps['#1'].output.knots > 18",)},
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
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither
# read as meant nor warned at that line
SILENT: dict[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str] = {
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
