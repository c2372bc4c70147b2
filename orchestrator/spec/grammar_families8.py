"""Rows of the policy grammar (`spec.grammar`) for the phrasing families an eighth blind set showed.

Joined to the grammar's tables as `spec.grammar_families7`' are: `*_FIRST` rows before the
table's own, `*_LAST` after them; `GATES` are the words a sentence needs for the table to be
tried. The families, in words that are not the set's:

- a quoted text to go on with ("carry on with the stock message "We'll be back soon"") is
  the value the step hands on (its text output, `plan.dataflow.completed_fallback`);
- a value assumed for a field ("assume retry_after 30", "assume the score's zero"): the field
  and its value, or the value alone for the step's output;
- "let it run for up to 8 s, then try again": how long one attempt may take, not a budget;
- a backoff written as a range in brackets ("exp(1s..32s)"): exponential from the first
  to the second;
- the whole run given a time ("the whole migration gets 2 hours wall-clock");
- "the one and only re-run", "a single automatic retry": one retry; "no sooner than 2 min after
  the failure": the wait before it;
- "stop the job if it's been running for 4 min", "drop it if it's still not done after 900ms": the
  attempt's timeout, and so is "if it hasn't answered in 2 minutes, cut it off"; "a second chance after 5 minutes": the wait before the one retry;
- "go on to PACKING anyway with `delay_days := 2`": the field and its value;
- "the retry logic lives in the SDK": no policy here;
- "then we publish without it": going on without the step's result;
- how the items are run ("one at a time or all together, it doesn't matter") is no policy.
"""

from __future__ import annotations

from orchestrator.spec import bracket_values40 as brackets40
from orchestrator.spec import cap_then_failed40 as cap40
from orchestrator.spec import carry_value as carry19
from orchestrator.spec import carry_values43 as values43
from orchestrator.spec import grammar_families9 as more9
from orchestrator.spec import grammar_families10 as more10
from orchestrator.spec import grammar_families11 as more11
from orchestrator.spec import grammar_families13 as more13
from orchestrator.spec import grammar_families15 as more15
from orchestrator.spec import grammar_families16 as more16
from orchestrator.spec import grammar_families17 as more17
from orchestrator.spec import grammar_families18_policy as policy18
from orchestrator.spec import grammar_families19 as policy19
from orchestrator.spec import grammar_families21 as policy21
from orchestrator.spec import grammar_families23 as policy23
from orchestrator.spec import grammar_families24 as policy24
from orchestrator.spec import grammar_person_wait as wait17
from orchestrator.spec import grammar_value_pairs as pairs17
from orchestrator.spec import h24_left31 as left31
from orchestrator.spec import h25_left33 as left33
from orchestrator.spec import justfile35 as just35
from orchestrator.spec import (
    label_limit46,
    loop_words40,
    notation32,
    notation33,
    notes38,
    phrasing35,
    phrasing38,
    rota45,
    salon38,
    sheet_phrasing42,
    sheet_phrasing45,
)
from orchestrator.spec import legal_prose29 as legal29
from orchestrator.spec import log54 as log54_
from orchestrator.spec import phrasing42 as phrasing42_
from orchestrator.spec import phrasing45 as phrasing45_
from orchestrator.spec import phrasing46 as phrasing46_
from orchestrator.spec import phrasing48 as phrasing48_
from orchestrator.spec import phrasing49 as phrasing49_
from orchestrator.spec import phrasing50 as phrasing50_
from orchestrator.spec import phrasing52 as phrasing52_
from orchestrator.spec import phrasing53 as phrasing53_
from orchestrator.spec import phrasing54 as phrasing54_
from orchestrator.spec import policy_abandon as abandon23
from orchestrator.spec import policy_back_in27 as back27
from orchestrator.spec import policy_notation24 as notation24
from orchestrator.spec import policy_notation25 as notation25
from orchestrator.spec import policy_values_said as values23
from orchestrator.spec import policy_yaml_keys as yaml23
from orchestrator.spec import procfile38 as proc38
from orchestrator.spec import rakefile42 as rake42
from orchestrator.spec import recovery53 as recovery53_
from orchestrator.spec import taskfile as task41
from orchestrator.spec import two_values29 as values29
from orchestrator.spec.grammar_row import Row

