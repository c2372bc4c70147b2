"""Labels in capitals and words in brackets that carry a branch, a start or a rule of a note or checklist.

    >> MATTED?  -> `shave-down-quote` ...         (read elsewhere: the question is its condition)
    >> NOT MATTED -> `standard-groom-quote` ...   the other branch of the step before that asked "MATTED?"
    - Frozen? `thaw-it` / - Not frozen: `chill-it`  the same in a recipe
    (1 and 2 together, and 3 as well - nobody waits on anybody)
                                                  steps 1, 2 and 3 all start at once (none waits for another)

A note pinned by a till, a kitchen card or a challenge/response checklist labels a branch with the yes/no
question it asks ("MATTED?") and the other branch with the same words in the negative, with no question
mark ("NOT MATTED ->", "No allergies:"). `negated_label` reads that negative label, but only when the step
before asked exactly those words (`spec.condition_question` read it as `NAME is true`): "NOT MATTED" with
no such question before is no branch, and "Not more, the owner is stood there" opens no label (an arrow,
colon or dash must end the words).

`together_all` reads an aside that names several steps by number as starting together with no one
waiting ("1 and 2 together, and 3 as well", "1, 2 and 3 at the same time", "nobody waits on anybody"):
every step named is a root of the order (it still waits for the steps whose outputs it reads).

`leader_row` reads a row "LABEL ........ VALUE" (a fill-in block, a LIMITS block) as one sentence
"LABEL: VALUE" for the readers of the whole run (`spec.whole_doc`): the dots of a leader are no full
stops, so "WHOLE CHECKLIST .... COMPLETE WITHIN 15 MIN, ELSE ABANDON" is a whole-run limit and
"CHECKLIST COMPLETE .... WHEN DUTY BOARD POST REPORTS posted TRUE" a success check
("CHECKLIST COMPLETE WHEN: ...", `spec.success_checks23`), whose "REPORTS posted TRUE" (a verb of
answering, an output's name in lower case, a yes/no word) is `posted == true` (`reported_truth`).

`closed_cue` reads "We consider the night closed when the summary is posted, i.e. post-summary says
posted = true" (an ADR's Consequences, a runbook's close-out) as the run's success check: a period, a day
or a batch that its people consider closed, signed off or wrapped up when the check holds.

The policy grammar's row `EARLY` reads an attempt's time said as what it has not done by then, then
given up: "If it hasn't found anything in 30 seconds forget it and carry on with slot ..." is a 30 s
timeout (the going on with a value is read by its own row).

`shortened_field` reads a handoff said by the last word of an output's name: a skill reads `total`, which
nothing gives, and the step's text says "the total" and the field's other words ("with the unmatched
list and the total", after "the unmatched total is more than 500"): the one output of the steps it runs
after named `unmatched_total` (`plan.given_words`, warned at the step; several, none: unbound as before).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

if TYPE_CHECKING:  # the policy grammar imports this module's rows: the models are imported where used
    from orchestrator.spec.model import StepSpec
    from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "NOT MATTED ->", "No allergies:", "never frozen -": at most four words, then an arrow, colon or dash
_NEGATED = _rx(r"(?i)^(?:not|no|never)[ \t]++(?P<words>[a-z][a-z'’-]*+(?:[ \t]++[a-z][a-z'’-]*+){0,3}+)"
               r"[ \t]*+(?:->|=>|→|:|[—–]|-(?=[ \t]))")
_FILLER = frozenset({"a", "an", "the", "any"})


def negated_label(words: str, latest_when: str | None) -> tuple[str, str] | None:
    """(the value's name, the label as said) when `words` opens with the negative of the yes/no question
    whose condition the step before has (`latest_when` is `NAME is true`); None otherwise (module docstring)."""
    if not latest_when or not latest_when.endswith(" is true"):
        return None
    m = _NEGATED.match(words)
    if m is None:
        return None
    said = [w.strip("'’-").lower() for w in m.group("words").split()]
    name = "_".join(w for w in said if w not in _FILLER)
    if not name or f"{name} is true" != latest_when:
        return None
    return name, words[:m.end()].rstrip(" \t-–—:>→=").strip()


# an aside of step numbers said to start together: its words are only numbers, joiners and the cue
_ASIDE = _rx(r"[^.;!?()\n]++")
_TOKEN = _rx(r"\d{1,2}+(?![\w.,:/]\d)|[A-Za-z'’]++|[^\sA-Za-z\d]")
_CUE_ALL = _rx(r"(?i)(?<![\w-])(?:together|at[ \t]++once|(?:at[ \t]++)?the[ \t]++same[ \t]++time|in[ \t]++parallel|"
               r"side[ \t]++by[ \t]++side|(?:nobody|no[ \t]++one|none)[ \t]++waits?[ \t]++(?:on|for)[ \t]++"
               r"(?:anybody|anyone|any[ \t]++other|another|the[ \t]++others?))(?![\w-])")
_JOINERS = frozenset({"and", "as", "well", "too", "also", "plus", "steps", "step", "all", "three", "four", "go",
                      "start", "run", "can", "together", "at", "once", "the", "same", "time", "in", "parallel", "side",
                      "by", "nobody", "no", "one", "none", "waits", "wait", "on", "for", "anybody", "anyone", "any",
                      "other", "another", "others", "of", "them", "they", "both"})
_MARKS = frozenset(",-–—&+/:")


def _together_numbers(aside: str, count: int) -> list[int] | None:
    """The step numbers an aside made only of numbers, joiners and a cue of starting together names (three
    or more, or two with "nobody waits"), or None."""
    if len(aside) > 160 or _CUE_ALL.search(aside) is None:
        return None
    numbers: list[int] = []
    for tok in _TOKEN.findall(aside):
        if tok[0].isdigit():
            numbers.append(int(tok))
        elif tok.lower() not in _JOINERS and tok not in _MARKS:
            return None
    said = list(dict.fromkeys(numbers))
    if len(said) < 2 or len(said) != len(numbers) or not all(1 <= n <= count for n in said):
        return None
    return sorted(said)


def read_all_together(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps named in an aside of numbers said to start together (module docstring) made to start with
    the first named: each waits for what it waits for and for the steps whose outputs it reads, no more."""
    if len(steps) < 3 or len({s.id for s in steps}) != len(steps) or _CUE_ALL.search(src.text) is None:
        return steps
    from orchestrator.spec.model import Reading
    out = list(steps)
    for number, raw in enumerate(src.lines, start=1):
        if len(raw) > 400 or _CUE_ALL.search(raw) is None:
            continue
        for m in _ASIDE.finditer(raw):
            named = _together_numbers(m.group(0).strip(), len(out))
            if named is None:
                continue
            first = out[named[0] - 1]
            said = " ".join(m.group(0).split())
            for n in named[1:]:
                later = out[n - 1]
                if later.depends_on or later.depends_where is not None or later.starts_with is not None or (
                        later.when or later.otherwise_where is not None):
                    continue
                where = src.where(number)
                note = (f"starts together with {first.id}: waits for what {first.id} waits for (and the steps whose "
                        "outputs it reads), not for the step before it")
                src.warn(number, f"{later.id} ({later.name[:50]}): '{said[:80]}' names steps "
                                 f"{', '.join(map(str, named))} as starting together: read as: {note}; to say so "
                                 f"plainly write `Depends on:` what {first.id} waits for", "spec.parallel")
                out[n - 1] = later.model_copy(update={"unordered_where": where, "starts_with": first.id, "readings": (
                    *later.readings, Reading(what="depends_on", where=where, text=said[:160], note=note))})
    return out


# a row of a checklist or a form: a label, a dotted leader, what it says ("WHOLE CHECKLIST ...... COMPLETE WITHIN 15 MIN")
_LEADER_ROW = _rx(r"^(?P<label>[^\s.][^.\n]{0,60}?)[ \t]*+\.{4,}+[ \t]*+(?P<value>[^.\s][^\n]*+)$")


def leader_row(line: str) -> str | None:
    """`LABEL: VALUE` for a line that is a label, a dotted leader and a value (module docstring), else None:
    the leader's dots are no full stops, and the row is a sentence of its own."""
    if len(line) > 400 or "...." not in line:
        return None
    m = _LEADER_ROW.match(line.strip())
    if m is None:
        return None
    label, value = m.group("label").rstrip(" :"), m.group("value").strip()
    if (when := _WHEN.match(value)) is not None:  # "CHECKLIST COMPLETE .... WHEN ...": a label of being done
        return f"{label} {when.group(1)}: {value[when.end():]}"
    return f"{label}: {value}"


_WHEN = _rx(r"(?i)(when|once|if)(?:[ \t]*+:)?+[ \t]++(?=\S)")
# "REPORTS posted TRUE", "says done yes": a verb of answering, an output's name, a yes/no word
_REPORTED = _rx(r"(?i)(?<![\w-])(?:reports?|returns?|says|gives|shows|comes[ \t]++back(?:[ \t]++with)?)[ \t]++"
                r"(?-i:(?P<field>[a-z_][a-z0-9_]{1,40}+))[ \t]++(?P<value>true|false|yes|no)(?![\w-])")


def reported_truth(clause: str) -> str | None:
    """`FIELD == true|false` for a clause that says a step answers with an output's name and a yes/no word
    ("DUTY BOARD POST REPORTS posted TRUE"), the name in lower case; None otherwise."""
    found = list(_REPORTED.finditer(clause))
    if len(found) != 1:
        return None
    value = found[0].group("value").lower()
    return f"{found[0].group('field')} == {'true' if value in ('true', 'yes') else 'false'}"


# "We consider the night closed when ...", "we call the day wrapped up once ...": a period or batch said closed
_CLOSED = _rx(r"(?i)^(?:so[ \t,]++)?(?:we|i|you|they|finance|ops)[ \t]++(?:consider|call|count|deem|treat|regard)[ \t]++"
              r"(?:the|this|that|it|our|a)(?:[ \t]++[a-z][\w-]{0,30}+){0,2}?[ \t]++(?:as[ \t]++)?"
              r"(?:closed(?:[ \t]++out)?|wrapped(?:[ \t]++up)?|signed[ \t]++off|put[ \t]++to[ \t]++bed)[ \t]++"
              r"(?:only[ \t]++)?(?:when|once|if)[ \t]++(?P<clause>\S.*)$")


def closed_cue(sentence: str) -> str | None:
    """The check of "We consider the night closed when X" (a period, a batch or a day said closed by its
    people when X holds: the run's success), or None. "The valve is closed when ..." is no such sentence."""
    m = _CLOSED.match(sentence.strip())
    return m.group("clause").strip().rstrip(".").strip() or None if m else None


_WORD_RUN = _rx(r"[a-z0-9]++")


def shortened_field(name: str, text: str, fields: list[str]) -> str | None:
    """The one field of `fields` (the outputs of the steps a step runs after) that `name` is the last word of,
    when the step's `text` says "the NAME" and the field's other words too ("with the unmatched list and the
    total": `total` is `unmatched_total`); None when the name has several words, the text does not say it
    so, or no field or several fit."""
    if not name.isalpha() or len(name) < 3 or len(text) > 4000:
        return None
    low = text.lower()
    said = set(_WORD_RUN.findall(low))
    if f"the {name}" not in " ".join(low.split()) or name not in said:
        return None
    fit = sorted({f for f in fields if f.endswith(f"_{name}") and f != f"_{name}"
                  and all(w in said for w in f[: -len(name) - 1].split("_") if w)})
    return fit[0] if len(fit) == 1 else None


# a part that is only a value: "true", "no", "42", "\"PASS\""
_LONE_VALUE = _rx(r"(?i)^[`*_]*+(?:true|false|yes|no|-?\d{1,12}+(?:\.\d{1,9}+)?+|\"[^\"]{0,60}+\"|'[^']{0,60}+')[`*_.]*+$")


def lone_value(part: str) -> bool:
    """Whether a part of a success check is only a value ("true" of "comes back confirmed: true", cut at
    the field's own colon): the value of the comparison already read, no part of its own."""
    return _LONE_VALUE.match(part.strip()) is not None


# rows of the policy grammar (`spec.grammar_families8` joins them before every earlier round's)
EARLY: tuple[Row, ...] = (
    # "If it hasn't found anything in 30 seconds forget it and carry on ...": the attempt's time, then giving it up
    Row("timeout", r"\b(?:if|when|once)\s+(?:it|they|the\s+[\w-]+)\s+(?:hasn'?t|has\s+not|haven'?t|have\s+not|didn'?t|"
        r"did\s+not)\s+(?:found|find|got|get|given|give|produced|produce|brought\s+back|"
        r"bring\s+back|turned\s+up|turn\s+up|come\s+up\s+with|managed|manage)"
        r"(?:\s+(?:anything|a\s+thing|an?\s+[\w-]+))?\s+(?:in|within|after|by)\s+{D}"
        r"(?=\s*+,?\s*+(?:then\s+)?(?:forget|give\s+up|drop|skip|leave|abandon|move\s+on|carry\s+on|kill|stop|bin))"),
)
IGNORE: tuple[Row, ...] = (
    # "(1 and 2 together, and 3 as well - nobody waits on anybody)": the order of the steps (`read_all_together`)
    Row("ignore", r"\b(?:nobody|no\s+one|none)\s+waits?\s+(?:on|for)\s+(?:anybody|anyone|any\s+other|another|the\s+others?)\b"),
)
GATES = {"EARLY": r"|hasn|has\s+not|haven|have\s+not|didn|did\s+not"}


_rx.save()
