"""Comparisons people write in a hurry, beside the ones `spec.condition` reads itself.

    over €250k · more than 1,000 EUR · above 5 %     a number as said: a currency sign or code, thousands
    under 2.5m USD · below 20 kg · within 90 min     separators, a k/m/bn suffix, one unit word (lower case) after it
    top_grade is 4 or worse · rating 3 or better     a bound: "N or worse" read as >= N, "N or better" as
                                                     <= N (a higher number taken as worse: a guess, warned)
    late_count of 3 or more · score 70 or higher     the same with "of", "at", "scores" or no verb at all
    anything insured at more than €250,000 needs     the condition before a person's approval, with no
    the Head of Collections to approve               "if": its subject the words after "anything"

`said_number` is asked by `condition._value` before its own number; `said_bound` by `condition._clause`
before its own "is N or more"; `said_before_approver` by `whole_approval.said_condition` when nothing
else found a condition. A money suffix `m` is a million only when a currency is said with it ("€2.5m"):
"5m" alone may be minutes, and is left unread (the readers after this one warn it).
"""

from __future__ import annotations

from typing import Any

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CURRENCY_SIGN = r"[€$£¥₹]"
_CODE = r"(?:eur|usd|gbp|chf|jpy|cad|aud|inr|euros?|dollars?|pounds?|quid|bucks)"
# the whole of a value: [sign] number [suffix] [unit]
_NUMBER = _rx(
    rf"(?i)^(?P<neg>[-+])?(?P<cur1>{_CURRENCY_SIGN})?\s*+(?P<num>\d{{1,3}}(?:[,\u202f ]\d{{3}})++(?:\.\d++)?|\d++(?:\.\d++)?|\.\d++)"
    rf"(?P<suf>k|m|mn|bn|b)?(?![\w])\s*+(?P<cur2>{_CURRENCY_SIGN}|{_CODE}(?![\w]))?\s*+"
    r"(?P<unit>%|percent|per\s++cent|(?-i:[a-z]{1,12}+))?\s*+$")
_MULTIPLIER = {"k": 1_000, "m": 1_000_000, "mn": 1_000_000, "b": 1_000_000_000, "bn": 1_000_000_000}
# words after a number that are no unit: the sentence goes on ("3 or more", "5 and the ...")
_NOT_UNIT = frozenset({"or", "and", "then", "but", "if", "when", "so", "is", "are", "was", "it", "the", "a", "an",
                       "to", "from", "for", "of", "in", "on", "at", "by", "with", "not", "than"})


def said_number(text: str) -> tuple[bool, Any]:
    """`text` as a number said with its money or unit (module docstring): (True, the number), else (False, None)."""
    t = text.strip().rstrip(".,;:!)").strip()
    m = _NUMBER.match(t) if len(t) <= 60 else None
    if m is None:
        return False, None
    unit = (m.group("unit") or "").lower().split()
    if any(w in _NOT_UNIT for w in unit):
        return False, None
    suffix = (m.group("suf") or "").lower()
    money = bool(m.group("cur1") or m.group("cur2"))
    if suffix in ("m", "b") and not money:
        return False, None  # "5m": minutes or a million; "5b": not said
    digits = m.group("num").replace(",", "").replace("\u202f", "").replace(" ", "")
    value: float = float(digits) * _MULTIPLIER.get(suffix, 1)
    if m.group("neg") == "-":
        value = -value
    return True, int(value) if value == int(value) and ("." not in digits or suffix) else value


# "<subject> [is|are|of|at|scores|=] N or worse": a bound with its direction in a word
_BOUND = _rx(
    r"(?i)^(?P<subj>[`A-Za-z_][^<>=]{0,80}?)\s++(?:(?:is|are|was|were|of|at|scores?|scored|has|had|rated|=)\s++)?"
    r"(?:an?\s++|grade\s++|level\s++|band\s++|cat(?:egory)?\s++)?(?P<n>[-+]?[€$£]?\d[\d,.]*+[kKmM]?)(?:\s*+(?:%|(?-i:[a-z]{1,12}+)))?\s++or\s++"
    r"(?P<dir>worse|better|more|greater|higher|above|over|up|bigger|larger|less|fewer|lower|below|under|down|smaller)"
    r"(?:\s++than\s++that)?\s*+$")
