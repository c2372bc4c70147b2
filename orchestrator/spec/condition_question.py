"""A step's condition asked as a short question at the opening of its text, and its other branch asked
in the negative.

    4. In spec? Release it: `release-batch` ...           runs only when in_spec is true
    5. Not in spec? Then instead: `quarantine-batch` ...  the other branch of step 4 (the same words, negated)
    - Cabin cold? `light-stove`                             runs only when cabin_cold is true
    - Is it overdue? Send `chase-payment`                   runs only when overdue is true
    Q3 — Any allergies? → `flag-allergy`                    runs only when allergies is true

A recipe card, a checklist or a run sheet asks a yes/no question of the step before ("In spec?") and
does the step on yes. The question's words (at most four, after "is it", "are they", "is the ...") joined
with "_" are taken as the name of a yes/no value an earlier step gives: a guess, so it is warned at the
line and marked as a title's condition (`field_where["when_title"]`): when no step or input gives that
value, the planner drops it with a warning instead of refusing the spec. A question opening with "not",
"no" or "never" ("Not in spec?", "No allergies?") asks the same words in the negative: the other branch
of the nearest step before whose question had those words, else `NAME is false`. Questions that ask
how, what or why, and ones naming a skill, are no condition and are left to the other readers.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_QUESTION = _rx(
    r"(?i)^(?P<neg>(?:not|no|never)\s++)?(?:(?:is|are|was|were)\s++(?:it|they|this|that|the\s++[a-z]++)\s++)?"
    r"(?P<words>[a-z][a-z'’-]*+(?:\s++[a-z][a-z'’-]*+){0,3}+)\s*+\?(?!\S)")
_ASKS = frozenset({"how", "what", "why", "who", "whom", "where", "which", "when", "whose", "can", "could",
                   "should", "shall", "will", "would", "do", "does", "did", "may", "might", "must", "questions",
                   "anything", "ready", "done", "finished", "ok", "okay", "right", "yes", "huh", "eh", "or"})


def question_condition(words: str) -> tuple[str, bool, str] | None:
    """(the value's name, asked in the negative, the question as said) for a text opening with a short
    yes/no question (module docstring); None when it does not."""
    m = _QUESTION.match(words)
    if m is None:
        return None
    said = [w.strip("'’-").lower() for w in m.group("words").split()]
    said = [w for w in said if w not in ("a", "an", "the", "any")]
    if not said or said[0] in _ASKS or said[-1] in _ASKS or any(not w.isalpha() for w in said):
        return None
    return "_".join(said), m.group("neg") is not None, m.group(0).strip()


_rx.save()
