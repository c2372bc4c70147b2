"""Sections read as steps: a section cut into the steps it holds, lists of branches, and the
words that order a section's step after the one before it.

    ## Then

    When all lines are assessed, `total-refund` adds them up.      a step (it names a skill)

    Then pick the payout:                                          the lead of a choice
    - **Gold customers** → `refund-card` ...                       a branch: its label is its condition
    - **Everyone else** → `issue-store-credit` ...                 the other side of the branch before

A branch's label is placed as a condition once the workflow inputs are known
(`place_branches`): a comparison as written, else the one input whose listed values
hold a word of it; a label that is neither is an error at its line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec import condition as cond
from orchestrator.spec import step_prose as prose
from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.branch_condition import bare_label, guessed_branch
from orchestrator.spec.branch_if_items import case_items, counted, lead_field
from orchestrator.spec.branch_join import join_said
from orchestrator.spec.fields import spell_step_refs
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.shape_aside import defines_terms
from orchestrator.spec.skill_mentions import only_fallbacks
from orchestrator.spec.source import Source
from orchestrator.spec.step import LABELS, label_key, step_heading

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SKILL_NAMED = _rx(r"`[a-z0-9]+(?:-[a-z0-9]+)+`|`[a-z][a-z0-9]*_[a-z0-9_]+`|"
                   r"(?<![\w*])(?:\*\*|__)[a-z0-9]+(?:-[a-z0-9]+)+(?:\*\*|__)(?![\w*])|"
                   r"(?<![\w*])\*[a-z0-9]+(?:-[a-z0-9]+)+\*(?![\w*])|(?<![\w])_[a-z0-9]+(?:-[a-z0-9]+)+_(?!\w)")


def names_a_skill(text: str) -> bool:
    """Backticks, bold or italics around a name shaped like a skill's (`fetch-mirror`,
    **check-stock**, *slugify-name*)."""
    return bool(_SKILL_NAMED.search(text))


# a paragraph that opens with a short name in bold or italics: "**Sear the steak.** Put it ...",
# "*Wash.* Rinse every ...", "__Plate__: ..."; never a skill's name in bold ("**check-stock** ...")
_LEAD = re.compile(r"^\s*(?:\*\*|__|\*(?!\*)|_(?!_))(?P<name>[^*_`\n]{2,60}?)\s*[.:!]?\s*(?:\*\*|__|\*|_)"
                   r"\s*[.:!—–-]?\s+(?P<rest>\S.*)$", re.S)


def lead_of(text: str) -> tuple[str, str] | None:
    """A paragraph's emphasised lead and the text after it; None when it has none."""
    m = _LEAD.match(text)
    if m is None:
        return None
    name = m.group("name").strip(" .:")
    if len(name.split()) > 8 or re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)+", name) or name.lower() in LABELS:
        return None
    if step_heading(name) is not None:  # "**Step 2: Verify.** ...": a numbered step, read as such
        return None
    return name, m.group("rest").strip()


# what a person does at a gate, in a paragraph that names no skill: looks and says yes or no
_GATE = re.compile(r"(?i)\b(?:says?\s+(?:yes|no|ok|okay)\s+or\s+(?:no|yes)|yes\s+or\s+no|yes/no|go/no-?go|"
                   r"approv\w*|signs?\s+(?:it\s+)?off|sign-?off|gives?\s+(?:it\s+)?(?:the\s+|a\s+)?(?:ok|okay|go-?ahead|"
                   r"green\s+light|thumbs\s+up|nod)|ok['’]s\b|okays\b|decides?\s+whether|has\s+to\s+agree|"
                   r"(?:looks?|checks?)\s+(?:at\s+)?[^.]{0,60}\s+and\s+(?:says|decides|confirms))")


