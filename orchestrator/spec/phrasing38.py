"""Recovery phrasings a twenty-seventh blind set misread or dropped (thirty-eighth round), in words that are not its own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- a quarter of a unit joined by a hyphen: "a quarter-minute apart" is "15 s apart", "a quarter-hour" "15 min".

Rows of the policy grammar (`EARLY`, `IGNORE`, joined through `spec.grammar_families8`):

- a fallback skill said as where the work goes: "swap to `x`", "switch over to `x`", "route the job through `x`
  (and move on)", "`x` does the job instead", "`x` takes over";
- an attempt's time said as a deadline: "if the scan hasn't finished inside 45 s, write it off", "cut the sync
  loose at the two-hour mark", "hold the scan at 3 min and, if it runs over, ...";
- a whole run's time: "the entire close has a ceiling of 50 minutes, start to finish", "from kick-off to last step
  this must all be over within 36 hours", "everything in the run stops dead at 25 min, whatever step it's on";
- counts said with a noun of doing again: "seven re-dials max", "two re-sends of the email", "have two more stabs
  at it"; waits said as "1 min and 4 min later"; "3 s, then twice as long each go" (a doubling from 3 s);
  "retry 2 / backoff 10s fixed" (a settings line: 2 retries, 10 s between);
- what follows the tries: "and then down tools", "after that abandon the whole run" (the failure);
- values to go on with after "don't halt; take moisture_pct as 50 and note "probe down"";
- no retry: "one shot at the release", "the bell rings once.", "do not let anything ring it again";
- going on: "if the sync fails, we can live without it".

`failure_question` says whether a step's text opening with a short question names a failure ("Broken postcode lookup?")
and goes on with its recovery: the question is then the failure answered, never the step's condition.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.phrasing35 import word_pairs
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_QUARTER = _rx(r"(?i)(?<![\w-])(?:an?\s++|one\s++)?quarter-(minute|hour)s?+\b")


def plain(text: str) -> str:
    """`text` with a hyphen-joined quarter of a unit written as its time (module docstring)."""
    if "quarter-" not in text.lower():
        return text
    return _QUARTER.sub(lambda m: "15 s" if m.group(1).lower() == "minute" else "15 min", text)


_THE = r"(?:it|this|that|them|the\s+[\w-]+(?:\s+[\w-]+){0,2}?)"
_KILL = (r"(?:write\s+(?:it|this|that|them)\s+off|pull\s+the\s+plug|kill\s+it|abort|"
         r"cut\s+it\s+(?:loose|off)|bin\s+it|scrap\s+it|ditch\s+it|call\s+it\s+(?:dead|a\s+day))")
_COUNT = r"(?P<n1>\d{1,3}+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
_REDO = (r"(?:re-[a-z]{2,20}s|resends|resubmits|redials|reruns|reloads|rechecks|repolls|reissues|reuploads|reprints|"
         r"reposts|refetches|retries)")
_FIELD = (r"(?!(?:the|a|an|it|its|if|as|and|or|then|is|be|to|of|in|on|at|we|you|they|i)\b)[a-z][a-z0-9_]{0,40}+")
_VALUE = (r"(?:\"[^\"]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d)|\[\s*+\]|\{\s*+\}|"
          r"(?:true|false|null|yes|no|empty|none)\b)")
_LINK = r"(?:\s*+,\s*+(?:and\s+)?|\s*+;\s*+|\s++and\s+)"
_AS_PAIR = _FIELD + r"\s++(?:as\s++)?" + _VALUE
_GOES_ON = r"(?:if|when|whenever|should|in\s+case|otherwise|fails?|failing|breaks?|errors?|dies|crash\w*|down|broken)\b|\?"

EARLY: tuple[Row, ...] = (
    # "swap to `x`", "switch over to `x`": the fallback skill (after an if-clause, a question or a failure word)
    Row("use_skill", r"(?<![\w-])(?:swap|switch|change|flip|fail)\s+(?:it\s+)?(?:over\s+)?(?:to|across\s+to)\s+{NAME}(?!\s*+\()",
        needs=_GOES_ON),
    # "route the job through `x` and move on": the fallback skill (going on is what the fallback is)
    Row("use_skill", r"(?<![\w-])(?:route|send|push|pass|redirect|divert)\s+(?:it|this|that|them|the\s+(?:job|work|request|"
        r"call|text|batch|lookup|query))\s+(?:through|via|to|over\s+to)\s+{NAME}(?:\s*+,?\s*+and\s+(?:move|carry|press|"
        r"keep)\s+on)?", needs=_GOES_ON),
    # "route the work through `x` and carry on" (a question before it named the failure: `failure_question`)
    Row("use_skill", r"(?<![\w-])(?:route|redirect|divert)\s+(?:it|this|that|them|the\s+(?:job|work|request|call|text|batch|"
        r"lookup|query))\s+(?:through|via)\s+{NAME}\s*+,?\s*+and\s+(?:move|carry|press|keep)\s+on\b"),
    # "`x` does the job instead", "`x` takes over": the fallback skill
    Row("use_skill", r"{NAME}\s+(?:(?:does|will\s+do|can\s+do|handles|covers|runs)\s+(?:the\s+job|the\s+work|it|this|that)\s+"
        r"(?:instead|in\s+its\s+(?:place|stead))|(?:takes|will\s+take|can\s+take)\s+over|steps\s+in(?:\s+instead)?)\b",
        needs=_GOES_ON),
    # "if the OCR hasn't finished the page inside 45 s, write it off": the attempt's time
    Row("timeout", r"(?<![\w-])(?:if|when|once)\s+" + _THE + r"\s+(?:hasn'?t|has\s+not|haven'?t|have\s+not|isn'?t|is\s+not|"
        r"didn'?t|did\s+not|doesn'?t|does\s+not)\s+(?:finished|finish|done|completed?|answered|answer|replied|reply|returned|"
        r"return|responded|respond|come\s+back)(?:\s+(?:the|its|their|a|an)\s+[\w-]+)?\s+(?:inside|within|in|after|by)\s+"
        r"(?:the\s+)?{D}\s*+,?\s*+(?:then\s+)?" + _KILL),
    # "cut the vet-records sync loose at the two-hour mark": the attempt's time
    Row("timeout", r"(?<![\w-])(?:cut|kill|stop|drop|abort|cancel|end|halt|terminate|pull)\s+" + _THE + r"(?:\s+(?:loose|off|"
        r"short|dead))?\s+(?:at|after|past|by)\s+the\s+{D}\s+mark\b"),
    # "hold the scan at 3 min and, if it runs over, ...": the attempt's time
    Row("timeout", r"(?<![\w-])(?:hold|cap|limit|keep|box)\s+" + _THE + r"\s+(?:at|to)\s+{D}(?=\s*+,?\s*+(?:and\s*+,?\s*+)?"
        r"(?:if|when|should|once)\s+(?:it|this|that|they)\s+(?:runs?|goes|went|ran|takes?)\s+(?:over|past|beyond|longer))"),
    # "the entire payroll close has a ceiling of 50 minutes, start to finish": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|complete)\s+(?!(?:step|stage|attempt|call|try)\b)(?:[\w-]+\s+){0,3}?"
        r"[\w-]+\s+(?:has|gets?|is\s+given)\s+(?:a|an)\s+(?:hard\s+)?(?:ceiling|cap|limit|budget|maximum|max)\s+of\s+{D}"
        r"(?:\s*+,?\s*+(?:from\s+)?(?:start\s+to\s+finish|end\s+to\s+end|beginning\s+to\s+end|all\s+in|in\s+total))?"),
    # "from kick-off to last step this must all be over within a day and a half - 36 hours": the whole run's time
    Row("run_timeout", r"(?<![\w-])from\s+(?:the\s+)?(?:kick-?off|start|beginning|first\s+step|go)\s+to\s+(?:the\s+)?(?:last\s+"
        r"step|finish|end|done|last)(?:\s*+,\s*+|\s++)(?:this|it|everything|the\s+(?:run|lot|job|workflow|whole\s+thing))\s+(?:must|"
        r"should|has\s+to|needs\s+to|is\s+to)\s+(?:all\s+)?be\s+(?:over|done|finished|complete|wrapped\s+up)\s+(?:within|"
        r"inside|in|under|by)\s+{D}(?:\s*+(?:-|--|–|—|\(|,)\s*+{D}\)?)?"),
    # "everything in tonight's run stops dead at 25 min, whatever step it's on": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:everything|the\s+whole\s+(?:run|thing|lot|job))(?:\s+in\s+(?:[\w'-]+\s+){0,3}?"
        r"(?:run|job|batch))?\s+(?:stops|halts|ends|dies|is\s+killed|gets\s+killed|is\s+cut\s+off)(?:\s+dead)?\s+(?:at|after)"
        r"\s+{D}(?:\s*+,?\s*+(?:whatever|wherever|no\s+matter\s+(?:what|which))\s+step\s+(?:it'?s|it\s+is|we'?re|we\s+are)"
        r"\s+(?:on|at|in))?"),
    # "seven re-dials max", "two re-sends of the rota email": that many retries
    Row("retries", r"(?<![\w-])(?:up\s+to\s+)?" + _COUNT + r"\s+(?:more\s+)?" + _REDO + r"(?=\s+(?:of|max(?:imum)?|at\s+most|"
        r"tops|in\s+all|total|allowed|only)\b)"),
    # "have two more stabs at it": that many retries
    Row("retries", r"(?<![\w-])(?:have|take|give\s+it|make)\s+" + _COUNT + r"\s+(?:more|further|extra)\s+(?:stabs|cracks|"
        r"swings|bites|whacks|pops|punts|shots|goes|tries)\s+(?:at|on)\b"),
    # "1 min and 4 min later": a retry each, with its wait
    Row("wait_seq", r"(?<=[\s,;:(])(?=\d)(?P<seq>{SERIES})\s+later\b", needs=_REDO + r"|\bretr|\bagain\b|\bmore\b"),
    # "3 s, then twice as long each go": a doubling from 3 s
    Row("exp_start", r"(?<![\w.-]){D}(?=\s*+,?\s*+(?:and\s+)?then\s+twice\s+as\s+long\b)"),
    Row("exp_factor", r"(?<![\w-])then\s+twice\s+as\s+long\s+(?:each|every|per|for\s+each|with\s+each|on\s+each)\s+"
        r"(?:go|time|try|round|attempt|retry|one|re-?[a-z]{2,20})\b"),
    # "Timeout 90s / retry 2 / backoff 10s fixed": the count and the wait of a settings line
    Row("retries", r"(?<![\w-])retr(?:y|ies)\s*+[:=]?\s*+(?P<n1>\d{1,3}+)(?=\s*+(?:/|\||;|,|$))"),
    Row("wait_fixed", r"(?<![\w-])back-?off\s*+[:=]?\s*+{D}\s+(?:fixed|flat|constant|linear)\b"),
    # "... and then down tools", "after that abandon the whole run": the failure after the tries
    Row("fail", r"(?<![\w-])(?:and\s+)?then\s+(?:down\s+tools|pack\s+it\s+in|throw\s+in\s+the\s+towel|walk\s+away|call\s+it\s+a\s+day)\b",
        needs=r"\b(?:more|again|retr\w*|tries|goes|stabs|shots|attempts)\b"),
    Row("fail", r"(?<![\w-])after\s+(?:that|this|those|them)(?:\s*+,\s*+|\s++)(?:abandon|abort|kill|scrap|fail|stop|end)\s+(?:the\s+)?"
        r"(?:whole\s+|entire\s+)?(?:run|thing|job|lot|workflow|pipeline)\b"),
    # "don't halt; take moisture_pct as 50 and note "probe down"": each field and its value
    Row("value_pairs", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+(?:halt|stop|fail|abort|bail|give\s+up|panic)\s*+[;,:.-]?\s*+"
        r"(?:just\s+|instead\s+|and\s+|but\s+)?(?:take|treat|set|count|record|use|put\s+down)\s+(?P<apairs>" + _AS_PAIR
        + r"(?:" + _LINK + r"(?:note|flag|mark|add|set|put)?\s*+" + _AS_PAIR + r"){0,8}+)"),
    # "one shot at the gate release": no retry
    Row("no_retry", r"(?<![\w-])(?<!more\s)(?<!another\s)(?:only\s+)?(?:1|one|a\s+single)\s+shot\s+(?:only\s+)?(?:at|on|for)\s+"
        + _THE + r"(?=\s*+[;,.:!-]|\s*+$)"),
    # "the bell rings once.": no retry (the sentence ends there: "it runs once a day" is a schedule)
    Row("no_retry", r"(?<![\w-])(?:it|this|that|the\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:rings|fires|runs|goes\s+out|is\s+sent|sends|prints|"
        r"posts|charges|happens|sounds|gets\s+sent)\s+once(?:\s+only)?(?=\s*+[.;!]|\s*+$)"),
    # "do not let anything ring it again": no retry
    Row("no_retry", r"(?<![\w-])(?:do\s+not|don'?t|never)\s+let\s+(?:anything|anyone|anybody|it|them|the\s+[\w-]+)\s+"
        r"(?!(?:go|be|come)\b)[a-z]{3,20}\s+(?:it|this|that|them)\s+again\b"),
    # "if the sensor sync fails, we can live without it": going on
    Row("continue", r"(?<![\w-])(?:we|i|you|they)\s+(?:can|could|will|'ll)\s+(?:live|cope|manage|survive|do)\s+without\s+"
        r"(?:it|that|this|them)\b", needs=r"\b(?:if|when|whenever|should|in\s+case)\b"),
)

GATES = {
    "EARLY": (r"|swap|switch|change|flip|route|send|push|pass|redirect|divert|instead|take|step|hasn|has\s+not|isn|didn|"
              r"doesn|mark|hold|cap|limit|keep|box|ceiling|budget|kick|start|begin|everything|dead|re-|resend|resub|"
              r"redial|rerun|reload|recheck|repoll|reissue|reupload|reprint|repost|refetch|retr|stab|crack|swing|bite|"
              r"whack|punt|later|twice\s+as|back|down\s+tools|pack|towel|walk|abandon|halt|shot|once|again|live|cope|"
              r"manage|survive|without"),
}


def as_pairs(text: str, literal: Any) -> dict[str, Any]:
    """Each `name as value` (or `name value`) pair of `text` ("moisture_pct as 50 and note "probe down"")."""
    return word_pairs(re.sub(r"(?i)(?<=\w)\s+as\s+(?=\S)", " ", text[:2000]), literal)


_FAILED = _rx(r"(?i)\b(?:broken|down|dead|failed|failing|fails|erroring|errors?|offline|crashed|crashing|stuck|timed\s++out|"
              r"playing\s++up|packed\s++in|fell\s++over|not\s++(?:working|answering|responding))\b")
_QUESTION_END = _rx(r"\?(?=\s)")
_SENTENCE_END = _rx(r"(?<=[.!?])\s|\n[^\S\n]*+\n")  # a stop, or a blank line (spaces alone between)


def failure_question(words: str) -> bool:
    """Whether a text opening with a short question names a failure and goes on with what to do about it, read whole
    as recovery ("Broken postcode lookup? Route the job through `postcode-offline`."): the question is then the
    failure the policy answers, never the step's condition (`spec.condition_opening`)."""
    from orchestrator.spec.phrase import read_phrase  # the policy grammar joins this module's rows

    asked = _QUESTION_END.search(words[:120])
    if asked is None or _FAILED.search(words[:asked.start()]) is None:
        return False
    phrase = read_phrase("If it fails, " + _SENTENCE_END.split(words[asked.end():asked.end() + 400].strip(), maxsplit=1)[0])
    s = phrase.statement
    return phrase.read and not phrase.problems and any(
        v not in (None, False) for v in (s.on_failure, s.retries, s.max_attempts, s.wait, s.timeout_s, s.no_retry))


_rx.save()
