"""What holdout25 still misread (thirty-third round): retries said as "another go", a fallback done "on" another
skill, a run count said as "one time only", and a person asking for time in the first person.

- waits after a retry said as another go: "have another go twice, after 15 s and then 60 s", "give it another
  try, in 5 s then 30 s": the waits in order (`EARLY`; the series needed a retry word before);
- a fallback skill said as where the work is done instead: "do it on `paper-log` instead", "log them in
  `sheet-book` instead", "put it through to `manual-desk` instead", beside a failure (`EARLY`);
- a run count said as "one time" or "a single time": "Send it ONE time only, ever.", "ring them one time
  only", "post it a single time": no retry (`EARLY`); `ONCE_WORDS` lets a sentence saying so be placed on
  the step a note before it names (`spec.elsewhere.POLICY_WORDS`), as any policy's;
- a value named bare in a list whose other values say where they come from ("USES: Drug, dose, stock conc.
  off line 1", "needs: region, owner from step 2"): the bare one is the workflow input of that name even where an
  earlier step also outputs it (`bare_input_item`, used by `plan.mapping`, warned);
- the approver's time asked in the first person after the approval's own sentence: "Give me 10 min.",
  "give us half an hour", "allow me 5 minutes", "I need 20 min to answer": the approval's wait (`asked_time`,
  used by `spec.approval_hold.person_wait`); "give me the list" names no time and is not read.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ANOTHER = (r"(?:have|give\s+(?:it|them|this|that)|take|make)\s+(?:an?\s+|one\s+)?(?:other|another|more|further|second|"
            r"fresh)\s+(?:go|goes|try|tries|shot|shots|bash|crack|attempt|attempts)")
_OBJ = r"(?:it|them|this|that|the\s+[\w-]{1,30}+)"
_DO_VERB = (r"(?:do|put|log|record|file|enter|note|write|book|keep|take|send|push|pass|hand|run|process|print|"
            r"post|raise|make)")
_ONCE_VERB = (r"(?:send|run|post|call|fire|log|submit|execute|file|print|notify|ping|email|text|charge|bill|book|"
              r"publish|issue|trigger|invoke|dispatch|message|page|ring|phone|bleep|buzz|wake|alert|dial|sound|"
              r"broadcast|announce|release|mail)")
_ONE_TIME = r"(?:one|1|a\s+single|a\s+solitary)\s+(?:time|go|shot)"

EARLY: tuple[Row, ...] = (
    # "have another go twice, after 15 s and then 60 s": the waits of the retries, in order
    # (a count before the waits: "another go after 30 s, then 2 min" is a retry a wait, `spec.policy_notation25`)
    Row("wait_seq", r"(?<!\w)(?:after|in)\s++(?P<seq>{SERIES})",
        needs=_ANOTHER + r"\s+(?:\d{1,3}+\s+(?:more\s+)?times|twice|thrice)\s*+,?\s*+(?:after|in)\b"),
    # "do it on `paper-log` instead", "log them in `sheet-book` instead" beside a failure: the fallback skill
    Row("use_skill", r"(?<![\w-])" + _DO_VERB + r"\s+" + _OBJ + r"\s+(?:on|in|into|onto|to|over\s+to|through\s+to|"
        r"over\s+(?:on|in))\s+(?:the\s+)?{NAME}\s+instead\b(?!\s+of\b)", needs=r"{COND}"),
    # "Send it ONE time only, ever.", "ring them a single time": no retry
    Row("no_retry", r"(?<![\w-])(?:only\s+|just\s+)?" + _ONCE_VERB + r"\s+(?:" + _OBJ + r"\s+)?(?:only\s+|just\s+)?" + _ONE_TIME
        + r"(?:\s+only)?(?:\s*+,?\s*+ever)?(?=\s*+[.;!,]|\s*+$)"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|after|instead|one\s+time|1\s+time|single\s+time|solitary"}

# a run count said as one time: a policy's words, so a sentence saying only that is placed like any policy's
ONCE_WORDS = r"(?:only\s+|just\s+)?(?:one|a\s+single)\s+time\s+only|(?:only|just)\s+(?:one|a\s+single)\s+time|once\s+only"

# the approver's time asked in the first person: "Give me 10 min", "allow us 2 hours", "I need 20 min"
_ASKED = _rx(r"(?i)(?<![\w-])(?:(?:give|allow|grant|leave)\s++(?:me|us)|I(?:'ll|\s++will)?\s++need|we(?:'ll|\s++will)?"
             r"\s++need|I\s++want|I\s++get|we\s++get)\s++(?:up\s++to\s++|at\s++most\s++|a\s++good\s++)?"
             r"(?P<d>\d{1,6}+(?:\.\d{1,3}+)?+\s*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)"
             r"|half\s++an?\s++hour|an?\s++hour|a\s++day|a\s++minute)(?![\w-])")
_HALF = {"half an hour": 1800.0, "half a hour": 1800.0, "an hour": 3600.0, "a hour": 3600.0, "a day": 86400.0,
         "a minute": 60.0}


def asked_time(sentence: str) -> float | None:
    """The seconds a person asks for in the first person ("Give me 10 min.", "allow us half an hour",
    "I need 20 min"): the approval's wait when said after the approval's sentence; None when no time is
    asked ("give me the list")."""
    from orchestrator.spec.phrase_value import duration

    m = _ASKED.search(sentence)
    if m is None:
        return None
    said = " ".join(m.group("d").lower().split())
    return _HALF[said] if said in _HALF else duration(said)


# a value said with where it comes from: "off line 1", "from step 2", "out of row 3", "from [1]", "line 2's"
_SOURCED = _rx(r"(?i)(?<![\w-])(?:(?:off|from|out\s++of|per|via)\s++(?:the\s++)?(?:line|step|stage|row|item|no\.?|#)"
               r"\s*+[0-9a-z]{1,4}+(?![\w-])|(?:off|from)\s++\[\s*+\d{1,3}+\s*+\]|(?:line|step|stage|row)\s++[0-9a-z]{1,4}+'s"
               # an SOP's section number: "the summary from 5.3", "the lots from 5.1" (not "from 2.5 mm")
               r"|from\s++(?:section\s++|§\s*+)?\d{1,2}+\.\d{1,2}+(?:\.\d{1,2}+)?+(?=\s*+(?:[,.;)]|$|and\b|or\b)))")
_ITEM_CUT = _rx(r"[,;|\n]|\.\s")  # a list's items, and a sentence's end ("... from step 1. Note: ...")
# a list item's lead-in before the value it names: "giving test ID", "passing the run date", "plus analyst initials"
_LEAD = _rx(r"(?i)^(?:(?:giving|passing|sending|supplying|providing|including|using|with|plus|and)\s++)(?:the\s++)?")


def bare_input_item(text: str, name: str) -> str | None:
    """The item of a list in `text` that names `name` bare ("Drug", "giving test ID") while another item of the
    same text says where its value comes from ("stock conc. off line 1", "the summary from 5.3"): the author said
    the steps' values, so the bare one is the workflow input; None when no item says a source, or `name` is not
    named bare."""
    items = [i.rpartition(": ")[2].strip(" .:-*`'\"()") for i in _ITEM_CUT.split(text)]  # "uses: Drug": the value
    if not any(_SOURCED.search(i) for i in items):
        return None
    for item in items:
        for said in dict.fromkeys((item, _LEAD.sub("", item, count=1))):
            if 0 < len(said) <= 60 and "_".join(said.lower().replace("-", " ").split()) == name.lower():
                return said
    return None


_rx.save()
