"""A list item whose nested bullets are an if / otherwise choice, each bullet naming its skill.

    - [ ] **4. Tell people.**                                   the item: names the choice
      - if step 3 says failed > 0: page with **page-oncall** ...   a branch: step 3 says failed > 0
      - otherwise just **post-status** with the summary ...        the other side of the one before
    - Ship it
      - when `qty` is over 100, `book-freight` the pallet          a branch: `qty` is over 100
      - else `post-parcel` it                                      the other side

Checklists and READMEs write the branches of a step under its item as sub-bullets that open with
their case ("if ...:", "when ...,") and a last one that opens with "otherwise" / "else" and may go
on with a filler word ("otherwise just `x`", "else simply **x**"). Two or more such bullets in a
row, the first with a case, at least one "otherwise", every one naming a skill (in backticks or
bold), are the branches of the item (`spec.list_branches.branch_steps`: a step per branch, the
item's other bullets said of each). A case that is a failure ("if it fails, ...", "if the API is
down: ...") is a fallback, never a branch; a failure word that is a field compared with a value
("failed > 0", "`errors` is over 3") is data, so such a case stays a branch.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Bullet
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_IF = _rx(r"(?i)^\W{0,4}+(?:only\s++)?(?:if|when)\s++(?P<case>[^,:;—–`*]{1,120}?)\s*+(?:,|:|;|\s—|\s–|\s-\s)\s*+"
          r"(?P<rest>\S.*+)$")
_ELSE = _rx(r"(?i)^\W{0,4}+(?:otherwise|else|if\s++not)(?![\w-])\s*+[,:;—–-]?\s*+(?P<rest>\S.*+)$")
_FAILING = _rx(r"(?i)(?<![\w-])(?:fail\w*+|errors?|errs|down|time[sd]?\s*+out|timeout|crash\w*+|unavailable|broken|"
               r"breaks?|retr\w*+|unreachable|refused|rejects?)(?![\w-])")
# a field compared with a value: "failed > 0", "errors >= 3", "failures is over 2", "`failed` == 0"
_COMPARED = _rx(r"(?i)`?+[A-Za-z_]\w{0,60}+`?+\s*+(?:[<>]=?+|[=!]=|≥|≤|is\s++(?:over|above|under|below|more\s++than|"
                r"less\s++than|at\s++least|at\s++most)|exceeds)\s*+-?\d")
_SKILL = _rx(r"`[a-z0-9]++(?:-[a-z0-9]++)++`|(?<![\w*])(?:\*\*|__)[a-z0-9]++(?:-[a-z0-9]++)++(?:\*\*|__)(?![\w*])")


def _failure(case: str) -> bool:
    """A case that says the step before failed, not a comparison of a field that counts failures."""
    return _FAILING.search(_COMPARED.sub(" ", case)) is not None


def _case(bullet: Bullet, *, first: bool) -> tuple[str, str] | None:
    text = " ".join(bullet.text.split())
    m = _IF.match(text)
    if m is not None and not _failure(m.group("case")) and _SKILL.search(m.group("rest")):
        return m.group("case").strip(), m.group("rest")
    other = _ELSE.match(text) if not first else None
    if other is not None and _SKILL.search(other.group("rest")):
        return "otherwise", other.group("rest")
    return None


def case_branches(item: Bullet) -> list[tuple[Bullet, str, str]]:
    """The nested bullets of `item` that are an if / otherwise choice, as (bullet, label, the rest);
    [] when they are not one (module docstring)."""
    found: list[tuple[Bullet, str, str]] = []
    for bullet in (b for b in item.children if isinstance(b, Bullet)):  # one pass: a run of cases
        read = _case(bullet, first=not found)
        if read is None and found:
            if len(found) >= 2 and any(label == "otherwise" for _, label, _ in found):
                return found
            found = []
            read = _case(bullet, first=True)
        if read is not None:
            found.append((bullet, *read))
    if len(found) >= 2 and any(label == "otherwise" for _, label, _ in found):
        return found
    return []


_rx.save()
