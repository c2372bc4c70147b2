"""Workflow inputs named inside a sentence of an intro or a description, not under an Inputs heading.

    Joy pastes in two things before anything starts: the donations log (`donations` — item, kg
    per line) and the pantry list (`pantries` — name + households).
    It wants two things off you: the latest METAR line (metar) and the tank levels (tanks: type1_l, type4_l).
    That form gives the run its two inputs: the casualty details (casualty: species, weight) and the
    tick-list of symptoms (symptoms).
    The supervisor gives it the **trench**, the **context** number and the bag list (`finds`: material).

A sentence before the first step that says someone gives, pastes, enters, hands or brings the run
things, or that the run wants, needs or takes things (from someone), lists them after its colon (or
right after its verb). Each thing of that list whose words are followed by a name, in backticks or
opening the brackets after them, is a workflow input of that name: "(tanks: type1_l, type4_l)" and
"(`donations` — item, kg)" are one input each, the words after the name its fields. A name in
brackets without backticks is a guess: read only when it opens the brackets and is followed by a
colon or a dash (its fields), or stands alone and echoes a word of the thing's own words ("the latest
METAR line (metar)"), or is written as a name (`type1_l`: an underscore or a digit). A thing with no
name ("the **trench**", "the context number") is kept as written, for the planner to match to a name
a skill reads (`plan.prose_inputs`). A sentence is read only when it names at least one input so.
Each sentence read gets a warning at its line that says how each thing was read, which were guesses
and which were not read, and how to write an Inputs section instead.

Only when the spec declares no inputs. One pass over the lines before the first step; the lists are
split by a scanner that keeps brackets whole; every pattern is anchored or bounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from orchestrator.spec.choice_labels45 import gloss_values
from orchestrator.spec.h3_left31 import START_FROM
from orchestrator.spec.model import InputSpec
from orchestrator.spec.need_list44 import need_list_head, whole_things
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_RUN = (r"(?:it|this|the\s++(?:run|workflow|job|tool|script|process|flow|automation|bot|pipeline|routine|system|"
        r"procedure|thing|sheet|form|checklist)|the\s++[a-z]++(?:-[a-z]++)?+\s++(?:run|job|routine|flow|workflow))")
# someone gives the run things: "gives it", "hands the run", "gives the run its two inputs"
_GIVE = _rx(rf"(?i)\b(?:gives?|hands?|pass(?:es)?+|supplies|supply|provides?|sends?|feeds?)\s++(?:{_RUN})\b")
# things put in by whoever starts it: "pastes in", "types in", "fills in", "enters", "uploads", "brings"
_PUT = _rx(r"(?i)\b(?:pastes?|types?|fills?|drops?|plugs?|keys?|punch(?:es)?+|puts?)\s++in\b(?!\s++place\b)"
           r"(?:\s++(?:to\s++)?+"
           rf"(?:{_RUN}))?+|\b(?:enters?|uploads?|brings?)\b(?:\s++(?:to\s++)?+(?:{_RUN})\b)?+")
# the run wants things: "it wants two things off you", "the run needs", "this takes, from you,"
_WANTS = _rx(rf"(?i)\b(?:{_RUN})\s++(?:wants|needs|takes|expects|requires|asks\s++for|is\s++given|gets)\b")
# "you'll need:", "we need, before starting:": a need that a colon opens
_NEED = _rx(r"(?i)\b(?:you|we)(?:['’]ll|\s++will)?+\s++need\b(?!\s++to\b)(?=[^:.\n]{0,60}+:)")
# "I run it with three things:", "we kick the job off with", "the sheet runs off two things"
_RUN_WITH = _rx(rf"(?i)\b(?:(?:i|we|you)\s++(?:run|start|launch|kick|fire)(?:\s++off)?+\s++(?:{_RUN})"
                rf"(?:\s++off)?+|(?:{_RUN})\s++runs)\s++(?:with|on|off|from)\b")
_LEADS = (_GIVE, _PUT, _WANTS, _NEED, _RUN_WITH, START_FROM)  # "What I start from: ..." (`spec.h3_left31`)
_BACK = _rx(r"(?i)^\s*+(?:back|out|you\s++back)\b")  # "gives it back": an output, not a thing given

# a name opening the brackets after a thing's words: "(`donations` — ...)", "(tanks: a, b)", "(metar)"
_TICKED_OPEN = _rx(r"^\s*+`([A-Za-z_]\w*+)`\s*+(?:$|[:—–,;=]|-\s|\(|\s(?:[-—–]|is\b|holds\b))")
_BARE_OPEN = _rx(r"^\s*+([a-z_][a-z0-9_]*+)\s*+(?:$|(?P<more>[:—–]|-\s|=))")
_TICKED = _rx(r"`([A-Za-z_]\w*+)`")
_WORD = _rx(r"[A-Za-z]++")
_NAME = _rx(r"[a-z][a-z0-9]*+(?:_[a-z0-9]++)*+")
_NAMES_SPLIT = _rx(r"(?<![ \t])[ \t]*+(?:,|/|\band\b)[ \t]*+")
_CALLED = _rx(r"(?i)(?<!\s)\s++(?:as|called|named|aka|i\.e\.?+)$")
_SKILL_WORD = _rx(r"(?<![\w-])`?[a-z0-9]++(?:-[a-z0-9]++)++`?(?![\w-])")  # "`tally-donations` takes": a step's
_NOUN = _rx(r"(?i)^(?:the|a|an|this|that|these|today['’]?s|tonight['’]?s|your|our|their|its|each|every|"
            r"[a-z]++['’]s)\s++\S|^\*\*|^__")
# words that stand in brackets after a thing without being its name
_NOT_NAMES = frozenset({
    "optional", "required", "mandatory", "csv", "json", "pdf", "xlsx", "xls", "txt", "yaml", "yml", "png", "jpg",
    "jpeg", "text", "string", "number", "int", "integer", "float", "list", "date", "yes", "no", "none", "etc", "again",
    "daily", "weekly", "monthly", "each", "all", "any", "one", "two", "three", "usually", "maybe", "if", "see",
    "below", "above", "ish", "approx", "e", "i", "or", "and", "either", "both", "sometimes", "often", "note",
})
_MAX_SENTENCE = 700
_ABBREVIATIONS = ("e.g", "i.e", "etc", "no", "nr", "approx", "vs", "ca")


@dataclass(frozen=True)
class IntroInputs:
    """What the sentences read name: the inputs named, and the things said only in words (part, file:line)."""

    named: tuple[InputSpec, ...]
    parts: tuple[tuple[str, str], ...]


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence from `start` ends: a stop outside brackets that is no abbreviation's."""
    depth = 0
    limit = min(len(text), start + _MAX_SENTENCE)
    for i in range(start, limit):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif ch in ".!?" and depth == 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            word = text[max(0, i - 6):i].lower().rsplit(" ", 1)[-1].lstrip("(")
            if ch == "." and word in _ABBREVIATIONS:
                continue
            return i
        elif ch == "\n" and i + 1 < len(text) and text[i + 1] == "\n":
            return i
    return limit


