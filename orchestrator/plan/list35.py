"""An earlier step's output handed to an input under another name, the step called by its list mark.

    d) programme-build: pieces from (a), the licence list from (c) goes in as "licensed"
        `licensed` <- step c's `needs_licence` (the words "licence list" share a stem with it)
    D. ORDER A QUEEN ..... queen-order
       Hives = the queenless list from C.                  `hives` <- step C's `queenless`
    E. Watch list = C's swarm-risk hives                    `watch` <- step C's `swarm_risk`
    chase list = whoever the tally says is missing          `chase` <- the `confirm-tally` step's `missing`

Authors of lettered or numbered lists ("a) ... b) ...", "C. APIARY SUMMARY", "3) ...") hand a value on
in words: "<what> from (c) goes in as "<input>"", or "<input> [list] = <what> from C" / "C's <what>". The
step is named by the mark its own first line opens with (a letter or number, in parentheses or before
`)` or `.`), by "step N", or by a word of its skill's name ("the tally": `confirm-tally`), one step only.
The field is the one of that step's outputs the words write as a name (`swarm-risk`: `swarm_risk`;
the longest when several), else the one whose name shares a stem with the words ("licence list":
`needs_licence`), else the output of the input's own name; anything else (no step, several steps,
no field, several fields) leaves the input to the other rules. A field read by stem is a guess and
is said (the caller warns); every pattern here is bounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from orchestrator.plan.meaning import stems
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CLAUSES = _rx(r"[,;]|\.(?=\s|$)|\n")
_MARK = _rx(r"^[ \t]*+\(?+([A-Za-z]|\d{1,2}+)[).:][ \t]")  # "a) ...", "(c) ...", "C. APIARY ...", "3. ..."
_GOES_AS = _rx(r"(?i)\b(?:goes|go|is[ \t]++passed|passed|is[ \t]++given|feeds?|comes)[ \t]++(?:in[ \t]++)?as[ \t]++"
               r"[\"'`“‘]?+([A-Za-z_]\w{0,40}+)")
_ASSIGN = _rx(r"^[ \t]*+([A-Za-z][\w-]{0,30}+)(?:[ \t]++([A-Za-z][\w-]{0,30}+))?+[ \t]*+(?:=|<-|←)[ \t]*+(.{1,160}+)$")
_REF_MARK = _rx(r"\(([A-Za-z]|\d{1,2}+)\)|(?i:\bstep[ \t]++)([A-Za-z]|\d{1,3}+)\b"
                r"|(?<![\w'’])([A-Z])(?:['’]s)?+(?![\w'’-])")
_OR_NAME = _rx(r"(?i)(?<![\w`])or[ \t\n]++`?([A-Za-z_][\w-]{0,63}+)`?")  # "`rows` (or `joined`)": either name
_REF_WORD = _rx(r"(?i)\bthe[ \t]++([a-z]{4,20}+)\b")
_TOKENS = _rx(r"[A-Za-z0-9]++")


@dataclass(frozen=True)
class Before:
    """An earlier step as a list's text may call it: its id, position (1-based), mark, skill words, outputs."""

    id: str
    position: int
    mark: str  # "c", "3" or "" (its first line opens with none)
    words: frozenset[str]  # the words of its skill's name, lower case
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Handoff:
    step: str
    field: str
    words: str  # as written
    guessed: bool  # the field read by a shared stem, not by its name


def mark_of(first_line: str) -> str:
    """The letter or number a list item's first line opens with, lower case, or ""."""
    m = _MARK.match(first_line)
    return m.group(1).lower() if m else ""


def skill_words(*names: str | None) -> frozenset[str]:
    return frozenset(w.lower() for n in names if n for w in _TOKENS.findall(n) if len(w) >= 4)


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKENS.findall(text)]


def _called(before: str) -> bool:
    """The words before a capital call a step by it ("from A", "of A"), not open a sentence ("A few")."""
    return before.rstrip().lower().endswith((" from", " of", " by", " after")) or before.lower() in ("from ", "of ")


