"""A sum of money to go on with after a failure, said before the going on (fiftieth round).

    if the pricing thing dies just go £120 n carry on        -> carry on with 120
    if the rate lookup fails, use $45 and move on             -> move on with 45
    when the quote errors put €60 then keep going             -> keep going with 60

`plain` writes the amount said before "carry on" / "continue" / "move on" / "keep going" / "crack on" (joined by
"and", text-speak's "n", "&" or "then") as what the step goes on with, before any row is tried (`spec.phrase`);
the plan then places it on the step's output as any value to go on with. The amount must carry a currency sign:
"go 2 and carry on" stays as said.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GO_ON = r"(?:carry\s++on|continue|move\s++on|keep\s++going|crack\s++on|go\s++on|proceed)"
_AMOUNT_THEN_GO_ON = _rx(
    r"(?i)(?<![\w-])(?:just\s++)?+(?:go|use|put|say|charge|quote|stick|take)\s++(?:with\s++)?+[£$€]\s*+"
    r"(?P<n>\d{1,9}+(?:\.\d{1,2}+)?+)(?![\d.])\s*+,?\s*+(?:and|n|&|then|and\s++then)\s++(?P<go>" + _GO_ON + r")(?![\w-])")


def plain(text: str) -> str:
    """`text` with an amount said before going on written as what the step goes on with (module docstring)."""
    if "£" not in text and "$" not in text and "€" not in text:
        return text
    return _AMOUNT_THEN_GO_ON.sub(lambda m: f"{m.group('go')} with {m.group('n')}", text)


_rx.save()
