"""A success check said of what a lettered or numbered step comes back with.

    Sheet's good when D comes back published = true.        -> step D's (4's) check `published == true`
    Done when step 3 came back with posted = yes.            -> step 3's check `posted == yes`
    The order's complete once B returns sent == true.        -> step B's check `sent == true`
    It's finished when quote-letter hands back a letter (not blank).  -> its check `letter is not empty` (round 54)

Call sheets, dockets and order forms letter or number their steps and say the run's success as what
one step "comes back" (with), "came back", "returns" or "gives": the subject is that step, and the
comparison after the verb is the check on its output. The label must be one step's: a letter of the
document's step rows ("D) PUBLISH ..."), "step N", a skill's name, or the word that ends exactly one skill's
name ("report comes back with sent True" beside `email-weekly-report`, round 50). Anything else is left to the other readers,
which place the check on the step that outputs the field or warn it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_BACK = _rx(r"^(?:(?i:step)\s++(?P<n>\d{1,3}+)|(?i:the)\s++(?P<w>[a-z][a-z-]{1,30}+)\s++(?i:step|stage)|(?P<n2>\d{1,3}+)/|(?P<l>[A-Z]\d?+)|`?+(?P<s>[a-z0-9][\w-]{0,63}+)`?+)\s++(?:comes\s++back|came\s++back|returns|returned|gives|"
            r"gave|hands\s++back|handed\s++back)(?:\s++with)?+(?:\s++(?:me|us|you))?+\s++(?P<rest>\S.*+)$")
# "a subject line that isn't empty", "the total which is at least 3": the field, then what it is (round 46)
_THAT_IS = _rx(r"^(?i:an?|the)\s++`?+(?P<f>[A-Za-z_]\w{0,63}+)`?+(?:\s++(?i:line|field|value|text|figure))?+\s++(?i:that|which)"
               r"\s++(?P<v>is\s++not|isn['’]t|is)\s++(?P<rest>\S.*+)$")

# "a letter (not blank)", "the invoice, non-empty": the field, then that it is there (round 54)
_NOT_BLANK = _rx(r"^(?i:an?|the)\s++`?+(?P<f>[A-Za-z_]\w{0,63}+)`?+\s*+(?:\(\s*+|,\s*+|-\s*+)?+(?i:not\s++|non-?)"
                 r"(?i:blank|empty)\s*+\)?+\s*+[.!]?+$")
# "updated true", "sent yes": a field, then the value it has (round 50)
_BARE = _rx(r"^`?+(?P<f>[A-Za-z_]\w{0,63}+)`?+\s++(?P<v>true|false|yes|no)\s*+[.!]?+$")
_KEYED = _rx(r"^`?+(?P<f>[A-Za-z_]\w{0,63}+)`?+:\s*+(?P<v>true|false|null|-?\d{1,15}+(?:\.\d{1,15}+)?+)\s*+[.!]?+$")

# "with sent True", "with posted false": the field, then its truth (R's and VBA's `True`), no `=` between
_TRUTH = _rx(r"^`?+(?P<f>[A-Za-z_]\w{0,63}+)`?+\s++(?P<v>(?i:true|false))\s*+[.!]?+$")


def step_said_back(clause: str, labels: dict[str, int], count: int,
                   skills: dict[str, int] | None = None, words: dict[str, int] | None = None
                   ) -> tuple[int, str, str] | None:
    """(the step's number, the comparison after the verb, how the step was named) for a clause "D comes back
    published = true"; `labels`: the document's step row labels -> numbers; `count`: how many steps;
    `skills`: the skill each step runs -> its number ("pick-notice comes back posted: true"); `words`: a word of
    one step's name only -> its number ("the register step comes back with updated true", round 50)."""
    m = _BACK.match(clause.strip())
    if m is None:
        return None
    keyed = (_KEYED.match(m.group("rest")) or _BARE.match(m.group("rest"))  # "posted: true", "posted true"
             or _TRUTH.match(m.group("rest")))  # "sent True"
    rest = f"{keyed.group('f')} == {keyed.group('v').lower()}" if keyed is not None else m.group("rest")
    if (blank := _NOT_BLANK.match(rest)) is not None:  # "a letter (not blank)": `letter` is not empty
        rest = f"{blank.group('f')} is not empty"
    if (said := _THAT_IS.match(rest)) is not None:  # "a subject line that isn't empty": `subject` is not empty
        rest = f"{said.group('f')} {'is' if said.group('v') == 'is' else 'is not'} {said.group('rest')}"
    if m.group("w") is not None:  # "the register step": the one step whose name has the word
        number = (words or {}).get(m.group("w").lower(), 0)
        return (number, rest, f"'{' '.join(m.group(0).split()[:3])}' names it") if number else None
    if m.group("s") is not None:
        number = (skills or {}).get(m.group("s"), 0)
        if number:
            return number, rest, f"the skill it names, `{m.group('s')}`"
        # "report comes back with sent True" beside one skill `email-weekly-report`: the thing that skill's name
        # ends in names its step (two skills ending so: none)
        ending = {k: n for k, n in (skills or {}).items() if "-" in k and k.rsplit("-", 1)[1] == m.group("s").lower()}
        if len(set(ending.values())) == 1:
            skill, number = next(iter(ending.items()))
            return number, rest, f"'{m.group('s')}', the word the one skill `{skill}` ends in"
        return None
    if m.group("n") is not None or m.group("n2") is not None:  # "step 5", "5/" (a to-do list's own numbering)
        number = int(m.group("n") or m.group("n2"))
        return (number, rest, f"'{m.group(0).split()[0] if m.group('n2') else f'step {number}'}' names it") \
            if 0 < number <= count else None
    number = labels.get(m.group("l"), 0)
    return (number, rest, f"its row label '{m.group('l')}' names it") if number else None


_rx.save()