def _step_of(words: str, before: Sequence[Before]) -> tuple[Before, str] | None:
    """The one earlier step the words call by its mark, number or skill word, and the words without it."""
    marks = {b.mark for b in before if b.mark}
    hits: dict[str, Before] = {}
    cut = words
    for m in _REF_MARK.finditer(words):
        said = (m.group(1) or m.group(2) or m.group(3) or "").lower()
        if m.group(3) and (said not in marks or (m.group(0) in ("I", "A") and not _called(words[:m.start()]))):
            continue  # a capital alone: only a mark in use, and "A"/"I" only after "from", "of", "by"

        found = [b for b in before if b.mark == said] or (
            [b for b in before if str(b.position) == said] if said.isdigit() and not m.group(3) else [])
        if len(found) == 1:
            hits[found[0].id] = found[0]
            cut = cut.replace(m.group(0), " ")
    if not hits:
        for m in _REF_WORD.finditer(words):
            found = [b for b in before if m.group(1).lower() in b.words]
            if len(found) == 1:
                hits[found[0].id] = found[0]
                cut = cut.replace(m.group(0), " ")
    if len(hits) != 1:
        return None
    return next(iter(hits.values())), cut


def _field_of(words: str, name: str, fields: Sequence[str]) -> tuple[str, bool] | None:
    """(the field the words mean, read by stem) or None (module docstring)."""
    toks = _tokens(words)
    joined = f" {' '.join(toks)} "
    named = [f for f in fields if f" {' '.join(_tokens(f.replace('_', ' ')))} " in joined]
    if named:
        longest = max(len(_tokens(f.replace("_", " "))) for f in named)
        best = [f for f in named if len(_tokens(f.replace("_", " "))) == longest]
        return (best[0], False) if len(best) == 1 else None
    said = stems(words)
    by_stem = [f for f in fields if said and stems(f) & said]
    if len(by_stem) == 1:
        return by_stem[0], True
    if not by_stem and name in fields:
        return name, False
    return None


def _input_named(lhs: Sequence[str], reads: Iterable[str]) -> str | None:
    """The read input the words before the sign name: all of them ("Hives") or all but a last noun ("Watch list")."""
    words = [w.lower().replace("-", "_") for w in lhs if w]
    options = {"_".join(words)} | ({words[0]} if len(words) == 2 else set())
    found = [r for r in reads if r.lower() in options]
    return found[0] if len(found) == 1 else None


def described_handoffs(texts: Iterable[str], reads: Sequence[str], before: Sequence[Before]) -> dict[str, Handoff]:
    """input -> the earlier step's field the texts hand it under another name (module docstring)."""
    if not before or not reads:
        return {}
    found: dict[str, Handoff] = {}
    for text in texts:
        for clause in _CLAUSES.split(text):
            clause = " ".join(clause.split())
            if not clause:
                continue
            name: str | None = None
            words = ""
            goes = _GOES_AS.search(clause)
            if goes is not None:
                name = next((r for r in reads if r.lower() == goes.group(1).lower()), None)
                words = clause[:goes.start()]
            else:
                pair = _ASSIGN.match(clause)
                if pair is not None:
                    name = _input_named([pair.group(1), pair.group(2) or ""], reads)
                    words = pair.group(3)
            if name is None or name in found:
                continue
            step = _step_of(words, before)
            if step is None:
                continue
            field = _field_of(step[1], name, step[0].fields)
            if field is None:
                continue
            found[name] = Handoff(step=step[0].id, field=field[0], words=clause, guessed=field[1])
    return found


