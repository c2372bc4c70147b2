"""The skill-anchored reading of a markdown spec: a rescue when the shape rules fail.

Every workflow document, whatever its kind, names the skills it runs. When the rules
(`structure`, `step_forms`) find no steps, leave catalog skills named in text that no step
runs (`spec.unread-work`), or take sections that name no catalog skill for steps while the
text under them names several (`needs_rescue`), the document is read again here, anchored on
those names (`src.vocabulary`); a spec the rules read is never read here.

1. Mentions (`spec.skill_mentions`): a catalog skill, or a tool one skill wraps, named in any
   quoting, each with its role: a doer, a fallback, the subject of a failure, or an aside.
2. Units (`spec.outline`): the document cut into headings, paragraphs, list items with any
   marker and definition-list terms, each owning the units under it.
3. Steps (`_steps`): a unit whose text (its own and its sub-units') names exactly one doer is
   a step with all that text, when the unit above it names more; a unit naming several is
   cut into its sub-units (a paragraph without sub-units into its sentences, a sentence naming
   two new doers at the clause of the second). A unit that
   names a skill only as a fallback belongs to the step before it. Steps run in document
   order unless their text says otherwise: each step's text is handed, a block per unit with
   its lines, to the readers the other forms use (`step.read_step`), with every skill name in
   backticks and an outline label of another step ("(a)", "II.B") written as "step N"; a
   lead line that says the steps under it start together makes them not wait for each other.
   A numbered item whose short first line stands above its indented text ("2. hash", as a man
   page writes) is named by that line, its text read from the next.
4. A unit naming a skill an earlier step runs, not listed beside it, is no second step: it is
   about that step, and its sentences, with those of every unit no step took, are placed on
   the step they name (`spec.anchored_place`, `spec.elsewhere`): a policy, the run's success
   check, each warned at its line; what places nothing there is warned.
5. What is no step (form fields, notes, headings with nothing to do) is left to the readers
   of the rest of the document (`markdown.read_markdown`), which read a whole-run limit in it
   and warn the rest at its line. Each step read here is a warning at its line and a
   `Reading` in the plan's provenance: the reading is a guess about the document's shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.anchor_cycles import untangle
from orchestrator.spec.anchored_place import place, said_elsewhere
from orchestrator.spec.blocks import Block, Bullet, Para, split_label
from orchestrator.spec.bold_fields import bold_fields
from orchestrator.spec.check import MAX_STEPS
from orchestrator.spec.cited_doer40 import cited
from orchestrator.spec.condition_ahead import as_lead, leading_condition
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.outline import Unit, outline
from orchestrator.spec.outline39 import item_path, kept_as_written, names_path, path_patterns
from orchestrator.spec.pair_sentence import halves, nearer_half, started_with
from orchestrator.spec.para_split import started_together
from orchestrator.spec.policy_heading24 import heading_text
from orchestrator.spec.policy_wrap25 import rejoin_wrapped
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.skill_mentions import cut_at_doers, doers, in_backticks, roles
from orchestrator.spec.source import Source
from orchestrator.spec.step import label_key, read_step
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.steps37 import start_after_label
from orchestrator.spec.success import success_clause
from orchestrator.spec.table_fields import table_fields
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

ANCHORED_CODE = "spec.anchored"

# a section of remarks: what it names is not work (a glossary may hold the steps: it is not one)
_ASIDE_SECTION = _rx(r"(?i)^\W*(?:see\s+also|references?|links?|related(?:\s+\w+)?|further\s+reading|contacts?|owners?|"
                     r"change\s*log|change\s+history|version\s+history|history|revision\s+history|revisions?|appendix|notes?|footnotes?|faq\s+links?)\b")
# words of a person's yes or no (an approval no reader took is said, `_read_found`)
_APPROVAL_SAID = _rx(r"(?i)\bapprov\w*|\bsign(?:s|ed)?[\s-]?off\b|👍|\bthumbs[\s-]up\b|\backs?\b|\bgo-?ahead\b")


# a lead that says the steps under it start together ("First two things kick off together, neither
# waits for the other:", "These run in parallel:")
_TOGETHER = _rx(
    r"(?i)\b(?:together|in\s+parallel|at\s+the\s+same\s+time|simultaneously|concurrently|side\s+by\s+side|"
    r"neither\s+waits|don['’]?t\s+wait\s+for\s+each\s+other|do\s+not\s+wait\s+for\s+each\s+other|independent(?:ly)?)\b")
_OTHER_LEAD = _rx(r"(?i)^\W*(?:else|otherwise|in\s+(?:all\s+)?other\s+cases|(?:for\s+)?anything\s+else)\b")
_BOLD_LEAD = _rx(r"^\s*(?:\*\*|__)([^*_\n]{1,60}?)(?:\*\*|__)\s*[.:—–-]*\s*")
_DASH_LEAD = _rx(r"^\s*+([^\s.:;—–`*_][^.:;—–`*_]{0,49}?)\s+[—–-]\s+")
_IF_LEAD = _rx(r"(?i)^\W*(?:if|when|where|whenever|only\s+if|only\s+when)\s+([^:]{3,120}?)\s*:\s+(?=\S)")
_OF_STEP = _rx(r"(?i)\b(?:the\s+)?([A-Za-z_]\w*)\s+(?:from|of|in)\s+(step\s+\d+)\b")
_CONDITION_LEAD = _rx(r"(?i)^\W*(?:if|when|where|whenever|unless|else|otherwise|in\s+all\s+other\s+cases)\b[^:]{0,80}:\s*")
_CONDITION_WORD = _rx(r"(?i)^\W*(?:if|when|where|whenever|unless|else|otherwise|in\s+all|for\s+each|for\s+every|once)\b")


@dataclass
class Found:
    """A unit read as a step, with the units given to it (a fallback said after it)."""

    unit: Unit
    skill: str
    parts: list[tuple[int, str]] | None = None  # a paragraph cut into sentences: this step's (line, text)
    extra: list[Unit] = field(default_factory=list)
    together: int | None = None  # the line of a lead that says it does not wait for the step before it
    placed: list[tuple[int, str, str]] = field(default_factory=list)  # sentences said elsewhere (line, text, how)
    success: list[tuple[int, str, str]] = field(default_factory=list)  # the run's success clauses checked on it
    carried: list[int] = field(default_factory=list)  # lines of a condition said before the step's sentence
    paired: str | None = None  # started in one sentence with the step before: the words saying so


@dataclass
class Anchored:
    """What the anchored reading found: the steps, and every line they were read from."""

    steps: list[StepSpec]
    covered: set[int]


def _own_text(unit: Unit) -> str:
    return unit.name if unit.kind == "heading" else (f"{unit.name}\n{unit.text()}" if unit.kind == "term" else unit.text())


# an outline line that numbers what follows it: "2 · Lift status", "4a) Hazard high", "Step 3 - Post"
_NUMBERED_TITLE = _rx(r"(?i)^\s*+(?:step\s++)?\d{1,3}+[a-z]?+\s*+[·.:)\-–—]\s*+\S")


class _Reader:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.vocabulary = vocabulary
        self.own: dict[int, list[str]] = {}
        self.total: dict[int, int] = {}

    def count(self, unit: Unit, aside: bool = False) -> int:
        """How many times the unit's text names a skill doing the work; under a heading of remarks
        ("See also", "Notes", "References"), none."""
        aside = aside or (unit.kind == "heading" and _ASIDE_SECTION.match(unit.name.strip("*_# ")) is not None)
        own = doers(_own_text(unit), self.vocabulary) if unit.kind != "root" and not aside else []
        if own and _checks_only(_own_text(unit)):  # "it worked if pick-notice comes back posted: true": no step
            own = []
        self.own[id(unit)] = own
        self.total[id(unit)] = len(own) + sum(self.count(c, aside) for c in unit.children)
        return self.total[id(unit)]

    def select(self, unit: Unit, found: list[Found], leftover: list[Unit]) -> None:
        total, own = self.total[id(unit)], self.own[id(unit)]
        if total == 0:
            leftover.append(unit)
            return
        if total == 1 and unit.kind != "root":
            found.append(Found(unit, own[0] if own else next(
                s for u in unit.walk() for s in self.own[id(u)])))
            return
        if len(own) > 1:  # a paragraph naming several: a step a sentence
            self._sentences(unit, found)
        elif own:
            found.append(Found(unit, own[0]))
        for child in unit.children:
            if own and self.total[id(child)] == 0:
                found[-1].extra.append(child)
            else:
                self.select(child, found, leftover)

    def _sentences(self, unit: Unit, found: list[Found]) -> None:
        """A unit that names several doers: a step a line when each line names one at most (a shell
        history, a plain-text outline), else a step a sentence; what names none goes with the one before."""
        lines = [n for n, _ in unit.lines]
        per_line = [doers(t, self.vocabulary) for _, t in unit.lines]
        pieces: list[tuple[int, str]] = []
        paired: dict[tuple[int, str], str] = {}  # the second half of a sentence starting two (`spec.pair_sentence`)
        for offset, sentence in sentences(unit.text()):
            at = lines[min(offset, len(lines) - 1)]
            two = halves(sentence, doers(sentence, self.vocabulary))
            if two is not None:
                pieces += [(at, two[0]), (at, two[1])]
                paired[(at, two[1])] = two[2]
            else:
                pieces += [(at, piece) for piece in cut_at_doers(sentence, self.vocabulary)]
        # a step a line only when the sentences do not part the doers as well: prose wrapped at
        # any word ("If anyone is short --\n so the count over zero -- run `x`") is cut at its sentences
        by_line = False
        if len(lines) > 1 and all(len(d) <= 1 for d in per_line) and not _sentences_part(unit, per_line, self):
            pieces = rejoin_wrapped([(n, t) for n, t in unit.lines], lambda t: next(  # `spec.policy_wrap25`
                (m.start for m in roles(t, self.vocabulary) if m.role == "doer"), None))
            by_line = True
        before: list[tuple[int, str]] = []  # what comes before the first piece naming one: that step's text
        for index, (line, sentence) in enumerate(pieces):
            said = doers(sentence, self.vocabulary) if not _checks_only(sentence) else []
            if said and found and found[-1].unit is unit and found[-1].parts is not None and all(
                    d != found[-1].skill and any(f.skill == d for f in found) and cited(sentence, d) for d in said):
                said = []  # "the quote from `quote-bus`": a value of an earlier step, said of this one (`spec.cited_doer40`)
            if (by_line and not said and found and found[-1].unit is unit and _NUMBERED_TITLE.match(sentence)
                    and index + 1 < len(pieces) and doers(pieces[index + 1][1], self.vocabulary)):
                # "2 · Lift status (same time as #1)" right above the line naming the next doer: that
                # step's title, not the step before's text
                before.append((line, sentence))
                continue
            if said:
                ahead = found[-1].parts if found and found[-1].unit is unit else None
                # "If anyone is short on forms, we chase them. Run `x` ...": the condition opening
                # the sentences before the next doer is that step's, not the one before's (warned)
                lead = leading_condition(ahead) if ahead else []
                if lead and any(found[-1].skill in doers(t, self.vocabulary) for _, t in lead):
                    lead = []  # "if the tree IS protected it goes to `a` ...": `a`'s own sentence, not the next's
                if ahead and lead:
                    del ahead[len(ahead) - len(lead):]
                found.append(Found(unit, said[0], parts=[*before, *lead], carried=[n for n, _ in lead],
                                   paired=paired.get((line, sentence))))
                before = []
            parts = found[-1].parts if found and found[-1].unit is unit else None
            if parts is None:
                before.append((line, sentence))
            elif not said and found[-1].paired and len(found) > 1 and found[-2].unit is unit \
                    and found[-2].parts is not None and nearer_half(sentence, " ".join(t for _, t in found[-2].parts),
                                                                    " ".join(t for _, t in parts)) == 0:
                found[-2].parts.append((line, sentence))  # "The council map site falls over ...": the first half's
            else:
                parts.append((line, sentence))


def _checks_only(text: str) -> bool:
    """Whether the text is one sentence saying when the run is good ("it worked if pick-notice comes back
    posted: true", "done when send-invoice returns sent = true"): the skill it names is checked, not run
    again (the check is placed by `spec.anchored_place`)."""
    said = sentences(text)
    return len(said) == 1 and success_clause(said[0][1]) is not None


def _sentences_part(unit: Unit, per_line: list[list[str]], reader: _Reader) -> bool:
    """Whether the unit is wrapped prose whose sentences part the doers as its lines do: two
    sentences or more, each naming one doer at most, the doers in the same order, and some
    sentence going on over a line break (a shell history, an outline without stops: no)."""
    said = [doers(t, reader.vocabulary) for _, t in sentences(unit.text())]
    return (1 < len(said) < len(per_line) and all(len(d) <= 1 for d in said)
            and [d for d in said if d] == [d for d in per_line if d])


def _steps(root: Unit, reader: _Reader) -> tuple[list[Found], list[Unit]]:
    reader.count(root)
    found: list[Found] = []
    leftover: list[Unit] = []
    reader.select(root, found, leftover)
    found = [f for f in found if f.skill]
    kept: list[Unit] = []
    for unit in leftover:  # a unit that names a skill only as its fallback: the step's before it
        named = any(m.role == "fallback" for u in unit.walk() for m in roles(_own_text(u), reader.vocabulary)) \
            and not (unit.kind == "heading" and _ASIDE_SECTION.match(unit.name.strip("*_# ")))  # "Change History"
        before = [f for f in found if f.unit.line < unit.line]
        if named and before:
            before[-1].extra.append(unit)
        else:
            kept.append(unit)
    return found, kept


def _label_key(label: str) -> str:
    return label.strip("().").strip()


_MAX_REFERRED = 200  # steps whose labels and names are rewritten as "step N" (beyond: left as written)


class _Refs:
    """How steps refer to each other (outline labels, names) -> "step N", matched in one pass."""

    def __init__(self, said: list[tuple[str, str]]) -> None:
        self.said = [s for _, s in said]
        self.pattern = re.compile("|".join(f"(?P<r{i}>{p})" for i, (p, _) in enumerate(said))) if said else None

    def sub(self, line: str, own: int) -> str:
        if self.pattern is None:
            return line

        def one(m: re.Match[str]) -> str:
            said = self.said[int((m.lastgroup or "r0")[1:])]
            if said == f"step {own}" or kept_as_written(m.string, m.start(), m.end()):  # "II.C of the contract"
                return m.group(0)
            return said

        return self.pattern.sub(one, line)


def _references(root: Unit, found: list[Found]) -> _Refs:
    """Outline labels of steps as other steps write them ("(a)", "II.B") and names of two words or
    more ("*Manifest split*", "from the Disk snapshot") -> "step N" (a label over several steps:
    "step 3 or step 4")."""
    numbers = {id(f.unit): i for i, f in enumerate(found, start=1) if f.parts is None}
    out: list[tuple[str, str]] = []
    paths: dict[tuple[str, ...], list[int]] = {}

    def walk(unit: Unit, path: list[str]) -> list[int]:
        here = item_path(path, _label_key(unit.label)) if unit.kind == "item" and unit.label.strip("-*+•.") else path
        under = [numbers[id(unit)]] if id(unit) in numbers else []
        for child in unit.children:
            under += walk(child, here)
        if unit.kind == "item" and under and names_path(here):  # "II.A", "3.1" (`spec.outline39`)
            paths[tuple(here)] = under
        if unit.kind == "item" and unit.label.startswith("(") and len(under) == 1:
            out.append((rf"\({re.escape(_label_key(unit.label))}\)", f"step {under[0]}"))
        return under

    walk(root, [])
    for path, under in paths.items():  # "II.A", "3.1", "2(b)", "step 2(b)" (`spec.outline39`)
        said = " or ".join(f"step {n}" for n in dict.fromkeys(under))
        out += [(pattern, said) for pattern in path_patterns(list(path))]
    for number, f in enumerate(found, start=1):
        name = _name(f.unit, f.unit.text(), f.skill)[0] if f.parts is None else ""
        if len(name.split()) >= 2 and not _CONDITION_WORD.match(name):
            out.append((rf"(?:\*|_)?(?<![\w-]){re.escape(name)}(?![\w-])(?:\*|_)?", f"step {number}"))
    return _Refs(sorted(out, key=lambda r: -len(r[0])))


def _rewrite(text: str, vocabulary: Vocabulary, refs: _Refs, own: int = 0) -> str:
    """Each line with its skill names in backticks and other steps' labels and names as "step N"."""
    return "\n".join(refs.sub(in_backticks(line, vocabulary), own) for line in text.split("\n"))


_KIND_LEAD = _rx(r"(?i)^\s*+(?:task|activity|step|stage|phase|job|action)\s*+\d*+\s*+[:.—–-]\s*+(?=\S)")


def _name(unit: Unit, text: str, skill: str) -> tuple[str, str]:
    """The step's name and its first text without the lead that named it: a heading's, a term, a
    bold or dashed lead, a short first sentence, else the skill's name."""
    if unit.kind in ("heading", "term"):
        return unit.name.strip("*_`: "), text
    if unit.titled and "\n" in text:  # "2. hash" above its text: the title names the step
        title, rest = text.split("\n", 1)
        return title.strip("*_`:. "), rest
    lead = _BOLD_LEAD.match(text) or _DASH_LEAD.match(text)
    if lead is not None and not _CONDITION_WORD.match(lead.group(1)):  # "**Task: Open ticket**": Open ticket
        return _KIND_LEAD.sub("", lead.group(1)).strip(" .:") or lead.group(1).strip(" .:"), text[lead.end():]
    first = sentences(text)[0][1] if text.strip() else text
    cut = _CONDITION_LEAD.match(first)  # "IF the risk is HIGH: canary push via `x`": named by what it does
    if cut is not None and first[cut.end():].strip():
        first = first[cut.end():].strip()
    words = first.rstrip(".").split()
    if 0 < len(words) <= 5 and "`" not in first and not _CONDITION_WORD.match(first):
        return first.rstrip(". "), text
    return skill, text


def _blocks(unit: Unit, vocabulary: Vocabulary, refs: _Refs, own: int) -> list[Block]:
    """The unit's blocks: a paragraph of bold field lines or a two-column field table one per field
    (`spec.bold_fields`, `spec.table_fields`)."""
    fields = (bold_fields(unit.lines) or table_fields(unit.lines)) if unit.kind == "para" else None
    if fields is None:
        return [b] if (b := _block(unit, vocabulary, refs, own)) is not None else []
    out: list[Block] = []
    for line, said in fields:
        text = _rewrite(said, vocabulary, refs, own)
        label, value = split_label(text)
        out.append(Bullet(line=line, text=text, label=label, value=value)
                   if label_key(label, value) is not None or start_after_label(label)  # "Kicks off after" (`spec.steps37`)
                   else Para(line=line, text=text))
    return out


def _block(unit: Unit, vocabulary: Vocabulary, refs: _Refs, own: int) -> Block | None:
    text = _rewrite(unit.text(), vocabulary, refs, own)
    if unit.kind == "heading":
        return Para(line=unit.line, text=text)
    if unit.kind == "term":
        text = f"{_rewrite(unit.name, vocabulary, refs, own)}: {text}" if text.strip() else unit.name
        return Para(line=unit.lines[0][0], text=text)
    if not text.strip():
        return None
    label, value = split_label(text)
    if unit.kind == "item" and label_key(label, value) is not None:  # "- Depends on: Step 2": a step's line
        return Bullet(line=unit.line, text=text, label=label, value=value)
    return Para(line=unit.line, text=text)


def _lead_blocks(line: int, text: str, src: Source, branch: list[bool]) -> list[Block]:
    """A step's first text, its lead ("IF the risk is HIGH:", "ELSE (low):", "In all other cases:")
    written as the lines the step readers take (`When:`, `Otherwise`); a condition they cannot
    read is said at the line, and the step runs without it (so does the Otherwise after it).
    `branch` holds whether the latest condition lead was read."""
    from orchestrator.spec.condition import read_condition

    head, _, tail = text.partition("\n")
    more: list[Block] = [Para(line=line + 1, text=tail)] if tail.strip() else []
    if (other := _OTHER_LEAD.match(head)) is not None:
        if branch and not branch[-1]:
            src.warn(line, f"'{head.strip()[:60]}' is not read as the other branch: the condition before it was "
                           "not read, so this step runs whatever it is", "spec.when")
            return [Para(line=line, text=text)]
        rest = head[other.end():].lstrip(" :,—-")
        paren = re.match(r"\(([^()]*)\)\s*:?\s*", rest)
        said = f"Otherwise ({paren.group(1)}): {rest[paren.end():]}" if paren else f"Otherwise: {rest}"
        return [Bullet(line=line, text=said, value=said), *more]
    lead = _IF_LEAD.match(head)
    from orchestrator.spec.only_if_keys import (  # "When both are done: if ..."
        comma_condition,
        finished_lead,
    )

    if lead is not None and finished_lead(lead.group(1)):
        head = head[lead.end():]  # "if at least one block is ready, ...": the condition that follows, if one does
        after = comma_condition(head)
        if after is None:
            return [Para(line=line, text=head), *more]
        branch.append(read_condition(after[0]) is not None)
        if not branch[-1]:
            src.warn(line, f"the condition '{after[0][:80]}' of this step is not read: the step runs whatever it "
                           "is; write it as a comparison (`When: delta >= exec_threshold`)", "spec.when")
            return [Para(line=line, text=head), *more]
        return [Bullet(line=line, text=f"when: {after[0]}", label="when", value=after[0]),
                Para(line=line, text=after[1]), *more]
    if lead is None:
        return [Para(line=line, text=text)]
    # "the risk from step 2 is HIGH": the step first, as the condition reader reads it ("step 2 risk is HIGH")
    condition = _OF_STEP.sub(r"\2 \1", lead.group(1).strip())
    rest = head[lead.end():]
    branch.append(read_condition(condition) is not None)
    if not branch[-1]:
        src.warn(line, f"the condition '{condition[:80]}' of this step is not read: the step runs whatever it "
                       "is; write it as a comparison (`When: delta >= exec_threshold`)", "spec.when")
        return [Para(line=line, text=text)]
    return [Bullet(line=line, text=f"when: {condition}", label="when", value=condition),
            Para(line=line, text=rest), *more]


def _read_found(number: int, f: Found, src: Source, sink: list, refs: _Refs,  # type: ignore[type-arg]
                branch: list[bool]) -> StepSpec:
    vocabulary = src.vocabulary
    unit = f.unit
    if f.parts is not None:
        line = f.parts[0][0]
        text = _rewrite(" ".join(t for _, t in f.parts), vocabulary, refs, number)
        name, _ = _name(unit, text, f.skill)
        first = _rewrite(f.parts[0][1], vocabulary, refs, number)
        lead = as_lead(first, carried=bool(f.carried))  # "If the tank is low, we top up with `x`": its condition (`spec.condition_ahead`)
        blocks: list[Block] = [Para(line=line, text=text)] if lead is None else [
            *_lead_blocks(line, lead, src, branch),
            *([Para(line=f.parts[1][0], text=_rewrite(" ".join(t for _, t in f.parts[1:]), vocabulary, refs, number))]
              if len(f.parts) > 1 else [])]
    else:
        line = unit.line
        first = _rewrite(unit.text(), vocabulary, refs, number)
        name, first = _name(unit, first, f.skill)
        at = unit.lines[1 if unit.titled and len(unit.lines) > 1 else 0][0] if unit.lines else unit.line
        blocks = _lead_blocks(at, first, src, branch) if unit.kind != "heading" and first.strip() else []
        if unit.kind == "heading" and (said := heading_text(unit.name, f.skill)) is not None:
            name = said[0]  # "## pull-prices: scrape it. flaky! retry 3x": the rest is text (`spec.policy_heading24`)
            blocks.append(Para(line=unit.line, text=_rewrite(said[1], vocabulary, refs, number)))
        blocks += [b for u in unit.walk()[1:] for b in _blocks(u, vocabulary, refs, number)]
    blocks += [b for u in f.extra for w in u.walk() for b in _blocks(w, vocabulary, refs, number)]
    blocks += [Para(line=at, text=_rewrite(said, vocabulary, refs, number)) for at, said, _ in f.placed]
    how = {"heading": "heading", "term": "definition-list term", "item": "list item"}.get(unit.kind, "paragraph")
    note = (f"{how} read as step-{number} ({name}) because it names `{f.skill}`; the document's shape was not "
            "recognised (anchored reading)")
    reading = Reading(what="step", where=src.where(line), text=" ".join(unit.text().split())[:160], note=note)
    step = read_step(number, name, line, blocks, src, form="heading" if unit.kind == "heading" else "list",
                     readings=(reading,), routes_sink=sink)
    src.warn(line, f"step-{number} ({name}): read as a step because it names `{f.skill}`; the document's shape was "
                   "not recognised: check the plan or write `## Step N:` headings", ANCHORED_CODE)
    if f.carried:
        src.warn(f.carried[0], f"step-{number} ({name}): '{' '.join(t for _, t in f.parts or [])[:70]}' is read as "
                               f"this step's condition, though it comes before the sentence naming `{f.skill}`: "
                               "to say so plainly put the condition in the step's own sentence "
                               f"(`If ...: run {f.skill}`)", "spec.condition-carried")
    step = said_elsewhere(step, f.placed, f.success, src)
    if step.approval is None:  # a person's yes said in words no reader took: never a quiet run without it
        for piece in step.texts:
            if _APPROVAL_SAID.search(piece.text):
                src.warn(piece.line, f"step-{number}: '{piece.text[:60]}' reads like a person's approval, which was "
                                    "not read: the step runs without one; write `Approval: required, timeout 4h -> "
                                    "reject` in its text", "spec.approval-not-read")
                break
    return step


def _first_text(f: Found) -> str:
    return " ".join(t for _, t in f.parts) if f.parts else (f.unit.lines[0][1] if f.unit.lines else "")


def _after_both(f: Found) -> int | None:
    """The line of a lead that says the step starts once the steps before it are back ("When both of those are
    back:", "Once they're all done:"), or None."""
    from orchestrator.spec.only_if_keys import finished_lead

    lead = _IF_LEAD.match(_first_text(f))
    if lead is None or not finished_lead(lead.group(1)):
        return None
    return f.parts[0][0] if f.parts else f.unit.line


def _together(root: Unit, found: list[Found], reader: _Reader) -> set[int]:
    """Leads that say the steps after them start together: those steps wait for none before them."""
    used: set[int] = set()
    by_unit = {id(f.unit): f for f in found if f.parts is None}
    for unit in root.walk():
        kids = unit.children
        for i, lead in enumerate(kids):
            if lead.kind != "para" or reader.total[id(lead)] or not _TOGETHER.search(lead.text()):
                continue
            run = []
            for after in kids[i + 1:]:
                if id(after) not in by_unit:
                    break
                run.append(by_unit[id(after)])
            if len(run) >= 2:
                chosen = _named_together(lead.text(), run)
                for f in chosen[1:]:
                    f.together = lead.line
                if chosen:
                    used.update(n for n, _ in lead.lines)
    return used


def _first_words(f: Found) -> set[str]:
    """The words of a step's first line and its skill's name: what a lead names it by."""
    first = f.parts[0][1] if f.parts else (f.unit.lines[0][1] if f.unit.lines else f.unit.text())
    return {w.lower() for w in re.findall(r"[A-Za-z][\w-]{2,}", f"{first} {f.skill}")}


def _named_together(lead: str, run: list[Found]) -> list[Found]:
    """The steps of `run` a lead saying "start together" is about: those it names by a word that names some of
    the run's steps but not all ("bookings + props run side by side" over bookings, props, staffing: the first two),
    when they are the run's first ones; all of the run when it names fewer than two ("These run in parallel:");
    none when the ones it names come later in the run (said where, not read)."""
    words = [_first_words(f) for f in run]
    common = set.intersection(*words)
    said = {w.lower() for w in re.findall(r"[A-Za-z][\w-]{2,}", lead)} - common
    named = [i for i, w in enumerate(words) if w & said]
    if len(named) < 2:
        return run
    return [run[i] for i in named] if named == list(range(len(named))) else []


def anchored_steps(src: Source) -> Anchored | None:
    """The steps of `src` read anchored on the skills it names (module docstring); None when
    it names none as doing the work."""
    from orchestrator.spec.structure import StepIndex, give_routes, resolve_references

    reader = _Reader(src.vocabulary)
    root = outline(src.lines)
    found, leftover = _steps(root, reader)
    if not found or len(found) > MAX_STEPS:  # too many: the rules' refusal stands
        return None
    found, placed_lines = place(root, found, leftover, src, lambda f: _name(
        f.unit, " ".join(t for _, t in f.parts) if f.parts is not None else f.unit.text(), f.skill)[0])
    # how steps name each other, matched in one pass a line: bounded to documents of a size people write
    refs = _references(root, found) if len(found) <= _MAX_REFERRED else _Refs([])
    together = _together(root, found, reader)
    sink: list = []  # type: ignore[type-arg]
    branch: list[bool] = []
    steps: list[StepSpec] = []
    covered: set[int] = set(together) | placed_lines
    for number, f in enumerate(found, start=1):
        step = _read_found(number, f, src, sink, refs, branch)
        if f.together is not None and step.depends_where is None and not step.depends_on:
            where = src.where(f.together)  # a root, as "Depends on: none" says
            step = step.model_copy(update={"depends_where": where, "readings": (*step.readings, Reading(
                what="depends_on", where=where, text=" ".join(src.line_text(f.together).split())[:160],
                note="read as: the steps under this line start together (does not wait for the step before it)"))})
        if steps and step.depends_where is None and not step.depends_on and (at := _after_both(f)) is not None:
            both = started_together(steps)  # "When both of those are back: ...": after the steps started together
            where = src.where(at)
            step = step.model_copy(update={"depends_on": tuple(both), "depends_where": where, "readings": (
                *step.readings, Reading(what="depends_on", where=where, text=" ".join(src.line_text(at).split())[:160],
                                        note=f"'{_IF_LEAD.match(_first_text(f)).group(0).strip()}' read as after "  # type: ignore[union-attr]
                                             f"{', '.join(both)}"))})
        if f.paired is not None and steps:
            step = started_with(step, steps[-1], f.paired, f.parts[0][0] if f.parts else f.unit.line, src,
                                (found[number - 2].skill, f.skill))
        steps.append(step)
        if f.parts is not None:
            covered.update(n for n, _ in f.unit.lines)
        else:
            covered.update(ln for u in f.unit.walk() for ln in [*u.covers, *(n for n, _ in u.lines)])
        covered.update(ln for u in f.extra for w in u.walk() for ln in [*w.covers, *(n for n, _ in w.lines)])
    steps = give_routes(steps, sink, src)
    steps = untangle(resolve_references(steps, StepIndex(steps)), src)  # no loop it did not write (`spec.anchor_cycles`)
    return Anchored(steps=steps, covered=covered)


def needs_rescue(steps: tuple[StepSpec, ...], src: Source) -> str | None:
    """Why the rules' reading fails in a way the anchored reading may rescue (module docstring),
    or None: no steps, work named that no step runs, or steps that name no catalog skill while
    their text names several."""
    if not src.vocabulary or not src.anchored:
        return None
    if not steps:
        return "no steps"
    if any(e.code == "spec.unread-work" for e in src.errors):
        return "unread work"
    for step in steps:
        marked = [m.text for m in step.mentions if m.marked != "plain"]
        if step.skill or doers(step.name, src.vocabulary) or any(src.vocabulary.skill_for(n) for n in marked):
            continue  # the step names its skill where the binder looks first
        said = {s for t in step.texts for s in doers(t.text, src.vocabulary)}
        if len(said) >= 2:
            return "a section read as a step names several skills"
    return None


def blank(text: str, covered: set[int]) -> str:
    """`text` with the covered lines blank (the lines keep their numbers); a line that went on
    with a covered one starts at its margin, so that it is not read as code."""
    out: list[str] = []
    for n, line in enumerate(text.split("\n"), start=1):
        if n in covered:
            out.append("")
        elif n - 1 in covered and line[:4].isspace() and line.strip():
            out.append(line.lstrip())
        else:
            out.append(line)
    return "\n".join(out)


_rx.save()
