"""The guarded transitions of a state machine, written as arrows in a section no reader takes:

    CHECKING_STOCK  --(ok) [available == true]-----> RESERVING
    CHECKING_STOCK  --(ok) [else]------------------> BACKORDERING
    Idle -> Charging : [battery < 20]

The steps are read from elsewhere (a states table whose cells name the skills); a guard says
when the state it leads to runs, which the plan does not carry from here. Each guarded
transition is warned at its own line with the condition to write on that step, never left to
the section's one warning.
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.blocks import Block, Bullet, Fence, Para
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# FROM, an arrow (with an event and a guard inside it or after it), TO
_GUARDED = _rx(r"^\s*+`?(?P<src>[\w*.-]{1,60}+)`?\s*+(?:-{1,80}+|=+)\s*+(?:\([^()\n]{0,60}+\)\s*+)?+"
               r"(?:\[(?P<g1>[^\[\]\n]{1,80}+)\]\s*+)?+[-=]*+>\s*+`?(?P<dst>[\w.-]{1,60}+)`?"
               r"(?:\s*+:?\s*+\[(?P<g2>[^\[\]\n]{1,80}+)\])?+")


def _lines(block: Block) -> Iterable[tuple[str, int]]:
    if isinstance(block, Fence):
        return ((text, block.line + 1 + i) for i, text in enumerate(block.content.splitlines()))
    if isinstance(block, Para | Bullet):
        return ((text, block.line + i) for i, text in enumerate(block.text.splitlines()))
    return ()


def warn_guards(blocks: Iterable[Block], step_names: dict[str, str], src: Source) -> None:
    """Each transition with a guard that leads to a step (`step_names`: a state's name, lower
    case, to its step id) warned at its line with what to write."""
    for block in blocks:
        for text, line in _lines(block):
            m = _GUARDED.match(text)
            if m is None or not (guard := (m.group("g1") or m.group("g2") or "").strip()):
                continue
            target = step_names.get(m.group("dst").lower())
            if target is None:
                continue
            if guard.lower() in ("else", "otherwise", "default"):
                how = "`- Otherwise:` on that step (it runs when the other branch's condition is false)"
            else:
                how = f"`- When: {guard}` on that step"
            src.warn(line, f"the transition {m.group('src')} → {m.group('dst')} is guarded by [{guard}], but the "
                           f"guard is not read: {target} runs whatever it says; write {how}", "spec.unread")



def state_names(steps: Iterable[StepSpec], src: Source) -> dict[str, str]:
    """The names a step goes by, lower case, to its id: its name, its skill and, for a step read
    from a table row, the row's first cell (a state's name); steps with a condition are left out
    (their guard was read)."""
    names: dict[str, str] = {}
    for step in steps:
        if step.when is not None or step.otherwise_where is not None:
            continue
        for name in (step.name, step.skill or ""):
            if name.strip("` "):
                names[name.strip("` ").lower()] = step.id
        line = int(step.where.rsplit(":", 1)[1]) if step.where.rsplit(":", 1)[-1].isdigit() else 0
        row = src.lines[line - 1].strip() if 0 < line <= len(src.lines) else ""
        if row.startswith("|") and (first := row.strip("|").split("|")[0].strip(" `*_")):
            names[first.lower()] = step.id
    return names


_rx.save()
