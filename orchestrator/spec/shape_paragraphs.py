"""Steps written as plain paragraphs, one a step, with no list markup, and lists of rules
that sit in a steps section but are no steps.

A word-processor export loses its list markup: under a heading that names the steps
("Process", "Steps", "Procedure") each step is a paragraph of its own,

    Scrub PII. Every transcript first goes through redact-pii. ...
    Tag themes. Each transcript goes through tag-themes, one call per interview. ...

Two or more such paragraphs in a row, each naming a skill of the catalog (bare or in
backticks) and asking for work (not a condition, a remark, a prerequisite or only a
fallback), before any list or table of the section, are its steps in order: they are
given back as numbered items so the list reader reads them as it reads `1. ...`. Each is
warned at its line as read from paragraphs, with how to write it plainly (number them).
A paragraph between them that names no skill belongs to the step before.

A list under a label paragraph that names guidelines ("Guardrails", "Rules", "Notes",
"Constraints", "Principles") is no list of steps: its items are rules, read (a limit of
the whole run) or reported as not read, never taken as steps.
A section the runbook reader takes (a paragraph opens with a word of sequence or names a
skill in backticks, `step_forms.starts_step`) is left to it; so is one where a paragraph
between the steps opens like a step and names no skill: the reading would be a guess.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.inputs_lead import inputs_lead
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.shape_aside import fallback_only, footer, not_a_step
from orchestrator.spec.source import Source
from orchestrator.spec.step_forms import starts_step
from orchestrator.spec.step_prose import SEQUENCE_START

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a word that may be a skill's name: letters and digits joined by hyphens ("redact-pii")
_HYPHENED = _rx(r"(?<![\w-])[A-Za-z0-9]++(?:-[A-Za-z0-9]++)++(?![\w-])")
# a paragraph that goes on from the step before rather than asking for work
_GOES_ON = _rx(r"(?i)^\W*+(?:if|when|unless|otherwise|either|or|but|also|note|it|its|it's|in\s++case|should|"
               r"on\s++(?:failure|error)|failing\s++that|else)(?!\w)")
# a label paragraph that names rules, not work ("Guardrails", "**House rules:**")
_GUIDELINES = _rx(r"(?i)^\W*+(?:guard\s*+rails?|guidelines?|(?:ground\s++|house\s++)?+rules|notes?|constraints|"
                  r"principles|caveats|tips|conventions|policies|do['’]?s\s++and\s++don['’]?ts|don['’]?ts|"
                  r"things\s++to\s++(?:know|remember|avoid)|reminders?|requirements|standards)\W*+$")


def skills_named(text: str, src: Source) -> list[str]:
    """The catalog's skills the text names, bare or in backticks, in order."""
    known = src.vocabulary.skills
    return list(dict.fromkeys(m.group(0) for m in _HYPHENED.finditer(text) if m.group(0) in known))


def _asks_work(text: str, src: Source) -> bool:
    t = text.strip()
    if not skills_named(t, src) or inputs_lead(t) or not_a_step(t) or _GOES_ON.match(t) or footer(t):
        return False
    return not fallback_only(t.replace("`", "")) and not fallback_only(_ticked(t, src))


def _ticked(text: str, src: Source) -> str:
    """The text with the catalog's bare skill names put in backticks (for `fallback_only`)."""
    return _HYPHENED.sub(lambda m: f"`{m.group(0)}`" if m.group(0) in src.vocabulary.skills else m.group(0), text)


def guideline_label(text: str) -> bool:
    """A paragraph that is only a label naming rules or notes ("Guardrails", "Rules:")."""
    return len(text) <= 60 and _GUIDELINES.match(text.strip()) is not None


def guideline_items(blocks: list[Block]) -> set[int]:
    """The lines of the list items right under a guideline label paragraph: no steps."""
    lines: set[int] = set()
    under = False
    for block in blocks:
        if isinstance(block, Para):
            under = guideline_label(block.text)
        elif isinstance(block, Bullet) and under:
            lines.add(block.line)
        else:
            under = False
    return lines


def paragraph_items(blocks: list[Block], src: Source) -> list[Bullet] | None:
    """The step paragraphs of a steps section as numbered items (module docstring); None when
    the section does not hold two in a row before its first list or table."""
    if not src.vocabulary or any(isinstance(b, Para) and starts_step(b.text) for b in blocks):
        return None  # a runbook the paragraph reader takes (`step_forms.paragraph_steps`)
    items: list[Bullet] = []
    rest: list[Block] = []
    for block in blocks:
        if not isinstance(block, Para):
            break
        text = block.text.strip()
        if _asks_work(text, src):
            if items:
                items[-1] = items[-1].model_copy(update={"children": tuple(rest)})
            elif rest and any(isinstance(b, Para) and skills_named(b.text, src) for b in rest):
                return None  # a paragraph before the first that names a skill and asks for none: unsure
            rest = []
            ticked = _ticked(text, src)  # the skill's name in backticks, as a list item would write it
            items.append(Bullet(line=block.line, text=ticked, value=ticked, ordered=True, number=str(len(items) + 1)))
            continue
        if guideline_label(text) or footer(text) or skills_named(text, src):
            break  # "Guardrails", a footer, or a skill named in a remark: the steps end
        if items and len(text.split()) <= 4 and not text.endswith((".", "!", "?", ":")):
            break  # a short line of its own: a heading the export lost
        if SEQUENCE_START.match(text):
            return None  # "Now redact the addresses ...": a step that names no skill: unsure
        rest.append(block)
    if items:
        items[-1] = items[-1].model_copy(update={"children": tuple(rest)})
    return items if len(items) >= 2 else None


def warn_paragraphs(items: list[Bullet], src: Source) -> None:
    """Each paragraph read as a step is said at its line, with how to write it plainly."""
    for item in items:
        named = ", ".join(f"`{n}`" for n in skills_named(item.text, src)[:3])
        src.warn(item.line, f"the paragraph '{item.text[:50]}' is read as step {item.number} (it names {named}; the "
                            "section has no list or step headings, so each paragraph that names a skill is a step, "
                            "in order): if that is not meant, number the steps (`1. ...`) or give each a "
                            "`## Step N: name` heading", "spec.read-as-step")


_rx.save()