_POSSESSIVE = _rx(r"(?<![\w'’])\w++['’]s\s++(?=\S)")
_UP = frozenset({"more", "greater", "higher", "above", "over", "up", "bigger", "larger"})


def said_bound(text: str) -> tuple[tuple[str, ...], str, Any, str] | None:
    """"top_grade is 4 or worse" -> (subject words, op, value, guess note); None when it is not so said.
    The note is empty unless the direction is a guess ("worse", "better")."""
    from orchestrator.spec.condition import _subject

    m = _BOUND.match(text.strip().rstrip("."))
    if m is None:
        return None
    ok, value = said_number(m.group("n"))
    subject = _subject(_POSSESSIVE.sub("", m.group("subj")))  # "A's top_grade": the field, not its step's letter
    if not ok or not subject:
        return None
    word = m.group("dir").lower()
    if word in ("worse", "better"):
        op = ">=" if word == "worse" else "<="
        said = " ".join(subject)
        note = (f"'{m.group('n').strip()} or {word}' is read as `{said} {op} {m.group('n').strip()}` (a higher "
                f"number taken as worse); if a lower one is worse, write `{said} "
                f"{'<=' if op == '>=' else '>='} {m.group('n').strip()}`")
        return subject, op, value, note
    return subject, (">=" if word in _UP else "<="), value, ""


# "anything insured at more than €250,000 needs ...": the words before the cue, less "anything" and a trailing
# preposition, when they hold a comparison with a number
_ANYTHING = _rx(r"(?i)^\W*+(?:anything|everything|any(?:\s++one)?|all|whatever(?:\s++is)?|those|items?|ones?)"
                r"(?:\s++(?:that\s++is|that\s++are|which\s++is|that['’]s))?\s++")
_COMPARED = _rx(r"(?i)(?<![\w-])(?:over|above|under|below|more\s++than|less\s++than|fewer\s++than|at\s++least|"
                r"at\s++most|exceeding|exceeds?|greater\s++than|higher\s++than|lower\s++than)\s++[-+]?[€$£]?\s*+\d")
_TRAILING = _rx(r"(?i)(?<!\s)\s++(?:at|of|by|with|for|is|are|valued|priced|worth)$")


def said_before_approver(sentence: str, cue_start: int) -> str | None:
    """The condition said before the approval's cue without an "if" (module docstring), as words
    `condition.read_condition` reads; None when there is none."""
    from orchestrator.spec.condition import read_condition

    head = sentence[:cue_start]
    lead = _ANYTHING.match(head)
    if lead is None:
        return None
    said = head[lead.end():]
    m = _COMPARED.search(said)
    if m is None:
        return None
    subject = _TRAILING.sub("", said[: m.start()].strip())
    subject = _TRAILING.sub("", subject)
    rest = said[m.start():].strip().rstrip(",;:")
    words = rest.split()
    # the comparison ends at its number (and a unit or code right after it)
    for keep in range(len(words), 0, -1):
        text = f"{subject} {' '.join(words[:keep])}".strip()
        if subject and read_condition(text) is not None:
            return text
    return None


_ASIDE = _rx(r"(?<!\s)\s*+\([^()]{0,200}+\)\s*+$")


def without_aside(text: str) -> str:
    """The condition without the aside in parentheses that ends it ("top_grade is 4 or worse (grade 4/5 =
    erosion)" -> "top_grade is 4 or worse"); the text itself when there is none."""
    m = _ASIDE.search(text)
    return text[: m.start()].strip() if m is not None and m.start() > 0 else text


_rx.save()
