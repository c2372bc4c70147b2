"""A step's field lines that say what it waits for, or what it takes, in words rather than names.

    | Kicks off after | nothing — same time as A |    ->  a root: it waits for no step
    **Starts after:** none, first thing              ->  a root
    Runs after: A and B                              ->  after step 1 and step 2 (`spec.own_fields`)
    In: terrain list + ready lifts (#2)              ->  `ready_lifts` from step 2 (the skill's input)
    Takes: the day from step 3, crew list            ->  `day` from step 3

A label that says the step starts after something ("Kicks off after", "Starts after", "Runs after",
"Goes after", "Begins after") is a start field as "Kicks off:" is (`spec.own_fields`): its value names
the steps it waits for. A value that opens with "nothing" or "none" (alone, or before a comma, a dash or
a bracket: "nothing — same time as A", "none (first thing)") says it waits for no step; "nothing
special" does not.

In an Input line, a part of words with a step named beside it ("ready lifts (#2)", "hazard level (step
3)", "the day from step 3", "wind speed from #1") is that step's output under the name of its words
joined by `_` (`ready_lifts`), when some catalog skill reads an input of that name: the planner then
takes the step's output of that name, or the one output whose name is close (`ready`), warned. Parts
joined by " + " are read one by one ("terrain list + ready lifts (#2)"). A part whose words name no
skill's input ("the readings (#1)") is warned as it was; with no catalog known nothing is read here.
"""

from __future__ import annotations

from orchestrator.spec.model import FieldSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_AFTER_LABEL = _rx(r"(?i)^[\W_]*+(?:kicks?[ \t]++off|kick-?off|starts?|begins?|runs?|goes|fires?|launches)"
                   r"[ \t]++after[\W_]*+$")
_NO_WAIT = _rx(r"(?i)^[ \t*_`]*+(?:nothing|none|no[ \t]++(?:other[ \t]++)?steps?)(?=[ \t]*+(?:$|[,;:.(—–-]))")
_PLUS = _rx(r"(?<![ \t])[ \t]++\+[ \t]++")  # a run of blanks entered at its start only: linear
# "ready lifts (#2)", "hazard level (step 3)", "the day from step 3", "wind speed from #1"
_PHRASE = _rx(r"(?i)^[ \t]*+(?:the[ \t]++)?(?P<words>[a-z][a-z0-9]*+(?:[ \t]++(?!from\b)[a-z][a-z0-9]*+){0,3}+)[ \t]*+"
              r"(?:\([ \t]*+(?:from[ \t]++)?(?:step[ \t]*+)?#?[ \t]*+(?P<a>\d{1,3}+)[ \t]*+\)"
              r"|from[ \t]++(?:step[ \t]*+|#[ \t]*+)(?P<b>\d{1,3}+))[ \t]*+\.?$")

_READ_BY_ANY: dict[int, tuple[Vocabulary, frozenset[str]]] = {}


def start_after_label(label: str | None) -> bool:
    """Whether a field's label says the step starts after something ("Kicks off after")."""
    return bool(label) and _AFTER_LABEL.match(label or "") is not None


def waits_for_nothing(value: str) -> bool:
    """Whether a start field's value opens with "nothing" / "none": the step waits for no step."""
    return _NO_WAIT.match(value) is not None


def _inputs_read(vocabulary: Vocabulary) -> frozenset[str]:
    """Every input name a catalog skill reads: once per vocabulary, not per line."""
    kept = _READ_BY_ANY.get(id(vocabulary))
    if kept is not None and kept[0] is vocabulary:
        return kept[1]
    names: set[str] = set()
    for skill in sorted(vocabulary.skills):
        names |= vocabulary.inputs_of(skill) or frozenset()
    if len(_READ_BY_ANY) > 64:
        _READ_BY_ANY.clear()
    _READ_BY_ANY[id(vocabulary)] = (vocabulary, frozenset(names))
    return frozenset(names)


def phrase_fields(part: str, src: Source, line: int) -> tuple[FieldSpec, ...] | None:
    """The fields of an Input line's part written in words with a step beside them (module docstring);
    None when no piece of it is read so (the caller warns as before). Pieces joined by " + " that are
    not read are warned one by one."""
    if "(" not in part and "from" not in part.lower():
        return None
    pieces = [p for p in _PLUS.split(part) if p.strip()]
    read: list[FieldSpec] = []
    unread: list[str] = []
    known: frozenset[str] | None = None
    for piece in pieces:
        m = _PHRASE.match(piece)
        if m is None:
            unread.append(piece)
            continue
        if known is None:
            known = _inputs_read(src.vocabulary)
        name = "_".join(m.group("words").lower().split())
        if name not in known:
            unread.append(piece)
            continue
        number = m.group("a") or m.group("b")
        read.append(FieldSpec(name=name, source=f"steps.step-{int(number)}.output.{name}",
                              description=piece.strip(), where=src.where(line)))
    if not read:
        return None
    for piece in unread:
        src.warn(line, f"'{piece.strip()}' is not read as a field name; write `name (type)`", "spec.field")
    return tuple(read)


_rx.save()

# "Things the DSM types in at the start:", "What the desk enters first:", "Stuff the crew keys in up front:":
# what a person puts in when the run starts, a colon closing it (`spec.prose_inputs` reads the list after it)
_PUT_VERB = r"(?:types?|enters?|fills?|keys?|puts?|pastes?|plugs?|drops?)"
TYPED_IN_LEAD = (r"\b(?:things|what|stuff)\s++(?:(?!" + _PUT_VERB + r"\b)[a-z]++\s++){1,3}+" + _PUT_VERB +
                 r"(?:\s++in)?+(?:\s++(?:at\s++the\s++start|first|up\s++front|before\s++(?:starting|it\s++starts|the\s++run)))?+"
                 r"\s*+:")