class Unit(BaseModel):
    """The blocks of one step inside a section read as steps; `branch` the label of a branch
    ("**Gold customers** → `refund-card` ..."), `lead` the line that introduced the choice."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    blocks: list[Block]
    branch: str | None = None
    lead: Para | None = None
    name: str | None = None  # an emphasised lead's name ("**Sear.** ...")
    gate: Para | None = None  # a lead paragraph that is a person's yes or no before the next unit
    aside: bool = False  # text before the first lead paragraph that names no skill: not a step


SIGN_OFF = _rx(r"(?i)^\W*(?:thanks|thank\s+you|cheers|best|regards|questions\??|ping\s+me|reach\s+out|"
                       r"contact\s+me|happy\s+to\s+help|good\s+luck|that['’]?s\s+(?:it|all))\b")
_BRANCH_ITEM = _rx(r"^\s*(?:\*\*|__)?(?P<label>[^*_→:`]{1,60}?)(?:\*\*|__)?(?:(?<!\s)\s+)?(?:→|->|=>|:)\s*(?P<rest>.+)$", re.S)
_FALLS_BACK = _rx(r"(?i)^\W*(?:if|otherwise|else|unless|in case|should|on (?:failure|error)|but|failing that|"
                  r"it|its|it's|this|that|these|those|note|also)\b")


def _branch_item(block: Block) -> tuple[str, str] | None:
    """`**Gold customers** → `refund-card` ...`: (label, the rest); with a colon only when the label
    is no step label (`- Skill: `x`` is not a branch) and says a case ("Everyone else:")."""
    if not isinstance(block, Bullet):
        return None
    m = _BRANCH_ITEM.match(block.text)
    if m is None or not names_a_skill(m.group("rest").split(".")[0]):
        return None
    label = m.group("label").strip()
    arrow = bool(re.match(r"[^→]*?(?:→|->|=>)", block.text[:m.start("rest")]))
    if not arrow and (label.lower().strip("*_ ") in LABELS
                      or label_key(label.lower().strip("*_ "), "") not in (None, "otherwise")  # "else:" a case
                      or not (_ELSE_LABEL.match(label.strip("*_ ")) or re.match(r"(?i)^\W*(?:if|when|for)\b", label))):
        return None
    return label, m.group("rest").strip()


def branch_item(block: Block) -> tuple[str, str] | None:
    """`**Gold customers** → `refund-card` ...` (a list item that picks a branch): (label, the rest)."""
    return _branch_item(block)


def section_units(blocks: list[Block], *, paragraphs: bool = True) -> list[Unit]:
    """A section read as steps, cut into its steps: a paragraph that names a skill after one
    that already did starts another ("When all lines are assessed, `total-refund` ..."), unless
    it opens as a condition or a remark ("If it fails, use `x`"); a list of two or more items
    that each pick a branch ("**Gold customers** → `refund-card` ...", "**Everyone else** →
    ...") is a step per item, with the line before the list that ends in ":" as its lead.
    `paragraphs`: cut at paragraphs too (a section read as steps; not under a step's own heading)."""
    if paragraphs and (leads := lead_units(blocks)) is not None:
        return leads
    units: list[Unit] = [Unit(blocks=[])]
    i = 0
    while i < len(blocks):
        block = blocks[i]
        run = 0
        while i + run < len(blocks) and _branch_item(blocks[i + run]) is not None:
            run += 1
        cases = case_items(blocks, i) if run < 2 else None  # "if ..., `a`" / "otherwise `b`" (`spec.branch_if_items`)
        run = len(cases) if cases else run
        if run >= 2:
            lead: Para | None = None
            current = units[-1].blocks
            last = current[-1] if current else None
            on = lead_field(last.text) if cases and isinstance(last, Para) else None
            if isinstance(last, Para) and last.text.rstrip().endswith(":") and (not names_a_skill(last.text) or on):
                lead = last
                current.pop()
            for k, item in enumerate(blocks[i:i + run]):
                label, rest = _branch_item(item) or ("", "") if not cases else (counted(cases[k][0], on), cases[k][1])
                assert isinstance(item, Bullet)
                units.append(Unit(blocks=[Para(line=item.line, text=rest), *item.children],
                                  branch=label.strip(" *_"), lead=lead))
            i += run
            while cases and i < len(blocks) and isinstance(blocks[i], Para) and not names_a_skill(
                    str(getattr(blocks[i], "text", ""))):  # "Either branch gives `estimate`": said of each branch
                for unit in units[-run:]:
                    unit.blocks.append(blocks[i])
                i += 1
            units.append(Unit(blocks=[]))
            continue
        text = str(getattr(block, "text", ""))
        starts = (
            isinstance(block, Para)
            and names_a_skill(text)
            and not _FALLS_BACK.match(_naming_sentence(text))
            and not only_fallbacks(text)
        )
        if starts and paragraphs and any(names_a_skill(str(getattr(b, "text", ""))) for b in units[-1].blocks):
            units.append(Unit(blocks=[]))
        units[-1].blocks.append(block)
        i += 1
    return [u for u in units if u.blocks]


def _naming_sentence(text: str) -> str:
    """The sentence of `text` that first names a skill ("Goes down on Fridays. If it errors, switch to `x`."
    -> "If it errors, switch to `x`."): a fallback said there does not start a step either."""
    m = _SKILL_NAMED.search(text)
    if m is None:
        return text
    cut = max(text.rfind(". ", 0, m.start()), text.rfind("! ", 0, m.start()), text.rfind("? ", 0, m.start()))
    return text[cut + 2:] if cut >= 0 else text


def lead_units(blocks: list[Block]) -> list[Unit] | None:
    """A section of lead paragraphs ("**Prep the dough.** Put ... through *knead-dough*"), two or
    more of which name a skill: a unit per lead paragraph, named by its lead, with the blocks up to
    the next lead paragraph. A lead paragraph that names no skill but a person's yes or no ("**Taste
    first.** The chef looks at it and says yes or no") is a gate before the unit after it; one that
    is neither is kept with the unit before it (the reader warns, `lead_remarks`). None when the
    section is not written so."""
    leads = [(i, lead_of(b.text)) for i, b in enumerate(blocks) if isinstance(b, Para)]
    if sum(1 for i, lead in leads if lead is not None and names_a_skill(lead[1]) and not defines_terms(*lead)) < 2:
        return None
    units: list[Unit] = [Unit(blocks=[])]
    for block in blocks:
        lead = lead_of(block.text) if isinstance(block, Para) else None
        if lead is None or not isinstance(block, Para):
            units[-1].blocks.append(block)
            continue
        name, rest = lead
        para = Para(line=block.line, text=rest)
        if defines_terms(name, rest):  # "**4.1 Definitions.**": words, not work; the inputs it names are read
            continue  # with the preamble (`markdown.read_inline_inputs`)
        if names_a_skill(rest):
            units.append(Unit(blocks=[para], name=name))
        elif _GATE.search(rest) or cond.approval_sentence(rest):
            units.append(Unit(blocks=[], name=name, gate=block))
        else:
            units[-1].blocks.append(block)
    first = units[0]
    if first.blocks and not any(names_a_skill(str(getattr(b, "text", ""))) for b in first.blocks):
        first.aside = True
    return [u for u in units if u.blocks or u.gate is not None]


def lead_taken(blocks: list[Block]) -> set[int]:
    """The lines a section of lead paragraphs takes as its steps: all but a paragraph that
    defines terms ("**4.1 Definitions.**"), left for the inputs reader."""
    return {b.line for b in blocks if not (isinstance(b, Para) and (lead := lead_of(b.text)) is not None
                                           and defines_terms(*lead))}


def gate_approval(gate: Para) -> tuple[ApprovalPolicy, str]:
    """The approval a gate paragraph says: its wait and what then ("If nobody has looked after 2
    hours, go ahead anyway": 7200 s, approve), and a note of how it was read."""
    seconds, then = cond.approval_timeout(gate.text)
    if seconds is not None and then is None:
        then = cond.gate_outcome(gate.text)
    policy = ApprovalPolicy(timeout_s=seconds, on_timeout=then or "reject")
    note = "a person's yes or no before this step" + (
        f"; waits {seconds:g}s, then {'approved' if policy.on_timeout == 'approve' else 'rejected'}"
        + ("" if then else " (the text does not say which; rejected)") if seconds is not None else ", no time limit")
    return policy, note


def unit_name(unit: Unit) -> str:
    first = str(getattr(unit.blocks[0], "text", ""))
    m = _SKILL_NAMED.search(first)
    return m.group(0).strip("`*_") if m else ""


def clip_text(block: Block) -> str:
    return " ".join(str(getattr(block, "text", "")).split())[:160]


def branch_step(step: StepSpec, unit: Unit, others: list[StepSpec], src: Source) -> StepSpec:
    """A branch of a choice: the label is its condition (placed by `place_branches` once the
    inputs are known); "everyone else", "otherwise" makes it the other side of the branch before."""
    label = unit.branch or ""
    where = step.where
    if _ELSE_LABEL.match(label):
        named = others
        if len(named) == 1:
            return step.model_copy(update={
                "otherwise_where": where, "otherwise_of": named[0].id,
                "field_where": {**step.field_where, "when": where},
                "readings": (*step.readings, Reading(what="otherwise", where=where, text=label,
                                                     note=f"runs exactly when the condition of {named[0].id} was false")),
            })
        src.warn(int(where.rsplit(":", 1)[1]), f"{step.id}: the branch '{label}' is the other case of "
                 f"{len(named)} branches; write each one's condition", "spec.when")
        return step
    return step.model_copy(update={"readings": (*step.readings, Reading(
        what="branch", where=where, text=label, note=f"a branch: runs only when '{label}'"))})


_ELSE_LABEL = _rx(r"(?i)^\W*(?:every(?:one|body|thing)\s+else|any(?:one|body|thing)\s+else|otherwise|else|"
                  r"the\s+rest|all\s+others?|any\s+other\b.*|default|other\s+\w+|others)\W*$")


_WAITS = _rx(r"(?i)^\W*(?:then|next|after\s+that|afterwards|finally|lastly|last|now|"
             r"(?:once|when|after)\s+(?:all|every|each|that|this|it|they|the)\b[^.;]{0,80}?(?:,|\s[—–-]\s))")


def after_previous(step: StepSpec, heading: str, unit: Unit, previous: str, src: Source) -> StepSpec:
    """A section read as a step whose heading or first paragraph says it comes after ("Then
    price ...", "Once every item is priced — and not before — ...") waits for the step before it."""
    if step.depends_where is not None or step.depends_on:
        return step
    first = str(getattr(unit.blocks[0], "text", ""))
    said = _WAITS.match(heading) or _WAITS.match(first)
    if said is None or re.search(r"(?i)\s(?:and|&)\s", said.group(0)):
        return step  # "Once the dough has risen and the oven is hot,": two things, which the data says
    where = step.where
    return step.model_copy(update={
        "depends_on": (previous,), "depends_where": where,
        "readings": (*step.readings, Reading(what="depends_on", where=where, text=said.group(0).strip(),
                                             note=f"'{said.group(0).strip()}' read as after {previous}")),
    })


def join_branches(step: StepSpec, branches: list[str], src: Source) -> StepSpec:
    """A step after a choice whose text says "whichever (one) ran" runs once after the branch that ran."""
    if not branches or step.depends_where is not None or step.join == "any":
        return step
    text = " ".join(t.text for t in step.texts) + " " + step.description
    said = prose.JOIN_ANY.search(text) and re.search(r"(?i)\b(?:ran|run|runs|finished|done|taken)\b", text)
    if not said and not join_said(f"{step.name}. {text}", after_choice=True):  # "either way", "both branches land"
        return step
    where = step.where
    return step.model_copy(update={
        "depends_on": tuple(branches), "depends_where": where, "join": "any",
        "readings": (*step.readings, Reading(what="join", where=where, text="whichever ran",
                                             note=f"runs once after whichever of {', '.join(branches)} ran")),
    })


_VALUES = _rx(r"^\s*[\w.-]+(?:\s*(?:\||/|,|\bor\b)\s*[\w.-]+)+\s*$")


def declared_values(description: str) -> list[str]:
    """`bronze|silver|gold`, `bronze / silver / gold`, `a, b or c`: the values an input lists."""
    for part in [description, *re.findall(r"\(([^()]*)\)", description)]:
        if _VALUES.match(part):
            return [v for v in re.split(r"(?:(?<!\s)\s+)?(?:\||/|,|\bor\b)\s*", part.strip()) if v]
    return []


def place_branches(steps: list[StepSpec], inputs: Iterable[tuple[str, str]], src: Source) -> list[StepSpec]:
    """The condition of each branch of a choice ("**Gold customers** → ..."): the label itself
    when it reads as a comparison, else the one workflow input whose listed values hold a word
    of it (`customer_tier (bronze / silver / gold)`: `customer_tier == 'gold'`); a label that is
    neither is an error at its line."""
    values = [(name, v) for name, description in inputs for v in declared_values(description)]
    out: list[StepSpec] = []
    for step in steps:
        label = next((r.text for r in step.readings if r.what == "branch"), None)
        if label is None or step.when:
            out.append(step)
            continue
        line = int(step.where.rsplit(":", 1)[1])
        label = re.sub(r"(?i)^\s*(?:only\s+)?(?:if|when|for)\s+", "", label)  # "If the tier is gold"
        read = cond.read_condition(spell_step_refs(label))
        words = {w.lower() for w in re.findall(r"[\w-]+", label)}
        held = [(name, v) for name, v in values if v.lower() in words]
        if held and len({n for n, _ in held}) == 1:
            name, value = held[0]
            when = f"{name} == '{value}'"
        elif read is not None and (read.expression is not None or any(c.kind != "value" for c in read.clauses)) \
                and len(label.split()) > 1:
            when = spell_step_refs(label)
        elif (guess := bare_label(label)) is not None:  # "remote → ...": the truth of that name, a guess
            out.append(guessed_branch(step, label, guess, src))
            continue
        else:
            src.error(line, f"{step.id}: the branch '{label}' is not a condition the reader can place: write a "
                            "comparison (`tier is gold`, `amount > 300`) or list the input's values "
                            "(`tier (bronze / silver / gold)`)", "spec.when")
            out.append(step)
            continue
        out.append(step.model_copy(update={
            "when": when, "field_where": {**step.field_where, "when": step.where},
            "readings": (*step.readings, Reading(what="when", where=step.where, text=label,
                                                 note=f"the branch '{label}' runs only when {when}")),
        }))
    return out


_rx.save()
