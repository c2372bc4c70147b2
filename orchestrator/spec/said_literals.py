"""A value a step's text fixes for a name: `home_port is always "Leith"`, "servings is fixed at 4",
"units set to `metric`", "the oven_temp is hard-coded to 200", "grade C25/30 always".

The name is written as one (with `_`, or in backticks) and the words between say the value never
changes (always, fixed at/to, set to, hard-coded to/as); the value is a quoted text, a number or
true/false. A name followed by a code and "always" ("grade C25/30 always on house slabs", "paper A4 always":
letters then a digit, never a number with a unit) fixes that code as text. "always official=true" (a name set by `=` after "always") says the same. It is the step's literal input (`input_values`), not a workflow input someone has to
give; so is a bracket that holds only `name = value` ("Use the 10 mg/ml (strength_mg_ml = 10)"), in a
sentence with no failure, no going on and no condition, the name no policy's ("(retries = 3)"); a plain "x is 3" is left alone (it reads like a condition), but a one-word name set to a quoted
text as a clause of its own, 'label: product, site is "CPU4 Hilltop"' or 'paper is always "Daily Post"', is that text (not after a word of
condition: "if site is "X"", "when: status is "done"" stay conditions). Read with a reading at the step.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.input_prose import literal_value
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FIXED = _rx(
    r"(?i)(?<![\w`])(?:`([A-Za-z_]\w*+)`|([A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++))\s++(?:is|are|stays?)\s++"
    r"(?:always|fixed\s++(?:at|to)|set\s++to|hard-?coded\s++(?:to|as))\s++"
    r"(\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|“[^”\n]{0,80}+”|`[^`\n]{0,80}+`|-?\d++(?:\.\d++)?+(?!\w)|true|false)"
)

# "always official=true", "always `mode=strict`": a name set to a value by `=`, after "always"
_ALWAYS_SET = _rx(
    r"(?i)(?<![\w-])always\s++`?+([A-Za-z_]\w*+)\s*+=\s*+"
    r"(\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|-?\d++(?:\.\d++)?+(?![\w.])|true(?!\w)|false(?!\w)|[A-Za-z][\w-]{0,40}+(?=`))"
)

# 'site is "CPU4 Hilltop"': a one-word name set to a quoted text, as a clause of its own (after a comma,
# a colon, "and" or the start), never after a word of condition ("if site is "X"", "when: status is "done"")
_QUOTED_IS = _rx(
    r"(?:^|[,;:(]|(?<![\w-])and)\s*+([a-z][a-z0-9]*+(?:_[a-z0-9]++)*+)\s++is\s++(?:always\s++)?+"
    r"(\"[^\"\n]{1,80}+\"|“[^”\n]{1,80}+”)(?=\s*+(?:[,;.)]|$|and(?!\w)))"
)
# "(strength_mg_ml = 10)", "(`mode` = "strict")": a bracket that holds a code-shaped name set by `=` and nothing else,
# in a sentence with no failure and no going on ("if it fails carry on (ok = false)" is a value to go on with)
_BRACKET_SET = _rx(
    r"\(\s*+(?:`([A-Za-z_]\w*+)`|([A-Za-z][A-Za-z0-9]*+(?:_[A-Za-z0-9]++)++))\s*+=\s*+"
    r"(\"[^\"\n]{0,80}+\"|'[^'\n]{0,80}+'|-?\d++(?:\.\d++)?+|true|false)\s*+\)"
)
_NOT_A_SETTING = _rx(r"(?i)(?<![\w-])(?:fail\w*+|errors?|down|carry\s++on|go\s++on|keep\s++going|continue|instead|"
                     r"if|when|unless|only|retr\w*+|timeout|time\s++out)(?![\w-])")
_POLICY_NAME = _rx(r"(?i)^(?:retry|retries|attempts?|tries|timeout\w*+|wait\w*+|backoff\w*+|delay\w*+|max_\w++)$")
# "grade C25/30 always", "paper A4 always": a one-word name, then a code (letters, then a digit: "C25/30", "M20",
# never a number and a unit, "30s"), then "always": that code, as text
_CODE_ALWAYS = _rx(
    r"(?<![\w`/-])([a-z][a-z0-9]*+(?:_[a-z0-9]++)*+)\s++([A-Za-z]{1,4}+\d[A-Za-z0-9]*+(?:[/.-][A-Za-z0-9]++){0,4}+)"
    r"\s++always(?![\w-])"
)
_CONDITION_BEFORE = _rx(r"(?i)(?<![\w-])(?:if|when|whenever|unless|until|while|whether|only|once|check|"
                        r"condition|where)\W{0,3}+$")


def fixed_values(text: str) -> dict[str, object]:
    """name -> value for each value `text` fixes (module docstring)."""
    out: dict[str, object] = {}
    for m in _FIXED.finditer(text):
        raw = m.group(3)
        found, value = literal_value(raw.strip("`") if raw.startswith("`") else raw)
        if not found and raw.startswith("`"):
            found, value = True, raw.strip("`")
        if found:
            out.setdefault(m.group(1) or m.group(2), value)
    for m in _QUOTED_IS.finditer(text):
        if _CONDITION_BEFORE.search(text[max(0, m.start(1) - 16):m.start(1)]) is None:
            out.setdefault(m.group(1), m.group(2)[1:-1])
    if not _NOT_A_SETTING.search(text):
        for m in _BRACKET_SET.finditer(text):
            name = m.group(1) or m.group(2)
            found, value = literal_value(m.group(3))
            if found and not _POLICY_NAME.match(name):
                out.setdefault(name, value)
    for m in _CODE_ALWAYS.finditer(text):
        out.setdefault(m.group(1), m.group(2))
    for m in _ALWAYS_SET.finditer(text):
        found, value = literal_value(m.group(2))
        out.setdefault(m.group(1), value if found else m.group(2).strip("\"'"))
    return out


def with_fixed_values(steps: Iterable[StepSpec]) -> list[StepSpec]:
    """Each step with the values its text fixes added to its literal inputs (what it gives already kept)."""
    out: list[StepSpec] = []
    for step in steps:
        said: dict[str, object] = {}
        for text in (step.description, *(t.text for t in step.texts)):  # each cell or sentence a clause's end
            said = {**fixed_values(text), **said}
        given = {k: v for k, v in said.items()
                 if k not in step.input_values and not any(f.name == k and f.source for f in step.inputs)}
        if given:
            note = "fixed values " + ", ".join(f"{k} = {v!r}" for k, v in given.items())
            reading = Reading(what="input", where=step.where, text=note, note=note + " (the step's own, no workflow input)")
            step = step.model_copy(update={"input_values": {**step.input_values, **given},
                                           "readings": (*step.readings, reading)})
        out.append(step)
    return out


_rx.save()