# a field as written in prose: with an underscore or in backticks (a bare word is too often a verb)
_FIELD = r"(?:`[a-z_]\w*+`|[a-z]\w*?_\w++)"
_LITERAL = (r"(?:\"[^\"]{0,200}\"|'[^']{0,200}'|-?\d+(?:\.\d+)?(?![\d.]|\s*(?:%|ms|s|secs?|seconds?|m|mins?|minutes?|h|"
            r"hrs?|hours?|d|days?|x|times|retries|tries|attempts)\b)|true\b|false\b|null\b|\[\s*\]|\{\s*\})")
_GOING_ON = (r"(?:continu(?:e|es|ed|ing)|carr(?:y|ies|ied|ying)\s+on|go(?:es|ing)?\s+on|mov(?:e|es|ed|ing)\s+on|"
             r"proceed(?:s|ed|ing)?|fall(?:s|ing)?\s+back|reply|respond|answer|post|send)")
_TEXT = (r"(?:(?:canned|stock|standard|default|fallback|placeholder|boilerplate|generic|fixed|holding|apology)\s+)?"
         r"(?:text|message|reply|response|answer|string|note|line|wording|copy|sentence|notice)")
_DOING = r"(?:spin|run|go|churn|work|chug|grind|think|hang|cook|sit|try|grind\s+away|keep\s+going)"

# "mark it as skipped", "set status to queued" is a policy only beside a failure or going on: alone ("Set the
# ticket to pending.") it is what the step does, and a value must come from its own sentence
VALUE_SAID = (r"{COND}|instead|continu|carry\s+on|go\s+on|move\s+on|keep\s+going|proceed|skip|anyway|error|crash|"
              r"\bdown\b|broken|time[sd]?\s+out|timeout|give\s+up|retr|tries|attempts|unavailable|unreachable|flak")

EARLY_FIRST: tuple[Row, ...] = (
    # "carry on with the stock message "Back soon."": the quoted text is the value handed on
    Row("value_literal", r"\b" + _GOING_ON + r"\s+with\s+(?:the\s+|a\s+|an\s+|this\s+|our\s+)?" + _TEXT
        + r"\s*+[:,-]?\s*+(?P<value>\"[^\"]{1,400}\")"),
    # "assume retry_after 30", "assume `score` = 0": the field and its value
    Row("value_fields", r"\bassume\s+(?:that\s+)?(?:the\s+)?(?P<fields>" + _FIELD + r")\s++(?:is\s+|=\s*+|:=\s*+|of\s+|at\s+|"
        r"to\s+be\s+)?(?P<value>" + _LITERAL + r")"),
    # "assume the score's zero", "assume the count is 0": the value of what the step returns
    Row("value_field", r"\bassume\s+(?:that\s+)?(?:the\s+|its\s+)(?:[\w-]+\s+){0,2}?[\w-]+(?:'s|\s+is)\s+(?P<field>)(?P<value>zero|0)\b"),
    # "go on to SHIPPING anyway with `delay_days := 3`": the field and its value
    Row("value_field", r"\b(?:anyway|regardless|all\s+the\s+same)\s+with\s+`?(?P<field>[a-z_]\w*+)\s*+:?=\s*+(?P<value>"
        + _LITERAL + r")`?"),
    # "the whole playbook should be finished within 20 min"
    Row("run_timeout", r"\b{WHOLE}\s+(?:must|should|has\s+to|needs?\s+to|is\s+to)\s+be\s+(?:finished|completed?|wrapped\s+up|"
        r"through)\s+(?:inside|within|in(?:\s+under)?|under|in\s+less\s+than)\s+(?:the\s+|a\s+|an\s+)?{D}"),
    # "the whole migration gets 2 hours wall-clock, not a minute more"
    Row("run_timeout", r"\b{WHOLE}\s+(?:gets?|has|is\s+given|is\s+allowed)\s+(?:up\s+to\s+|at\s+most\s+)?{D}(?:\s+(?:of\s+)?"
        r"(?:wall[- ]?clock|wall[- ]?time|total|overall|in\s+total)(?:\s+time)?)?(?:\s*+,?\s*+not\s+(?:a|one|1)\s*+"
        r"(?:second|sec|s|minute|min|m|moment)\s+(?:more|longer))?"),
)

