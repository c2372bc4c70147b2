"""One runbook paragraph that tells two steps: split into the steps it names.

    First pull the guest list with `pull-rsvps` and count the meals. At the same time, have
    `book-tables` hold the room from the date. If the room booking fails, carry on with no room.
        -> step A: "First pull the guest list with `pull-rsvps` and count the meals."
           step B: "At the same time, have `book-tables` hold ... If the room booking fails, ..."
    Log the catch with `log-catch`, and also have `weigh-catch` weigh each crate.
        -> the same, split at ", and also" (B starts beside A)
    Plate the cells with `plate-cells`. Then score them with `score-wells`.
        -> two steps, B after A ("Then")

A paragraph the runbook reader takes as a step (`step_forms.starts_step`) is split where a later
sentence (or a clause after ", and also", "; meanwhile", ", while that runs,") names a catalog
skill the text before it did not, and opens with a start: a word of the same time ("at the same
time", "meanwhile", "while that runs", "also", `branch_parallel.parallel_start`) or of sequence
("then", "next", "after that"). A sentence that names the second skill only as what to use when
the first failed ("if it fails use `b` instead") is no start, and a paragraph whose first skill is
named nowhere before the split is left whole. Every sentence after the split goes with the step
whose skill's name its words share (`the calendar thing dies` -> `clinic-calendar`), else with the
second step: a policy or a carry-on value is the step's whose sentence says it. The second part
keeps its opening words, so the step reader reads "at the same time" as a start beside the first
(a root) and "then" as after it. Before, the paragraph was one step: the second skill was lost and
its policies went to the first. Each split is warned at its line with how to write it plainly.
"""

from __future__ import annotations

from collections.abc import Callable

from orchestrator.spec.blocks import Block, Para
from orchestrator.spec.branch_parallel import parallel_start
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.para-split"

_TICKED = _rx(r"`([A-Za-z0-9_]++(?:-[A-Za-z0-9_]++)*+)`")
_HYPHENED = _rx(r"(?<![\w-])[a-z0-9]++(?:-[a-z0-9]++)++(?![\w-])")
# a start of the same time or of sequence at the head of a sentence
_START = _rx(r"(?i)^\W*+(?:and\s++)?(?:also|at\s++the\s++same\s++time|meanwhile|in\s++the\s++meantime|"
             r"in\s++parallel|simultaneously|alongside|while\s++(?:that|this|it)(?:['’]s|\s++is)?+\s++\w++|"
             r"then|next|after\s++that|afterwards|once\s++(?:that|this|it)(?:['’]s|\s++is)\s++(?:done|back|"
             r"finished|in)|second(?:ly)?|finally|lastly)(?!\w)")
_JOINED = _rx(r"(?i)^\W*+and\s++(?:also|meanwhile|at\s++the\s++same\s++time|in\s++parallel|simultaneously)(?!\w)")
_SEQUENCE = _rx(r"(?i)^\W*+(?:then|next|after\s++that|afterwards|once|second(?:ly)?|finally|lastly)(?!\w)")
# a clause inside one sentence that starts a second piece of work
_CLAUSE = _rx(r"(?i)(?:,|;)\s++(?=(?:and\s++)?(?:also|meanwhile|at\s++the\s++same\s++time|in\s++parallel|"
              r"while\s++(?:that|this|it)(?:['’]s|\s++is)?+\s++\w++)(?!\w))")
# the second skill named as what to use when the first fails, not as work
_FALLBACK = _rx(r"(?i)(?<!\w)(?:if|when|should)\s++(?:it|that|this|the\s++\w++)\s++(?:fails|dies|errors|"
                r"is\s++down|breaks|times\s++out)|(?<!\w)(?:instead|fall\s*+back|failing\s++that|otherwise|"
                r"as\s++a\s++backup)(?!\w)")
_PARTS = _rx(r"[-_]")
_WORD = _rx(r"[a-z]++")
_STOP = frozenset({"find", "make", "pull", "push", "send", "check", "list", "data", "file", "with", "from",
                   "step", "into", "each", "work", "post", "read", "load", "save", "text", "info", "item",
                   "items", "tool", "skill", "batch", "write", "build", "create", "fetch", "update"})


