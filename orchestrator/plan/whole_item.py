"""A `For each` step's skill input that takes the whole item, not the item's field of the same name.

The item of "for every dish from step 1, plate it with `plate-dish`" may have a field `dish` (its
name) while `plate-dish`'s SKILL.md says it reads `dish` (object `{dish, garnish, temp}`): the
skill wants the item itself. When the instructions describe the input as an object whose fields
are among the item's (at least two of them, or all when it names fewer), the input is bound to the
whole item instead of `/dish`, and the plan says why.
"""

from __future__ import annotations

from collections.abc import MutableMapping

from orchestrator.plan.location import from_spec
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_OBJECT = _rx(r"(?i)^\s*+(?:an?\s++|the\s++)?+(?:object|record|dict|mapping|row|item)\b[^{]{0,40}+\{([^{}]{0,200}+)\}")
_FIELD_NAME = _rx(r"[A-Za-z_]\w*+")


def described_fields(about: str) -> frozenset[str]:
    """The fields "(object `{sample, wells, cts}`)" names; empty when it names no object."""
    m = _OBJECT.match(about.replace("`", ""))
    return frozenset(_FIELD_NAME.findall(m.group(1))) if m else frozenset()


def take_whole_items(step: StepSpec, said: Instructions | None, item_fields: frozenset[str] | None,
                     over: str, bindings: MutableMapping[str, InputBinding],
                     provenance: MutableMapping[str, Provenance]) -> None:
    """Rebind each input bound to an item's field that its skill describes as an object of the item's fields."""
    if said is None or not item_fields:
        return
    for named in said.inputs:
        binding = bindings.get(named.name)
        if binding is None or binding.source != "item" or binding.pointer != f"/{named.name}":
            continue
        fields = described_fields(named.about)
        if not fields or not fields <= item_fields or len(fields) < min(2, len(item_fields)):
            continue
        bindings[named.name] = binding.model_copy(update={"pointer": ""})
        provenance[f"inputs.{named.name}"] = from_spec(
            step.field_where.get("for_each") or step.where,
            f"for each item: each whole item of {over}, for `{named.name}`: its skill reads it as an object of "
            f"{', '.join(sorted(fields))}, the item's own fields (not the item's field `{named.name}`)")


_rx.save()
