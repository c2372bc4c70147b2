"""Headings with no step numbers under a section not called Steps, each naming its skill in a Skill bullet.

    ## Loaf                 a section no reader knows ("Loaf", "Morning", "Phase A")
    ### Weigh               a step: its body has `- Skill: weigh-flour`
    - Skill: weigh-flour
    ### Mix                 a step
    - Skill: mix-dough
    ### Why rye?           no Skill bullet: not a step, warned as ever (`spec.markdown.read_steps`)

When the document has no step heading and no section called Steps, the first section of no known
kind whose subheadings hold a `Skill:` bullet (any of its spellings: "Skill", "Uses skill", "Tool")
is read as the steps section, and each such subheading as a step in order. It is a guess at the
document's shape, so each step read so is warned at its heading's line, saying how to write it plainly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from orchestrator.spec.blocks import Block, Bullet
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SKILL_LABEL = _rx(r"(?i)^(?:skill|skills|uses?\s++skill|skill\s++used|tool|runs?)$")


class Titled(Protocol):
    """A section as `spec.markdown.Section` has it."""

    @property
    def title(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def blocks(self) -> tuple[Block, ...]: ...
    @property
    def subsections(self) -> Sequence[Titled]: ...


S = TypeVar("S", bound=Titled)


def names_skill(blocks: Sequence[Block]) -> bool:
    """A Skill bullet with a value among `blocks` (nested bullets too)."""
    for block in blocks:
        if isinstance(block, Bullet):
            if block.label is not None and _SKILL_LABEL.match(block.label) and block.value.strip():
                return True
            if names_skill(block.children):
                return True
    return False


def skill_section(sections: Sequence[S], kind: Callable[[str], str | None], src: Source) -> S | None:
    """The section read as the steps section (module docstring), its step headings warned; None when none."""
    for section in sections:
        if kind(section.title) is not None:
            continue
        steps = [sub for sub in section.subsections if names_skill(sub.blocks)]
        if not steps:
            continue
        for number, sub in enumerate(steps, start=1):
            src.warn(sub.line, f"heading '{sub.title.strip()[:60]}' under '{section.title.strip()[:60]}' is read as "
                               f"step {number}: its text names its skill in a `Skill:` line; to say so plainly, "
                               f"write `### Step {number}: {sub.title.strip()[:40]}` under `## Steps`",
                     "spec.reading")
        return section
    return None


_rx.save()
