"""A condition that counts the items of a kind, said in words, read as that kind's count.

    "two or more sites are positive"          ->  site_positive_count >= 2   (placed on `positive_count`)
    "at least three samples came back late"   ->  sample_late_count >= 3
    "more than one boat is unplaced"          ->  boat_unplaced_count > 1
    "fewer than 2 crews are available"        ->  crew_available_count < 2
    "none of the loaves are burnt"            ->  loaf_burnt_count == 0

An approval or a step's condition often asks how many items are of a kind ("if two or more sites are
positive, the superintendent signs"); the step before says how many it found (`positive_count`). The
clause is read as the count of the item's and the kind's words, and the planner places it on the one
count field whose words are all among them (`plan.count_field`), as "any X is Y" is
(`condition_any`). It is a guess, so the plan says how it was read and warns; with no such field the
condition names no value and is reported as any other such condition is. Number words are digits by
now (`gate_count.said_count`); "one or more" / "at least one" are read as "above 0".
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_N = r"(?:\d{1,6}+|one|two|three|four|five|six|seven|eight|nine|ten|a\s++single|a\s++couple\s++of)"
_VERB = (r"(?:is|are|was|were|come\s++back|comes\s++back|came\s++back|test(?:s|ed)?+|turn(?:s|ed)?+\s++out|"
         r"show(?:s|ed)?+\s++up|get|gets|got|end(?:s|ed)?+\s++up|have\s++been|has\s++been)")
_ITEM = rf"(?P<item>[A-Za-z][\w-]*+(?:\s++(?!{_VERB}(?![\w-]))[A-Za-z][\w-]*+)?+)"
_KIND = r"(?P<kind>[A-Za-z][\w-]*+(?:\s++[A-Za-z][\w-]*+){0,2}+)"
_COUNT = _rx(rf"(?i)^\W*+(?:(?:if|when|where|once)\s++)?+(?:(?P<lo>at\s++least|no\s++fewer\s++than|not\s++less\s++than)\s++"
             rf"(?P<n1>{_N})|(?P<gt>more\s++than|over|above)\s++(?P<n2>{_N})|(?P<hi>at\s++most|no\s++more\s++than)\s++"
             rf"(?P<n3>{_N})|(?P<lt>fewer\s++than|less\s++than|under)\s++(?P<n4>{_N})|(?P<n5>{_N})\s++or\s++"
             rf"(?P<dir>more|fewer|less)|(?P<n6>\d{{1,6}}+)\s*+\+|(?P<none>none|not\s++one))\s++"
             rf"(?:of\s++(?:the|its|their|our|these|those)\s++)?+{_ITEM}\s++{_VERB}\s++(?:as\s++)?+(?:an?\s++)?+"
             rf"{_KIND}\s*+(?:\([^()]{{0,200}}+\)\s*+)?+[\s.]*+$")
_WORD = _rx(r"[A-Za-z][A-Za-z0-9]*+")
_NUMBERS = {"one": 1, "a single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
            "nine": 9, "ten": 10, "a couple of": 2}
# words of a kind that say no kind (a value missing is not a count of anything)
_NO_KIND = frozenset({"empty", "missing", "blank", "null", "none", "set", "present", "true", "false", "ok", "fine"})
_FILLER = frozenset({"the", "a", "an", "of", "in", "on", "at", "by", "for", "with", "from"})


def _number(said: str) -> int:
    said = " ".join(said.lower().split())
    return int(said) if said.isdigit() else _NUMBERS[said]


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def count_of_kind(text: str) -> tuple[tuple[str, ...], str, int, str] | None:
    """(the count's subject words, its operator, the number, how it was read) for "two or more X are Y"
    and its kin (module docstring), else None."""
    m = _COUNT.match(text)
    if m is None:
        return None
    kind = [w.lower() for w in _WORD.findall(m.group("kind")) if w.lower() not in _FILLER]
    item = [w.lower() for w in _WORD.findall(m.group("item")) if w.lower() not in _FILLER]
    if not kind or not item or kind[0] in _NO_KIND:
        return None
    if m.group("lo"):
        op, n = ">=", _number(m.group("n1"))
    elif m.group("gt"):
        op, n = ">", _number(m.group("n2"))
    elif m.group("hi"):
        op, n = "<=", _number(m.group("n3"))
    elif m.group("lt"):
        op, n = "<", _number(m.group("n4"))
    elif m.group("n5"):
        op, n = (">=" if m.group("dir").lower() == "more" else "<="), _number(m.group("n5"))
    elif m.group("n6"):
        op, n = ">=", int(m.group("n6"))
    else:
        op, n = "==", 0
    if op == ">=" and n == 1:
        op, n = ">", 0
    words = (*[_singular(w) for w in item], *[_singular(w) for w in kind], "count")
    note = (f"'{text.strip()[:80]}' is read as a count: {' '.join(words[:-1])} count {op} {n} (the count field of "
            f"the step that lists them); to say so plainly write `FIELD_count {op} {n}`")
    return words, op, n, note


_rx.save()