FIRST_FIRST: tuple[Row, ...] = (
    # "kill the export if it's been running for 3 min", "abandon it if it's still not done after 2500ms"
    Row("timeout", r"\b(?:kill|abort|cancel|stop|terminate|abandon|drop)\s+(?:it|this|that|the\s+[\w-]+)\s+(?:if|when|once)\s+"
        r"(?:it'?s|it\s+has|it\s+is)\s+been\s+(?:running|going|working|busy|hanging|stuck)\s+(?:for\s+)?(?:more\s+than\s+|over\s+)?{D}"),
    Row("timeout", r"\b(?:if|when|once)\s+(?:it'?s|it\s+is)\s+still\s+(?:not\s+done|running|going)\s+(?:after|at|past|by)\s+{D}"
        r"(?=\s*+,?\s*+(?:abandon|drop|kill|abort|cancel|stop|give\s+up|bail))"),
    # "if it hasn't answered in 2 minutes, cut it off": the attempt's time, the kill said after it
    Row("timeout", r"\b(?:if|when|once)\s+(?:it|they|the\s+[\w-]+)\s+(?:hasn'?t|has\s+not|haven'?t|have\s+not|didn'?t|did\s+not)\s+"
        r"(?:come\s+back|answered|returned|finished|responded|replied|reported\s+back)\s+(?:in|within|after|by)\s+{D}"
        r"(?=\s*+,?\s*+(?:then\s+)?(?:kill|abort|cancel|stop|drop|cut|abandon))"),  # "give up": a rule on the timeout
    # "give the mailer a second chance after 10 minutes": one retry, after that wait
    Row("wait_fixed", r"\b(?:after|in)\s+{D}", needs=r"\b(?:a|one)\s+second\s+(?:chance|go|shot|try)\s+(?:after|in)\b"),
    # "the one and only retry", "a single automatic re-run": one retry
    Row("retries", r"\b(?:(?:the\s+|its\s+)?one\s+and\s+only|(?:a|the|its)\s+(?:single|sole|lone)|the\s+only|1)\s+(?:automatic\s+|"
        r"automated\s+)?(?:retry|re-?try|re-?run)\b", value=1),
    # "let it run for up to 8 s, then try again": one attempt's time, the retry said after it
    Row("timeout", r"\blet\s+(?:it|this|that|them|(?:the|each|every)\s+[\w-]+(?:\s+[\w-]+)?)\s+" + _DOING + r"\s+(?:for\s+)?(?:up\s+to\s+|"
        r"at\s+most\s+|no\s+more\s+than\s+|a\s+max(?:imum)?\s+of\s+)?{D}(?:\s+(?:max(?:imum)?|tops|at\s+most))?(?=\s*+,?\s*+(?:and\s+)?(?:then|before|after\s+which)\s+"
        r"(?:[\w-]+\s+){0,3}?(?:try|retry|re-?run|kill|abort|cancel|stop|give\s+up|cut|bail|another|have\s+another))"),
)

BOUNDS_FIRST: tuple[Row, ...] = (
    # "backoff=exp(1s..32s)", "exponential(500ms-8s)": exponential from the first to the second
    Row("exp_range", r"\b(?:(?:back-?\s*off|delays?|waits?)\s*+[:=]\s*+)?exp(?:o|onential)?\s*+\(\s*+{D}\s*+(?:\.\.\.?|–|-|to|,)\s*+{D}\s*+\)", also=("exponential",)),
)

WAIT_FIRST: tuple[Row, ...] = (
    # "no sooner than 90 seconds after the failure": the wait before the retry
    Row("wait_fixed", r"\b(?:no\s+sooner|not\s+(?:any\s+)?sooner|no\s+earlier|not\s+earlier)\s+than\s+{D}\s+(?:after|since|"
        r"following)\b"),
)

FALLBACK_FIRST: tuple[Row, ...] = (
    # "then we publish without it", "otherwise ship without the lint": going on without the step's result
    Row("continue", r"\b(?:(?:and\s+)?then\s+|otherwise\s+|or\s+else\s+)?(?:we\s+|you\s+|just\s+)?(?:ship|publish|release|"
        r"go\s+ahead|go\s+live|deploy|proceed|carry\s+on|move\s+on|continue|send\s+it)\s+without\s+(?:it|them|this|that|"
        r"the\s+[\w-]+)\b"),
)

