"""A value the text states for a skill input in words: "Home country for us is CA", "the unit
system here is metric", "tax rate = 0.2".

A step's skill may read a name (`home_country`) that nothing gives: no workflow input, no earlier
output, no value written as the name. When the step's own text, or the text before the first step
(the intro: what holds for every run), says the name's words followed by "is", "=" or ":" and one
value (a code in capitals, a number, a time of day "06:30" kept as text, true/false, a quoted text), or
the name's words followed at once by a number ("rate year 2027", "a batch size of 50"), that value is the step's literal,
warned at the step's line: it is a reading of words, and the plain way is `home_country: "CA"` in the
step. Only a name of two words or more is read by its words (one word, "country is CA", reads like a
condition); "for us", "here", "always" may stand between the words and "is". The text is scanned a
word at a time, linear in its length.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.unit_value54 import unit_value
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TOKEN = _rx(r"\"[^\"\n]{1,60}+\"|“[^”\n]{1,60}+”|\d{1,2}+:\d{2}+(?![\d:])|[A-Za-z0-9_.%-]++|[=:]")
_CLOCK = _rx(r"^\d{1,2}+:\d{2}+$")  # "UNIT CALL: 06:30": a time of day, kept whole as text
_NUMBER = _rx(r"^-?\d++(?:\.\d++)?+$")
_FILLER = frozenset({"for", "us", "here", "always", "our", "we", "use", "is", "=", ":"})
_CODE = _rx(r"^(?:[A-Z][A-Z0-9]{1,9}+|-?\d++(?:\.\d++)?+|true|false)$")


def _value(token: str) -> tuple[bool, object]:
    if token[:1] in "\"“":
        return True, token[1:-1]
    token = token.rstrip(".")
    if _CLOCK.match(token):
        return True, token
    if _CODE.match(token) is None:
        return False, None
    if token in ("true", "false"):
        return True, token == "true"
    try:
        return True, json.loads(token)
    except ValueError:
        return True, token


def said_value(name: str, text: str) -> tuple[object, str] | None:
    """(value, the words it was read from) for `name` said in words in `text`, or None."""
    words = name.lower().split("_")
    if len(words) < 2 or not all(words):
        return None
    tokens = _TOKEN.findall(text)
    lower = [t.lower() for t in tokens]
    n = len(words)
    for i in range(len(tokens) - n):
        if lower[i:i + n] != words:
            continue
        j = i + n
        k = j + 1 if j < len(tokens) and lower[j] == "of" else j  # "rate year 2027", "a batch size of 50"
        if k < len(tokens) and _NUMBER.match(tokens[k].rstrip(".")) is not None:
            return json.loads(tokens[k].rstrip(".")), " ".join(tokens[i:k + 1])
        said_is = False
        while j < len(tokens) and j < i + n + 4 and lower[j] in _FILLER:
            said_is = said_is or lower[j] in ("is", "=", ":")
            j += 1
        if said_is and j < len(tokens):
            found, value = _value(tokens[j])
            if found:
                return value, " ".join(tokens[i:j + 1])
    return unit_value(name, text)  # "use-by 2 days" for `use_by_days` (`plan.unit_value54`)


def bind_said_values(step: StepSpec, names: Iterable[str], texts: Iterable[str],
                     bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                     path: str) -> list[Diagnostic]:
    """Bind each of `names` (inputs nothing gives) to a value `texts` say for it in words, warned."""
    found: list[Diagnostic] = []
    texts = list(texts)
    for name in names:
        said = next((got for text in texts if (got := said_value(name, text)) is not None), None)
        if said is None:
            continue
        value, words = said
        found.append(bind_literal(step, path, name, value, f"the text says '{words}'",
                                  f"'{words}' is read as its value {value!r} for this step", bindings, provenance))
    return found


def bind_literal(step: StepSpec, path: str, name: str, value: object, source: str, read_as: str,
                 bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance]) -> Diagnostic:
    """Bind the step's input `name` to a value its words give (`source` says where, `read_as` how it was
    read), and the warning that says so and how to write it plainly."""
    bindings[name] = InputBinding(source="literal", value=value)
    provenance[f"inputs.{name}"] = from_spec(step.where, f"literal value: {source}")
    return warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing gives; "
                      f"{read_as}, no workflow input: to say so plainly write `{name}: {json.dumps(value)}` in the "
                      "step", "plan.input-said-value")


_rx.save()