def _split(text: str) -> list[tuple[str, int]]:
    """The list's things with their offsets: split at commas, semicolons, "and", "plus", "+", "&" outside brackets."""
    out: list[tuple[str, int]] = []
    depth, start, i = 0, 0, 0
    lower = text.lower()
    while i < len(text):
        ch = text[i]
        cut = 0
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif depth == 0 and ch in ",;&+":
            cut = 1
        elif depth == 0 and ch.isspace():
            for word in ("and ", "plus ", "as well as "):
                if lower.startswith(word, i + 1) and (i + 1 + len(word) <= len(text)):
                    cut = 1 + len(word)
                    break
        if cut:
            out.append((text[start:i], start))
            start = i + cut
            i += cut
            continue
        i += 1
    out.append((text[start:], start))
    return [(p, at) for p, at in out if p.strip(" \t\n,;.:")]


def _brackets(part: str) -> tuple[str, str, str] | None:
    """(words before, inside, after) of the part's first bracket group outside others; None when it has none."""
    open_at = part.find("(")
    if open_at < 0:
        return None
    depth = 0
    for i in range(open_at, len(part)):
        if part[i] == "(":
            depth += 1
        elif part[i] == ")":
            depth -= 1
            if depth == 0:
                return part[:open_at], part[open_at + 1:i], part[i + 1:]
    return part[:open_at], part[open_at + 1:], ""


