"""A value to go on with said as the step's own outputs after "carry on with" (round 50):

    carry on with pairs [] and hours 0        (skill outputs `pairs`, `hours`) -> {pairs: [], hours: 0}
    keep going with total = 0, notes ''       (skill outputs `total`, `notes`)  -> {total: 0, notes: ""}
    continue with zero rows                   (no output `zero`): not read here

After "carry on / keep going / go on / continue / proceed / move on with", one or more pairs
`name value` (`name = value`, `name: value`), joined by commas or "and", where every name is an
output of the step's skill and every value is written as one: a number, quoted text, true / false /
null, `[]` or `{}`. The sentence is then given to the policy reader as "continue with `{...}`" (as
`spec.as_if30` does) and the reading is shown on the step; anything else is left as it was.
"""

from __future__ import annotations

import json

from orchestrator.spec.as_if30 import rewrite_values
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEAD = _rx(r"(?i)(?<![\w-])(?:carry(?:ing)?+\s++on|keep(?:ing)?+\s++going|go(?:ing)?+\s++on|continue|proceed|"
            r"move\s++on)\s++with\s++")
_VALUE = r"(?P<value>\[\s*+\]|\{\s*+\}|\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|-?\d{1,9}+(?:\.\d{1,6}+)?+(?![\w.])|" \
         r"(?:true|false|null)(?!\w))"
_PAIR = _rx(rf"(?i)(?P<field>[A-Za-z_][\w-]{{0,40}}+)\s*+(?:=|:)?\s*+{_VALUE}")
_SEP = _rx(r"(?i)\s*+(?:,\s*+(?:and\s++)?|and\s++)")


def _value(said: str) -> object:
    if said[:1] in "\"'":
        return said[1:-1]
    if said[:1] == "[":
        return []
    if said[:1] == "{":
        return {}
    return json.loads(said.lower())


def carried_values(text: str, outputs: frozenset[str] | None) -> tuple[int, int, dict[str, object]] | None:
    """(start, end, values) of the first "carry on with name value ..." whose names are all outputs, else None."""
    if not outputs:
        return None
    for lead in _LEAD.finditer(text):
        values: dict[str, object] = {}
        end = lead.end()
        while (pair := _PAIR.match(text, end)) is not None and pair.group("field") in outputs:
            values[pair.group("field")] = _value(pair.group("value"))
            end = pair.end()
            sep = _SEP.match(text, end)
            if sep is None:
                break
            if (nxt := _PAIR.match(text, sep.end())) is None or nxt.group("field") not in outputs:
                break
            end = sep.end()
        if values:
            return lead.start(), end, values
    return None


def _carried(text: str, outputs: frozenset[str] | None) -> tuple[str, str, str] | None:
    found = carried_values(text, outputs)
    if found is None:
        return None
    start, end, values = found
    shown = ", ".join(f"`{k}` = {json.dumps(v)}" for k, v in values.items())
    return f"{text[:start]}continue with `{json.dumps(values)}`{text[end:]}", text[start:end], shown


def read_carried(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each "carry on with pairs [] and hours 0" given to the policy reader as "continue with `{...}`"."""
    return rewrite_values(steps, src, _carried, "said as the step's outputs after 'carry on with'")


_rx.save()
