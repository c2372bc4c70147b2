"""A step's text that gives one of its skill's inputs a workflow input by a sigil, outside any Input line:

    in.readings  = @telemetry            (an INI section read as a step)
    with `servings = $guests`            (a recipe card's sentence)
    sample <- ${plate_id}                (a lab protocol's line)

The name before the sign (an `in.`, `input.`, `with.`, `args.` or `params.` before it aside) must be one
the step's skill reads, and the name after the `@` or `$` a declared workflow input: that input is the
skill input's source, as explicit as `readings (from inputs.telemetry)`, so the planner neither leaves
the input unbound nor makes up a workflow input named after it. A sign over a name that is no
workflow input leaves it to the other rules: nothing is guessed here.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(r"(?<![\w`.@$-])`?+(?:(?:in|input|inputs|with|args?|params?)\.)?+([A-Za-z_]\w*+)`?+[ \t]*+"
            r"(?::=|=|←|<-|:)[ \t]*+`?+[@$]\{?+([A-Za-z_]\w*+)\}?+`?+(?![\w(]|\.\w)")


def sigil_sources(texts: Iterable[str], reads: Iterable[str], inputs: Iterable[str]) -> dict[str, tuple[str, str]]:
    """skill input -> (the workflow input, the words as written) for each `name = @input` of `texts`."""
    wanted, given = set(reads), set(inputs)
    found: dict[str, tuple[str, str]] = {}
    for text in texts:
        for m in _PAIR.finditer(text):
            name, source = m.group(1), m.group(2)
            if name in wanted and source in given and name not in found:
                found[name] = (source, " ".join(m.group(0).split()))
    return found


_rx.save()
