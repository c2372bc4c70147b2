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

A person's approval asked under what an earlier step "says" (`said_of_output`):

    If the flour check says we're short at all, Marco has to OK it    short_kg > 0 (flour-math outputs short_kg)
    When the damp meter shows it's wet, the site lead signs off       wet == true (the meter's skill outputs wet)

the state's word is found among the outputs of the one skill the thing's words name (else of any skill,
if only one output has it): a count or an amount (`short_kg`, `late_count`) is "> 0", any other name
"== true". It is a guess, so the caller says it at the line with what to write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:
    from orchestrator.spec.vocabulary import Vocabulary

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


# "If the flour check says we're short at all", "when the meter shows it's wet": the thing, then its state
_SAYS = _rx(r"(?i)^\W*+(?:if|when|whenever|should)\s++(?:the\s++|our\s++|its\s++)?(?P<thing>[\w' -]{1,60}?)\s++(?:says|shows|"
            r"reports|finds|flags|comes\s++back)\s++(?:that\s++|with\s++|as\s++)?(?P<state>[\w' -]{1,60}+)$")
_STATE_FILLER = frozenset({"anything", "something", "we're", "we", "are", "it's", "it", "is", "there's", "there", "they're", "they", "at", "all",
                           "any", "a", "an", "the", "bit", "even", "slightly", "little", "too", "be", "been", "were"})
# an output's name ending in a unit or a count: an amount, so "short" is "> 0"
_AMOUNT_ENDS = frozenset({"kg", "g", "l", "ml", "m", "km", "s", "ms", "min", "h", "count", "n", "num", "total", "qty",
                          "amount", "pct", "units", "number", "no", "eur", "usd", "gbp", "sum", "value"})


def said_of_output(sentence: str, vocabulary: Vocabulary) -> tuple[str, str] | None:
    """The condition of "If <thing> says <state>, <person> has to approve" (module docstring):
    (the expression, the words it was read from), or None."""
    head = _CUT.split(sentence, maxsplit=1)[0]
    m = _SAYS.match(head)
    if m is None or not vocabulary:
        return None
    states = [w for w in m.group("state").lower().split() if w not in _STATE_FILLER]
    if len(states) != 1:
        return None
    thing = set(m.group("thing").lower().replace("-", " ").split())
    found: dict[str, set[str]] = {}  # output name -> the skills that output it
    for skill in sorted(vocabulary.skills):
        for name in vocabulary.outputs_of(skill) or ():
            if states[0] in name.lower().split("_"):
                found.setdefault(name, set()).add(skill)
    named = {n for n, skills in found.items() if any(thing & set(s.split("-")) for s in skills)}
    pick = named if named else set(found)
    if len(pick) != 1:
        return None
    name = next(iter(pick))
    amount = name.lower().split("_")[-1] in _AMOUNT_ENDS and name.lower() != states[0]
    return (f"{name} > 0" if amount else f"{name} == true"), f"{m.group('thing').strip()} says {m.group('state').strip()}"


_rx.save()
