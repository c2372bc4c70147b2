"""The values to go on with said in brackets after a failure (fortieth round).

    If it fails, don't stop! Put them in the side hall (hall "Side Hall", capacity 30) and carry on.
        -> on failure, continue with {hall: "Side Hall", capacity: 30}
    Lookup down? Use the spare van (van_id "V-9", seats 8), keep going.
        -> continue with {van_id: "V-9", seats: 8}

Two or more `name value` pairs inside brackets, in a sentence that says the run goes on (which the
grammar reads as going on after a failure, said there or in the sentence before: "If it fails, don't
stop! Just put them in ... (room "Storytime Corner", seats 20) and carry on."), are the step's outputs
to go on with (each field and its value, read by the value pairs' reader, `spec.phrase_value`).
Brackets of pairs with no going on ("Book the smallest room (room "Maple", seats 40).") are no value.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.policy_values_said import _GO_ON, _LINK, _PAIR

EARLY: tuple[Row, ...] = (
    # "(room "Storytime Corner", seats 20) and carry on": the pairs in the brackets
    Row("value_pairs", r"\(\s*+(?P<pairs>" + _PAIR + r"(?:" + _LINK + _PAIR + r"){1,12}+)\s*+\)",
        needs=_GO_ON),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|\("}
