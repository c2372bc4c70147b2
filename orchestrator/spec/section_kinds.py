"""Two `##` sections of one kind under different titles ("1. Introduction" and "3. Overview",
"Inputs" and "Parameters"): never a refusal. The same title twice stays an error
(`spec.duplicate-section`); two titles of the intent kind are one intent, read in order; two
of any other kind keep the first, and the second is warned at its line naming both titles.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from orchestrator.spec.blocks import Bullet, Para
from orchestrator.spec.source import Source

if TYPE_CHECKING:
    from orchestrator.spec.markdown import Section

# kinds whose text is prose about the whole workflow: both parts are read, in order
_MERGED = frozenset(("intent", "state"))


def same_title(first: str, second: str) -> bool:
    """The same heading written twice, numbering, case and punctuation aside."""

    def bare(title: str) -> str:
        return " ".join(re.sub(r"[^a-z ]", " ", title.lower()).split())

    return bare(first) == bare(second)


def merge_same_kind(kind: str, first: Section, second: Section, src: Source) -> Section:
    """`first` with `second` read into it (intent, state), or `first` with `second` warned."""
    if kind in _MERGED:
        return first.model_copy(
            update={
                "blocks": (*first.blocks, *second.blocks),
                "subsections": (*first.subsections, *second.subsections),
            }
        )
    src.warn(
        second.line,
        f"section '{second.title}' is read as the same kind of section ({kind}) as "
        f"'{first.title}' at line {first.line}, so only that one is read: put what is "
        f"under '{second.title}' under '{first.title}'",
        "spec.unread",
    )
    return first


def merged_text(section: Section) -> str:
    """The text of what another section of the same kind added to `section` (after its end)."""
    return "\n\n".join(
        b.text for b in section.blocks if isinstance(b, Para | Bullet) and b.line > section.end
    )