IGNORE_LAST: tuple[Row, ...] = (
    # "the retry logic lives in the SDK", "retries are handled by the client library": none here
    Row("ignore", r"\b(?:the\s++)?(?:retry|retries|retrying|re-?try)\s++(?:(?:logic|policy|handling|behaviou?r)\s++)?(?:for\s++"
        r"(?:this|it|that)\s++)?(?:lives?|is|are|sits?|happens?)\s++(?:(?:handled|done)\s++)?(?:in|inside|by|within)\s++"
        r"(?:the\s++)?(?:[\w-]++\s++){0,2}?(?:library|sdk|client|driver|wrapper|gateway|proxy|mesh|queue)\b(?:\s*+,?\s*+not\s+here)?"),
    # "one at a time or all together, it doesn't matter": how the items run, not a failure's handling
    Row("ignore", r"\b(?:one\s+by\s+one|one\s+at\s+a\s+time|one\s+after\s+(?:the\s+)?(?:other|another)|in\s+parallel|"
        r"in\s+sequence|in\s+order|in\s+turn|sequentially|serially|concurrently|all\s+at\s+once|all\s+together|"
        r"side\s+by\s+side|the\s+order)\b[^.;]{0,60}?\b(?:it\s+)?(?:doesn'?t|does\s+not|won'?t|will\s+not)\s+matter\b"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|assume|with|gets?|has|given|allowed|anyway|regardless|same",
    "FIRST": r"|let|only|single|sole|lone|1|been|still|second|hasn|has\s+not|haven|have\s+not|didn|did\s+not",
    "BOUNDS": r"|exp",
    "WAIT": r"|sooner|earlier",
    "FALLBACK": r"|without",
    "IGNORE": r"|matter|library|sdk|client|driver|wrapper|gateway|proxy|mesh|queue",
}

# the ninth round's families (`spec.grammar_families9`), joined here so that the grammar's own module does not grow
FIRST_FIRST, BOUNDS_FIRST = more9.FIRST + FIRST_FIRST, more9.BOUNDS + BOUNDS_FIRST
WAIT_FIRST, FALLBACK_FIRST = more9.WAIT + WAIT_FIRST, more9.FALLBACK + FALLBACK_FIRST
GATES, IGNORE_LAST = {name: words + more9.GATES.get(name, "") for name, words in GATES.items()}, IGNORE_LAST + more9.IGNORE
# the tenth round's families (`spec.grammar_families10`): before the ninth's
EARLY_FIRST, FIRST_FIRST = more10.EARLY + EARLY_FIRST, more10.FIRST + FIRST_FIRST
GATES = {name: words + more10.GATES.get(name, "") for name, words in GATES.items()}
# the eleventh round's families (`spec.grammar_families11`): before the tenth's
EARLY_FIRST, FIRST_FIRST = more11.EARLY + EARLY_FIRST, more11.FIRST + FIRST_FIRST
GATES, IGNORE_LAST = {name: words + more11.GATES.get(name, "") for name, words in GATES.items()}, IGNORE_LAST + more11.IGNORE
# the thirteenth round's families (`spec.grammar_families13`): before the eleventh's
EARLY_FIRST = more13.EARLY + EARLY_FIRST
GATES = {name: words + more13.GATES.get(name, "") for name, words in GATES.items()}
# the fifteenth round's families (`spec.grammar_families15`): before the thirteenth's
EARLY_FIRST = more15.EARLY + EARLY_FIRST
GATES = {name: words + more15.GATES.get(name, "") for name, words in GATES.items()}
# the sixteenth round's families (`spec.grammar_families16`): a single retry's wait first, words about order ignored
WAIT_FIRST, IGNORE_LAST = more16.WAIT + WAIT_FIRST, IGNORE_LAST + more16.IGNORE
EARLY_FIRST = more16.EARLY + EARLY_FIRST
GATES = {name: words + more16.GATES.get(name, "") for name, words in GATES.items()}
# the seventeenth round's families (`spec.grammar_families17`): values to carry on with, "only once", one retry
EARLY_FIRST, IGNORE_LAST = more17.EARLY + EARLY_FIRST, IGNORE_LAST + more17.IGNORE
GATES = {name: words + more17.GATES.get(name, "") for name, words in GATES.items()}
# a `field value` pair said right before going on ("mark sent false and keep going", `spec.grammar_value_pairs`)
EARLY_FIRST = pairs17.EARLY + EARLY_FIRST
GATES = {name: words + pairs17.GATES.get(name, "") for name, words in GATES.items()}
# a time given to a person with what their silence means (`spec.grammar_person_wait`): never a retry or timeout
EARLY_FIRST = wait17.EARLY + EARLY_FIRST
GATES = {name: words + wait17.GATES.get(name, "") for name, words in GATES.items()}
# the eighteenth round's policy and limit families (`spec.grammar_families18_policy`): before every earlier round's
EARLY_FIRST = policy18.EARLY + EARLY_FIRST
GATES = {name: words + policy18.GATES.get(name, "") for name, words in GATES.items()}
# the nineteenth round's values to go on with (`spec.carry_value`): before every earlier round's
EARLY_FIRST = carry19.EARLY + EARLY_FIRST
GATES = {name: words + carry19.GATES.get(name, "") for name, words in GATES.items()}
# the twentieth round's policy families (`spec.grammar_families19`): before every earlier round's
EARLY_FIRST, IGNORE_LAST = policy19.EARLY + EARLY_FIRST, IGNORE_LAST + policy19.IGNORE
GATES = {name: words + policy19.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-first round's policy notations (`spec.grammar_families21`): before every earlier round's
EARLY_FIRST, IGNORE_LAST = policy21.EARLY + EARLY_FIRST, IGNORE_LAST + policy21.IGNORE
GATES = {name: words + policy21.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-third round's values said as `name value` pairs (`spec.policy_values_said`), a time to abandon
# by (`spec.policy_abandon`), "never again" after a failure (`spec.policy_yaml_keys`), then its one-line
# phrasings (`spec.grammar_families23`): before every earlier round's
EARLY_FIRST = values23.EARLY + abandon23.EARLY + yaml23.EARLY + policy23.EARLY + EARLY_FIRST
IGNORE_LAST = IGNORE_LAST + policy23.IGNORE
GATES = {
    name: words + "".join(m.GATES.get(name, "") for m in (values23, abandon23, yaml23, policy23))
    for name, words in GATES.items()
}
# the twenty-fourth round's one-line phrasings (`spec.grammar_families24`): before every earlier round's
EARLY_FIRST = policy24.EARLY + EARLY_FIRST
GATES = {name: words + policy24.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-fourth round's policies in a document's own notation (`spec.policy_notation24`): before the phrasings
EARLY_FIRST, IGNORE_LAST = notation24.EARLY + EARLY_FIRST, IGNORE_LAST + notation24.IGNORE
GATES = {name: words + notation24.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-fifth round's policies in a document's own notation (`spec.policy_notation25`): before every earlier round's
EARLY_FIRST, IGNORE_LAST = notation25.EARLY + EARLY_FIRST, IGNORE_LAST + notation25.IGNORE
GATES = {name: words + notation25.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-seventh round's time to be back in (`spec.policy_back_in27`): before every earlier round's
EARLY_FIRST = back27.EARLY + EARLY_FIRST
GATES = {name: words + back27.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-ninth round's recovery in a legal register (`spec.legal_prose29`): before every earlier round's
EARLY_FIRST = legal29.EARLY + EARLY_FIRST
GATES = {name: words + legal29.GATES.get(name, "") for name, words in GATES.items()}
# the twenty-ninth round's values to go on with after going on "as" (`spec.two_values29`): before every earlier round's
EARLY_FIRST = values29.EARLY + EARLY_FIRST
GATES = {name: words + values29.GATES.get(name, "") for name, words in GATES.items()}
# the forty-third round's values to go on with after going on and a comma: "carry on, k = v and k2 = V" (`spec.carry_values43`)
EARLY_FIRST = values43.EARLY + EARLY_FIRST
GATES = {name: words + values43.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-first round's deadline with its outcome and words that only look like a policy (`spec.h24_left31`)
EARLY_FIRST, IGNORE_LAST = EARLY_FIRST + left31.EARLY, IGNORE_LAST + left31.IGNORE  # after the earlier rounds
GATES = {name: words + left31.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-second round's notations and asides (`spec.notation32`): before every earlier round's
EARLY_FIRST, IGNORE_LAST = notation32.EARLY + EARLY_FIRST, IGNORE_LAST + notation32.IGNORE
GATES = {name: words + notation32.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-third round's phrasings said in passing and settings' lines (`spec.notation33`): before every earlier round's
EARLY_FIRST, IGNORE_LAST = notation33.EARLY + EARLY_FIRST, IGNORE_LAST + notation33.IGNORE
GATES = {name: words + notation33.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-third round's retries said as another go, a fallback done "on" a skill, "one time only" (`spec.h25_left33`)
EARLY_FIRST = left33.EARLY + EARLY_FIRST
GATES = {name: words + left33.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-fifth round's recovery phrasings (`spec.phrasing35`): before every earlier round's, an attempt's time said
# as a limit after them ("the whole run gets 2 hours, not a minute more" stays the whole run's)
EARLY_FIRST, IGNORE_LAST = phrasing35.EARLY + EARLY_FIRST + phrasing35.LATE, IGNORE_LAST + phrasing35.IGNORE
GATES = {name: words + phrasing35.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-eighth round's "if it hasn't found anything in 30 seconds forget it" (`spec.salon38`)
EARLY_FIRST, IGNORE_LAST = salon38.EARLY + EARLY_FIRST, IGNORE_LAST + salon38.IGNORE
GATES = {name: words + salon38.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-fifth round's recipe comments: "don't put a retry on it", a grace period, "(a if b, c otherwise)" (`spec.justfile35`)
EARLY_FIRST, IGNORE_LAST = just35.EARLY + EARLY_FIRST, IGNORE_LAST + just35.IGNORE
GATES = {name: words + just35.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-eighth round's Procfile comments: "cap at 10 min, it's never longer" is the time limit (`spec.procfile38`)
EARLY_FIRST, IGNORE_LAST = proc38.EARLY + EARLY_FIRST, IGNORE_LAST + proc38.IGNORE
GATES = {name: words + proc38.GATES.get(name, "") for name, words in GATES.items()}
# the forty-first round's task comment "if nothing back in 20s kill it" is the attempt's time limit (`spec.taskfile`)
EARLY_FIRST = task41.EARLY + EARLY_FIRST
GATES = {name: words + task41.GATES.get(name, "") for name, words in GATES.items()}
# the forty-second round's task comment "wait 15s then double each time" is a backoff from that wait (`spec.rakefile42`)
EARLY_FIRST = rake42.EARLY + EARLY_FIRST
GATES = {name: words + rake42.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-eighth round's no retry said "only ever ONCE", "no resend" (`spec.notes38`): before every earlier round's
EARLY_FIRST = notes38.EARLY + EARLY_FIRST
GATES = {name: words + notes38.GATES.get(name, "") for name, words in GATES.items()}
# the thirty-eighth round's recovery phrasings (`spec.phrasing38`): before every earlier round's
EARLY_FIRST = phrasing38.EARLY + EARLY_FIRST
GATES = {name: words + phrasing38.GATES.get(name, "") for name, words in GATES.items()}
# the later rounds' tables, each in turn before every earlier round's rows (its IGNORE after theirs):
# round 40's bare limit said before the step is counted as failed (`spec.cap_then_failed40`), its values to go on with
# said in brackets (`spec.bracket_values40`), its loop, gather and distance words that only look like a policy
# (`spec.loop_words40`); round 42's recovery phrasings (`spec.phrasing42`) and "45 sec then kill it", "don't hold us
# up - x = 0" (`spec.sheet_phrasing42`)
# round 45's "if one goes wrong" (no count of goes) and "sits there for 5 mins on a go, stop it" (`spec.rota45`), its
# recovery phrasings (`spec.phrasing45`) and "NEVER twice" (`spec.sheet_phrasing45`); round 46's "payment API: 2 min,
# then give up" (`spec.label_limit46`) and its recovery phrasings (`spec.phrasing46`); round 48's (`spec.phrasing48`),
# round 49's (`spec.phrasing49`), round 50's (`spec.phrasing50`), round 52's (`spec.phrasing52`) and round 53's
# (`spec.phrasing53`, `spec.recovery53`) and round 54's (`spec.phrasing54`, the deck log's `spec.log54`)
for _later in (cap40, brackets40, loop_words40, phrasing42_, sheet_phrasing42, rota45, phrasing45_, sheet_phrasing45,
               label_limit46, phrasing46_, phrasing48_, phrasing49_, phrasing50_, phrasing52_, phrasing53_, recovery53_,
               phrasing54_, log54_):
    EARLY_FIRST = tuple(getattr(_later, "EARLY", ())) + EARLY_FIRST
    IGNORE_LAST = IGNORE_LAST + tuple(getattr(_later, "IGNORE", ()))
    GATES = {name: words + _later.GATES.get(name, "") for name, words in GATES.items()}
