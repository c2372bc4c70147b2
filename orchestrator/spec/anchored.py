"""The skill-anchored reading of a markdown spec: a rescue when the shape rules fail.

Every workflow document, whatever its kind, names the skills it runs. When the rules
(`structure`, `step_forms`) find no steps, leave catalog skills named in text that no step
runs (`spec.unread-work`), or take sections that name no catalog skill for steps while the
text under them names several (`needs_rescue`), the document is read again here, anchored on
those names (`src.vocabulary`); a spec the rules read is never read here.

1. Mentions (`mentions`): a catalog skill, or a tool one skill wraps, named in any quoting:
   `x`, **x**, *x*, 'x', "x", a link's text or target ([x](skills/x)), or a bare word (only
   a name with a hyphen or underscore, or one next to "skill", "module", "tool" or "script").
   In a sentence that names a fallback ("instead", "fall back to", "if that fails use") the
   names are the fallback, and a name the failure is said of ("if x falls over") is no
   doer: neither makes a step.
2. Units (`outline`): the document cut into headings (ATX, setext, AsciiDoc `==`, org `**`),
   paragraphs, list items at any depth and with any marker (`-`, `*`, `+`, `1.`, `a)`, `(a)`,
   `I.`, `A.`, `i.`, `1.2`, checkboxes), definition-list terms (`Term` then `:   text`, or
   `Term:: text`), each with its lines; a unit owns the units under it (by heading level
   or indentation).
3. Steps (`_steps`): a unit whose text (its own and its sub-units') names exactly one doer is
   a step with all that text, when the unit above it names more; a unit naming several is
   cut into its sub-units (a paragraph without sub-units into its sentences). A unit that
   names a skill only as a fallback belongs to the step before it. Steps run in document
   order unless their text says otherwise: each step's text is handed, a block per unit with
   its lines, to the readers the other forms use (`step.read_step`), with every skill name in
   backticks and an outline label of another step ("(a)", "II.B") written as "step N"; a
   lead line that says the steps under it start together makes them not wait for each other.
4. What is no step (form fields, notes, headings with nothing to do) is left to the readers
   of the rest of the document (`markdown.read_markdown`), which read a whole-run limit in it
   and warn the rest at its line. Each step read here is a warning at its line and a
   `Reading` in the plan's provenance: the reading is a guess about the document's shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from orchestrator.spec.blocks import Block, Bullet, Para, split_label
from orchestrator.spec.check import MAX_STEPS
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.step import label_key, read_step
from orchestrator.spec.step_prose import sentences
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

ANCHORED_CODE = "spec.anchored"

# quotings a name may be written in: (pattern with one group, how); a link comes first so that
# its target is not met again as a bare word
_QUOTED: tuple[tuple[str, str], ...] = (
    (r"`([^`\n]{1,80})`", "backticks"),
    (r"\*\*([^*\n]{1,80})\*\*", "bold"),
    (r"__([^_\n]{1,80})__", "bold"),
    (r"(?<![\w*])\*([^*\n]{1,80})\*(?![\w*])", "italics"),
    (r"(?<![\w_])_([^_\n]{1,80})_(?![\w_])", "italics"),
    (r"(?<![\w'’])['‘]([^'’\n]{1,80})['’](?![\w'’])", "quotes"),
    (r"[\"“]([^\"”\n]{1,80})[\"”]", "quotes"),
)
_LINK = _rx(r"\[([^\]\n]{1,120})\]\(([^)\s]{1,300})\)")
_WORD = _rx(r"(?<![\w./#@-])([A-Za-z][\w]*(?:[-_.][A-Za-z0-9]+)*)(?![\w-])")
_SKILL_WORD = _rx(r"(?i)^\s*(?:skill|module|tool|script|job|task)\b|\b(?:skill|module|tool|script)\s*$")
# a sentence that names what to use when the step fails: its names are the fallback
_FALLBACK = _rx(
    r"(?i)\binstead\b|\bfall(?:s|ing)?\s*back\b|\bfallback\b|\bfailing\s+that\b|\bas\s+a\s+(?:backup|fallback)\b"
    r"|\bplan\s+b\b|\bif\s+(?:that|this|it)\s+(?:fails|errors|breaks|does\s*n[o']t\s+work)\b[^.;]{0,60}\buse\b"
    r"|\botherwise\s+use\b")
# a name the failure is said of ("if rank-hosts falls over"): no doer
_FAILS_AFTER = _rx(
    r"\W{0,3}(?:\s*\([^)]{0,40}\))?\s*(?:fails|failed|falls\s+over|errors|errored|breaks|crashes|chokes|times\s+out|"
    r"is\s+down|is\s+unavailable|does\s*n[o']t\s+(?:work|answer)|can\s*n[o']t)")

# a clause: up to a comma, semicolon, colon or dash (brackets kept whole)
_CLAUSE = _rx(r"(?:\([^)]*\)|[^,;:—–(])+(?:[,;:—–]|$)")
# a clause that says the work failed ("if that fails", "if `x` is down"): the next one names the fallback
_FAILED = _rx(r"(?i)\b(?:if|when|should|in\s+case)\b[^.]{0,80}?\b(?:fails?|failed|falls\s+over|errors?(?:\s+out)?|errored|breaks|"
              r"crash(?:es)?|chokes|times\s+out|is\s+down|is\s+unavailable|does\s*n[o']t\s+work|no\s+good)\b")
# a section of remarks: what it names is not work (a glossary may hold the steps: it is not one)
_ASIDE_SECTION = _rx(r"(?i)^\W*(?:see\s+also|references?|links?|related(?:\s+\w+)?|further\s+reading|contacts?|owners?|"
                     r"change\s*log|history|revision\s+history|appendix|notes?|footnotes?|faq\s+links?)\b")
# a remark, not work: "NOTE: x has its own retries", "FYI ..."
_ASIDE_LEAD = _rx(r"(?i)^\W*(?:note|nb|n\.b\.|tip|fyi|warning|caution|important|hint|ps|p\.s\.|aside)\b\W")
# words of a person's yes or no (an approval no reader took is said, `_read_found`)
_APPROVAL_SAID = _rx(r"(?i)\bapprov\w*|\bsign(?:s|ed)?[\s-]?off\b|👍|\bthumbs[\s-]up\b|\backs?\b|\bgo-?ahead\b")
# a sentence that says when the run is done names a skill for its output, not to run it
_CHECK = _rx(r"(?i)\b(?:done|finished|successful|succeeds?|passes|complete|counts\s+as\s+\w+|accepted)\s+(?:when|if|once)\b")


@dataclass
class Mention:
    start: int
    end: int
    written: str  # the name as written (a tool's name stays the tool's)
    skill: str
    how: str
    role: str = "doer"  # doer, fallback, subject (the failure is said of it)


def mentions(text: str, vocabulary: Vocabulary) -> list[Mention]:
    """The catalog names in `text` (one line or a sentence), in order, each with how it was quoted."""
    found: list[Mention] = []
    taken = bytearray(len(text))  # the characters a mention already covers

    def add(a: int, b: int, name: str, how: str) -> None:
        skill = vocabulary.skill_for(name)
        if skill is not None and not any(taken[a:b]):
            found.append(Mention(a, b, name, skill, how))
            taken[a:b] = b"\x01" * (b - a)

    for m in _LINK.finditer(text):
        said = m.group(1).strip("`*_'\" ")
        if vocabulary.skill_for(said) is None:  # [the skill](skills/x/SKILL.md): the target names it
            said = next((p for p in reversed(re.split(r"[/#?]", m.group(2))) if vocabulary.skill_for(p)), said)
        add(m.start(), m.end(), said, "link")
    for pattern, how in _QUOTED:
        for m in re.finditer(pattern, text):
            add(m.start(), m.end(), m.group(1).strip(), how)
    for m in _WORD.finditer(text):
        name = m.group(1)
        if vocabulary.skill_for(name) is None:
            continue
        plain = not re.search(r"[-_]", name)
        if plain and not (_SKILL_WORD.search(text[max(0, m.start() - 12):m.start()])
                          or _SKILL_WORD.search(text[m.end():m.end() + 12])):
            continue  # a one-word name written bare is a word, unless called a skill
        add(m.start(), m.end(), name, "bare word")
    found.sort(key=lambda x: x.start)
    return found


def roles(text: str, vocabulary: Vocabulary) -> list[Mention]:
    """The mentions of a unit's text, clause by clause, each with its role (module docstring): in a
    clause that names a fallback, or that follows a clause saying something failed, a fallback; the
    name a failure is said of, or one in a sentence that says when the run is done, a subject;
    in a remark ("NOTE: ..."), an aside; any other, a doer."""
    out: list[Mention] = []
    aside = _ASIDE_LEAD.match(text) is not None
    at = 0
    for _offset, sentence in sentences(text):
        start = text.find(sentence, at)
        start = at if start < 0 else start
        at = start + len(sentence)
        pending = False  # the clause before said something failed: this one says what to do then
        check = _CHECK.search(sentence)
        checked_from = check.start() if check is not None else len(sentence) + 1
        for clause in _CLAUSE.finditer(sentence):
            part = clause.group(0)
            failed = _FAILED.search(part) is not None
            fallback = pending or _FALLBACK.search(part) is not None
            for m in mentions(part, vocabulary):
                m.start, m.end = m.start + start + clause.start(), m.end + start + clause.start()
                if aside:
                    m.role = "aside"
                elif _FAILS_AFTER.match(part, m.end - start - clause.start()) or m.start - start > checked_from:
                    m.role = "subject"
                elif fallback:
                    m.role = "fallback"
                out.append(m)
            pending = failed and not fallback
    return out


def doers(text: str, vocabulary: Vocabulary) -> list[str]:
    """The skills `text` names as doing the work, in order, once each."""
    return list(dict.fromkeys(m.skill for m in roles(text, vocabulary) if m.role == "doer"))


def in_backticks(line: str, vocabulary: Vocabulary) -> str:
    """The line with every catalog name it writes in another quoting put in backticks."""
    for m in reversed(mentions(line, vocabulary)):
        line = f"{line[:m.start]}`{m.written}`{line[m.end:]}"
    return line


# -- units ------------------------------------------------------------------------------------

_ATX = _rx(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_ADOC = _rx(r"^(={1,6})\s+(\S.*)$")
_ORG = _rx(r"^(\*+)\s+(\S.*)$")
_SETEXT = _rx(r"^\s{0,3}(=+|-+)\s*$")
_FENCE = _rx(r"^\s{0,3}(```|~~~)")
# list markers, any kind (module docstring)
_ITEM = _rx(
    r"^(\s*)((?:[-*+•]|\d+(?:\.\d+)*[.)]|\d+(?:\.\d+)+|\(\w{1,4}\)|[A-Za-z][.)]|[IVXLCivxlc]{1,6}[.)]|\.{1,5})"
    r"(?:\s+\[[ xX]\])?)\s+(\S.*)$")
_DEF = _rx(r"^\s{0,3}:\s+(\S.*)$")
_ADOC_DEF = _rx(r"^([^:\s][^:]{0,60}?)::(?:\s+(.*))?$")
_CAPS = _rx(r"^([A-Z][A-Z0-9&/ ,'-]{2,40})\s*$")


@dataclass
class Unit:
    kind: str  # root, heading, item, term, para
    line: int
    depth: int  # a heading's level, an item's indentation
    label: str = ""  # the marker as written ("(a)", "II.", "-")
    name: str = ""  # a heading's title, a term
    lines: list[tuple[int, str]] = field(default_factory=list)  # its own text, a line each
    children: list[Unit] = field(default_factory=list)
    content: int = 0  # where an item's text starts (its sub-units are indented at least so far)
    covers: list[int] = field(default_factory=list)  # every line it was written on (underlines too)

    def text(self) -> str:
        return "\n".join(t for _, t in self.lines)

    def walk(self) -> list[Unit]:
        return [self, *(u for c in self.children for u in c.walk())]

    def last(self) -> int:
        return max(ln for u in self.walk() for ln in [u.line, *u.covers, *(n for n, _ in u.lines)])


def outline(lines: list[str]) -> Unit:
    """The units of a document (module docstring) under one root."""
    root = Unit("root", 0, 0)
    stack: list[Unit] = [root]
    org = any(re.match(r"^\*{2,}\s+\S", ln) for ln in lines)
    open_text: Unit | None = None  # the unit a next non-blank line continues
    fenced = False
    i = 0
    while i < len(lines):
        raw, n = lines[i], i + 1
        if _FENCE.match(raw):
            fenced = not fenced
        if fenced or _FENCE.match(raw):
            open_text = None
            i += 1
            continue
        if not raw.strip():
            open_text = None
            i += 1
            continue
        indent = len(raw) - len(raw.lstrip())
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        heading: tuple[int, str] | None = None
        if (m := _ATX.match(raw)) is not None or (m := _ADOC.match(raw)) is not None or (org and (m := _ORG.match(raw)) is not None):
            heading = (len(m.group(1)), m.group(2))
        elif open_text is None and _SETEXT.match(nxt) and not _ITEM.match(raw) and indent < 4:
            heading = (1 if nxt.strip().startswith("=") else 2, raw.strip())
        elif open_text is None and indent == 0 and _CAPS.match(raw) and nxt[:1] in (" ", "\t"):
            heading = (2, raw.strip())  # a man page's NAME / DESCRIPTION
        if heading is not None:
            while stack[-1].kind != "root" and not (stack[-1].kind == "heading" and stack[-1].depth < heading[0]):
                stack.pop()
            unit = Unit("heading", n, heading[0], name=heading[1].strip(), lines=[(n, heading[1].strip())], covers=[n])
            if _SETEXT.match(nxt) and not _ATX.match(raw) and not _ADOC.match(raw):
                unit.covers.append(n + 1)
                i += 1
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = None
            i += 1
            continue
        if (m := _DEF.match(raw)) is not None and stack[-1].children and stack[-1].children[-1].kind == "para" \
                and len(stack[-1].children[-1].lines) == 1:
            term = stack[-1].children[-1]  # "Term" then ":   definition"
            term.kind, term.name, term.content = "term", term.lines[0][1].strip(), max(indent + 2, 2)
            term.covers = [term.line]
            term.lines = [(n, m.group(1))]
            stack.append(term)
            open_text = term
            i += 1
            continue
        item = _ITEM.match(raw)
        if item is None and (m := _ADOC_DEF.match(raw)) is not None:
            while stack[-1].kind in ("item", "term"):
                stack.pop()
            unit = Unit("term", n, 0, name=m.group(1).strip(), lines=[(n, m.group(2))] if m.group(2) else [(n, "")],
                        covers=[n], content=1)
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = unit
            i += 1
            continue
        if item is not None:
            depth = len(item.group(1))
            while stack[-1].kind in ("item", "term") and stack[-1].content > depth:
                stack.pop()
            unit = Unit("item", n, depth, label=item.group(2).strip(), lines=[(n, item.group(3))], covers=[n],
                        content=len(raw) - len(item.group(3)))
            stack[-1].children.append(unit)
            stack.append(unit)
            open_text = unit
            i += 1
            continue
        if open_text is not None:  # a line that goes on with the text before it
            open_text.lines.append((n, raw.strip()))
            i += 1
            continue
        while stack[-1].kind in ("item", "term") and indent < stack[-1].content:
            stack.pop()
        unit = Unit("para", n, indent, lines=[(n, raw.strip())], covers=[n])
        stack[-1].children.append(unit)
        open_text = unit
        i += 1
    return root


# -- steps --------------------------------------------------------------------------------------

# a lead that says the steps under it start together ("First two things kick off together, neither
# waits for the other:", "These run in parallel:")
_TOGETHER = _rx(
    r"(?i)\b(?:together|in\s+parallel|at\s+the\s+same\s+time|simultaneously|concurrently|side\s+by\s+side|"
    r"neither\s+waits|don['’]?t\s+wait\s+for\s+each\s+other|do\s+not\s+wait\s+for\s+each\s+other|independent(?:ly)?)\b")
_OTHER_LEAD = _rx(r"(?i)^\W*(?:else|otherwise|in\s+(?:all\s+)?other\s+cases|(?:for\s+)?anything\s+else)\b")
_BOLD_LEAD = _rx(r"^\s*(?:\*\*|__)([^*_\n]{1,60}?)(?:\*\*|__)\s*[.:—–-]*\s*")
_DASH_LEAD = _rx(r"^\s*([^.:;—–`*_]{1,50}?)\s+[—–-]\s+")
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


@dataclass
class Anchored:
    """What the anchored reading found: the steps, and every line they were read from."""

    steps: list[StepSpec]
    covered: set[int]


def _own_text(unit: Unit) -> str:
    return unit.name if unit.kind == "heading" else (f"{unit.name}\n{unit.text()}" if unit.kind == "term" else unit.text())


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
        if len(lines) > 1 and all(len(d) <= 1 for d in per_line):
            pieces = [(n, t) for n, t in unit.lines]
        else:
            pieces = [(lines[min(offset, len(lines) - 1)], sentence) for offset, sentence in sentences(unit.text())]
        before: list[tuple[int, str]] = []  # what comes before the first piece naming one: that step's text
        for line, sentence in pieces:
            said = doers(sentence, self.vocabulary)
            if said:
                found.append(Found(unit, said[0], parts=[*before]))
                before = []
            parts = found[-1].parts if found and found[-1].unit is unit else None
            if parts is None:
                before.append((line, sentence))
            else:
                parts.append((line, sentence))


def _steps(root: Unit, reader: _Reader) -> tuple[list[Found], list[Unit]]:
    reader.count(root)
    found: list[Found] = []
    leftover: list[Unit] = []
    reader.select(root, found, leftover)
    found = [f for f in found if f.skill]
    kept: list[Unit] = []
    for unit in leftover:  # a unit that names a skill only as its fallback: the step's before it
        named = any(m.role == "fallback" for u in unit.walk() for m in roles(_own_text(u), reader.vocabulary))
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
            return m.group(0) if said == f"step {own}" else said

        return self.pattern.sub(one, line)


def _references(root: Unit, found: list[Found]) -> _Refs:
    """Outline labels of steps as other steps write them ("(a)", "II.B") and names of two words or
    more ("*Manifest split*", "from the Disk snapshot") -> "step N" (a label over several steps:
    "step 3 or step 4")."""
    numbers = {id(f.unit): i for i, f in enumerate(found, start=1) if f.parts is None}
    out: list[tuple[str, str]] = []
    paths: dict[str, list[int]] = {}

    def walk(unit: Unit, path: list[str]) -> list[int]:
        here = [*path, _label_key(unit.label)] if unit.kind == "item" and unit.label.strip("-*+•.") else path
        under = [numbers[id(unit)]] if id(unit) in numbers else []
        for child in unit.children:
            under += walk(child, here)
        if unit.kind == "item" and under and len(here) >= 2:
            paths[".".join(here)] = under
        if unit.kind == "item" and unit.label.startswith("(") and len(under) == 1:
            out.append((rf"\({re.escape(_label_key(unit.label))}\)", f"step {under[0]}"))
        return under

    walk(root, [])
    for path, under in paths.items():
        out.append((rf"(?<![\w.]){re.escape(path)}(?!\w)", " or ".join(f"step {n}" for n in dict.fromkeys(under))))
    for number, f in enumerate(found, start=1):
        name = _name(f.unit, f.unit.text(), f.skill)[0] if f.parts is None else ""
        if len(name.split()) >= 2 and not _CONDITION_WORD.match(name):
            out.append((rf"(?:\*|_)?(?<![\w-]){re.escape(name)}(?![\w-])(?:\*|_)?", f"step {number}"))
    return _Refs(sorted(out, key=lambda r: -len(r[0])))


def _rewrite(text: str, vocabulary: Vocabulary, refs: _Refs, own: int = 0) -> str:
    """Each line with its skill names in backticks and other steps' labels and names as "step N"."""
    return "\n".join(refs.sub(in_backticks(line, vocabulary), own) for line in text.split("\n"))


