"""A section that lists the workflow's inputs under the author's own title ("## What you need
before starting", "## Before you kick this off you'll need", "## Params", "## Bring", "## You
give it"): read as the Inputs section when its title speaks of what goes in and every item of
it is a value's name (`contacts`, `send_date: YYYY-MM-DD`, `limit (int): rows to keep`), with a
warning at the heading saying it was so read and how to title it plainly. A section whose items
are not names (sentences, steps) is left to the unknown-section warning: reading less, said,
beats reading a list of chores as inputs.

A lead paragraph that says the same ("Bring:", "Before you kick this off you'll need:") and is
followed by a list of names is read the same way (`listed_after_lead`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.spec.blocks import Block, Bullet, Para, Table
from orchestrator.spec.model import InputSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

if TYPE_CHECKING:
    from orchestrator.spec.markdown import Section

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a title that speaks of what goes in (words of a whole title, lowercased, punctuation as spaces)
_GOES_IN = _rx(
    r"(?<![a-z])(?:need|needs|needed|require|requires|required|requirements|prerequisites?|bring|give|given|"
    r"provide|provided|supply|supplied|params?|parameters|inputs?|arguments?|args|takes?|feed|hand\s++it|"
    r"enters?|entered|types?\s++in|fills?\s++in|keys?\s++in|"
    r"hand\s++over|hands?\s++(?:us|you|in)|gives\s++us|form\s++fields?|before\s++(?:you\s++|we\s++)?+start(?:ing)?+|kick\s++(?:this|it)\s++off)(?![a-z])"
)
# a title that speaks of what comes out: never inputs ("What you give back", "What it gives you")
_COMES_OUT = _rx(r"(?<![a-z])(?:give\s++back|gives\s++you|get\s++back|you\s++get|outputs?|returns?|"
                 r"produces?|results?|deliverables?)(?![a-z])")
# one item: a value's name, then (its type) and `: description` or `- description`, or nothing
_ITEM = _rx(r"^\s*+(?:\*\*|__)?+(`?+)@?+([A-Za-z_][\w-]*+)\1(?:\*\*|__)?+\s*+(?:\([^()\n]{0,80}\)\s*+)?"
            r"(?:(?:\*\*|__)?+(?:[:—–=]|-(?=\s))(?:\*\*|__)?+|$)")

# a form field's label, then its name in backticks in brackets: "**Student ID** (`student_id`)"
_LABELLED = _rx(r"^\s*+(?:\*\*|__)?+([A-Za-z][\w ./'&-]{0,40}?)(?:\*\*|__)?+\s*+\(\s*+`([A-Za-z_][\w-]{0,60}+)`\s*+\)")



def _title_words(title: str) -> str:
    return " ".join("".join(c if c.isalpha() else " " for c in title.lower()).split())


def goes_in_title(title: str) -> bool:
    """The title (of a section or a lead line) speaks of what the workflow takes."""
    words = _title_words(title)
    return _GOES_IN.search(words) is not None and _COMES_OUT.search(words) is None


def name_first(text: str) -> str:
    """A form field's item written label first, its name in backticks in brackets after it
    ("**Student ID** (`student_id`), e.g. S1048822"), as the name first ("`student_id`: Student
    ID, e.g. S1048822"); any other item as written."""
    m = _LABELLED.match(text)
    if m is None:
        return text
    rest = text[m.end():].lstrip(" ,;:—–-")
    return f"`{m.group(2)}`: {m.group(1).strip()}" + (f", {rest}" if rest else "")


def _named_item(text: str) -> str | None:
    """The value's name an item opens with, when it is a name: backticked, or shaped like code
    (`send_date`, `contacts`, `@Period`), never a capitalised word of a sentence."""
    first = name_first(text.strip().split("\n", 1)[0])
    m = _ITEM.match(first)
    if m is None:
        return None
    name, ticked = m.group(2), bool(m.group(1))
    if ticked or "_" in name or first.lstrip("*_ ").startswith("@") or name.islower():
        return name.lstrip("@")
    return None


def listed_names(blocks: list[Block]) -> list[str] | None:
    """The names the blocks list, one an item (bullets, or a table with a name column), or None
    when any item is not a name, or nothing is listed."""
    names: list[str] = []
    for block in blocks:
        if isinstance(block, Bullet):
            name = _named_item(block.text)
            if name is None:
                return None
            names.append(name)
        elif isinstance(block, Table):
            first = [cells[0] for _, cells in block.rows if cells]
            found = [_named_item(c) for c in first]
            if not found or any(n is None for n in found):
                return None
            names += [n for n in found if n is not None]
        else:
            return None
    return names or None


def inputs_section_said(section: Section, src: Source) -> bool:
    """A section of an unknown title that lists the inputs (module docstring): True, with its
    warning, when it is to be read as the Inputs section."""
    blocks = [*section.blocks, *(b for sub in section.subsections for b in sub.blocks)]
    if not goes_in_title(section.title):
        return False
    names = listed_names(blocks)
    if names is None:
        return False
    src.warn(section.line, f"section '{section.title}' read as the Inputs section: its items name the values "
                           f"the workflow takes ({', '.join(f'`{n}`' for n in names[:6])}); to say so, title it "
                           "`## Inputs`", "spec.reading")
    return True


def listed_after_lead(blocks: list[Block], at: int, src: Source) -> list[Bullet] | None:
    """The bullets after the lead paragraph `blocks[at]` ("Bring:", "You give it:") when each
    is a name: they are the inputs (warned at the lead as so read); None otherwise."""
    lead = blocks[at]
    if not isinstance(lead, Para) or "`" in lead.text or not goes_in_title(lead.text.rstrip(": \n")):
        return None
    if not lead.text.rstrip().endswith((":", "—", "–")):
        return None
    items: list[Bullet] = []
    for block in blocks[at + 1:]:
        if not isinstance(block, Bullet):
            break
        items.append(block)
    names = listed_names(list(items))
    if names is None:
        return None
    src.warn(lead.line, f"'{lead.text.strip()[:50]}' and the list after it read as the workflow's inputs "
                        f"({', '.join(f'`{n}`' for n in names[:6])}); to say so, put them under `## Inputs`",
             "spec.reading")
    return items



# a parameter as a stored procedure or a script header declares it: `@Period CHAR(7) 'YYYY-MM' being closed`
_AT_PARAM = _rx(r"^[\s*/#;-]*+@([A-Za-z_]\w*+)(?:\s++(.*))?$")


def snake(name: str) -> str:
    """`RateTable` → `rate_table`, `Period` → `period`, `run_id` stays."""
    out: list[str] = []
    for i, c in enumerate(name):
        if c.isupper() and i and (name[i - 1].islower() or (i + 1 < len(name) and name[i + 1].islower())) \
                and name[i - 1] != "_":
            out.append("_")
        out.append(c.lower())
    return "".join(out)


def at_params(lines: list[str], line: int, src: Source) -> list[InputSpec] | None:
    """The inputs a `Params:` label lists as `@Name TYPE description` a line (a T-SQL header, a
    script's doc comment): each `@Name` an input named in snake case (`@RateTable` → `rate_table`),
    the rest its description; the lines after a parameter that name none go on its description, up
    to an empty (comment) line.
    Warned at the label's line with the names read. None unless the first line is such a parameter."""
    found: list[list[str | int]] = []
    for offset, raw in enumerate(lines):
        m = _AT_PARAM.match(raw)
        if m is not None:
            found.append([m.group(1), (m.group(2) or "").strip(), line + offset])
        elif not found:
            return None
        elif not raw.strip(" */#;-"):
            break  # an empty comment line ends the list
        else:
            found[-1][1] = f"{found[-1][1]} {raw.strip(' */#;-')}"
    if not found:
        return None
    specs = [InputSpec(name=snake(str(name)), description=" ".join(str(desc).split()), where=src.where(int(at)))
             for name, desc, at in found]
    src.warn(line, "the parameters " + ", ".join(f"`@{n}`" for n, _, _ in found) + " read as the workflow's inputs "
             + ", ".join(f"`{s.name}`" for s in specs) + "; to say so, write `Inputs: "
             + ", ".join(s.name for s in specs) + "`", "spec.reading")
    return specs



# a sentence inside a step's text that says what the whole workflow takes ("input is just `posts`,
# the `edition` number and `send_at`", "our inputs: `repo` and `tag`")
_SAID_INPUTS = _rx(r"(?i)(?<![\w`])(?:(?:the|our|my|its)\s++)?+(?:workflow\s++)?+inputs?+(?:\s++(?:is|are)(?!\w)|\s*+:)")
_TICKED = _rx(r"`([A-Za-z_]\w*+)`")
_SENTENCE_END = _rx(r"[.!?](?=\s|$)|\n[ \t]*+\n")


def said_in_first_step(steps: list[StepSpec], src: Source) -> tuple[InputSpec, ...] | None:
    """A spec with no inputs said elsewhere whose first step's text opens a sentence by saying
    what the workflow takes (a short post: "2/9 input is just `posts` ..., the `edition` number and
    `send_at`. first skill: ..."): the names in backticks of that sentence are the workflow's
    inputs, warned at its line. Only the first step: a later step's "input is" is its own."""
    if not steps:
        return None
    first = int(steps[0].where.rsplit(":", 1)[1]) if steps[0].where.rsplit(":", 1)[-1].isdigit() else 0
    if first < 1:
        return None
    nxt = next((int(s.where.rsplit(":", 1)[1]) for s in steps[1:] if s.where.rsplit(":", 1)[-1].isdigit()), first + 6)
    for number in range(first, min(nxt, first + 6)):
        text = src.line_text(number)
        said = _SAID_INPUTS.search(text)
        if said is None or (said.start() < 3 and ":" in said.group(0)):  # "Inputs: ..." opening a step is its own
            continue
        end = _SENTENCE_END.search(text, said.end())
        clause = text[said.end():end.start() if end else len(text)]
        names = list(dict.fromkeys(m.group(1) for m in _TICKED.finditer(clause)
                                   if src.vocabulary.skill_for(m.group(1)) is None))
        if not names:
            continue
        src.warn(number, f"'{text[said.start():said.end() + 40].strip()}…' read as the workflow's inputs "
                         f"({', '.join(f'`{n}`' for n in names)}); to say so, write `Inputs: {', '.join(names)}` "
                         "before the steps", "spec.reading")
        return tuple(InputSpec(name=n, where=src.where(number)) for n in names)
    return None


_rx.save()
