"""How long the whole run may take, said in any words the policy grammar has no row for.

"The entire sweep MUST NOT exceed 15 minutes", "SLA: PT4H", "hard stop after 2 hours",
"Global guard: an instance older than 1 h is force-moved to FAILED", "the lesson as a whole
is over in 45 minutes": the cue is a sentence about the whole of something (*whole*, *entire*,
*overall*, *total*, *end to end*, *global*, an *SLA*, a *hard stop*, a *time box*) that bounds
it by one duration (an ISO 8601 one too, `PT4H`). A sentence about each step, each call or a
wait between tries is no whole-run limit. `whole_limit` gives the seconds, or None;
`record_limit` puts it in the plan (the run's wall time, with its line) and says so at its line.
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.grammar import DURATION
from orchestrator.spec.model import SentenceReading
from orchestrator.spec.normalize import normalize
from orchestrator.spec.phrase_value import duration
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.run-limit"
_SUBJECT = _rx(r"(?i)(?<![\w-])(?:(?:whole|entire|overall)(?![\w-])|(?:as\s+a\s+whole|in\s+its\s+entirety|end[- ]to[- ]end|"
               r"total\s+(?:time|run\s*time|runtime|duration|wall|elapsed|budget)|"
               r"global\s+(?:guard|limit|timeout|deadline|cap|budget)|"
               # "max 1hr for the lot", "2 h across the whole lot": everything the list holds (round 46)
               r"(?:for|across)\s+the\s+(?:whole\s+)?lot)(?![\w-]))")
# said outside every step's text, these too are about the whole run ("SLA: PT4H", "Hard stop after 2 hours")
_WEAK = _rx(r"(?i)(?<![\w-])(?:hard\s+(?:stop|deadline)|time\s*-?box(?:ed)?|sla|start[\s-]to[\s-]finish|from\s+(?:the\s+)?start|"
            r"all\s+told|complete\s+(?:run|job|workflow|pipeline|lesson|session|shift|sweep)|"
            # "Planning run must finish inside 1 hr", "the job has to be over within 2 h": the run said done by a time
            r"(?:run|workflow|pipeline|procedure|job|lot|batch|sweep|session|lesson|shift)\s+(?:must|should|has\s+to|have\s+to|"
            r"needs?\s+to|is\s+to|shall)\s+(?:all\s+)?(?:be\s+)?(?:finish(?:ed)?|done|over|completed?|wrap(?:ped)?\s+up|end(?:ed)?)|"
            # "All of this has to be finished inside 45 minutes", "everything must be wrapped up within 2 h": the lot said done
            # "Everything below has to be wrapped up within 35 minutes": the lot that follows on the page
            r"(?:all\s+of\s+(?:this|it|that|the\s+above|the\s+below|what\s+follows)|everything(?:\s+(?:below|here|that\s+follows|"
            r"on\s+this\s+page))?|the\s+(?:whole\s+)?lot|all\s+(?:the\s+)?(?:steps|work|above|below))\s+"
            r"(?:must|should|has\s+to|have\s+to|needs?\s+to|is\s+to|shall|will\s+have\s+to)\s+(?:all\s+)?(?:be\s+)?(?:finish(?:ed)?|"
            r"done|over|completed?|wrap(?:ped)?\s+up|end(?:ed)?|through|back))"
            r"(?![\w-])")
_BOUND = _rx(r"(?i)(?<![\w-])(?:exceed(?:s|ed)?|under|within|inside|in|capped|caps?|at\s+most|no\s+(?:more|longer)\s+than|after|"
             r"older\s+than|past|beyond|max(?:imum)?|more\s+than|longer\s+than|over|of|by|sla|box(?:ed)?|stop)(?![\w-])|[:=≤<]")
# a sentence about each step, each call, or the waits of a retry: no whole-run limit
_PART = _rx(r"(?i)(?<![\w-])(?:each|every|per)\s+(?:step|stage|call|request|attempt|try|item|row|file|host|page)(?![\w-])|"
            r"(?<![\w-])(?:apart|between\s+(?:tries|attempts|retries)|back-?off|retr(?:y|ies)|polls?|every\s+\d|"
            r"approv(?:e|es|ed|al|er)|sign-?off|tries|attempts|pauses?|sleep(?:s|ing)?)(?![\w-])")
# how long it takes as a rule, not how long it may take: "normally takes under ten seconds"
_HABIT = _rx(r"(?i)(?<![\w-])(?:normally|usually|typically|generally|on\s+average|tends?\s+to|often|mostly|rarely)(?![\w-])")
# the bound said after the time: "must take 15 minutes at most", "20 min tops", "an hour, max"
_BOUND_AFTER = _rx(r"(?i)\s*+,?\s*+(?:at\s+(?:the\s+)?most|at\s+the\s+outside|max(?:imum)?|tops|or\s+(?:less|under|fewer)|"
                   # "Two hours is the most this whole sync may take": the bound said as what the time is
                   r"is\s+(?:the\s+)?(?:most|longest|max(?:imum)?|limit|cap|ceiling|upper\s+limit))(?![\w-])")
_DURATION = _rx(rf"(?i){DURATION}")
# a number said twice, in words and digits: "one (1) hour", "thirty (30) days"
_DOUBLED = _rx(r"(?<=[A-Za-z])[ \t]*+\(\d{1,6}+\)")
# a step's own field ("**Timeout:** 45s hard cap"): the step's
_STEP_FIELD = _rx(r"(?i)^\W*(?:time-?out|timeouts|retries|retry|attempts?|max(?:imum)?\s+time)\W*:")
_NEAR = 100  # characters between the whole of something and the time that bounds it, at most
_ISO = _rx(r"(?<![\w-])P(?:(?P<d>\d{1,3}+)D)?+T(?:(?P<h>\d{1,4}+)H)?+(?:(?P<m>\d{1,5}+)M)?+(?:(?P<s>\d{1,6}+)S)?+(?![\w-])")


def iso_duration(text: str) -> float | None:
    """Seconds of the first ISO 8601 duration in `text` (`PT4H`, `P1DT30M`), or None."""
    for m in _ISO.finditer(text):
        parts = [int(m.group(k) or 0) for k in ("d", "h", "m", "s")]
        total = parts[0] * 86400 + parts[1] * 3600 + parts[2] * 60 + parts[3]
        if total > 0:
            return float(total)
    return None


def duration_clause(text: str, start: int, end: int) -> str:
    """The clause of `text` holding the duration at `start`..`end`: up to a comma, semicolon, dash or stop."""
    left = max(text.rfind(c, 0, start) for c in ",;—.")
    rights = [i for i in (text.find(c, end) for c in ",;—") if i >= 0]
    return text[left + 1:min(rights, default=len(text))]


def whole_limit(sentence: str, *, outside: bool = False) -> float | None:
    """The seconds a sentence limits the whole run to (module docstring), or None; `outside`: the
    sentence is said outside every step's text, where a hard stop or an SLA is the run's."""
    subject = _SUBJECT.search(sentence) or (_WEAK.search(sentence) if outside else None)
    if subject is None or _PART.search(sentence) or _STEP_FIELD.match(sentence):
        return None
    from orchestrator.spec.k8s_manifest32 import key_units

    sentence = key_units(sentence)  # `activeDeadlineSeconds: 1800`: the unit the key names
    seconds = iso_duration(sentence) if _HABIT.search(sentence) is None else None
    if seconds is not None:
        return seconds
    text, _ = normalize(_DOUBLED.sub("", sentence))
    found = [m for m in _DURATION.finditer(text)]
    if len(found) != 1:
        return None  # no duration, or several: which one bounds the run is not clear
    if _HABIT.search(duration_clause(text, *found[0].span())):  # "usually takes 10 min"; not "..., I'm usually late"
        return None
    before = text[: found[0].start()]
    if _BOUND.search(before[-40:]) is None and _BOUND_AFTER.match(text, found[0].end()) is None:
        return None
    # the whole of something and the time said together: "one overall podium" 200 characters after a
    # step's `max_runtime: 90s` is no limit on the run (a limit inside one step or stage is that step's)
    subjects = [m.span() for m in _SUBJECT.finditer(text)]
    if outside:
        subjects += [m.span() for m in _WEAK.finditer(text)]
    start, end = found[0].span()
    if subjects and min(max(a - end, start - b, 0) for a, b in subjects) > _NEAR:
        return None
    return duration(found[0].group(0))


def _shown(seconds: float) -> str:
    if seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


def record_limit(sentence: str, line: int, src: Source, seconds: float) -> None:
    """The whole run's limit read from `sentence`: a reading (the plan's wall time) and a warning."""
    from orchestrator.spec.limit_line29 import limit_line

    said_at = limit_line(sentence, line, src)  # a sentence over several lines: the one that says the time
    if said_at != line:
        sentence, line = src.line_text(said_at), said_at
    statement = PolicyStatement(whole_run=True, timeout_s=seconds)
    where = src.where(line)  # the grammar's "not understood" at this line is answered now
    src.warnings = [d for d in src.warnings if not (d.line == line and d.code == "spec.policy-unread")]
    src.unread = [u for u in src.unread if getattr(u, "where", None) != where]
    src.readings.append(SentenceReading(text=" ".join(sentence.split()), where=src.where(line), section="workflow",
                                        statement=statement, specific=False,
                                        note="the whole run's limit, read by its meaning"))
    src.warn(line, f"whole run: '{sentence[:80]}' is read as the whole run's limit, {_shown(seconds)}: check the plan, "
                   f"or write it as 'Whole run: {_shown(seconds)} max.'", CODE)


def has_limit(src: Source) -> float | None:
    """The whole run's limit some reader already read, or None."""
    found = [r.statement.timeout_s for r in src.readings if r.statement.whole_run and r.statement.timeout_s]
    return found[0] if found else None


_rx.save()