def _name(unit: Unit, text: str, skill: str) -> tuple[str, str]:
    """The step's name and its first text without the lead that named it: a heading's, a term, a
    bold or dashed lead, a short first sentence, else the skill's name."""
    if unit.kind in ("heading", "term"):
        return unit.name.strip("*_`: "), text
    lead = _BOLD_LEAD.match(text) or _DASH_LEAD.match(text)
    if lead is not None and not _CONDITION_WORD.match(lead.group(1)):
        return lead.group(1).strip(" .:"), text[lead.end():]
    first = sentences(text)[0][1] if text.strip() else text
    cut = _CONDITION_LEAD.match(first)  # "IF the risk is HIGH: canary push via `x`": named by what it does
    if cut is not None and first[cut.end():].strip():
        first = first[cut.end():].strip()
    words = first.rstrip(".").split()
    if 0 < len(words) <= 5 and "`" not in first and not _CONDITION_WORD.match(first):
        return first.rstrip(". "), text
    return skill, text


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
        blocks: list[Block] = [Para(line=line, text=text)]
    else:
        line = unit.line
        first = _rewrite(unit.text(), vocabulary, refs, number)
        name, first = _name(unit, first, f.skill)
        at = unit.lines[0][0] if unit.lines else unit.line
        blocks = _lead_blocks(at, first, src, branch) if unit.kind != "heading" and first.strip() else []
        blocks += [b for u in unit.walk()[1:] if (b := _block(u, vocabulary, refs, number)) is not None]
    blocks += [b for u in f.extra for w in u.walk() if (b := _block(w, vocabulary, refs, number)) is not None]
    how = {"heading": "heading", "term": "definition-list term", "item": "list item"}.get(unit.kind, "paragraph")
    note = (f"{how} read as step-{number} ({name}) because it names `{f.skill}`; the document's shape was not "
            "recognised (anchored reading)")
    reading = Reading(what="step", where=src.where(line), text=" ".join(unit.text().split())[:160], note=note)
    step = read_step(number, name, line, blocks, src, form="heading" if unit.kind == "heading" else "list",
                     readings=(reading,), routes_sink=sink)
    src.warn(line, f"step-{number} ({name}): read as a step because it names `{f.skill}`; the document's shape was "
                   "not recognised: check the plan or write `## Step N:` headings", ANCHORED_CODE)
    if step.approval is None:  # a person's yes said in words no reader took: never a quiet run without it
        for piece in step.texts:
            if _APPROVAL_SAID.search(piece.text):
                src.warn(piece.line, f"step-{number}: '{piece.text[:60]}' reads like a person's approval, which was "
                                    "not read: the step runs without one; write `Approval: required, timeout 4h -> "
                                    "reject` in its text", "spec.approval-not-read")
                break
    return step


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
                for f in run[1:]:
                    f.together = lead.line
                used.update(n for n, _ in lead.lines)
    return used


