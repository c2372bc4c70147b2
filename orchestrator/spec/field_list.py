"""A step's condition or other branch said as a field of a field list, not a markdown bullet.

    :skill: ``release-batch``                  reStructuredText (a docstring, a Sphinx page)
    :only if: the worst grade is C             -> "Only if: the worst grade is C": the step's condition
    :otherwise: this runs instead of the hold  -> "Otherwise: ...": the other branch of the step before

A paragraph whose lines each open with a field marker (`:name:` then a value) was read as one run-on
sentence, so a condition in it was lost without a word. `field_lines` gives the paragraph back as
`label_lines` does (`spec.shape_labels`): a line whose field names a condition or an otherwise (`key_of`
says "when" or "otherwise") is its own line, `Name: value`, read by the step's labelled-field reader (a
condition it cannot read is an error or a warning there, never dropped); the other fields stay as they
were read before, the lines in a row joined into one sentence, and so is a condition field whose value
says a loop (":when: per segment"), for the step's loop readers. None when the paragraph is no field
list, or has no such field.
"""

from __future__ import annotations

from collections.abc import Callable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# ":only if: value": the field's name between its colons, then its value
_FIELD = _rx(r"^\s*+:(?P<name>[A-Za-z][A-Za-z '-]{0,30}+):(?:\s++(?P<value>\S.*+)|\s*+$)")
_KEYS = frozenset({"when", "otherwise"})
# ":when: per segment, in slot order": a loop said in the condition's field, read with the step's other words
_LOOP = _rx(r"(?i)^(?:per|each|every|for\s++(?:each|every|all)|one\s++(?:by|at)\s++(?:one|a\s++time))\b")


def field_lines(text: str, key_of: Callable[[str | None, str], str | None]) -> list[tuple[int, str]] | None:
    """The paragraph's lines with its condition fields each on a line of its own (module docstring), as
    (offset, text); None when it is no field list with a condition or otherwise field."""
    lines = text.split("\n")
    if not lines or _FIELD.match(lines[0]) is None:
        return None
    out: list[tuple[int, str]] = []
    joined = False  # the last entry is other fields joined, so a plain line goes on it
    found = 0
    for offset, raw in enumerate(lines):
        m = _FIELD.match(raw)
        name = " ".join(m.group("name").split()).strip() if m else ""
        value = (m.group("value") or "").strip() if m else ""
        if m is not None and value and not _LOOP.match(value) and key_of(name.lower(), value) in _KEYS:
            out.append((offset, f"{name[:1].upper()}{name[1:]}: {value}"))
            joined = False
            found += 1
        elif out and (joined or m is None):
            out[-1] = (out[-1][0], f"{out[-1][1]} {raw.strip()}")
        else:
            out.append((offset, raw.strip()))
            joined = True
    return out if found else None


_rx.save()
