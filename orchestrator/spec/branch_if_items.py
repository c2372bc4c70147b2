"""A choice written as list items that open with their case in words, one of them "otherwise".

    This forks on how many survivors there are (`kept_n` from the filter):
    - if at least 10 survived, `weight-rake` the survivors ...       a branch: kept_n >= 10
    - otherwise, a pilot-sized wave, so do `jackknife-small` ...     the other side of the one before

    Depending on the `tier`:
    - when it is gold, `refund-card` the order                        a branch: when it is gold
    - else `store-credit` it                                          the other side

Two or more items in a row, the first opening with "if" / "when" and a case (up to a comma, a
colon or a dash), each later one with "if" / "when" or with "otherwise" / "else" (and at least one
such), every one naming a skill, are the branches of a choice, as "label → `skill`" items are
(`spec.sections.section_units`). A case that is a failure ("if it times out, ...") is a fallback,
never a branch. A case that counts without saying what ("at least 10 survived", "more than 5
left", "under 3") counts the one name in backticks the line before the items says the choice is
on (`kept_n`): it is that name compared with the number (`kept_n >= 10`); with no such name the
words stay the label, for the condition reader (which warns what it cannot read).
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Bullet
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_IF = _rx(r"(?i)^\W{0,4}+(?:only\s++)?(?:if|when)\s++(?P<case>[^,:;—–`]{1,120}?)\s*+(?:,|:|;|\s—|\s–|\s-\s)\s*+(?P<rest>\S.*+)$")
_ELSE = _rx(r"(?i)^\W{0,4}+(?:otherwise|else|if\s++not)(?![\w-])\s*+[,:;—–-]?\s*+(?P<rest>\S.*+)$")
_FAILING = _rx(r"(?i)(?<![\w-])(?:fail\w*+|errors?|errs|down|time[sd]?\s*+out|timeout|crash\w*+|unavailable|broken|"
               r"breaks?|retr\w*+|unreachable|refused|rejects?)(?![\w-])")
_SKILL = _rx(r"`[a-z0-9]++(?:-[a-z0-9]++)++`|(?<![\w*])(?:\*\*|__)[a-z0-9]++(?:-[a-z0-9]++)++(?:\*\*|__)(?![\w*])")
_FIELD = _rx(r"`([A-Za-z_]\w{0,60}+)`")
_COUNT = (
    (_rx(r"(?i)^(?:at\s++least|no\s++(?:fewer|less)\s++than|a\s++minimum\s++of)\s++(\d++(?:\.\d++)?+)(?![\w.])"), ">="),
    (_rx(r"(?i)^(?:at\s++most|no\s++more\s++than|a\s++maximum\s++of|up\s++to)\s++(\d++(?:\.\d++)?+)(?![\w.])"), "<="),
    (_rx(r"(?i)^(?:more\s++than|over|above|greater\s++than)\s++(\d++(?:\.\d++)?+)(?![\w.])"), ">"),
    (_rx(r"(?i)^(?:fewer\s++than|less\s++than|under|below)\s++(\d++(?:\.\d++)?+)(?![\w.])"), "<"),
    (_rx(r"(?i)^(?:exactly)\s++(\d++(?:\.\d++)?+)(?![\w.])"), "=="),
    (_rx(r"(?i)^(\d++(?:\.\d++)?+)\s++or\s++(?:more|above|over)(?![\w-])"), ">="),
    (_rx(r"(?i)^(\d++(?:\.\d++)?+)\s++or\s++(?:fewer|less|under|below)(?![\w-])"), "<="),
)


def _case(block: Block, *, first: bool) -> tuple[str, str] | None:
    """(label, the rest) of an item that opens with its case; the label "otherwise" for the other
    side (never the first item)."""
    if not isinstance(block, Bullet):
        return None
    text = " ".join(block.text.split())
    m = _IF.match(text)
    if m is not None and _FAILING.search(m.group("case")) is None and _SKILL.search(m.group("rest")):
        return m.group("case").strip(), m.group("rest")
    other = _ELSE.match(text) if not first else None
    if other is not None and _SKILL.search(other.group("rest")):
        return "otherwise", other.group("rest")
    return None


def case_items(blocks: list[Block], at: int) -> list[tuple[str, str]] | None:
    """The (label, rest) of each item of the choice that starts at `blocks[at]` (module docstring),
    or None when no such choice starts there."""
    found: list[tuple[str, str]] = []
    for block in blocks[at:]:
        read = _case(block, first=not found)
        if read is None:
            break
        found.append(read)
    if len(found) < 2 or not any(label == "otherwise" for label, _ in found):
        return None
    return found


def lead_field(lead: str) -> str | None:
    """The one name in backticks a choice's lead says it is on, when it names exactly one and no
    skill ("This forks on how many survivors there are (`kept_n` from the filter):")."""
    if _SKILL.search(lead) is not None:
        return None
    names = {m.group(1) for m in _FIELD.finditer(lead)}
    return names.pop() if len(names) == 1 else None


def counted(label: str, field: str | None) -> str:
    """A case that counts without saying what ("at least 10 survived") as `field` compared with
    the number, when the lead named the field; else the label as written."""
    if field is None:
        return label
    for pattern, op in _COUNT:
        m = pattern.match(label.strip())
        if m is not None:
            return f"{field} {op} {m.group(1)}"
    return label


_rx.save()
