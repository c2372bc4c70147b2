"""People counted by any of the words people use for them: "more than 20 kids" of a field `pupils`.

    more than 20 kids going        -> roster-count's `pupils`      (kid, pupil: people on a trip)
    fewer than 8 guests            -> `attendees`
    over 30 children               -> `headcount`

A condition that compares a count of people (`plan.meaning`) names them in its own word: kids,
children, pupils, students, guests, attendees, heads. These words are one meaning here, so a field
named by another of them is the value meant when it is the only one (a guess, warned by the caller
as every reading by meaning is). Roles are not people in general: helpers, staff, drivers or
customers keep their own words (`helpers_needed` is not a count of pupils). A count said of a
plural noun is also the field named by that noun alone (`pupils`, a number of pupils), as no other
field names the count.
"""

from __future__ import annotations

from orchestrator.plan.meaning import stems

_PEOPLE_WORDS = ("kid", "kids", "child", "children", "pupil", "student", "learner", "person", "people", "persons",
                 "attendee", "participant", "guest", "visitor", "head", "headcount", "passenger", "traveller",
                 "traveler", "delegate", "heads")
PEOPLE = "person"
_PEOPLE = stems(" ".join(_PEOPLE_WORDS))


def widen(words: frozenset[str]) -> frozenset[str]:
    """The stems, each word people are counted by made the one meaning `person`."""
    return (words - _PEOPLE) | {PEOPLE} if words & _PEOPLE else words


def counted_by_noun(subject: frozenset[str], own: frozenset[str], name: str) -> bool:
    """A count ("kid count") and a field `name` that is the counted noun alone, in the plural (`pupils`,
    `kids`; not `worn`, a word said of them)."""
    nouns = subject - {"count"}
    plural = name.lower().endswith("s") or name.lower() in ("people", "children")
    return "count" in subject and bool(nouns) and nouns == own and plural
