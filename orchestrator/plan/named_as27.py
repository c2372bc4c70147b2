"""An earlier step's output handed to a skill input the author names with "as": "the record count
from 4 as *written*", "4's rescan list as *redo*", "2's can_publish as *public*", "the total out of
step 3 as `amount`".

The name after "as" is the skill input (its marks, `*x*`, `''x''`, `` `x` ``, quotes, are dropped);
the words before it name a step, by its number after "from" / "out of" or before "'s", and one of
that step's outputs by their words ("record count" says `records`, "rescan list" says `rescan`,
`can_publish` itself). One output whose name shares a word with them, of a step the step runs
after (of several, the one whose every word is said), is the reading (`plan.output_aliases` binds and warns it); none or two, no reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.plan.near_input import singular_word
from orchestrator.plan.output_aliases import Alias, Earlier
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MARK = r"[*'`\"’]{0,3}+"
_WORDS = r"(?P<words>(?:[a-z][\w'-]{0,30}+\s++){0,3}[a-z][\w'-]{0,30}+)"
_AS = r"\s++as\s++" + _MARK + r"(?P<name>[A-Za-z_]\w{0,40}+)"
_FROM = _rx(r"(?i)(?<![\w-])" + _WORDS + r"\s++(?:from|out\s++of)\s++(?:step\s*+)?+(?P<ref>\d{1,3}+)(?![\w.])" + _AS)
_OF = _rx(r"(?i)(?<![\w-])(?:step\s*+)?+(?P<ref>\d{1,3}+)['’]s\s++" + _WORDS + _AS)
_WORD = _rx(r"[a-z0-9]++")
_STOP = frozenset({"the", "a", "an", "its", "list", "value", "count", "number", "result", "output", "of", "and"})


def _words(text: str) -> set[str]:
    return {singular_word(w) for w in _WORD.findall(text.lower().replace("_", " ")) if w not in _STOP}


def as_named(name: str, text: str, earlier: Sequence[Earlier], taken: set[str]) -> Alias | None:
    """The earlier output the text hands to `name` with "... as name" (module docstring), or None."""
    found: dict[tuple[str, str], str] = {}
    for pattern in (_FROM, _OF):
        for m in pattern.finditer(text):
            if m.group("name") != name:
                continue
            said = _words(m.group("words"))
            for e in earlier:
                if e.number != int(m.group("ref")):
                    continue
                for field in e.fields:
                    if field != name and field not in taken and _words(field) & said:
                        found.setdefault((e.id, field), m.group(0))
    if len(found) > 1:  # "the net total": `net_total`, every word said, over `gross_total`
        every = {k: v for k, v in found.items() if _words(k[1]) <= _words(v)}
        found = every if len(every) == 1 else found
    if len(found) != 1:
        return None
    (sid, field), said_text = next(iter(found.items()))
    return Alias(step=sid, field=field, said=said_text)


_rx.save()
