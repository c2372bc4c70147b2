"""A list step whose nested bullets are the branches of a choice, read as one step per branch.

    - **Bump**: branches on the `breaking` count            the lead: names the choice
      - breaking > 0 → `bump` with `current` and `part: major`      a branch: its label is its condition
      - anything else → `bump` with `current` and `part: minor`     the other side of the branch before
      - either way, retry once after 5s.                            said of every branch

Two or more nested bullets that each name a skill after a label and an arrow (the form of
`sections.branch_item`) make the item a choice: each branch is a step named after the item
and its label ("Bump (breaking > 0)"), its text the branch line and the bullets under it,
plus every nested bullet that is not a branch (said "either way"). A `key: value` in
backticks in a branch line (`part: major`) is a constant input of that branch's step. The
label becomes the condition once the inputs are known (`sections.place_branches`); "anything
else", "otherwise" makes the branch the other side of the one before.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.otherwise_item29 import case_branches
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sections import Unit, branch_item, branch_step, names_a_skill
from orchestrator.spec.source import Source
from orchestrator.spec.step import read_step
from orchestrator.spec.step_prose import RouteReading

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CONSTANT = _rx(r"`\s*([A-Za-z_]\w*)\s*(?::|=)\s*([^`\s][^`]{0,80}?)\s*`")


def branches_of(item: Bullet) -> list[tuple[Bullet, str, str]]:
    """The nested bullets of `item` that are branches: (bullet, label, the rest); [] when fewer than two."""
    found = [(b, *read) for b in item.children if isinstance(b, Bullet) and (read := branch_item(b)) is not None]
    return found if len(found) >= 2 else case_branches(item)  # "if ...: **a**" / "otherwise just **b**"


def constants(text: str) -> dict[str, Any]:
    """`part: major`, `dry_run=true` in backticks: constant inputs (a number or true/false as such)."""
    out: dict[str, Any] = {}
    for name, raw in _CONSTANT.findall(text):
        value: Any = raw.strip().strip("\"'")
        if re.fullmatch(r"-?\d+", value):
            value = int(value)
        elif re.fullmatch(r"-?\d+\.\d+", value):
            value = float(value)
        elif value.lower() in ("true", "false"):
            value = value.lower() == "true"
        out[name] = value
    return out


def branch_steps(number: int, name: str, item: Bullet, lead: str, src: Source,
                 reading: Reading) -> list[StepSpec]:
    """The steps of a list item that is a choice, numbered from `number` (see the module doc)."""
    found = branches_of(item)
    branch_lines = {b.line for b, _, _ in found}
    shared: list[Block] = [b for b in item.children if b.line not in branch_lines]
    return _branches(number, name, found, shared, lead, src, reading)


def _branches(number: int, name: str, found: list[tuple[Bullet, str, str]], shared: list[Block], lead: str,
              src: Source, reading: Reading, *, own_names: bool = False) -> list[StepSpec]:
    steps: list[StepSpec] = []
    for position, (bullet, label, rest) in enumerate(found):
        label = clean_label(label)
        own = _BOLD_NAME.match(rest) if own_names else None
        step_name = own.group(1).strip() if own else f"{name} ({label})"
        note = Reading(what="step", where=src.where(bullet.line), text=" ".join(bullet.text.split())[:160],
                       note=f"branch '{label}' of '{name}' read as step-{number + position} ({step_name})")
        readings = (reading, note) if lead.strip() else (note,)
        blocks: list[Block] = [Para(line=bullet.line, text=rest), *bullet.children, *shared]
        step = read_step(number + position, step_name, bullet.line, blocks, src, form="list", readings=readings)
        given = constants(rest)
        if given:
            step = step.model_copy(update={
                "input_values": {**step.input_values, **given},
                "readings": (*step.readings, Reading(
                    what="input", where=src.where(bullet.line), text=", ".join(f"{k}: {v}" for k, v in given.items()),
                    note=f"constant inputs of the branch: {', '.join(f'{k} = {v!r}' for k, v in given.items())}"))})
        unit = Unit(blocks=blocks, branch=label)
        step = branch_step(step, unit, [s for s in steps if any(r.what == "branch" for r in s.readings)], src)
        steps.append(step)
    return steps


_BOLD_NAME = _rx(r"^[^\w*_]{0,4}+(?:\*\*|__)([^*_]{1,60}+)(?:\*\*|__)")
# markup and signs around a label ("**band = auto** ✅"), an aside after a case word ("anything else (review)")
_LABEL_SIGNS = _rx(r"^[^\w(<>=!≥≤]++|[^\w)<>=!≥≤'\"]++$")
_ELSE_ASIDE = _rx(r"(?i)^((?:anything|everything|any(?:one|body)|every(?:one|body))\s++else|otherwise|else|the\s++rest|"
                  r"default|all\s++others?)\s*+\([^()]*+\)$")


def clean_label(label: str) -> str:
    """A branch's label without its markup, emoji or a case word's aside."""
    text = _LABEL_SIGNS.sub("", label.replace("**", " ").replace("__", " ")).strip()
    text = " ".join(text.split())
    m = _ELSE_ASIDE.match(text)
    return m.group(1) if m else text


def nested_choice(item: Bullet) -> tuple[Bullet, list[tuple[Bullet, str, str]]] | None:
    """A list item that is a step of its own with a choice under one of its bullets: that bullet (the
    choice's lead, "Look at the band it gives back:") and its branches, each a label bullet whose first
    bullet goes on with an arrow and a skill (`- **band = auto**` / `  - → **Refund** with `issue-refund``),
    or a branch bullet (`label → `skill``); None when the item has none or is itself the choice."""
    if branches_of(item):
        return None
    for lead in item.children:
        if not isinstance(lead, Bullet):
            continue
        found = [read for b in lead.children if isinstance(b, Bullet) and (read := _label_branch(b)) is not None]
        if len(found) >= 2:
            return lead, found
    return None


def _label_branch(bullet: Bullet) -> tuple[Bullet, str, str] | None:
    if (read := branch_item(bullet)) is not None:
        return bullet, *read
    first = next((b for b in bullet.children if isinstance(b, Bullet)), None)
    if first is None or len(bullet.text) > 80 or names_a_skill(bullet.text):
        return None
    arrow = _ARROW_LEAD.match(first.text)
    if arrow is None or not names_a_skill(first.text):
        return None
    rest = first.text[arrow.end():]
    children = (*first.children, *(b for b in bullet.children if b is not first))
    return Bullet(line=first.line, text=rest, children=children), bullet.text, rest


_ARROW_LEAD = _rx(r"^\s*+(?:→|->|=>|⇒|➜|➔)\s*+")


def step_then_choice(number: int, name: str, rest: str, item: Bullet, choice: tuple[Bullet, list[tuple[Bullet, str, str]]],
                     src: Source, reading: Reading, sink: list[tuple[str, RouteReading, int]]) -> list[StepSpec]:
    """The item as a step of its own (its bullets but the choice's lead), then a step per branch under
    the lead, numbered after it, each named by its bold name when it has one ("→ **Refund to card** ...")."""
    lead, found = choice
    blocks: list[Block] = ([Para(line=item.line, text=rest)] if rest else []) + [
        b for b in item.children if b is not lead]
    first = read_step(number, name, item.line, blocks, src, form="list", readings=(reading,), routes_sink=sink)
    note = Reading(what="route", where=src.where(lead.line), text=" ".join(lead.text.split())[:160],
                   note=f"read as the lead of a choice between the {len(found)} branches under it, after step-{number}")
    return [first, *_branches(number + 1, name, found, [], lead.text, src, note, own_names=True)]


# "if `remote` is true, run `ship-laptop`; otherwise run `book-desk`": one item, two branches
_INLINE = _rx(r"(?i)^(?P<pre>[^`]{0,80}?)(?<!\w)(?:only\s++)?(?:if|when)\s++(?P<cond>[^,;:]{1,120}?)\s*+[,:]\s*+(?:then\s++)?"
              r"(?:(?:we\s++|you\s++)?(?:run|use|call|do)\s++)?(?P<a>`[\w-]++`[^;.]{0,200}?)\s*+(?:[;.]|,\s*+|\s++—\s++)\s*+"
              r"(?:otherwise|else|if\s++not)\s*+[,:]?\s*+(?:(?:we\s++|you\s++)?(?:run|use|call|do)\s++)?"
              r"(?P<b>`[\w-]++`.{0,200}+)$")
_FAILING = _rx(r"(?i)(?<!\w)(?:fail\w*+|errors?|down|time[sd]?\s*+out|crash\w*+|unavailable|broken|breaks?|retr\w*+)(?!\w)")


def inline_choice(item: Bullet, rest: str) -> list[tuple[Bullet, str, str]] | None:
    """The two branches of an item that says "if COND, run `a`; otherwise run `b`" (no failure in COND)."""
    m = _INLINE.match(rest.strip())
    if m is None or _FAILING.search(m.group("cond")) or not names_a_skill(m.group("a")):
        return None
    first = Bullet(line=item.line, text=m.group("a"))
    other = Bullet(line=item.line, text=m.group("b"))
    return [(first, m.group("cond").strip(), m.group("a")), (other, "otherwise", m.group("b"))]


def inline_choice_steps(number: int, name: str, found: list[tuple[Bullet, str, str]], item: Bullet, src: Source,
                        reading: Reading) -> list[StepSpec]:
    """A step per branch of an inline choice, the item's nested bullets said of both."""
    return _branches(number, name, found, list(item.children), "inline", src, reading)


_rx.save()
