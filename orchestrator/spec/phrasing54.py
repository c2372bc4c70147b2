"""Recovery phrasings a thirty-fifth blind set misread or dropped (fifty-fourth round), in words that are not its own.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`, tried before every earlier round's):

- going on said under a negation is stopping, never going on: "no carrying on without it", "there's no going on",
  "we can't go on without it", "it's not safe to continue", "don't skip past it", "the run does not carry on" all
  fail the run (the bare "carry on", "skip it" rows would read the words after the negation as going on - the
  opposite); "don't stop - carry on" and "no need to stop, keep going" are not negated going on;
- a failure that ends the run said with the verb in its third person: "any error ends the whole job", "that stops
  the run", "it kills the pipeline" (not "... ends the run continues");
- a bare "abort" / "halt" closing a sentence right after the step's failure ("if it still fails, abort", "should it
  error, halt."): the run fails ("not finished inside 40 min, abort" is a deadline's, read by its own rows);
- the value to go on with said as a field and its value after "treat it as": 'treat it as grade "ungraded"',
  "count it as status 'skipped'" is {grade: "ungraded"}, {status: "skipped"} (never the text "grade"); a value
  said without quotes, or beside other fields ("treat it as miles 0, source ..."), is left to the rows of pairs;
- a fallback skill after a failure asked as a question: "No luck with the feed? Use `x`", "No joy from the API? try
  `y`" (the question names the failure, so `x` is the fallback, never a skill named but not run);
- a backoff's start said of the gap: "start the re-poll gap at 5 seconds", "begin the wait at 2 s"; its cap said as
  no gap over a time: "no gap over 135 s", "no wait longer than 2 min" (not a timeout, not "no wait");
- a series of three or more waits, each with its unit, open-ended: "1 s, 2 s, 4 s and so on" (a backoff from the
  first, by the factor the series shows);
- an attempt's time said before the failure it is called: "gets 90 seconds before we call it dead", "has 2 min
  before we give up on it"; said per go: "2 minutes per go", "30 s each attempt"; said of each attempt: "each attempt
  at the bank feed is allowed 20 seconds" (the attempt is the time's scope, not a word left unread); said as not
  letting it sit: "don't let the import sit there more than a quarter of an hour";
- the whole run's time said as it having been going that long, with the stop after it: "if the full run's been going
  two hours, stop everything where it is", "once the whole batch has been running for 3 h, kill the lot";
- no retry said as one go and never another: "one attempt only, never a second", "a single go, never a second one";
  said as the step happening once, a sentence of its own: "the PA announcement plays once.", "the refund is sent only
  once." (not "runs once a day", "once per item").

A thirty-sixth set's (the same rules, generalised): 'push on as if discount_pct were 0' the value to go on with (never
a bare going on); "one more crack at the sync after five minutes" a retry and its wait; "after 20 s and, if that fails
too, after 40 s" a series of waits (`plain`); "give the feed 20 s; on a miss ..." and "a quarter of an hour's the most
the builder gets" the attempt's time; "re-knock the portal six times" the retries; "the whole close-down, first step to
last, mustn't go past 40 minutes", "the run as a whole isn't wrapped up in 90 seconds", "overall cap for tonight's
batch - 2 h 30 m" and "whole job gets 3 hours including waiting for sign-off" the whole run's time.
"""

from __future__ import annotations

import re

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "after 20 s and, if that fails too, after 40 s": the second wait said after the failure of the first retry
_IF_AGAIN = _rx(r"(?<![\w-])(after[ \t]++\d{1,6}+(?:\.\d{1,3}+)?+[ \t]*+[a-z]{1,7}+)[ \t]*+,?[ \t]*+(?:and[ \t]*+,?[ \t]*+)?"
                r"if[ \t]++(?:that|it)[ \t]++(?:fails|errors|breaks|fails[ \t]++again)(?:[ \t]++(?:too|again|as[ \t]++well))?"
                r"[ \t]*+,[ \t]*+(?:then[ \t]++)?(after[ \t]++\d)", re.IGNORECASE)


def plain(text: str) -> str:
    """`text` with "after 20 s and, if that fails too, after 40 s" written "after 20 s, then after 40 s" (a series)."""
    if "if" not in text.lower():
        return text
    return _IF_AGAIN.sub(lambda m: f"{m.group(1)}, then {m.group(2)}", text)

# what a negation before going on is said with
_NEG = (r"(?:no|not|never|without|don'?t|do\s+not|doesn'?t|does\s+not|can'?t|cannot|can\s+not|won'?t|will\s+not|"
        r"mustn'?t|must\s+not|shouldn'?t|should\s+not|isn'?t|is\s+not|aren'?t|are\s+not)")