# a gate said of what a step says: "if (d) says it'll cost more than £150", "if C shows the total is over 40"
_SAYS = _rx(r"(?i)^[ \t]*+(?:if[ \t]++|when[ \t]++|only[ \t]++if[ \t]++)?+(?P<ref>\([a-z0-9]\)|[A-Z]\b|step[ \t]++\w{1,3}+)"
            r"[ \t]++(?:says|said|shows|reports|gives|comes[ \t]++back[ \t]++with)[ \t]++(?:that[ \t]++)?+"
            r"(?:(?:it|this|they)(?:['’]ll|['’]s|[ \t]++will|[ \t]++is|[ \t]++would)?+[ \t]++)?+(?:the[ \t]++)?+"
            r"(?P<words>[a-z][a-z_ \t-]{0,40}?)[ \t]++(?:be[ \t]++|is[ \t]++|are[ \t]++|come[ \t]++to[ \t]++)?+"
            r"(?P<op>more[ \t]++than|over|above|greater[ \t]++than|less[ \t]++than|under|below|at[ \t]++least|at[ \t]++most)"
            r"[ \t]++[£$€]?+[ \t]*+(?P<num>\d{1,3}+(?:,\d{3})*+(?:\.\d++)?+|\d++(?:\.\d++)?+)\b")
_OP = {"more than": ">", "over": ">", "above": ">", "greater than": ">", "less than": "<", "under": "<",
       "below": "<", "at least": ">=", "at most": "<="}


def gate_said_of_step(when: str, before: Sequence[Before]) -> tuple[str, str] | None:
    """(the condition as `step-N.field > number`, what it was read as) for a gate said of what an earlier
    step says ("if (d) says it'll cost more than £150": the step called by its mark, the field of its
    outputs the words name or share a stem with, `print_cost`); None when it is not said so or no one
    step and field fit."""
    m = _SAYS.match(when)
    if m is None:
        return None
    step = _step_of(m.group("ref"), before)
    if step is None:
        return None
    field = _field_of(m.group("words"), "", step[0].fields)
    if field is None:
        return None
    op = _OP[" ".join(m.group("op").lower().split())]
    number = m.group("num").replace(",", "")
    return (f"{step[0].id}.{field[0]} {op} {number}",
            f"'{m.group('ref')}' is {step[0].id}, and '{m.group('words')}' its `{field[0]}`")


# a place named after "at"/"in": two to six capitalised words ("St Cecilia's Church", "Hall of the Bay")
_PLACE = _rx(r"(?<![\w-])(?:at|in)[ \t]++(?:the[ \t]++)?+(?P<v>[A-Z][A-Za-z'’.]{0,30}+(?:[ \t]++(?:of[ \t]++|the[ \t]++|on[ \t]++)"
             r"{0,2}+[A-Z][A-Za-z'’]{0,30}+){1,5}+)")
_PLACE_WORDS = frozenset({"venue", "site", "location", "place", "hall", "church", "store", "branch", "station",
                          "depot", "office", "clinic", "school", "campus", "warehouse", "port", "premises", "room"})


def place_said(name: str, about: str, text: str) -> tuple[str, str] | None:
    """(the place, the words) for an input that is a place (`venue`, `site`; or its skill says so: "`where`
    (venue name)") when the step's text names exactly one place after "at" or "in" ("look up the seats at
    St Cecilia's Church with venue-seats"); None otherwise: the input is left to the other rules."""
    if not (set(_tokens(name)) | set(_tokens(about))) & _PLACE_WORDS:
        return None
    found = list(dict.fromkeys(m.group("v").rstrip(".") for m in _PLACE.finditer(text)))
    if len(found) != 1:
        return None
    return found[0], f"at {found[0]}"


_rx.save()


def other_name_given(name: str, abouts: dict[str, str], given: Iterable[str]) -> bool:
    """An input a skill's instructions name beside another as its alternative ("`rows` (or `joined`)",
    said on either name) when that other one is given: the skill reads either, so `name` is not missing."""
    have = set(given)
    if any(alt in have for alt in _OR_NAME.findall(abouts.get(name, ""))):
        return True
    return any(other in have and name in _OR_NAME.findall(about) for other, about in abouts.items())
