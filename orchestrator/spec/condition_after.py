"""A condition said AFTER the skill a step runs, and the skill said after a condition, in one sentence.

    2. Then `trim-list`, when the headcount is above `capacity`.   runs only when headcount > capacity
    - `add-water`, but only when the dough_weight is over 500        the same ("over 500" is a number, not HTTP 500)
    3. `flag-audit` if the total is over 500                         the title's condition is the words after "if"
    Only if the headcount from 1 is over the capacity, run `trim`.   the condition stops at ", run `trim`"

`own_skill_condition` (`spec.branch_condition`) reads the first two and `spec.step` warns each as a guess;
this module gives it what it needs: `failure_words` looks for a failure only outside a number compared
("over 500", "> 503"), and `closed` gives back the backtick a clause's last name lost. `skill_first_lead`
is what a title opening with a skill name in backticks says of when it runs: the words after its
if/when/unless, never the skill's name (`spec.lead_condition.lead_of` asks it first). `cut_at_skill`
ends a condition before ", run `x`" (`spec.condition._cut`).
A clause after the skill that no reader takes is warned at its line by `spec.step`
(`spec.branch_condition.unread_own_condition`): never dropped silently.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a number compared ("over 500", "> 503", "at least 500"): not a failure's status code; a value's name
# ("fail_count", "`errors`") is not a word of failure either
_COMPARED = _rx(r"(?i)(?:over|above|under|below|than|least|most|exceeds?|[<>≥≤=])\s*+\d[\d,.]*+|"
                r"(?<!\w)[a-z][a-z\d]*+(?:_[a-z\d]++)++|`[^`]{1,60}+`")
# a title that opens with the skill in backticks, then an if/when/unless clause after it
_SKILL_FIRST = _rx(r"(?i)^[^\w`]*+`[\w-]++`[^`]{0,80}?\s(?P<only>only\s++)?(?P<word>if|when|whenever|unless)\s++"
                   r"(?P<cond>\S[^`]{0,160}+(?:`[^`]{1,60}+`[^`]{0,80}+){0,3}+)$")
# ", run `x`", ", then call `x`", ", use `x`": where a condition said first ends and its step begins
_SKILL_NEXT = _rx(r"(?i),\s*+(?:then\s++)?(?:(?:we|you)\s++)?(?:run|call|use|invoke|do|start|go\s++with|kick\s++off|"
                  r"fire|send\s++(?:it\s++)?to)\s++`[\w-]++`")



def failure_words(text: str) -> str:
    """`text` without its numbers compared and its values' names, to look for words of failure in ("over 500"
    is not HTTP 500, "fail_count" is a value)."""
    return _COMPARED.sub(" ", text)


def closed(text: str) -> str:
    """`text` with the backtick its last name lost put back ("above `capacity" -> "above `capacity`")."""
    return text + "`" if text.count("`") % 2 else text


def skill_first_lead(head: str) -> tuple[str, bool] | None:
    """(condition, negated) of a title opening with its skill in backticks and an if-clause after it; else None."""
    m = _SKILL_FIRST.match(head)
    if m is None:
        return None
    return closed(m.group("cond").strip().rstrip(".!?").strip()), m.group("word").lower() == "unless"


def cut_at_skill(cond: str) -> str:
    """`cond` up to the ", run `x`" that begins its step's own words."""
    m = _SKILL_NEXT.search(cond)
    return cond[: m.start()] if m else cond


_rx.save()