# the few words that may stand between the negation and the going on ("not safe to", "no more", "just")
_BETWEEN = (r"(?:\s+(?:just|simply|ever|then|be|more|further|any\s+further|(?:safe|ok|okay|wise|possible|allowed|"
            r"acceptable|right)\s+to|point\s+(?:in\s+)?|question\s+of|to))")
_GO_ON = (r"(?:continu(?:e|es|ing)|carr(?:y|ies|ying)\s+on|go(?:es|ing)?\s+on|keep(?:s|ing)?\s+going|mov(?:e|es|ing)\s+on|"
          r"press(?:es|ing)?\s+on|push(?:es|ing)?\s+on|plough(?:s|ing)?\s+on|"
          r"skip(?:s|ping)?(?:\s+(?:past|over))?(?:\s+(?:it|this|that|them|the\s+step))?)")
_THING = r"(?:the\s+|its\s+|this\s+|that\s+)?[\w-]+(?:\s+[\w-]+){0,3}?"
_WHOLE = r"(?:whole|entire|full)\s+(?:thing|lot|run|batch|job|shebang|workflow|pipeline|process)"

EARLY: tuple[Row, ...] = (
    # "no carrying on without it", "we can't go on without it", "it's not safe to continue", "don't skip past it"
    Row("fail", r"(?<![\w-])" + _NEG + _BETWEEN + r"{0,3}\s+" + _GO_ON + r"(?:\s+without\s+(?:it|this|that|them))?"
        r"(?:\s+(?:anyway|regardless))?\b(?!\s+(?:to\s+)?(?:re-?tr(?:y|ying)|poll(?:ing)?|wait(?:ing)?|ask(?:ing)?)\b)"),
    # "any error ends the whole job", "that stops the run" (not "... ends the run continues")
    Row("fail", r"(?<![\w-])(?:ends|kills|stops|halts|aborts|terminates|cancels|sinks|scuppers)\s+(?:the\s+|this\s+)?"
        r"(?:whole\s+|entire\s+|full\s+)?(?:run|job|workflow|pipeline|batch|lot|thing|process)\b"
        r"(?!\s+(?:continues|carries\s+on|goes\s+on|proceeds|keeps\s+going)\b)"),
    # "if it still fails, abort": a bare abort after the failure said of the step (a time before it, "not finished
    # inside 40 min, abort", is read by the rows of deadlines)
    Row("fail", r"(?<![\w-])(?:then\s+)?(?:abort|halt)(?=\s*+(?:[.;!]|$))",
        needs=r"(?<![\w-])(?:if|when|once|should)\s+(?:it|that|this|they)\s+(?:still\s+)?(?:fails|errors|breaks|crashes|dies|"
              r"fail|error|break|crash|die)\s*+,?\s*+(?:then\s+)?(?:abort|halt)(?=\s*+(?:[.;!]|$))"),
    # 'treat it as grade "ungraded"': the field and the value to go on with
    Row("value_field", r"(?<![\w-])(?:treat|count|record|log|score|mark)\s+(?:it|this|that|them|the\s+(?:result|output))\s+as\s+"
        r"(?:an?\s+)?(?P<field>[a-z_]\w*)\s+(?P<value>\"[^\"]*\"|'[^']*')(?!\s*+(?:,|and\b)\s*+[a-z_]\w*\s*+(?:=|\"|'|-?\d|true|false))"),
    # "No luck with the feed? Use `x`": the question names the failure, `x` is the fallback
    Row("use_skill", r"(?<![\w-])no\s+(?:luck|joy|dice|answer|response|reply|result)\s+(?:with|from|on|out\s+of)\s+[^?.;]{1,60}\?\s*+"
        r"(?:then\s+)?(?:use|run|try|call|switch\s+to|go\s+(?:to|with))\s+(?:the\s+)?{NAME}"),
    # "start the re-poll gap at 5 seconds": the backoff's start
    Row("exp_start", r"(?<![\w-])(?:start|begin)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:gap|wait|pause|delay|interval|breather|back-?off)s?\s+"
        r"(?:at|from|with)\s+{D}", needs=r"doubl|tripl|\bx\s*\d|times\s+(?:two|three|2|3)|grow|multipl|factor"),
    # "no gap over 135 s": the backoff's cap
    Row("exp_cap", r"(?<![\w-])no\s+(?:single\s+)?(?:gap|wait|pause|delay|interval|breather)\s+(?:over|above|longer\s+than|"
        r"more\s+than|beyond|exceeding|past)\s+{D}"),
    # "1 s, 2 s, 4 s and so on": an open series of waits, each with its unit
    Row("wait_seq", r"(?<![\w.])(?P<seq>{D}\s*+,\s*+{D}\s*+,\s*+{D}(?:\s*+,\s*+{D}){0,4})(?=\s*+,?\s*+(?:and\s+so\s+on|etc\b|\.\.\.|…))"),
    # "gets 90 seconds before we call it dead": the attempt's time
    Row("timeout", r"(?<![\w-])(?:gets|get|has|have|is\s+given|is\s+allowed)\s+{D}\s+before\s+(?:we|i|you|they)\s+(?:call\s+it|"
        r"declare\s+it|treat\s+it\s+as|give\s+up(?:\s+on\s+it)?|kill\s+it|pull\s+the\s+plug)(?:\s+(?:dead|failed|a\s+failure|"
        r"lost|hung|stuck|a\s+loss))?"),
    # "2 minutes per go", "30 s each attempt": the attempt's time
    Row("timeout", r"(?<![\w-])(?:(?:give|allow|grant)\s+(?:it|them|(?:the|each)\s+[\w-]+)\s+)?{D}\s+(?:per|each|every|for\s+each|a)\s+"
        r"(?:go|try|attempt|shot|pass)\b(?!\s+(?:at\s+most|max))"),
    # "each attempt at the bank feed is allowed 20 seconds": the attempt's time
    Row("timeout", r"(?<![\w-])(?:each|every|any)\s+(?:attempt|try|go|run|call)\s+(?:at|on|of|to)\s+" + _THING + r"\s+"
        r"(?:is\s+allowed|is\s+given|gets|has|may\s+take|can\s+take|can\s+have|may\s+have)\s+(?:up\s+to\s+|at\s+most\s+)?{D}"),
    # "don't let the import sit there more than a quarter of an hour": the attempt's time
    Row("timeout", r"(?<![\w-])(?:don'?t|do\s+not|never)\s+let\s+(?:it|them|" + _THING + r")\s+(?:sit|hang|spin|stew|churn|grind)\s+"
        r"(?:there|around|about|idle)\s+(?:for\s+)?(?:more|longer)\s+than\s+{D}"),
    # "if the full run's been going two hours, stop everything where it is": the whole run's time, its stop said with it
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?" + _WHOLE + r"(?:'s|\s+has|\s+is)\s+(?:been\s+)?(?:going|running|at\s+it|"
        r"in\s+progress)\s+(?:for\s+)?{D}(?:\s*+,?\s*+(?:then\s+)?(?:stop|kill|end|halt|abort|cancel|scrap)\s+"
        r"(?:everything|the\s+lot|it\s+all|(?:the\s+)?" + _WHOLE + r")(?:\s+(?:where\s+it\s+(?:is|stands)|there(?:\s+and\s+then)?))?)?"),
    # "one attempt only, never a second": no retry
    Row("no_retry", r"(?<![\w-])(?:one|1|a\s+single|single)\s+(?:attempt|try|go|shot)(?:\s+only)?\s*+,?\s*+(?:and\s+)?"
        r"never\s+(?:a|1)\s+second(?:\s+(?:one|go|try|attempt|time|shot))?\b"),
    # "the PA announcement plays once.", "the charge runs only once.": the step is run once, no retry (not "runs once a
    # day", "once per item")
    Row("no_retry", r"(?<![\w-])(?:plays|runs|fires|sounds|prints|happens|goes\s+out|(?:is|gets)\s+(?:sent|played|run|printed|fired))"
        r"\s+(?:just\s+|only\s+|exactly\s+)?(?:once|1\s+time)(?:\s+only)?(?=\s*+(?:[.;!]|$))"),
    Row("no_retry", r"(?<![\w-])never\s+(?:a|1)\s+second(?:\s+(?:one|go|try|attempt|time|shot))?(?=\s*+(?:[.;!]|$))",
        needs=r"(?<![\w-])(?:one|1|a\s+single|single)\s+(?:attempt|try|go|shot)\b"),
    # holdout36's constructions (the same round's rules, generalised):
    # "push on as if discount_pct were 0", "carry on as though stock was 'none'": the field and the value to go on with
    Row("value_field", r"(?<![\w-])as\s+(?:if|though)\s+(?!(?:it|they|we|you|this|that|nothing|everything|all|the|a|an)\b)"
        r"`?(?P<field>[a-z_]\w{0,40}+)`?\s+(?:were|was|is|had\s+been|equalled|came\s+back\s+as|=)\s*+"
        r"(?P<value>\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|-?\d{1,12}+(?:\.\d{1,9}+)?+(?!\w|\.\d)|true\b|false\b|null\b|none\b)",
        needs=r"continu|carr(?:y|ies)\s+on|go(?:es)?\s+on|push|press|keep\s+going|mov(?:e|es)\s+on|proceed|plough|fail|fall\s+over|"
              r"error|break|crash|die|down"),
    # "have one more crack at the booking sync", "take another stab at it": one retry
    Row("retries_soft", r"(?<![\w-])(?:one|1|another|a\s+second)\s+(?:more\s+)?(?=(?:crack|stab|bash|whack|punt|swing)\b)"
        r"(?!\w+(?:\s+at\s+(?:it|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?))?\s+(?:twice|thrice|\d{1,3}\s+(?:more\s+)?times)\b)"
        # "... crack at it straight away": round 45's row, one retry and no wait (`spec.phrasing45`)
        r"(?!\w+\s+(?:at|on)\s+(?:it|this|that|them)\s+(?:straight\s+away|right\s+away|immediately|at\s+once)\b)", value=1),
    # "... crack at the booking sync after five minutes": that retry's wait
    Row("wait_fixed", r"(?<![\w-])(?:crack|stab|bash|whack|punt|swing)\s+(?:at\s+(?:it|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)\s+)?"
        r"(?:after|in)\s+{D}"),
    # "whole job gets 3 hours end to end including waiting for sign-off": the whole run's time, the wait inside it
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|full)\s+(?:job|run|thing|lot|batch|workflow|pipeline)\s+(?:gets|has)\s+{D}"
        r"(?:\s+end\s+to\s+end)?\s*+,?\s*+including\s+(?:the\s+)?(?:time\s+)?(?:spent\s+)?waiting\s+(?:for|on)\s+"
        r"(?:a\s+|the\s+)?[\w-]+(?:\s+[\w-]+)?"),
    # "give the price feed 20 s; on a miss ...": the attempt's time, said before what happens on a miss
    Row("timeout", r"(?<![\w-])(?:give|allow|grant)\s+(?:it|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)\s+{D}(?=\s*+;\s*+(?:on|if|when|after|"
        r"past|beyond|once|should|failing|otherwise|else|then)\b)"),
    # "quarter of an hour's the most the rota builder gets": the attempt's time
    Row("timeout", r"(?<![\w-]){D}(?:'s|\s+is)\s+the\s+(?:most|max(?:imum)?|limit|longest|ceiling)\s+(?:that\s+)?"
        r"(?:it|they|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:gets|has|may\s+take|can\s+take|is\s+allowed|is\s+given|should\s+take)\b"),
    # "re-knock the supplier portal six times": the retries, said with a re- verb and a count
    Row("retries", r"(?<![\w-])re-[a-z]{2,20}+\s+(?:it|them|the\s+[\w-]+(?:\s+[\w-]+){0,3}?)\s+(?:up\s+to\s+|at\s+most\s+)?{N}\s+"
        r"(?:more\s+)?times\b(?!\s+(?:a|an|per|each|every)\s)"),
    # "the whole close-down, first step to last, mustn't go past 40 minutes": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:whole|entire|full)\s+[\w-]+(?:\s+[\w-]+){0,2}?\s*+,?\s*+(?:(?:from\s+)?(?:first\s+step\s+"
        r"to\s+last|start\s+to\s+finish|end\s+to\s+end|all\s+steps(?:\s+together)?)\s*+,?\s*+)?(?:mustn'?t|must\s+not|shouldn'?t|"
        r"should\s+not|can'?t|cannot|may\s+not|won'?t|is\s+not\s+to)\s+(?:go|run|take|last)\s+(?:past|over|beyond|longer\s+than|"
        r"more\s+than)\s+{D}"),
    # "if the run as a whole isn't wrapped up in 90 seconds": the whole run's time
    Row("run_timeout", r"(?<![\w-])(?:the\s+)?(?:run|job|workflow|batch)\s+as\s+a\s+whole\s+(?:isn'?t|is\s+not|hasn'?t|has\s+not)\s+"
        r"(?:been\s+)?(?:wrapped\s+up|done|finished|complete(?:d)?|over|through)\s+(?:in|within|inside|by|after)\s+{D}"),
    # "overall cap for tonight's batch - 2 h 30 m": the whole run's time
    Row("run_timeout", r"(?<![\w-])overall\s+(?:cap|limit|ceiling|budget|max(?:imum)?|time\s+limit|deadline)\s+(?:for|on)\s+"
        r"[\w'-]+(?:\s+[\w'-]+){0,3}?\s*+[-:–—]\s*+{D}"),
)

# the words its rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|no|not|never|without|n't|ends|kills|stops|halts|aborts|terminates|cancels|sinks|scuppers|abort|halt|"
                  r"bail|treat|count|record|log|score|mark|luck|joy|dice|start|begin|and\s+so\s+on|etc|\.\.\.|…|before|per|"
                  r"each|every|for\s+each|a\s+(?:go|try|attempt)|let|going|running|second|once|1\s+time|as\s+if|as\s+though|crack|stab|"
                  r"bash|whack|punt|swing|give|allow|grant|most|max|limit|longest|ceiling|re-|whole|entire|full|overall"}

_rx.save()
