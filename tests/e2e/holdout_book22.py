"""The twenty-second holdout (tests/fixtures/foreign-specs-holdout22, specs 135-140), its data for
test_foreign_specs_holdouts.py. Blind at 5d95d0e (BLIND-RESULTS.md): 4 of 6 validate (136 refused, 137 a crash),
8 of 28 steps fully right, 0 of 10 runs at their final output, 10 of 10 statuses honest; its kinds are a GitLab CI
file, a plain-text email with a CSV step sheet, a TSV bake plan, a MediaWiki talk page, a fixed-width call sheet and
a Jenkinsfile. It is tuning data now; what main does not read as meant yet is listed below with its reason.

`WHEN` and `APPROVAL` are as in holdout_book20.py; a run's `approval_response` (approved, or silence for 2 hours)
answers the one approval its spec asks. What is not so yet is listed with its reason: one that starts passing must
leave its list."""

from __future__ import annotations

from typing import Any

from foreign_kit import FIXTURES, folders_of
from holdout_kit import (
    Ids,
    meant_inputs,
)

NAME = "foreign-specs-holdout22"
_BY_NUMBER = {f.split("-", 1)[0]: f for f in folders_of(FIXTURES / NAME)}
RESTORE, MUSEUM, BAKE, PHOTOS, CALLSHEET, RELEASE = (_BY_NUMBER[n] for n in ("135", "136", "137", "138", "139",
                                                                            "140"))

_PUPILS = "steps['#1'].output.pupils"
_BLOCKED = "steps['#2'].output.violation_count"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (MUSEUM, 3): (16, (f"{_PUPILS} > 20",)),
    (MUSEUM, 4): (17, (f"not ({_PUPILS} > 20)", f"{_PUPILS} <= 20")),
    (RELEASE, 5): (52, (f"{_BLOCKED} == 0",)),
    (RELEASE, 6): (59, (f"not ({_BLOCKED} == 0)", f"{_BLOCKED} != 0")),
}
_OT = "steps['#3'].output.ot_cost"
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (CALLSHEET, 4): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject", "when": (f"{_OT} > 1500",)},
}


def MEANT_INPUTS(said: Any, ids: Ids) -> list[dict[str, Any]]:  # the kit's name for a book's reading
    """The shared reading, a workflow input also by its author's capitals (135's DB_NAME, 137's ORDERS: a CI or
    sheet variable keeps its name, and a run given `db_name` takes `DB_NAME` through the letter-case alias)."""
    got = meant_inputs(said, ids)
    return got + [{**b, "name": b["name"].upper()} for b in got if b["source"] == "input"]


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
    (PHOTOS, "success", 20): "'Finished when the note is drafted and the record count matches' is not checked "
                             "(warned: not a comparison)",
}
# (folder, line), (folder, line, kind) or (folder, line, n-th item of that line) -> why what the line says is neither read as meant nor
# warned at that line
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
