"""Which of two readings of a code file stands: the calls' reading or the prose reading anchored on its skills
(54th round; `spec.wired52.code_first`).

A code file the text readers read only anchored on its skills' names is read by its skill calls too. The calls'
reading used to stand whenever it bound more of the skills' fields - a literal counted as bound, so a reading
that took `order.item` or `&1.date` as the text itself, made every call a root and a step of the doc string's
"done when book-courier comes back" beat a prose reading with every dependency right. Now each reading is
weighed by what it resolves:

- the calls' reading: each step input bound to a step's output, a workflow input or an item, or to a literal
  written as one (+1), each value it could only take as the text itself though it reads as a reference
  (`order.item`, `&1.date`, `zone.zone`, warned so by `spec.wired52`: -1 more, so -1 in all), each dependency
  (+1); a step read from a doc string's line loses it outright;
- the prose reading: each step input its skill takes that an earlier step's skill gives (the planner binds it
  there and the step waits for it: +1 binding, +1 dependency per step waited for), its own bound fields and
  written dependencies (+1 each).

The calls' reading stands when it weighs at least as much (a tie: the file is code, its calls say what runs).
Patterns anchored and bounded.
"""

from __future__ import annotations

from orchestrator.spec.check import SpecParts
from orchestrator.spec.code_docs54 import doc_lines
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_LINE = _rx(r":(?P<n>\d{1,7}+)$")


def _line_of(where: str) -> int:
    m = _LINE.search(where or "")
    return int(m.group("n")) if m is not None else 0


def calls_weight(parts: SpecParts, text: str, unread: int = 0) -> int | None:
    """The calls' reading's weight (module docstring), `unread` the references it took as text; None: a step was
    read from a doc string's line."""
    docs = doc_lines(text.splitlines())
    weight = -2 * unread
    for step in parts.steps:
        if docs and _line_of(step.where) in docs:
            return None
        named = {f.name for f in step.inputs if f.source}
        named |= {k for k, v in step.input_values.items() if v not in ("", None)}
        weight += len(named) + len(step.depends_on)
    return weight


def _skill_of(step_skill: str | None, mentions: list[str], vocab: Vocabulary) -> str | None:
    for name in ([step_skill] if step_skill else []) + mentions:
        found = vocab.skill_for(name)
        if found is not None:
            return found
    return None


def prose_weight(parts: SpecParts, vocab: Vocabulary) -> int:
    """The prose reading's weight (module docstring)."""
    weight = 0
    given: list[frozenset[str]] = []
    for step in parts.steps:
        skill = _skill_of(step.skill, [m.text for m in step.mentions], vocab)
        takes = (vocab.inputs_of(skill) or frozenset()) if skill else frozenset()
        waited: set[int] = set()
        for name in takes:
            k = next((k for k in range(len(given) - 1, -1, -1) if name in given[k]), None)
            if k is not None:
                weight += 1
                waited.add(k)
        weight += len(waited) + sum(1 for f in step.inputs if f.source) + len(step.depends_on)
        given.append((vocab.outputs_of(skill) or frozenset()) if skill else frozenset())
    return weight


def calls_win(calls: SpecParts, prose: SpecParts, text: str, vocab: Vocabulary, unread: int = 0) -> bool:
    """Whether the calls' reading stands over the prose reading anchored on the skills."""
    weight = calls_weight(calls, text, unread)
    return weight is not None and weight >= prose_weight(prose, vocab)


_rx.save()
