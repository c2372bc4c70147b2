"""The symbols of a pseudocode block named by its input lines: `\\Require runs $R$, threshold $\\tau$`.

An algorithm written as pseudocode (LaTeX `algorithmic`, `algorithm2e`, or plain) names its inputs
once, each beside the symbol the lines below use for it, and then writes only the symbol:

    \\Require runs $R$, threshold $\\tau$ (percent)     R stands for `runs`, tau for `threshold`
    \\KwIn{orders $O$; the region $g$}                 O: `orders`, g: `region`
    Input: hosts H, window w                          H: `hosts`, w: `window`
    \\ForAll{$r \\in R$}                               a loop over `runs`

A pair is a word (a name: letters, digits, `_`) followed by its symbol, `$X$` (math) or a bare
letter (`H`, `x1`), in the comma- or semicolon-separated list of a line that opens with
`\\Require`, `\\Input`, `\\KwIn`, `\\KwData`, `Input:`, `Inputs:`, `Require:` or `Given:`. Words
that are no name (`the`, `a`, `of`) are skipped back over. A symbol named twice, or a name that is
a symbol itself, is left unread. The map is made once per text (`symbols`).
"""

from __future__ import annotations

from functools import lru_cache

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LEAD = _rx(r"(?m)^[ \t]{0,40}+(?:\\(?:Require|Input|KwIn|KwData)\b\s*+\{?+|(?i:inputs?|require|given)\s*+:)"
            r"(?P<rest>[^\n]{1,400}+)$")
_PAIR = _rx(r"(?P<name>[A-Za-z][A-Za-z0-9_]{1,60}+)\s++(?:\$\s*+\\?(?P<math>[A-Za-z]{1,12}+)\s*+\$|"
            r"(?P<bare>[A-Za-z][0-9]?+)(?![\w$]))")
_SKIP = frozenset(("the", "a", "an", "of", "and", "or", "list", "set", "in", "with", "for", "percent", "each"))
_WORD_SYMBOLS = frozenset(("alpha", "beta", "gamma", "delta", "epsilon", "theta", "lambda", "mu", "sigma", "tau",
                           "phi", "omega", "rho", "kappa", "eta", "pi", "Delta", "Sigma", "Omega", "Gamma"))


@lru_cache(maxsize=64)
def symbols(text: str) -> dict[str, str]:
    """{symbol: the input's name} read from the input lines of pseudocode in `text` (module docstring)."""
    if "$" not in text and ":" not in text and "\\" not in text:
        return {}
    found: dict[str, str] = {}
    twice: set[str] = set()
    for lead in _LEAD.finditer(text):
        rest = lead.group("rest").replace("}", " ").replace("{", " ")
        for part in rest.replace(";", ",").split(","):
            for pair in _PAIR.finditer(part):
                name = pair.group("name")
                symbol = pair.group("math") or pair.group("bare") or ""
                if pair.group("math") and len(symbol) > 2 and symbol not in _WORD_SYMBOLS:
                    continue  # `$\mathit{x}$` and other wrappers are no symbol
                if name.lower() in _SKIP or name in _WORD_SYMBOLS or symbol.lower() in _SKIP or symbol == name:
                    continue
                if symbol in found and found[symbol] != name:
                    twice.add(symbol)
                found[symbol] = name
                break
    names = set(found.values())
    return {s: n for s, n in found.items() if s not in twice and s not in names}


def named(text: str, symbol: str, inputs: frozenset[str]) -> str | None:
    """The declared input (one of `inputs`) the symbol stands for, or None: its name exactly, or the
    one input whose name opens with it and `_` (`threshold` and `threshold_pct`)."""
    name = symbols(text).get(symbol)
    if name is None:
        return None
    if name in inputs:
        return name
    longer = [i for i in inputs if i.startswith(f"{name}_")]
    return longer[0] if len(longer) == 1 else None


_rx.save()
