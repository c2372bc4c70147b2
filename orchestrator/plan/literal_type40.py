"""A literal's JSON type, as the skill that takes it declares (`plan.literal_type40`).

A value written in a step is read by its form: `min_secs=30` on a command line is the number 30,
`"30"` quoted the text '30', `code: 0123` in YAML whatever YAML makes of it. When the skill's
input schema declares the input's type, that type decides: a number or integer input takes a
numeric text as its number (`"30"` gives 30), a string input takes a number as its text (30 gives
'30'), a boolean input takes true/false (any letter case) as a boolean. A value that cannot be
that type (`min_secs=soon` for a number) is kept as written and warned at the step: the skill will
be given a value of another type than it declares. An input of no declared type (or of several)
keeps the literal as read.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import InputBinding
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)
_NUMBER = _rx(r"-?\d++(?:\.\d++)?+")
_INTEGER = _rx(r"-?\d++")


def _as(value: object, kind: str) -> tuple[bool, object]:
    """(whether `value` is or can be taken as `kind`, the value as `kind`)."""
    if kind == "string":
        if isinstance(value, bool):
            return True, "true" if value else "false"
        return True, str(value) if isinstance(value, (int, float)) else value
    if kind in ("number", "integer"):
        if isinstance(value, bool):
            return False, value
        if isinstance(value, int) or (isinstance(value, float) and kind == "number"):
            return True, value
        if isinstance(value, float):
            return value.is_integer(), int(value) if value.is_integer() else value
        if isinstance(value, str):
            text = value.strip()
            if _INTEGER.fullmatch(text):
                return True, int(text)
            if _NUMBER.fullmatch(text) and kind == "number":
                return True, float(text)
        return False, value
    if kind == "boolean":
        if isinstance(value, bool):
            return True, value
        if isinstance(value, str) and value.strip().lower() in ("true", "false"):
            return True, value.strip().lower() == "true"
        return False, value
    return True, value


def type_literals(bindings: MutableMapping[str, InputBinding], schema: Mapping[str, Any] | None,
                  where: str | None, path: str, step: str) -> list[Diagnostic]:
    """Each literal binding of `bindings` made the type its input declares in `schema` (module docstring);
    the warnings for those that cannot be."""
    props = (schema or {}).get("properties") or {}
    warnings: list[Diagnostic] = []
    for name, binding in list(bindings.items()):
        if binding.source != "literal" or binding.value is None or not isinstance(props.get(name), dict):
            continue
        kind = props[name].get("type")
        if not isinstance(kind, str):
            continue
        fits, value = _as(binding.value, kind)
        if not fits:
            warnings.append(warning_at(where, path, f"{step}: `{name}` is given {binding.value!r}, but its skill "
                                                    f"declares it {'an' if kind == 'integer' else 'a'} {kind}: "
                                                    "given as written", "plan.literal-type"))
        elif value != binding.value or type(value) is not type(binding.value):
            bindings[name] = binding.model_copy(update={"value": value})
    return warnings


_rx.save()