def _stem(word: str) -> str:
    return word.lower()[:4]


def _echoes(name: str, words: str) -> bool:
    """The name is (the start of) a word of the thing's own words: "the latest METAR line (metar)"."""
    stems = {_stem(w) for w in _WORD.findall(words) if len(w) >= 4}
    return len(name) >= 4 and _stem(name) in stems


def _clean(words: str) -> str:
    return " ".join(words.replace("**", "").replace("__", "").replace("`", "").split()).strip(" -—–:,;.")


def _named(part: str) -> tuple[str, str, bool] | None:
    """(name, what it is, a guess) for a thing followed by its name; None when it names none."""
    split = _brackets(part)
    if split is not None:
        before, inside, _ = split
        ticked = _TICKED_OPEN.match(inside)
        if ticked is not None:
            return ticked.group(1), _clean(before), False
        bare = _BARE_OPEN.match(inside)
        if bare is not None and bare.group(1) not in _NOT_NAMES and _clean(before):
            name = bare.group(1)
            if bare.group("more") or "_" in name or any(c.isdigit() for c in name) or _echoes(name, before):
                return name, _clean(before), True
        outside = before
    else:
        outside = part
    ticked_words = [m for m in _TICKED.finditer(outside) if _SKILL_WORD.fullmatch(m.group(0)) is None]
    if len(ticked_words) == 1 and _clean(outside[:ticked_words[0].start()]):  # "the bag list `finds`"
        words = _CALLED.sub("", _clean(outside[:ticked_words[0].start()]))  # "the tide table as `tides`"
        return ticked_words[0].group(1), words, False
    return None


def _lead(sentence: str) -> tuple[int, int] | None:
    """(where the words that say the run is given things begin, where their list begins); None when the
    sentence says no such thing."""
    found = [m for m in (rx.search(sentence) for rx in _LEADS) if m is not None]
    if not found:
        return None
    m = min(found, key=lambda x: x.start())
    clause = max(sentence.rfind(c, 0, m.start()) for c in ":;,(")  # the words of its own clause before it
    if _SKILL_WORD.search(sentence, clause + 1, m.start()) or _BACK.match(sentence, m.end()):
        return None  # "`allocate-pantry` takes each pantry": a step's sentence; "gives you back": its output
    colon = sentence.find(":", m.end(), m.end() + 90)
    bracket = sentence.find("(", m.end())
    if colon >= 0 and (bracket < 0 or colon < bracket) and "." not in sentence[m.end():colon]:
        return m.start(), colon + 1
    return m.start(), m.end()


