"""A success check said in words and restated: in the parenthesis it ends with, or after "i.e.".

People say when the run is done in their own words and then say it again the way the system
sees it, in a parenthesis at the end: "We're done when the brewsheet line is written (logged
comes back true)", "How will we know it worked: huddle board shows today's status (posted =
yes)", "finished once the label is out (`printed` is true)". The words before the parenthesis
are what the check means to the author; the parenthesis is the check. A clause that ends in a
parenthesis holding one comparison of a field with a value (`posted = yes`, `count >= 3`) or a
field said to come back as a value (`logged comes back true`, an output some step gives) is
read by that parenthesis (`restatement`); the warning at the line quotes what was read.

A parenthesis that is no such check ("(see the wiki)", "(usually 20 rows)", "(logged in the
binder)") leaves the clause as it was: read or warned by the other readers.

A check of two values said after words that mean the same ("every urgent finding has a work order
# i.e. WO count == urgent count", "all rows made it, in other words rows loaded equals rows read"):
the comparison of two values (`spec.success_compare31`) is read from what follows "i.e.", "in other
words", "that is to say", "namely" (`said_plainly`), so the author's words before it are not read as a
side of it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.success import read_criteria
from orchestrator.spec.success_halves import read_half

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# words, then a closing parenthesis that ends the clause: "X is written (logged comes back true)."
_TRAILING = _rx(r"^(?P<before>[^()]{3,300}?)\s*+\((?P<inner>[^()]{3,120}+)\)\s*+[.!]?\s*+$")


def restatement(clause: str, names: frozenset[str]) -> tuple[str, str] | None:
    """(the parenthesis as written, the check it is as `field == value`) of a clause that restates its
    check in the parenthesis it ends with (module docstring), or None. `names`: the outputs the steps
    give (a field said to come back as a value must be one of them)."""
    m = _TRAILING.match(clause.strip())
    if m is None or not any(c.isalpha() for c in m.group("before")):
        return None
    inner = m.group("inner").replace("`", "").strip()
    from orchestrator.spec.whole_success import comparison

    one = comparison(inner)
    if one is not None and one.partition(" ")[0] == _field_of(inner):
        checks, rest = read_criteria(one)
        if checks and not rest:
            return inner, one
    half = read_half(inner, names) if names else None
    return (inner, half.written) if half is not None else None


_FIELD = _rx(r"^[`*]*+(?P<field>[A-Za-z_][\w.]*+)")


def _field_of(inner: str) -> str:
    """The name the parenthesis starts with (a comparison inside words is no restatement)."""
    m = _FIELD.match(inner)
    return m.group("field") if m else ""


# "..., i.e. X", "# i.e. X", "in other words X": what follows says the same plainly
_PLAINLY = _rx(r"(?i)(?<![\w.-])(?:i\.\s*+e\.|in\s++other\s++words|that\s++is\s++to\s++say|namely)[,:]?+\s++(?=\S)")


def said_plainly(text: str) -> str:
    """What follows the last "i.e." (or "in other words", ...) of a check's words, else the words."""
    found = list(_PLAINLY.finditer(text))
    return text[found[-1].end():].strip() if found else text


_rx.save()
