"""A step's text that gives one of its skill's inputs an earlier step's output with an equals sign or
an arrow, in a sentence, a labelled line or a table cell rather than an Input line:

    | Fed by | turbines = A's ranked list, day = B's window_day |
    Uses: hive ← the top_hive off the ranking
    Hives = the queenless list from C.                    (a capital opening the line: `hives`)
    Watch list = C's swarm-risk hives                     (a noun after the name; `swarm_risk` before `hives`)
    - Reads: crew := roster's on_duty

The name before the sign must be one the step's skill reads; the words after it (to the next comma,
semicolon or cell) must name exactly one output of the step's ancestors (`ranked`, `window_day`). That
output is then the input's source, as explicit as `turbines (from Step 1)`: it wins over a workflow
input of the same name (the 82-style `turbines` that the first step also reads) and over the
nearest-step and renaming rules. A word in capitals ("how many are MISSING from B") names the output
of its name in lower case (`missing`) when no output is written in capitals. Words that name no such output, or several, leave the input to
the other rules: nothing is guessed here. A hyphenated compound ("swarm-risk") names the output of its
words joined (`swarm_risk`) and is tried before the single words; "list", "set", "value", "field" or
"column" may stand between the name and the sign; a name written with a capital ("Hives") is the
skill's input of its lower case when only that is read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(r"(?<![\w`.-])`?+([A-Za-z_]\w*+)`?+(?:[ \t]++(?:list|set|value|field|column))?+[ \t]*+(?::=|=|←|<-|⟵)"
            r"[ \t]*+([^,;|\n=←]{1,160}+)")
_WORD = _rx(r"[A-Za-z_]\w*+")
# "C's swarm-risk hives": a hyphenated compound names the output of its words joined (`swarm_risk`) first
_COMPOUND = _rx(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*+(?:-[A-Za-z0-9]++)++(?![\w-])")


def said_sources(texts: Iterable[str], reads: Iterable[str],
                 producers: Callable[[str], list[str]]) -> dict[str, tuple[str, str, str]]:
    """name -> (producing step id, its output field, the words as written) for each `name = <words>`
    of `texts` (module docstring). `producers(field)`: the ancestors that output `field`, nearest first."""
    wanted = set(reads)
    found: dict[str, tuple[str, str, str]] = {}
    for text in texts:
        for m in _PAIR.finditer(text):
            name, words = m.group(1), m.group(2).strip()
            if name not in wanted and name[:1].isupper() and name.lower() in wanted:
                name = name.lower()  # "Hives = the queenless list from C": a line's capital
            if name not in wanted or name in found:
                continue
            compounds = [c.replace("-", "_") for c in _COMPOUND.findall(words)]
            named = [(sid, f) for w in dict.fromkeys(compounds) for f in _as_field(w, producers)
                     for sid in producers(f)[:1]]
            if not named:
                named = [(sid, f) for w in dict.fromkeys(_WORD.findall(words)) if w != name
                         for f in _as_field(w, producers) for sid in producers(f)[:1]]
            if len(named) == 1:
                found[name] = (named[0][0], named[0][1], f"{name} = {words}")
    return found


def _as_field(word: str, producers: Callable[[str], list[str]]) -> list[str]:
    """The output a word names: itself, or, a word in capitals an author stresses ("how many are MISSING
    from B", "SUNSET from A"), the output of its name in lower case when no output is written so."""
    if producers(word) or not (word.isupper() and len(word) > 1) or not producers(word.lower()):
        return [word]
    return [word.lower()]


_rx.save()