def _paragraphs(lines: Sequence[str], before: int) -> list[tuple[int, str]]:
    """(first line, text) of each run of lines between blank lines, up to line `before`; fences left out."""
    out: list[tuple[int, str]] = []
    held: list[str] = []
    start, fenced = 1, False
    for number, line in enumerate(lines[:max(0, before - 1)], 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or not line.strip():
            if held:
                out.append((start, "\n".join(held)))
            held = []
            continue
        if not held:
            start = number
        held.append(line)
    if held:
        out.append((start, "\n".join(held)))
    return out


def _paired(part: str, held: list[str]) -> list[tuple[str, str, bool]] | None:
    """"width in cm (len_cm, wid_cm)" after "wound length": the bracket's k names, each written as a name, for
    the part's words and the k-1 things said just before it, in order; None when it is no such bracket."""
    split = _brackets(part)
    if split is None or not _clean(split[0]):
        return None
    names = [n.strip() for n in _NAMES_SPLIT.split(split[1].strip())]
    if len(names) < 2 or len(names) - 1 > len(held) or not all(
            _NAME.fullmatch(n) and ("_" in n or any(c.isdigit() for c in n)) for n in names):
        return None
    things = [*held[len(held) - len(names) + 1:], _clean(split[0])]
    return [(n, w, True) for n, w in zip(names, things, strict=True)]


def _chosen(part: str) -> tuple[str, str, bool] | None:
    """"exudate (none/low/moderate/high)": one word written as a name, its values in brackets after it, is
    that input (a guess); None otherwise."""
    split = _brackets(part)
    if split is None or split[2].strip(" \t.,;") or not _NAME.fullmatch(words := _clean(split[0])) \
            or words in _NOT_NAMES or len(words) < 3:
        return None
    choices = [c.strip() for c in split[1].split("/")]
    return (words, words, True) if len(choices) >= 2 and all(_WORD.fullmatch(c) for c in choices) else None


def _read_sentence(listed: str, line: int, src: Source, whole: bool = False) -> tuple[list[InputSpec], list[tuple[str, str]]]:
    """The inputs the list after a sentence's lead names (warned at `line`), and its things said only in words;
    `whole`: a list under a need heading, whose pieces with no bracket belong to the next (`spec.need_list44`)."""
    named: list[tuple[str, str, bool]] = []
    words: list[str] = []
    unread: list[str] = []
    held: list[str] = []  # the things said just before, with no name and no bracket of their own
    lists: dict[str, list[str]] = {}
    for part, _ in whole_things(_split(listed)) if whole else _split(listed):
        pair = _paired(part, held)
        if pair is not None:
            for thing in held[len(held) - len(pair) + 1:]:
                (words if thing in words else unread).remove(thing)
            named += pair
            held = []
            continue
        got = _named(part) or _chosen(part)
        if got is not None and (split := _brackets(part)) is not None and (values := gloss_values(split[1])):
            lists[got[0]] = values  # "(species - "cat" or "dog")": the values it lists (`spec.choice_labels45`)
        held = [*held, _clean(part)] if got is None and _brackets(part) is None and _clean(part) else []
        if got is not None:
            named.append(got)
        elif _NOUN.match(part.strip()) and len(_clean(part)) <= 80:
            words.append(_clean(part))
        elif _clean(part):
            unread.append(_clean(part))
    if not named:
        return [], []
    where = src.where(line)
    inputs = [InputSpec(name=n, description=f"said in the text as '{w}'" + (
        f"; one of ({' / '.join(lists[n])})" if n in lists else ""), where=where) for n, w, _ in named]
    said = ", ".join(f"'{w}' as `{n}`" + (" (its name in brackets without backticks: a guess)" if g else "")
                     for n, w, g in named)
    message = f"the text names what the run is given: read as the workflow inputs {said}"
    if words:  # matched to what the skills read by the planner, which says how at this line
        message += f"; {len(words)} more said only in words"
    if unread:
        message += "; not read: " + ", ".join(f"'{w}'" for w in unread)
    message += (f". To say so plainly write an Inputs section: `## Inputs` then one `- {named[0][0]}: what it is` "
                "line per input")
    src.warn(line, message, "spec.inputs-in-intro")
    return inputs, [(w, where) for w in words]


def read_intro_inputs(src: Source, steps: Sequence[str]) -> IntroInputs | None:
    """The inputs the sentences before the first of the `steps` (their file:line) name (module docstring); None
    when none."""
    lines = [int(tail) for w in steps if (tail := w.rsplit(":", 1)[-1]).isdigit()]
    before = min(lines, default=len(src.lines) + 1)
    named: dict[str, InputSpec] = {}
    parts: list[tuple[str, str]] = []
    for first, text in _paragraphs(src.lines, before):
        head, _, rest = text.partition("\n")
        if rest.strip() and need_list_head(head):  # "2. WHAT YOU NEED (...)" over "patient name (patient), ..."
            inputs, words = _read_sentence(" ".join(rest.split()), first, src, whole=True)
            for i in inputs:
                named.setdefault(i.name, i)
            parts += words
            if inputs:
                continue
        start = 0
        while start < len(text):
            end = _sentence_end(text, start)
            sentence = text[start:end]
            lead = _lead(sentence)
            line = first + text.count("\n", 0, start + lead[0]) if lead is not None else before
            if lead is not None and line < before:
                inputs, words = _read_sentence(" ".join(sentence[lead[1]:].split()), line, src)
                for i in inputs:
                    named.setdefault(i.name, i)
                parts += words
            start = end + 1
    if not named:
        return None
    return IntroInputs(named=tuple(named.values()), parts=tuple(parts))


_rx.save()
