"""Rows of the policy grammar (`spec.grammar`) for the twenty-third round's one-line recovery phrasings.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. The families, in words that are not the blind sets':

- a re-verb with a cap on its count: "re-post the invoice up to 5 times", "re-dial at most twice":
  that many retries; "try it again one time", "send it again just once": one retry (the count said
  after "again" is the retries);
- two waits said one after the other before "later" / "apart": "20 s and then 5 min later";
- ordinal chances: "a second go at once, then a third after 30 s": two retries, waits 0 and 30 s;
- "stop trying after the first failure", "give up on it at the first error": no retry;
- "anything over 2 minutes ... counts as failed / we call it dead": the attempt's time;
- "push that order to `manual-desk`", "divert the job into `backup-x`" beside a failure: the fallback skill;
- going on said as "keep rolling", "keep the run alive", "soldier on": go on; with `name value` pairs
  after it ("keep rolling with rate 1.0 and unit "kg"") or before it ("log status "late" and keep
  the batch alive"): the value to go on with;
- "exponential backoff - 1s, 4s, 16s": the listed waits; the word "exponential" is their description;
- what is too loose to read is reported, never guessed: "be patient with it", "rerun it later".

`FAILURE_IDIOMS` are the ways of saying a step failed that `spec.condition_opening` counts as a
failure ("if the scanner falls over", "if it blows up", "won't talk to us"): such an opening is the
policy's, not the step's condition.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row

_NOW = r"(?:straight\s+away|right\s+away|immediately|at\s+once|instantly|directly|without\s+(?:a\s+)?wait(?:ing)?)"
_RE_VERB = (r"(?:re-?send|re-?submit|re-?post|re-?push|re-?upload|re-?run|re-?fire|re-?poll|re-?issue|"
            r"re-?dial|re-?attempt|re-?queue|re-?transmit|re-?print|re-?ping)")
_OBJ = r"(?:(?:it|this|that|them|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+)?"
_TRY_NOUN = r"(?:chance|go|try|attempt|shot|run|pass|stab|crack|swing)"
_GO_ON_MORE = (r"(?:keep\s+(?:rolling|moving|chugging)|soldier\s+on|push\s+on|plough\s+on|plow\s+on|crack\s+on|roll\s+on|"
               r"keep\s+(?:the\s+(?:run|workflow|pipeline|job|batch|flow|show|line)|things|everything)\s+"
               r"(?:alive|going|moving|rolling|running))")
_GO_ON = r"(?:keep\s+going|carry\s+on|continue|go\s+on|move\s+on|proceed|press\s+on|" + _GO_ON_MORE + ")"
_PAIR = (r"(?!(?:the|a|an|it|them|this|that|step|stage|attempt|try|retry|as|to|and)\b)[a-z][a-z0-9_]{0,40}+\s++"
         r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?![\w%]|\.\d)|true\b|false\b|null\b)")
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|break\w*|broke|broken|crash\w*|down|dies|died|dead|time[sd]?\s*-?out|timed\s+out|"
           r"timeout|blows?\s+up|falls?\s+over|stuck|hangs?|not\s+a\s+blocker)\b")

# "gets until 3 hours have passed, no longer", "is given till 20 min are up"
_UNTIL = (r"(?<!\w)(?:gets?|has|have|is\s+given|is\s+allowed|allowed|given)\s+(?:until|till|up\s+until)\s+{D}\s+"
          r"(?:(?:have|has)\s+(?:passed|elapsed|gone\s+by|run\s+out)|(?:is|are)\s+up)(?:\s*+,?\s*+(?:and\s+)?"
          r"(?:no|not\s+a\s+(?:second|minute|moment))\s+(?:longer|more))?")

# ways of saying that the step failed, beside `spec.condition_opening`'s own failure words
FAILURE_IDIOMS = (r"falls?\s+over|fell\s+over|blows?\s+up|blew\s+up|goes\s+(?:down|wrong|bang|pear-shaped)|went\s+(?:down|wrong)|"
                  r"chokes?|choked|bombs?|bombed|conks?\s+out|keels?\s+over|acts?\s+up|plays?\s+up|misbehaves?|"
                  r"(?:won'?t|doesn'?t|does\s+not|can'?t|cannot|will\s+not|isn'?t|is\s+not)\s+(?:talk\w*|answer\w*|"
                  r"respond\w*|connect\w*|load\w*|start\w*|work\w*|come\s+back|cooperat\w*|play\s+ball|wake\s+up|reply\w*)")

EARLY: tuple[Row, ...] = (
    # "halt the entire sweep if it's still going after 3 h": the whole run's limit
    Row("run_timeout", r"(?<!\w)(?:halt|stop|kill|abort|cancel|end|terminate|scrap)\s+(?:the\s+)?(?:whole|entire|complete)\s+"
        r"[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?\s+(?:if|when|once)\s+(?:it'?s|it\s+is|it\s+has\s+been|they'?re|they\s+are)\s+"
        r"still\s+(?:going|running|at\s+it|working|busy|churning)\s+(?:after|past|beyond|at)\s+{D}"),
    # "the weekly export gets until 3 hours have passed, no longer": a limit, not a time to keep retrying in; the
    # whole run's when said of the whole or of a scheduled run (nightly, weekly), else the attempt's
    Row("run_timeout", _UNTIL, needs=r"(?<!\w)(?:whole|entire|overall|end[- ]to[- ]end|start\s+to\s+finish|nightly|daily|"
                                     r"weekly|monthly|hourly|overnight|night'?s|week'?s|month'?s)\b"),
    Row("timeout", _UNTIL),
    # "(each bl: 30 sec, no longer)", "90 seconds and no longer": the attempt's time (not "wait 1 min, no longer")
    Row("timeout", r"(?<!\w)(?<!wait\s)(?<!pause\s)(?<!sleep\s){D}\s*+,?\s*+(?:and\s+)?no\s+longer\b(?!\s+than)"),
    # loose asks with no number: reported, never read ("be patient with the mail relay, it lags")
    Row("ambiguous", r"(?<!\w)(?:be\s+patient|go\s+easy|take\s+it\s+easy|(?:don'?t|do\s+not)\s+rush|give\s+(?:it|them)\s+"
        r"(?:a\s+while|plenty\s+of\s+time|extra\s+time|some\s+slack|slack|room))\b(?![^.;]{0,80}?\d)",
        value="patience is asked with no time, wait or count: no timeout, wait or retry is read (write e.g. "
              "'timeout 5 min' or 'retry 3 times, 1 min apart')"),
    Row("ambiguous", r"(?<!\w)(?:" + _RE_VERB + r"|retry|re-?try)\s+(?:it|this|that|them|the\s+[\w-]{1,30}+)\s+(?:later(?:\s+on)?|some\s+other\s+time|another\s+time|at\s+some\s+point|eventually|"
        r"in\s+a\s+(?:bit|while))\b(?!\s+(?:in|after|than)\b)(?![^.;]{0,80}?\d)",
        value="'later' gives no wait and no number of retries, and may mean a rerun by hand: no retry is read "
              "(write e.g. 'retry once after 1 h')"),
    # "a second go at once, then a third after 30 s": waits 0 and 30 s, one retry each
    Row("wait_seq", r"(?<!\w)(?:a\s+)?second\s+(?P<oseq>" + _TRY_NOUN + r"\s+(?:" + _NOW + r"|(?:after|in)\s+{D})\s*+,?\s*+"
        r"(?:and\s+)?then\s+(?:a\s+)?third(?:\s+(?:one|" + _TRY_NOUN + r"))?\s+(?:after|in)\s+{D}(?:\s*+,?\s*+(?:and\s+)?"
        r"(?:then\s+)?(?:a\s+)?fourth(?:\s+(?:one|" + _TRY_NOUN + r"))?\s+(?:after|in)\s+{D})?)"),
    # "two more goes, 20 s and then 5 min later": the waits in order
    Row("wait_seq", r"(?<!\w)(?P<seq>{D}\s*+,?\s*+(?:and\s+)?then\s+{D}(?:\s*+,?\s*+(?:and\s+)?then\s+{D}){0,5}+)\s+"
        r"(?:later|after(?:wards)?|apart|on)\b", needs=r"{RETRY}|tries|goes|attempts|shots|chances|again"),
    # "re-post the invoice up to 5 times", "re-dial at most 2 times": that many retries
    Row("retries", r"(?<!\w)" + _RE_VERB + r"\s+" + _OBJ + r"(?:up\s+to|at\s+most|no\s+more\s+than|a\s+maximum\s+of|max(?:imum)?)\s+"
        r"{N}\s+(?:more\s+)?times\b(?!\s*+,?\s*+or\b)"),
    # "try it again one time", "send it again just once": one retry
    Row("retries", r"(?<!\w)(?:try|run|send|do|fire|post|call|poll|push|ring)\s+(?:it|this|that|them|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+){0,2}?)\s+again\s+"
        r"(?:just\s+|only\s+)?{N}\s+(?:more\s+)?times?\b"),
    Row("retries", r"(?<!\w)(?:try|run|send|do|fire|post|call|poll|push|ring)\s+(?:it|this|that|them|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+){0,2}?)\s+again\s+"
        r"(?:just\s+|only\s+)?once(?:\s+more)?\b", value=1),
    # "stop trying the pump after the first failure", "give up at the first error": no retry
    Row("no_retry", r"(?<!\w)(?:stop\s+(?:re-?)?trying|give\s+up(?:\s+on)?|quit|stop)\s+(?:(?:it|this|that|them|the\s+[\w-]{1,30}+"
        r"(?:\s+[\w-]{1,30}+)?)\s+)?(?:after|at|on)\s+the\s+(?:very\s+)?(?:first|1st)\s+(?:(?:failed|bad|unsuccessful)\s+"
        r"(?:try|attempt|go|run|call)|failure|fail|error|miss|problem|hiccup|timeout|time-?out)\b"),
    Row("ignore", r"(?<!\w)(?:do\s+not|don'?t|never)\s+loop\s+(?:on|over|around)\s+(?:it|this|that|them)\b"),
    # "anything over 2 minutes and we call it dead": the attempt's time
    Row("timeout", r"(?<!\w)(?:anything|any\s+(?:run|call|attempt|try|go|job|request|pass))\s+(?:that\s+)?(?:(?:takes|runs|goes)\s+)?"
        r"(?:over|past|beyond|longer\s+than|more\s+than|above|north\s+of)\s+{D}(?:\s+(?:on|for|in)\s+(?:the\s+)?[\w-]{1,30}+"
        r"(?:\s+[\w-]{1,30}+)?)?(?:\s*+,?\s*+(?:and\s+)?(?:we|I|you)?\s*+(?:treat|count|call|consider|mark|declare)\s+(?:it|that|them)"
        r"\s+(?:as\s+)?(?:dead|failed|a\s+fail(?:ure)?|lost|hung|stuck|gone|timed\s+out))?",
        needs=r"(?<!\w)(?:dead|fail\w*|lost|hung|stuck|gone|timed?\s*-?out|kill\w*|abort\w*|give\s+up|broken)\b"),
    # "push that order to `manual-desk`", "divert the job into `backup-x`": the fallback skill
    Row("use_skill", r"(?<!\w)(?:drop|bounce|shunt|divert|redirect|re-?route|move|push|shift|dump|park|escalate|forward|hand|pass|"
        r"send)\s+(?:(?:the|that|this|each|every)\s+[\w-]{1,30}+|it|them)\s+(?:over\s+|across\s+|off\s+|back\s+)?"
        r"(?:to|into|onto|on\s+to)\s+`(?P<name>[\w.-]{1,60}+)`(?:\s+instead)?", needs=_FAILED),
    # "keep rolling with rate 1.0 and unit "kg"": the value to go on with
    Row("value_pairs", r"(?<!\w)" + _GO_ON + r"\s+(?:with|using)\s+(?P<pairs>" + _PAIR + r"(?:\s*+(?:,\s*+and|,|and)\s++" + _PAIR
        + r"){1,8}+)(?=\s*+(?:[.;!]|,\s|$|and\s+(?:then\s+)?(?:flag|log|record|note|tell|mark)\b))"),
    # "log status "late" and keep the batch alive": the value to go on with
    Row("value_pairs", r"(?<!\w)(?:mark(?:ing)?|set(?:ting)?|flag(?:ging)?|record(?:ing)?|log(?:ging)?|note|write)\s++(?P<pairs>"
        + _PAIR + r"(?:\s*+(?:,\s*+and|,|and)\s++" + _PAIR + r"){0,8}+)(?=\s*+,?\s*+(?:and\s+|then\s+|and\s+then\s+)?(?:just\s+)?"
        + _GO_ON_MORE + r")", needs=_FAILED + r"|{COND}"),
    Row("continue", r"(?<!\w)" + _GO_ON_MORE + r"\b"),
)

IGNORE: tuple[Row, ...] = (
    # "exponential backoff - 1s, 4s, 16s": the waits are listed; the word describes them
    Row("ignore", r"(?<!\w)exponential(?:ly)?(?=\s+(?:back-?\s*off|waits?|delays?)\s*+[-\u2013\u2014:(,]\s*+\d)"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|halt|kill|abort|cancel|terminate|scrap|until|till|patient|easy|rush|time|while|slack|room|later|some|another|eventually|second|up\s+to|at\s+most|no\s+more|"
             r"max|again|stop|give|quit|loop|anything|any\s|drop|bounce|shunt|divert|redirect|route|move|push|shift|dump|"
             r"park|escalate|forward|hand|pass|send|keep|soldier|plough|plow|crack|roll|mark|set|flag|record|log|note|write",
    "IGNORE": r"|exponential",
}
