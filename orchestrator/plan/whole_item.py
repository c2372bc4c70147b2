"""A `For each` step's skill input that takes the whole item, not the item's field of the same name.

The item of "for every dish from step 1, plate it with `plate-dish`" may have a field `dish` (its
name) while `plate-dish`'s SKILL.md says it reads `dish` (object `{dish, garnish, temp}`): the
skill wants the item itself (so does `dish` ({dish, garnish, temp}), the braces alone). When the
instructions describe the input as an object whose fields are among the item's (at least two of
them, or all when it names fewer), the input is bound to the whole item instead of `/dish`, and the
plan says why. A skill's input schema says it the same
way: `dish` an object (its properties among the item's) while the item's field `dish` is a string
or a number, not an object: the whole item, warned at the step's line (`whole_items_by_schema`).
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "(object `{sample, wells, cts}`)", or the braces alone "({well, od})" (`plan.runs34`: a record of those fields)
_OBJECT = _rx(r"(?i)^\s*+(?:(?:an?\s++|the\s++)?+(?:object|record|dict|mapping|row|item)\b[^{]{0,40}+)?+"
              r"\{([^{}]{0,200}+)\}")
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


def whole_items_by_schema(step: StepSpec, schema: Mapping[str, Any], item: Mapping[str, Any], over: str,
                          bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                          path: str) -> list[Diagnostic]:
    """Rebind each input bound to an item's field that the skill's input schema says is an object, when
    that field of the item is not one (a string, a number) and the object's properties, if it lists any,
    are among the item's: the whole item, warned."""
    found: list[Diagnostic] = []
    properties = schema.get("properties")
    for name, prop in (properties if isinstance(properties, dict) else {}).items():
        binding = bindings.get(name)
        if binding is None or binding.source != "item" or binding.pointer != f"/{name}" or not isinstance(prop, dict):
            continue
        field = item.get(name)
        field_type = field.get("type") if isinstance(field, dict) else None
        if prop.get("type") != "object" or not isinstance(field_type, str) or field_type in ("object", "array"):
            continue
        wanted = prop.get("properties")
        fields = frozenset(wanted) if isinstance(wanted, dict) else frozenset()
        if fields and not fields <= frozenset(item):
            continue
        where = step.field_where.get("for_each") or step.where
        bindings[name] = binding.model_copy(update={"pointer": ""})
        provenance[f"inputs.{name}"] = from_spec(
            where, f"for each item: each whole item of {over}, for `{name}`: its skill's schema takes an object, "
                   f"and the item's field `{name}` is a {field_type}")
        found.append(warning_at(where, path, f"{step.id} ({step.name}): `{name}` is given each whole item of {over}, "
                                f"not the item's field `{name}`: its skill's schema takes an object and that field "
                                f"is a {field_type}. If the field is meant, write `{name} = \"{{{{ item.{name} }}}}\"`",
                                "plan.whole-item"))
    return found


_rx.save()