def _skills(text: str, known: Callable[[str], bool]) -> list[str]:
    names = [m.group(1) for m in _TICKED.finditer(text)] + [m.group(0) for m in _HYPHENED.finditer(text)]
    return [n for n in dict.fromkeys(names) if known(n)]


def _words(skill: str) -> set[str]:
    return {w.rstrip("s") for w in _PARTS.split(skill.lower()) if len(w) >= 4 and w not in _STOP}


def _pieces(text: str) -> list[tuple[int, str]]:
    """(line offset, piece) for each sentence, a sentence split again before a clause of a second work."""
    from orchestrator.spec.step_prose import sentences

    out: list[tuple[int, str]] = []
    for offset, sentence in sentences(text):
        start = 0
        for m in _CLAUSE.finditer(sentence):
            out.append((offset, sentence[start:m.start() + 1].strip()))
            start = m.end()
        out.append((offset, sentence[start:].strip()))
    return [(o, p) for o, p in out if p]


def _split_at(pieces: list[tuple[int, str]], known: Callable[[str], bool]) -> tuple[int, str, str] | None:
    """The index of the piece that starts the second step, and the two skills; None when none does."""
    seen: list[str] = []
    for index, (_, piece) in enumerate(pieces):
        named = _skills(piece, known)
        new = [s for s in named if s not in seen]
        if seen and new and index and (_START.match(piece) or parallel_start(piece)) and not _FALLBACK.search(piece):
            return index, seen[0], new[0]
        seen += new
    return None


def _joined(pieces: list[tuple[int, str]]) -> str:
    text, last = "", None
    for offset, piece in pieces:
        if last is not None:
            text += "\n" * (offset - last) if offset > last else " "
        text += piece
        last = offset
    return text


def split_paragraph(para: Para, src: Source, starts: Callable[[str], bool]) -> list[Block]:
    """The paragraph as the blocks of the steps it tells (module docstring); [para] when it tells one."""
    vocabulary = src.vocabulary
    if not starts(para.text):
        return [para]

    def known(name: str) -> bool:  # with no catalog, a hyphened name in backticks (`count-guests`)
        return name in vocabulary.skills if vocabulary.skills else f"`{name}`" in para.text and "-" in name

    pieces = _pieces(para.text)
    found = _split_at(pieces, known)
    if found is None:
        return [para]
    index, first, second = found
    first_words, second_words = _words(first), _words(second)
    head, tail, moved = list(pieces[:index]), [pieces[index]], []
    for offset, piece in pieces[index + 1:]:
        words = {w.rstrip("s") for w in _WORD.findall(piece.lower())}
        if first in piece or (words & first_words and not words & second_words and second not in piece):
            moved.append(Para(line=para.line + offset, text=piece))
        else:
            tail.append((offset, piece))
    start = para.line + pieces[index][0]
    how = "starts beside it" if not _SEQUENCE.match(pieces[index][1]) else "runs after it"
    src.warn(start, f"this paragraph names two skills, `{first}` and `{second}`: read as two steps, the second "
                    f"from '{pieces[index][1][:50]}' on, which {how}"
             + (f"; line {', '.join(str(p.line) for p in moved)} read with `{first}`, whose name its words share"
                if moved else "")
             + ". To say so plainly give each step its own paragraph", CODE)
    rest = split_paragraph(Para(line=start, text=_joined(tail)), src, starts)  # a third skill told after it
    return [Para(line=para.line, text=_joined(head)), *moved, *rest]


def split_paragraphs(blocks: list[Block], src: Source, starts: Callable[[str], bool]) -> list[Block]:
    """`blocks` with each runbook paragraph that tells two steps split into them."""
    out: list[Block] = []
    for block in blocks:
        out += split_paragraph(block, src, starts) if isinstance(block, Para) else [block]
    return out


def joined_beside(text: str) -> bool:
    """A part split off a paragraph at ", and also ...", "; and meanwhile ...": it starts beside the step before."""
    return _JOINED.match(text) is not None


def started_together(steps: list[StepSpec]) -> list[str]:
    """The ids of the last step and of those it started beside ("at the same time"), in order: what
    "once both of those are back" waits for."""
    ids = [steps[-1].id]
    index = len(steps) - 1
    while index > 0 and steps[index].unordered_where is not None and not steps[index].depends_on:
        index -= 1
        ids.insert(0, steps[index].id)
    return ids


_rx.save()
