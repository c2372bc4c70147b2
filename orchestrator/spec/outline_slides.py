"""A slide deck's outline saved as text (PowerPoint's "Outline/RTF", Keynote's outline), read as the
markdown it stands for.

    Morning opening                          ->  # Morning opening
    <TAB>Patrol briefing, winter deck        ->  - Patrol briefing, winter deck
    1 · Study plot                           ->  ## 1. Study plot          a numbered slide: a step
    <TAB>read-study-plot                     ->  - read-study-plot
    <TAB>In: the readings                    ->  - In: the readings
    <TAB><TAB>No reply in 15 min = no        ->     - No reply in 15 min = no   (nested by its tabs)
    4a · High hazard → control               ->  ## 4a. High hazard → control   (a lettered sub-step)
    Questions?                               ->  ## Questions?             any other slide: a section

Each slide's title starts at the line's start and its bullets are indented with tabs, one tab per
level. Read as plain text, a slide's bullets ran on into one paragraph with the slide's title, so
the first step swallowed the slides before it ("90 min" on an intro slide became its retry cap) and
the numbered titles ("2 · Lift status") were not headings at all. A document is such an outline when
three lines or more start a slide, at least a third of its lines are tab-indented, and no line is
markdown's own heading, list item or table row at its start. Lines keep their numbers.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NUMBERED = _rx(r"^(\d{1,3}+[a-z]?+)[ \t]*+(?:[·•.):|]|[-–—](?=[ \t]))[ \t]*+(\S.*)$")
_MARKDOWN = _rx(r"^(?:#{1,6}[ \t]|[-*+][ \t]|\d{1,3}+[.)][ \t]|\||```|~~~|<[a-zA-Z]|\[[^\]]*+\]:)")


def is_outline(lines: list[str]) -> bool:
    """Slides at the line's start, their bullets tab-indented (module docstring)."""
    titles = indented = total = 0
    for line in lines:
        if not line.strip():
            continue
        total += 1
        if line.startswith("\t"):
            indented += 1
        elif line[0] in " \t":
            return False  # indented with spaces: not an outline's export
        elif _MARKDOWN.match(line) is not None:
            return False
        else:
            titles += 1
    return titles >= 3 and indented * 3 >= total


def outline_markdown(text: str) -> tuple[str, list[int]] | None:
    """The outline as markdown and each line's author's line (0-based); None when `text` is no
    slide outline."""
    lines = text.split("\n")
    if not is_outline(lines):
        return None
    out: list[str] = []
    first = True
    for line in lines:
        if not line.strip():
            out.append("")
            continue
        depth = len(line) - len(line.lstrip("\t"))
        words = line.strip()
        if depth:
            out.append("   " * (depth - 1) + "- " + words)
        elif first:
            out.append(f"# {words}")
            first = False
        elif (m := _NUMBERED.match(words)) is not None:
            out.append(f"## {m.group(1)}. {m.group(2)}")
        else:
            out.append(f"## {words}")
    return "\n".join(out), list(range(len(lines)))


_rx.save()
