"""One list item, heading or labelled list that tells two steps started together: split into both.

    1. Weigh the flour and warm the ovens -- do both at once.         a list item (or a heading) whose
       Flour goes through `weigh-flour` ...                           words say two things start together,
       - if the scale hangs, try again twice.                          then a paragraph per skill, each with
       The ovens come from `warm-ovens` ...                            the lines under it
       - give it 90 seconds at most.
        -> step A "Weigh the flour" (`weigh-flour`, the retry under its paragraph)
           step B "warm the ovens" (`warm-ovens`, the 90 s), which starts together with A

    Two things, side by side -- neither waits for the other:           a labelled list (AsciiDoc `term::`,
    [horizontal]                                                       or `term:` lines), a skill per entry
    tide:: `read-tide` on the gauge id. Don't wait over 20 s.
    crew:: `crew-roster` on the date.
        -> step "tide" and step "crew", started together

Before, such an item was ONE step: the second skill never ran and the policy lines under it went
to the first. A block goes with the step whose skill it names first (`If `b` fails, use `c``
goes with b); a block that names neither goes with the step of the block before it. The split
needs words of the same start ("at the same time", "side by side", "in parallel", "neither needs
the other", "both at once") in the item's own words or in the lead paragraph just before the
entries, and exactly two paragraphs (or entries) that each open with a skill of their own; each
split is warned at its line with how it was read and how to write it plainly. A labelled list of
skills with no such words is split too, but its second step runs after the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.model import Reading, StepForm, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.pair-split"

_SKILL = _rx(r"`([a-z0-9]++(?:-[a-z0-9]++)++)`|(?<![\w*])(?:\*\*|__)([a-z0-9]++(?:-[a-z0-9]++)++)(?:\*\*|__)")
# words that say two pieces of work start together
_TOGETHER = _rx(
    r"(?i)(?<!\w)(?:at\s++the\s++same\s++time|side\s++by\s++side|in\s++parallel|simultaneously|concurrently|"
    r"(?:both|two|them|these)\s++(?:at\s++once|together)|alongside\s++each\s++other|"
    r"neither\s++(?:one\s++)?+(?:needs|waits|depends|blocks|is\s++blocked)|"
    r"(?:don['’]?t|do\s++not|doesn['’]?t|does\s++not)\s++(?:need|wait\s++(?:on|for)|depend\s++on)\s++each\s++other|"
    r"independent(?:ly)?+\s++of\s++each\s++other|no\s++order\s++between\s++them)(?!\w)")
# words that make the skill a block names a fallback, not work of its own
_FALLBACK = _rx(r"(?i)(?<!\w)(?:instead|fall\s*+back|failing\s++that|as\s++a\s++backup|otherwise)(?!\w)")
# a labelled-list entry: "tide:: `read-tide` ...", "crew: `crew-roster` ...", "**tide** -- `read-tide`"
_ENTRY = _rx(r"^\s*+(?:\*\*|__)?+([A-Za-z][\w '’/-]{0,40}?)(?:\*\*|__)?+\s*+(?:::|;;|:(?!:)|\s[—–-]{1,2}\s)\s*+(\S.*)$")
_ATTRIBUTE = _rx(r"^\s*+\[[\w ,=\"'-]*+\]\s*+$")  # an AsciiDoc block attribute line: "[horizontal]"
_AND = _rx(r"(?i)(?<!\s)\s++(?:and|&|\+)\s++")
_CUE_CUT = _rx(r"(?<!\s)\s*+(?:[—–]|--|-\s|[,;:(])")


@dataclass(frozen=True)
class Half:
    """One of the two steps: its name, the line it starts at and its blocks."""

    name: str
    line: int
    blocks: tuple[Block, ...]
    skill: str


@dataclass(frozen=True)
class Pair:
    """The two steps and whether they start together (else the second runs after the first)."""

    first: Half
    second: Half
    together: bool


def _named(text: str) -> list[str]:
    return [a or b for a, b in _SKILL.findall(text)]


def together(text: str) -> bool:
    """The words say two pieces of work start together ("do these two at the same time")."""
    return _TOGETHER.search(text) is not None


def entries(block: Block) -> list[Block]:
    """A paragraph of labelled entries that each name a skill of their own, an entry a paragraph
    (its label kept as "label: text"); an attribute line ("[horizontal]") dropped. [block] else."""
    if not isinstance(block, Para) or "\n" not in block.text:
        return [block]
    lines = block.text.split("\n")
    out: list[Block] = []
    skills: list[str] = []
    for offset, text in enumerate(lines):
        if _ATTRIBUTE.match(text):
            continue
        m = _ENTRY.match(text)
        if m is None:
            if not out:
                return [block]
            last = out[-1]
            assert isinstance(last, Para)
            out[-1] = Para(line=last.line, text=f"{last.text}\n{text}")
            continue
        named = _named(m.group(2))
        if not named or named[0] in skills:
            return [block]
        skills.append(named[0])
        out.append(Para(line=block.line + offset, text=f"{m.group(1).strip()}: {m.group(2).strip()}"))
    return out if len(out) >= 2 else [block]


def _own(block: Block) -> str | None:
    """The skill a block opens work with: the first it names, unless it names it as a fallback."""
    text = str(getattr(block, "text", ""))
    named = _named(text)
    if not named:
        return None
    return None if _FALLBACK.search(text) and len(named) == 1 else named[0]


def _names(head: str, halves: list[list[Block]]) -> list[str]:
    """The two steps' names: the head's two halves ("Tally the orders and pull the oven board"),
    else each entry's label, else each first paragraph's first clause."""
    from orchestrator.spec.step_prose import name_of_sentence

    cut = _CUE_CUT.split(head, maxsplit=1)[0].strip(" *_.")
    parts = [p.strip(" *_.") for p in _AND.split(cut)]
    if len(parts) == 2 and all(1 <= len(p.split()) <= 6 for p in parts) and not any("`" in p for p in parts):
        return parts
    out = []
    for blocks in halves:
        text = str(getattr(blocks[0], "text", ""))
        m = _ENTRY.match(text.split("\n")[0])
        out.append(m.group(1).strip() if m and "`" not in m.group(1) else name_of_sentence(text) or "step")
    return out


def pair_of(head: str, blocks: list[Block], lead: str = "") -> Pair | None:
    """The two steps a step's blocks tell (module docstring); None when they tell one. `head`: the
    item's or heading's own words; `lead`: the paragraph just before them, if any."""
    flat: list[Block] = []
    for block in blocks:
        flat += entries(block)
    labelled = len(flat) > len(blocks)
    halves: list[list[Block]] = []
    skills: list[str] = []
    start = 0
    for index, block in enumerate(flat):
        # a piece of work opens as the first did: a paragraph after a paragraph, a bullet after a bullet
        opener = type(flat[start]) if halves else (Para, Bullet)
        own = _own(block) if isinstance(block, opener) else None
        if own is not None and own not in skills:
            skills.append(own)
            if not halves:
                start = index
                halves.append(list(flat[:index + 1]))  # what comes before the first skill goes with it
            else:
                halves.append([block])
            continue
        named = _named(str(getattr(block, "text", "")))
        mine = next((skills.index(n) for n in named if n in skills), None)
        if halves and mine is not None and mine != len(halves) - 1:
            halves[mine].append(block)  # a line that names the other step's skill goes with that step
        elif halves:
            halves[-1].append(block)
    if len(halves) != 2:
        return None
    lead_words = " ".join(str(getattr(b, "text", "")) for b in flat[:start])
    said = together(head) or together(lead) or together(lead_words) or together(
        str(getattr(flat[start], "text", "")).split(".")[0])
    if not said and not labelled:
        return None
    if said:  # "Run these side by side, neither waits for the other.": the cue, no step's text
        halves[0] = [b for b in halves[0] if not (flat.index(b) < start and isinstance(b, Para)
                                                  and together(b.text) and not _named(b.text))]
    names = _names(head if said else "", halves)
    first, second = (Half(name=n, line=h[0].line, blocks=tuple(h),
                          skill=s) for i, (n, h, s) in enumerate(zip(names, halves, skills, strict=True)))
    return Pair(first=first, second=second, together=said)


def pair_steps(number: int, pair: Pair, line: int, kind: str, src: Source, sink: list,  # type: ignore[type-arg]
               form: StepForm = "list", second: int | None = None, warn: bool = True) -> list[StepSpec]:
    """The two steps of a pair, numbered `number` and `second` (else the next); the second starts
    with the first when the words say so. The split is warned at `line` (unless `warn` is False:
    the caller says it)."""
    from orchestrator.spec.step import read_step

    numbers = (number, second if second is not None else number + 1)
    ids = (f"step-{numbers[0]}", f"step-{numbers[1]}")
    out: list[StepSpec] = []
    for position, half in enumerate((pair.first, pair.second)):
        at = line if position == 0 else half.line
        note = f"{kind} read as two steps; this part as {ids[position]} ({half.name}), its skill `{half.skill}`"
        reading = Reading(what="step", where=src.where(at), text=" ".join(
            str(getattr(half.blocks[0], "text", "")).split())[:160], note=note)
        step = read_step(numbers[position], half.name, at, list(half.blocks), src, form=form,
                         readings=(reading,), routes_sink=sink)
        if position and pair.together and step.depends_where is None and step.starts_with is None:
            where = src.where(at)
            step = step.model_copy(update={
                "starts_with": ids[0], "unordered_where": where,
                "readings": (*step.readings, Reading(what="depends_on", where=where, text=half.name, note=(
                    f"starts together with {ids[0]}: waits for what {ids[0]} waits for (and the steps whose "
                    "outputs it reads), not for it"))),
            })
        out.append(step)
    if warn:
        warn_pair(pair, line, ids, kind, src)
    return out


def warn_pair(pair: Pair, line: int, ids: tuple[str, str], kind: str, src: Source) -> None:
    """The split said at the item's line: what went where and how to write it plainly."""
    how = "which start together (the second waits for what the first waits for)" if pair.together else \
        "the second after the first (no words say they start together)"
    moved = [b.line for b in pair.second.blocks[1:]]
    lines = f"line{'s' if len(moved) > 1 else ''} {', '.join(str(n) for n in moved)}"
    src.warn(line, f"this {kind} names two skills, `{pair.first.skill}` and `{pair.second.skill}`: read as two "
                   f"steps, {ids[0]} ({pair.first.name}) and {ids[1]} ({pair.second.name}), {how}"
             + (f"; {lines} read with `{pair.second.skill}`, after its paragraph or naming it" if moved else "")
             + ". To say so plainly give each step its own item or heading", CODE)


_rx.save()
