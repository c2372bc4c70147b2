"""A step's condition said without "only", and the labels people put before one.

    Runs if total > 100.                       runs only when total > 100
    Run it if the total is over 100.           the same
    Do this step when ${approved == true}.     runs only when approved == true
    Guard: total > 100 · Precondition: ...     a `When:` line (`CONDITION_LABELS`)
    Run it again if it fails.                  no: a retry, said of a failure (the policy reader's)
    Run it if you have time. · Runs if needed. no: no comparison of a value (left to the other readers)

`spec.condition.condition_sentence` reads "only runs if" and "skip it when"; this module reads the
bare "runs if" of a hurried author, taken only when what follows the "if" reads as a comparison
(`condition.read_condition`) and does not speak of the step failing: a bare "if" is too common a word
to refuse a spec over, so what it cannot read is left to the readers after it, which warn it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the labels of a line that holds the step's condition, beside `when`, `condition`, `if`, `only if`, `run if`
CONDITION_LABELS = ("guard", "precondition", "pre-condition", "pre condition", "only when", "run when", "runs if",
                    "runs when", "run only if", "run only when", "execute if", "execute when", "proceed if",
                    "go if", "enter if", "entry condition")

_BARE = _rx(r"(?i)^\W*+(?:(?:this|the)\s++(?:step|stage|one)\s++)?(?:only\s++)?+(?:runs?|execute[sd]?|do|does|fires?|kicks?\s++in|"
            r"goes|go|happens?)(?:\s++(?:it|this|this\s++step|that|them))?+\s++(?:if|when|whenever)\s++(?P<cond>.{3,300}+)$")
_CUT = _rx(r";\s|:\s|,\s|\.(?!\d)|\s[—–]\s|\s-\s")
_FAILING = _rx(r"(?i)(?<![\w-])(?:fail\w*|errors?|erroring|errored|times?\s++out|timed\s++out|crash\w*|breaks?|"
               r"broke|flak\w*|down|retry|retries|again|time\s++allows|you|we|I)(?![\w-])")

# an expression written as one: an operator or a template's braces ("needed" alone is a name, not a condition)
_CODE = _rx(r"[<>=!]|\$\{|\{\{|#\{")


def bare_condition(sentence: str) -> str | None:
    """The condition of "Runs if total > 100." (module docstring), or None."""
    from orchestrator.spec.condition import read_condition

    m = _BARE.match(sentence)
    if m is None:
        return None
    said = m.group("cond")
    stop = _CUT.search(said)
    cond = (said[: stop.start()] if stop is not None else said).strip()
    read = read_condition(cond) if cond and not _FAILING.search(cond) else None
    if read is None or not ((read.expression and _CODE.search(cond)) or any(c.kind == "compare" for c in read.clauses)):
        return None  # "Runs if needed": no comparison of a value
    return cond


_rx.save()
