"""Rows of the policy grammar (`spec.grammar`) for the twentieth round's recovery-policy families.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a count said after "another go" with a cap word after it: "have another go, thrice max", "give it
  another try - 4 times tops": that many retries (the first try is behind);
- a count under a label of the retry's own noun: "Re-sends: 4", "re-runs = 2": that many retries;
- "N more chances" / "N more goes": N retries;
- the waits said one retry at a time around the retry itself: "wait 1 minute and try again; then
  2 minutes; then 4", "pause 5 s, then retry; then 20 s": the series, each bare number taking the
  unit before it;
- "first after 30 s and then after 2 min": the waits before the first and second retries;
- "a retry at 15 s, and another at 45 s": two retries, with those waits;
- a value to go on with in backticks in brackets: "count it as an empty row (`{"rows": []}`) and
  move on": the value;
- "never past the 1-hour mark" said of retrying, or "as long as it takes, but not beyond 40 min": the time to
  keep trying (a bare "not beyond 30 s" beside a backoff stays its cap);
- "allow the rebuild as long as 3 hours": the attempt's time;
- "everything from first step to last must fit into 25 min": the whole run's limit;
- "under no circumstances re-send it", "once is final": no retry;
- "... is dead to us - abort it" after a time: the kill is the timeout itself, nothing more;
- what a repeat would do, said as the reason not to retry ("posting twice puts two sheets up"): no count;
- "skip it" said alone after a failure: it may mean going on without the step's result, skipping
  one item, or skipping the step: warned, never guessed.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_CAP = r"(?:max(?:imum)?|at\s+most|tops|top|(?:in\s+)?total|in\s+all|and\s+no\s+more)\b"
_ANOTHER = (r"(?:have|give\s+it|take|make|get)\s+(?:another|(?:one|1)\s+more|a\s+second|a\s+new)\s+(?:go|shot|try|attempt|crack|"
            r"stab|swing|run|pass|bash)\b(?:\s+at\s+it)?")
_RETRY_NOUNS = r"(?:re-?runs|re-?sends|re-?attempts|re-?tries|re-?submits|re-?dials|re-?posts|re-?uploads|redos|do-?overs)"
_AGAIN = (r"(?:try|go|run|send|post|call|dial|ring|ping|poll|fetch|load|push|submit|upload|print|fire)(?:\s+(?:it|this|that|them))?"
          r"\s+again|retry|re-?try|re-?run|re-?send|re-?submit")
# a wait in a series: a duration, or a bare number after "then" that takes the unit before it
_NEXT = r"\s*+[;,]\s*+(?:and\s+)?then\s+(?:(?:wait|pause|sleep)\s+)?(?:\d{1,9}+(?:\.\d{1,6}+)?+(?:\s*+(?:-\s*+)?[a-z]{1,12}+)?)"
_LIMIT_OF = r"(?:retr|re-?tr|re-?run|again|keep\s+(?:on\s+)?(?:trying|going|polling|checking)|poll|every\b)"

EARLY: tuple[Row, ...] = (
    # "have another go, twice max", "give it another try - 4 times tops": that many retries
    # ("have another go - 3 goes in all": the goes counted in all are the attempts, `attempts` reads them)
    Row("retries", r"(?<!\w)" + _ANOTHER + r"\s*+[,(\u2013\u2014-]?\s*+{N}\s*+(?!(?:goes|tries|attempts)\s+(?:in\s+)?(?:all|total)\b)"
        r"(?:times\s+|x\s+|goes\s+|tries\s+)?" + _CAP),
    # "Re-runs: 5", "re-sends = 2": that many retries
    Row("retries", r"(?<![\w-])" + _RETRY_NOUNS + r"\s*+[:=]\s*+{N}(?![\w.]|\s*+(?:ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|"
        r"hours?)\b)"),
    # "give it two more chances", "they get 3 more goes": that many retries
    Row("retries", r"(?<!\w)(?:give\s+(?:it|them|this|that)|gets?|have|has|allow(?:\s+it)?)\s+{N}\s+more\s+(?:chances|goes|tries|"
        r"attempts|shots|cracks|runs)\b"),
    # "wait 1 minute and try again; then 2 minutes; then 4": the series, the retry said inside it
    Row("wait_seq", r"(?<!\w)(?:wait|pause|sleep|hold\s+off|back\s+off|give\s+it|leave\s+it)\s+(?:for\s+)?(?P<seq>{D}\s*+,?\s*+"
        r"(?:and\s+)?(?:then\s+)?(?:" + _AGAIN + r")\b(?:" + _NEXT + r")+)"),
    # "first after 30 seconds and then after 2 minutes": the waits before the first and second retries
    Row("wait_seq", r"(?<!\w)first\s+(?:one\s+|retry\s+|try\s+|go\s+)?(?:after|in)\s+(?P<seq>{D}\s*+,?\s*+(?:and\s+)?then\s+"
        r"(?:(?:the\s+)?second\s+(?:one\s+)?)?(?:after|in)\s+{D}(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:(?:the\s+)?third\s+"
        r"(?:one\s+)?)?(?:after|in)\s+{D})?)", needs=r"{RETRY}|chances?|goes|tries|attempts|shots"),
    # "a retry at 15 s, and another at 45 s": two retries, with those waits
    Row("retries", r"(?<!\w)(?:a|one|1)\s+(?:retry|re-?try|re-?run|re-?send|try)(?=\s+(?:at|after|in)\s+{D}\s*+,?\s*+(?:and\s+)?"
        r"(?:then\s+)?another\b(?!\s+(?:at|after|in)\s+{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:a\s+)?(?:third|last|final)\b))", value=2),
    Row("retries", r"(?<!\w)(?:a|one|1)\s+(?:retry|re-?try|re-?run|re-?send|try)(?=\s+(?:at|after|in)\s+{D}\s*+,?\s*+(?:and\s+)?"
        r"(?:then\s+)?another\s+(?:at|after|in)\s+{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:a\s+)?(?:third|last|final)\b)", value=3),
    Row("wait_seq", r"(?<!\w)(?:at|after|in)\s+(?P<seq>{D}\s*+,?\s*+(?:and\s+)?(?:then\s+)?another(?:\s+(?:one|retry|re-?try|try|go))?"
        r"\s+(?:at|after|in)\s+{D}(?:\s*+,?\s*+(?:and\s+)?(?:then\s+)?(?:a\s+)?(?:third|last|final)(?:\s+(?:one|retry|re-?try|"
        r"try|go))?\s+(?:at|after|in)\s+{D})?)", needs=r"(?<!\w)(?:a|one|1)\s+(?:retry|re-?try|re-?run|re-?send|try)\s+(?:at|after|in)\b"),
    # "count it as an empty route (`{"codes": {}}`) and move on": the value to go on with
    Row("value_literal", r"\(\s*+(?:i\.\s*+e\.\s*+|e\.\s*+g\.\s*+|so\s+)?(?P<value>`[\[{][^`]{0,400}+`)\s*+\)\s*+,?\s*+(?:and\s+)?"
        r"(?:then\s+)?(?:carry\s+on|continue|move\s+on|keep\s+going|go\s+on|proceed|press\s+on)\b"),
    # "keep retrying every 90 s ..., but never past the 1-hour mark": the time to keep trying
    Row("budget", r"(?<!\w)(?:but\s+)?(?:never|not)\s+(?:past|beyond)\s+(?:the\s+)?{D}\s+(?:mark|in\s+total|overall|all\s+told)\b",
        needs=_LIMIT_OF),
    Row("budget", r"(?<!\w)(?:but\s+)?(?:never|not)\s+(?:past|beyond)\s+(?:the\s+)?{D}",
        needs=r"as\s+long\s+as\s+(?:it\s+|that\s+)?takes|until\s+(?:it|they)\s+(?:works?|answers?|succeeds?|comes?\s+back|passe?s)"),
    # "allow the rebuild as long as 3 hours": the attempt's time
    Row("timeout", r"(?<!\w)allow\s+(?:the\s+|each\s+|every\s+|this\s+|that\s+|it\s+|our\s+)?(?:[\w-]{1,30}+\s+){0,4}?"
        r"(?:as\s+long\s+as|as\s+much\s+as)\s+{D}"),
    # "everything from first step to last must fit into 25 min": the whole run's limit
    Row("run_timeout", r"(?<!\w)(?:everything|all\s+of\s+it|the\s+lot|all\s+the\s+steps)\s+from\s+(?:the\s+)?(?:first|start|top)"
        r"(?:\s+[\w-]{1,20}+)?\s+to\s+(?:the\s+)?(?:last|end|finish|bottom)(?:\s+(?:one|step))?\s+(?:must|should|has\s+to|needs?\s+to|"
        r"is\s+to|will)\s+(?:fit\s+(?:into|in|within)|be\s+(?:done|finished|over)\s+(?:in|within|inside)|finish\s+(?:in|within)|"
        r"take\s+(?:at\s+most|no\s+more\s+than|under))\s+{D}"),
    # "under no circumstances re-send it", "never re-post the notice": no retry
    Row("no_retry", r"(?<!\w)(?:under\s+no\s+circumstances|never(?:\s+ever)?|do\s+not\s+ever|don'?t\s+ever|in\s+no\s+case)\s+"
        r"re-?(?:send|submit|post|issue|file|dispatch|transmit|charge|print|fire|dial|publish|upload|mail)\b"),
    # "once is final", "one send is all it gets": no retry
    Row("no_retry", r"(?<!\w)(?:once|(?:one|1)\s+(?:go|shot|send|try|attempt|run|pass))\s+is\s+(?:final|it|enough|all(?:\s+(?:it|you|we)"
        r"\s+gets?)?)\b"),
    # "if the scan fails, skip it": going on without the result, skipping one item or skipping the step
    Row("ambiguous", r"(?<!\w)(?:just\s+)?skip\s+(?:it|this|that)(?=\s*+(?:[.!;]|$))", needs=r"{COND}",
        value="'skip' may mean going on without the step's result, skipping only this item, or not running the "
        "step; it is not read (the step fails on error): write 'if it fails, continue' or 'continue with "
        "`{...}`' to go on"),
)

IGNORE: tuple[Row, ...] = (
    # "anything over 8 s is dead to us - abort it": the kill is the time limit itself
    Row("ignore", r"(?<!\w)(?:is|are|'s)\s+dead\s+to\s+(?:us|me)\s*+[-\u2013\u2014,;:]?\s*+(?:just\s+)?(?:abort|kill|cancel|drop|"
        r"bin|scrap|cut)\s+(?:it|them|that)\b"),
    # "posting twice puts two sheets on the screen", "charging it 2 times bills the client twice": what a repeat
    # would do, said as the reason not to retry; no count of tries
    Row("ignore", r"(?<![a-z])[a-z]{2,20}+(?<=ing)\s+(?:it\s+|this\s+|that\s+|them\s+)?(?:twice|thrice|\d{1,3}+\s+times)\s+(?:puts|means|"
        r"would|will|could|gives|makes|bills|sends|creates|doubles|charges|prints|posts|leads|results|causes|breaks|books|"
        r"orders|fires|opens|lifts|ships|pays|ruins|spoils|wrecks|sends|rings)\b[^.;!]{0,120}+"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|another|more|re-?runs|re-?sends|re-?attempts|re-?tries|re-?submits|re-?dials|re-?posts|re-?uploads|redos|do-?over|"
             r"first|wait|pause|sleep|hold|back|give|leave|retry|try|never|not|no|allow|everything|all|lot|circumstances|"
             r"ever|case|once|one|\b1\b|skip|\(",
    "IGNORE": r"|dead|twice|thrice|times",
}