def anchored_steps(src: Source) -> Anchored | None:
    """The steps of `src` read anchored on the skills it names (module docstring); None when
    it names none as doing the work."""
    from orchestrator.spec.structure import StepIndex, give_routes, resolve_references

    reader = _Reader(src.vocabulary)
    root = outline(src.lines)
    found, _leftover = _steps(root, reader)
    if not found or len(found) > MAX_STEPS:  # too many: the rules' refusal stands
        return None
    # how steps name each other, matched in one pass a line: bounded to documents of a size people write
    refs = _references(root, found) if len(found) <= _MAX_REFERRED else _Refs([])
    together = _together(root, found, reader)
    sink: list = []  # type: ignore[type-arg]
    branch: list[bool] = []
    steps: list[StepSpec] = []
    covered: set[int] = set(together)
    for number, f in enumerate(found, start=1):
        step = _read_found(number, f, src, sink, refs, branch)
        if f.together is not None and step.depends_where is None and not step.depends_on:
            where = src.where(f.together)  # a root, as "Depends on: none" says
            step = step.model_copy(update={"depends_where": where, "readings": (*step.readings, Reading(
                what="depends_on", where=where, text=" ".join(src.line_text(f.together).split())[:160],
                note="read as: the steps under this line start together (does not wait for the step before it)"))})
        steps.append(step)
        if f.parts is not None:
            covered.update(n for n, _ in f.unit.lines)
        else:
            covered.update(ln for u in f.unit.walk() for ln in [*u.covers, *(n for n, _ in u.lines)])
        covered.update(ln for u in f.extra for w in u.walk() for ln in [*w.covers, *(n for n, _ in w.lines)])
    steps = give_routes(steps, sink, src)
    steps = resolve_references(steps, StepIndex(steps))
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
