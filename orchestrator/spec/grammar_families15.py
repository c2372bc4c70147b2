"""Rows of the policy grammar (`spec.grammar`) for the fifteenth round's recovery families.

Joined to the grammar's tables through `spec.grammar_families8` (before the thirteenth round's
rows), so the grammar's own module does not grow. The families, in words that are not the blind sets':

- a list of waits, one per retry, said one after another: "10 s before the first retry, 40 s before
  the second", "re-run #1 after 5 min, re-run #2 after 20", "the first after 1 min, the next after 4",
  "try again after 30 s and once more after 2 min", "retry after 1 min, again after 3, a last time
  after 10", "stagger the retries: 1 min, then 5, then 15", "the retries make it 2, 5 and then 10
  min": the wait before each retry, in order (a plan's `sequence` wait). Before these rows such a sentence kept its first wait only;
- a fallback skill named after what is done with it: "file it through `paper-form` instead", "post
  them by hand instead with `manual-post`": the skill to run when the step fails;
- a value to go on with, written `field=value` after "assume", "mark it", "set", "record", "leave",
  or a `field value` pair after "go ahead using": that object is the step's output when it fails;
- limits: "never for longer than 4 h overall" beside a cadence is how long to keep trying (the
  retry budget); "anything past 100 s counts as failed", "gets 3 hours and not a minute more" are
  one attempt's time.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

# a retry's noun, as people write it ("redo", "re-run", "go", "one")
_ONE = r"(?:retry|re-?try|redo|re-?do|re-?run|rerun|try|attempt|go|one|run|call|shot|pass)"
# the waits after the first: "6 s before the second (redo)", "and 18 s before the last"
_BEFORE_NEXT = (r"\s*+,?\s*+(?:and\s+)?(?:then\s+)?{D}\s+before\s+(?:the\s+)?(?:second|2nd|third|3rd|fourth|4th|fifth|5th|"
                r"next|last|final|one\s+after\s+that)(?:\s+" + _ONE + r")?")
# the waits after the first, each said again with "after": "once more after 90 s", "again after 5", "a last time after 10"
_AGAIN = (r"(?:once\s+more|one\s+more\s+time|(?:and\s+)?again|then|(?:a|one|the)\s+(?:last|final|third|fourth)\s+"
          r"(?:time|" + _ONE + r")|(?:the\s+)?(?:last|final|third|fourth)\s+" + _ONE + r")")
# "and if needed again after 25": the condition of the next retry is the failure of the one before
_AGAIN_AFTER = (r"\s*+[,;]?\s*+(?:and\s*+,?\s*+)?(?:if\s+(?:needed|necessary|need\s+be|required|(?:it|that)\s+(?:still\s+)?fails"
                r"(?:\s+again|\s+too)?)\s*+,?\s*+)?" + _AGAIN + r"\s+(?:after|in)\s+(?:{D}|\d{1,6}+(?:\.\d{1,3}+)?+(?!\d|\.\d))")
# round 49: the next wait said before "after that" / "later": "and again a minute after that", "once more 5 min later"
_AGAIN_LATER = (r"\s*+[,;]?\s*+(?:and\s*+,?\s*+)?(?:again|once\s+more|one\s+more\s+time)\s+{D}(?=\s+"
                r"(?:after\s+that|later|on)\b)")  # the words after it left to IGNORE's row ("after that")
# a value written with `=` ("is_duplicate=false", "risk = "n/a"")
_EQ_VALUE = r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w.])|true\b|false\b|null\b|none\b|\[\s*+\]|\{\s*+\})"
_EQ_PAIR = r"[a-z][a-z0-9_]{0,40}+\s*+=\s*+" + _EQ_VALUE
_EQ_PAIRS = _EQ_PAIR + r"(?:\s*+(?:,\s*+(?:and\s+)?|and\s+|&\s*+|;\s*+)" + _EQ_PAIR + r"){0,8}"
# a `field value` pair: the field is a name (`rate`, `fx_rate`), the value a number, true, false, null or a quoted text
_USING_PAIR = (r"(?!(?:the|a|an|it|them|step|stage|attempt|try|retry|version|batch|v)\b)[a-z][a-z0-9_]{0,40}+\s++"
               r"(?:of\s+|as\s+|at\s+)?(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d|\s*+x\b)"
               r"|true\b|false\b|null\b)")

EARLY_ROWS: tuple[Row, ...] = (
    # "10 s before the first retry, 40 s before the second and 2 min before the last": a wait before each retry
    Row("wait_seq", r"(?<![\w.])(?:(?:waiting|wait|pausing|pause|sleeping|sleep|hold\s+off)\s+(?:for\s+)?)?(?P<lseq>{D}\s+before\s+(?:the\s+)?(?:first|1st)(?:\s+" + _ONE + r")?" + _BEFORE_NEXT
        + r"(?:" + _BEFORE_NEXT + r"){0,4})"),
    # "re-run #1 after 5 min, re-run #2 after 20 min": the retries numbered, each with its wait
    Row("wait_seq", r"(?<!\w)(?:" + _ONE + r"\s*+)?#\s*+1\s+(?:after|in)\s+(?P<lseq>{D}(?:\s*+[,;]?\s*+(?:and\s+)?(?:then\s+)?"
        r"(?:[\w-]{1,20}+\s*+)?#\s*+[2-6]\s+(?:after|in)\s+(?:{D}|\d{1,6}+(?:\.\d{1,3}+)?+(?!\d|\.\d))){1,5})"),
    # "the first after 1 min, the next after 4": "next", "last", "other" beside the first (`grammar_families11` has "second")
    Row("wait_seq", r"(?<!\w)the\s+first\s+(?:one\s+)?(?:after|in)\s+(?P<lseq>{D}\s*+[,;]?\s*+(?:and\s+)?(?:then\s+)?"
        r"(?:the\s+)?(?:next|last|final|other)(?:\s+one)?\s+(?:after|in)\s+(?:{D}|\d{1,6}+(?:\.\d{1,3}+)?+(?!\d|\.\d)))",
        needs=r"{RETRY}|attempts|tries|goes|shots|redos|re-?runs"),
    # "try again after 30 s and once more after 2 min", "retry after 1 min, again after 3, a last time after 10"
    Row("wait_seq", r"(?<!\w)(?:{RETRY}|{TRY})\s+(?:it\s+|again\s+)?(?:after|in)\s+(?P<lseq>{D}(?:" + _AGAIN_AFTER + r"){1,5})"),
    # "have another go in a minute, and again a minute after that", "give it one more try after 30 s, once more 2 min
    # later": a retry said as another go, each next wait said again (round 49)
    Row("wait_seq", r"(?<!\w)(?:have|give\s+it|take|make)\s+(?:another|(?:one|1)\s+more)\s+" + _ONE + r"\s+(?:after|in)\s+"
        r"(?P<lseq>{D}(?:" + _AGAIN_AFTER + r"|" + _AGAIN_LATER + r"){1,5})"),
    # "stagger the retries: 1 min, then 5, then 15", "space the re-runs out - 2 min, 10, 30"
    Row("wait_seq", r"(?<!\w)(?:space|spread|stagger)\s++(?:(?:the|them|it|these|those)\s++)?(?:[\w-]{1,20}+\s*+)?(?:out\s++)?"
        r"(?:(?:over|like\s++this|as\s++follows)\s*+)?[:,-]?\s*+(?P<seq>{SERIES})", needs=r"{RETRY}|tries|attempts|goes|redos|re-?runs"),
    # "for the retries make it 2, 5 and then 10 minutes", "re-runs: 1 min, then 5": the waits, in order
    Row("wait_seq", r"(?<!\w)(?:retries|re-?tries|redos|re-?runs|retry\s++waits|waits\s++between\s++(?:tries|retries))\s*+"
        # after a colon, the first wait with its unit: "Retries: 12, 5 s apart" is a count, then a wait
        r"(?:(?:should\s++)?(?:be|go|make\s++it|are|at|like)\s++|[:=-]\s*+"
        r"(?=\d{1,9}+(?:\.\d{1,6}+)?+\s*+(?:-\s*+)?(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)(?![a-z])))(?P<seq>{SERIES})"),
    # "file it through `paper-form` instead", "post them by hand instead with `manual-post`": the fallback skill
    Row("use_skill", r"(?<!\w)(?:through|via|using|with|by)\s+(?:the\s+)?{NAME}\s+instead\b", needs=r"{COND}"),
    Row("use_skill", r"(?<!\w)instead\s*+,?\s*+(?:with|through|via|using|by\s+(?:running|calling))\s+(?:the\s+)?{NAME}",
        needs=r"{COND}"),
    # "assume is_duplicate=false", "mark it sent=false", "set score = 0 and carry on": the value to go on with
    Row("value_pairs", r"(?<!\w)(?:assume|assuming|mark(?:ing)?(?:\s+(?:it|this|that|them|the\s+[\w-]{1,30}+))?(?:\s+as)?|"
        r"set(?:ting)?|record(?:ing)?|leave|leaving|store|write|treat\s+(?:it|this|that|them)\s+as)\s+(?:it\s+)?(?:with\s+)?(?P<pairs>"
        + _EQ_PAIRS + r")", needs=r"{COND}|unreachable|unavailable|anyway|regardless"),
    # "go ahead using rate 1", "carry on using fx_rate 1.0": a field and its value after going on with
    Row("value_pairs", r"(?<!\w)(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|go\s+ahead|press\s+on)\s+"
        r"(?:by\s+)?using\s+(?P<pairs>" + _USING_PAIR + r")(?!\s*+(?:,|and\b|&|/|;|\+|=|as\b|for\b))",
        needs=r"{COND}|unreachable|unavailable|anyway|regardless"),
    # "carry on with department "general"", "go ahead with score 0": a field and its value after going on with
    # (round 49; nothing but a break after it: "carry on with page 2 of the form" is no value)
    Row("value_pairs", r"(?<!\w)(?:continue|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|go\s+ahead|press\s+on)\s+"
        r"with\s+(?P<pairs>" + _USING_PAIR + r")(?!\s*+(?:,\s*+[\"'\d-]|and\s++[\"'\d-]|&|/|;|\+|=|as\b|for\b|[a-z0-9]))",
        needs=r"{COND}|unreachable|unavailable|anyway|regardless"),
)

_LIMITS: tuple[Row, ...] = (
    # "re-send every 5 min, but never for longer than 4 hours overall": how long to keep trying, not one attempt's time
    Row("budget", r"(?<!\w)(?:never|not|no)\s++(?:for\s++)?(?:any\s++)?(?:longer|more)\s++than\s++{D}\s++"
        r"(?:overall|in\s++total|in\s++all|all\s++told|altogether|all\s++in)\b",
        needs=r"\bevery\b|{RETRY}|\bkeep\b|re-?send|\bpoll"),
    # "anything past 100 s on the merge counts as failed", "whatever runs beyond 2 min is treated as a failure" (the
    # failure said after the time is an IGNORE row's: read by a lookahead)
    Row("timeout", r"(?<!\w)(?:anything|any\s++(?:run|attempt|call|try)|whatever(?:\s++runs)?)\s++(?:past|over|beyond|above|"
        r"longer\s++than|more\s++than)\s++{D}(?=(?:\s++(?:on|for|in)\s++(?:the\s++|a\s++|an\s++)?[\w-]{1,40}+(?:\s++[\w-]{1,40}+)?)?"
        r"\s++(?:counts?\s++as|is\s++(?:treated\s++as|counted\s++as|considered)?)\s*+(?:a\s++)?"
        r"(?:fail(?:ed|ure)?|time-?out|timed\s++out|dead|miss(?:ed)?|an?\s++error)\b)"),
    # "gets 3 hours and not a minute more" (`grammar_families11` reads it with a comma)
    Row("timeout", r"(?<!\w)(?:gets?|has|is\s++given|is\s++allowed)\s++(?:up\s++to\s++|at\s++most\s++)?{D}\s++and\s++"
        r"not\s++(?:a|one|1)\s++(?:second|minute|moment|bit|hour)\s++(?:more|longer)\b"),
)

EARLY = EARLY_ROWS + _LIMITS

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|retries|re-?tries|redos|re-?runs|waits|overall|total|in\s+all|told|altogether|anything|any\s+(?:run|attempt|call|try)|whatever|and\s+not|before|#|next|again|once\s+more|space|spread|stagger|instead|assum|mark|set|record|leave|leaving|store|"
             r"write|treat|using|\bwith\b|another|(?:one|1)\s+more",
}
