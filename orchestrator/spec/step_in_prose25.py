"""A step named mid-sentence in a lead paragraph's prose: a skill said to do work there is a step of its own.

    **Q: What runs first?** A: `pull-rsvps` counts the guests. At the same time - no waiting -
    `book-tables` holds the room. If the guest list times out, try again after 1 minute. If the
    room booking fails, carry on with no room.
        -> step A (`pull-rsvps`): "`pull-rsvps` counts the guests." + "If the guest list times out, ..."
           step B (`book-tables`): "At the same time - no waiting - `book-tables` holds the room."
                                   + "If the room booking fails, carry on with no room."

A section of lead paragraphs (a FAQ's bold questions, a wiki's Q&A, a runbook's bold leads;
`sections.lead_units`) is a step per lead. A sentence (or a clause after ", and at the same time",
"; then") of a lead's text that names another catalog skill as the one doing work is a step of its
own, in the order said: the skill is the sentence's subject ("`x` counts ...", "the x skill checks
...", "x is run ..."), or what it has do the work ("have `x` hold the room"), after at most a word of
time or sequence ("then", "at the same time", "meanwhile", "once that's back,") and an aside between
dashes or brackets. A skill named only as a fallback ("use `x` instead", "if it fails, `x` takes
over"), as not to run ("we no longer run `x`", "`x` isn't used"), or talked about ("`x`'s output
looks like ...", "the file `x` writes") is not; neither is a skill another lead already runs.

The split-off part keeps its words ("At the same time ..." makes it start beside the step before,
"then" after it). A later sentence goes with the step whose skill's words it shares ("if the room
booking fails" -> `book-tables`); one that shares none goes with the first step when a later sentence
is the second's (the writer tells each step's rules in the order of the steps), else with the second.
Each split and each sentence given back to the first step is warned at its line. Before, the second
skill's sentences were read as the first step's policies and its step was lost.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from orchestrator.spec.blocks import Block, Para
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.sections import Unit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.step-in-prose"
_MARK = "SKILLHERE"

_TICKED = _rx(r"`([A-Za-z0-9_]++(?:-[A-Za-z0-9_]++)*+)`")
_HYPHENED = _rx(r"(?<![\w-])[a-z0-9]++(?:[-_][a-z0-9]++)++(?![\w-])")
# an aside between dashes or brackets: "At the same time - it doesn't wait for anything - `x` counts"
_ASIDE = _rx(r"\s[-\u2013\u2014]\s[^-\u2013\u2014\n]{1,120}\s[-\u2013\u2014]\s|\s*\([^()\n]{0,120}\)|"
             r"\s[\u2013\u2014][^\u2013\u2014\n]{1,120}[\u2013\u2014]\s")
# a word of time or sequence before the doer, and what it has do the work
_DOER = _rx(r"(?i)^[\W_]*+(?:A:\s*+)?(?:(?:and\s++)?(?:then|next|also|meanwhile|at\s++the\s++same\s++time|"
            r"in\s++the\s++meantime|in\s++parallel|simultaneously|after\s++that|afterwards|finally|lastly|"
            r"second(?:ly)?|first|(?:once|when|while|as\s++soon\s++as)\s[^,;.]{1,60}[,;])[\s,;:]*+)?"
            r"(?P<have>(?:have|get|let|ask)\s++)?(?:the\s++)?" + _MARK +
            r"(?:\s++(?:skill|tool|script|job|module|bot))?\s++(?:then\s++|also\s++|now\s++|next\s++|first\s++|"
            r"just\s++|quickly\s++|separately\s++)?(?P<verb>[a-z]++)(?P<after>\s++[a-z]++)?")
_NOT_VERBS = frozenset({"is", "was", "has", "does", "its", "results", "outputs", "logs", "files", "rows", "records",
                        "notes", "numbers", "values", "docs", "settings", "errors", "pages", "fields", "columns",
                        "plus", "versus", "as", "us", "this", "thus", "always", "sometimes", "yes", "series"})
_MODALS = frozenset({"will", "should", "can", "must", "would", "could", "then"})
_PASSIVE = frozenset({"run", "used", "called", "started", "kicked", "invoked", "launched", "fired"})
# the skill named as what to use when another failed, or as not to run
_FALLBACK = _rx(r"(?i)(?<!\w)(?:instead|fall\s*+back|failing\s++that|as\s++a\s++backup|takes?\s++over|"
                r"steps?\s++in|covers?\s++for|in\s++its\s++place)(?!\w)")
_CLAUSE = _rx(r"(?i)(?:,|;|\s[-\u2013\u2014])\s++(?=(?:and\s++)?(?:then|also|meanwhile|at\s++the\s++same\s++time|"
              r"in\s++parallel|simultaneously|while\s++(?:that|this|it)(?:['\u2019]s|\s++is)?+\s++\w++)(?!\w))")
_PARTS = _rx(r"[-_]")
_WORD = _rx(r"[a-z]++")
_STOP = frozenset({"find", "make", "pull", "push", "send", "check", "list", "data", "file", "with", "from",
                   "step", "into", "each", "work", "post", "read", "load", "save", "text", "info", "item",
                   "items", "tool", "skill", "batch", "write", "build", "create", "fetch", "update", "calc"})


@dataclass(frozen=True)
class Piece:
    """A part of a lead paragraph's text: its line, its words, and the skill it was split off for
    (None for the part the lead already was)."""

    line: int
    text: str
    skill: str | None = None


def skills_in(text: str, known: Callable[[str], bool]) -> list[str]:
    """The catalog skills `text` names, in backticks or bare, in order of first mention."""
    found = [(m.start(), m.group(1)) for m in _TICKED.finditer(text)] + [(m.start(), m.group(0))
                                                                       for m in _HYPHENED.finditer(text)]
    return [n for n in dict.fromkeys(n for _, n in sorted(found)) if known(n)]


def _marked(sentence: str, skill: str) -> str:
    text = _ASIDE.sub(" ", f" {sentence} ").strip()
    for quoted in (f"`{skill}`", f"**{skill}**", f"*{skill}*", f"_{skill}_", f"'{skill}'", f'"{skill}"'):
        text = text.replace(quoted, _MARK)
    return text.replace(skill, _MARK)


def does_work(sentence: str, skill: str) -> bool:
    """`sentence` names `skill` as the one doing work (module docstring), not as a fallback, a
    skill not to run, or a thing talked about."""
    if _FALLBACK.search(sentence):
        return False
    m = _DOER.match(_marked(sentence, skill))
    if m is None:
        return False
    verb, after = m.group("verb").lower(), (m.group("after") or "").strip().lower()
    if m.group("have"):
        return verb not in _NOT_VERBS and verb not in {"not", "no", "never"}
    if verb in _MODALS:
        return after not in {"not", "never", "no"}
    if verb in {"is", "gets"}:
        return after in _PASSIVE
    return len(verb) > 2 and verb.endswith("s") and verb not in _NOT_VERBS and not verb.endswith("ss")


def _pieces(text: str) -> list[tuple[int, str]]:
    from orchestrator.spec.step_prose import sentences

    out: list[tuple[int, str]] = []
    for offset, sentence in sentences(text):
        start = 0
        for m in _CLAUSE.finditer(sentence):
            out.append((offset, sentence[start:m.start() + 1].strip(" -\u2013\u2014")))
            start = m.end()
        out.append((offset, sentence[start:].strip()))
    return [(o, p) for o, p in out if p]


def _words(skill: str) -> set[str]:
    return {w.rstrip("s") for w in _PARTS.split(skill.lower()) if len(w) >= 4 and w not in _STOP}


def _shares(piece: str, skill: str) -> bool:
    return skill in piece or bool({w.rstrip("s") for w in _WORD.findall(piece.lower())} & _words(skill))


def split_text(text: str, known: Callable[[str], bool], taken: set[str]) -> list[list[tuple[int, str]]] | None:
    """The lead text cut into the parts of the steps it tells, each a list of (line offset, sentence),
    the second and later parts each opening with the sentence naming its skill as work; None when the
    text tells one step. `taken`: skills other leads run (never split off here)."""
    pieces = _pieces(text)
    seen: list[str] = []
    parts: list[list[tuple[int, str]]] = [[]]
    skills: list[str] = []
    for offset, piece in pieces:
        named = skills_in(piece, known)
        new = [s for s in named if s not in seen and s not in taken]
        start = next((s for s in new if does_work(piece, s)), None) if seen else None
        if start is not None and parts[-1]:
            parts.append([])
            skills.append(start)
        parts[-1].append((offset, piece))
        seen += [s for s in named if s not in seen]
    if len(parts) < 2:
        return None
    return _attributed(parts, [seen[0], *skills])


def _attributed(parts: list[list[tuple[int, str]]], skills: list[str]) -> list[list[tuple[int, str]]]:
    """Each part's later sentences given to the step whose skill's words they share (module docstring)."""
    out: list[list[tuple[int, str]]] = [[p[0]] for p in parts]
    for index, part in enumerate(parts):
        own = skills[index]
        rest = part[1:]
        later_own = [i for i, (_, s) in enumerate(rest) if _shares(s, own)]
        for i, (offset, sentence) in enumerate(rest):
            other = next((j for j, s in enumerate(skills) if j != index and _shares(sentence, s)
                          and not _shares(sentence, own)), None)
            if other is None and index and not _shares(sentence, own) and later_own and i < later_own[0]:
                other = index - 1  # told before the second's own rule: the step before's
            out[other if other is not None and other < index else index].append((offset, sentence))
    return out


def _line_of(src: Source, first: int, sentence: str) -> int:
    """The line at or after `first` that holds the sentence's opening words (a lead paragraph's
    text loses its first line break with the lead)."""
    head = sentence[:24]
    for number in range(first, min(first + 40, len(src.lines)) + 1):
        if head in src.line_text(number):
            return number
    return first


def _known_in(text: str, catalog: Collection[str]) -> Callable[[str], bool]:
    """A catalog skill; with no catalog, a hyphened name in backticks (`count-guests`)."""

    def known(name: str) -> bool:
        return name in catalog if catalog else f"`{name}`" in text and "-" in name

    return known


def split_lead_blocks(block: Para, src: Source, taken: set[str]) -> list[tuple[str | None, list[Block]]] | None:
    """A lead paragraph's text as the blocks of the steps it tells, each with the skill it was split
    off for (None for the first); None when it tells one step. Each split is warned at its line."""
    known = _known_in(block.text, src.vocabulary.skills)
    parts = split_text(block.text, known, taken)
    if parts is None:
        return None
    skills = [None, *(skills_in(p[0][1], known) for p in parts[1:])]
    out: list[tuple[str | None, list[Block]]] = []
    for index, part in enumerate(parts):
        skill = None
        if index:
            skill = next(s for s in skills[index] or [] if does_work(part[0][1], s))
        blocks: list[Block] = []
        for offset, sentence in part:
            line = _line_of(src, block.line + offset, sentence)
            if blocks and isinstance(blocks[-1], Para) and blocks[-1].line == line:
                blocks[-1] = Para(line=line, text=f"{blocks[-1].text} {sentence}")
            else:
                blocks.append(Para(line=line, text=sentence))
        out.append((skill, blocks))
        if index:
            start = blocks[0].line
            src.warn(start, f"`{skill}` is named here as doing work ('{part[0][1][:60]}'): read as a step of its "
                            "own after the lead's first skill's, with the sentences about it; to say so plainly "
                            "give it a lead of its own (`**Name.** ...`)", CODE)
            back = [b.line for b in out[index - 1][1][1:] if b.line >= start]
            if back:
                src.warn(back[0], f"a sentence after `{skill}` is read with the step before it (it shares no word "
                                  f"with `{skill}`, and a later sentence does): write it next to that step", CODE)
    return out


def split_lead_units(units: list[Unit], src: Source) -> list[Unit]:
    """`units` (of `sections.lead_units`) with each lead that tells two steps split into them; the
    split-off unit is named by its lead and its skill, and takes the blocks that followed the lead."""
    if not any(u.name is not None for u in units):
        return units
    vocabulary = src.vocabulary
    taken: set[str] = set()
    for unit in units:
        first = unit.blocks[0] if unit.blocks and unit.name is not None else None
        if isinstance(first, Para):
            taken.update(skills_in(first.text, _known_in(first.text, vocabulary.skills))[:1])
    out: list[Unit] = []
    for unit in units:
        head = unit.blocks[0] if unit.blocks else None
        found = split_lead_blocks(head, src, taken) if unit.name is not None and isinstance(head, Para) else None
        if found is None:
            out.append(unit)
            continue
        for index, (skill, blocks) in enumerate(found):
            last = index == len(found) - 1
            out.append(unit.model_copy(update={
                "blocks": [*blocks, *(unit.blocks[1:] if last else [])],
                "name": unit.name if not index else f"{unit.name} ({skill})",
                "gate": unit.gate if not index else None}))
    return out


_rx.save()
