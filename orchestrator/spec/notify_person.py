"""A person to be told, said in a step's text, that no failure calls for: a message the run cannot send.

    "Email Priya when it finishes."                       no fallback; warned: the run sends no email
    "Ping the results inbox every 2 minutes"              a poll, not a message: nothing warned
    "then tell the reading-room desk it is online"        no fallback; warned
    "carry on with printed = 0 and ping me on WhatsApp"   the carry-on stays the fallback; the ping warned

The policy grammar reads "page / ping / email / tell <someone>" after a failure as an escalation (the
run stops, escalated, for a person to look at): "if it still fails, page the on-call". The same words
with no failure in the sentence, about the step having finished ("when it finishes", "it is online",
"so they know"), ask for a message to be sent; read as an escalation they made a fallback nobody
asked for, without a word. Beside a carry-on ("carry on with X and ping me") the escalation was used
and the author's carry-on lost. A notification is no policy: no skill sends it, so `told(...)` says
whether the escalation read is such a message, and `spec.phrase` drops it from the step's failure
handling and says at its line that the run does not send it (add a step with a skill that sends it).
A person to tell that no reader took ("retry once; then call the conservator", "text Sam") is said the
same way (`person_to_tell`), in a sentence that states a policy. Beside an approval ("If nobody signs,
do NOT make the worklist, page the RPh supervisor"; "no answer in an hour = reject and ring the duty
doctor") the run can wait and reject on silence but sends no page: `told_at_approval` gives the words,
warned at the line, and the approval is read as ever (it was dropped without a word, or read as an
escalation nobody wrote a skill for).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# words that tell a person ("ping me", "email Priya", "let the coach know", "text the groundsman")
_TELLS = _rx(r"(?i)^\W*+(?:and\s++|then\s++|also\s++|just\s++|please\s++)*+(?:ping|pinging|email|e-mail|emailing|"
             r"text|texting|message|messaging|slack|tell|telling|inform|informing|notify|notifying|let|call|ring|"
             r"phone|page|paging|alert|alerting|dm|whatsapp)(?![\w-])")
# a failure said in the sentence: then the words are an escalation after it, as the grammar reads them
_FAILURE = _rx(r"(?i)(?<![\w-])(?:fail\w*+|error\w*+|down|outage|jam\w*+|stuck|break\w*+|broke\w*+|crash\w*+|"
               r"times?\s++out|timed\s++out|timeout|can['’]?t|cannot|couldn['’]t|doesn['’]t|won['’]t|didn['’]t|"
               r"isn['’]t|still|problem\w*+|wrong|no\s++(?:answer|reply|response)|nobody|no\s++one|give\s++up|"
               r"gives\s++up|otherwise|unless|else|missing|refus\w*+|reject\w*+|flaky|unavailable|unreachable|"
               r"hiccup\w*+|issue\w*+|invalid|falls?\s++over|dies|died|hangs?|hung|chokes?|trips?|not\s++work\w*+|"
               r"goes\s++wrong|manual\w*+|escalat\w*+|on-?call|incident|alarm)(?![\w-])")
# the step having done its work: "when it finishes", "once done", "it is online", "so they know"
_DONE = _rx(r"(?i)(?<![\w-])(?:when|once|after)\s++(?:it|that|this|the\s++[\w-]++|we|you|they)?+\s*+"
            r"(?:['’]s\s++|is\s++|are\s++|has\s++|have\s++)?+(?:finish\w*+|done|complete\w*+|ready|up|online|live|"
            r"posted|printed|sent|in|over|through)(?![\w-])|(?<![\w-])(?:when|once|after)\s++(?:done|finished|"
            r"complete)(?![\w-])|(?<![\w-])(?:it|they|that)\s++(?:is|are|['’]s|['’]re)\s++(?:online|up|live|ready|done|"
            r"out|posted|in)(?![\w-])|(?<![\w-])so\s++(?:she|he|they|we|I|you|everyone|people)\s++(?:know|knows|can)"
            r"(?![\w-])|(?<![\w-])know\s++(?:it|that|the)(?![\w-])|(?<![\w-])(?:results?|outcome)(?![\w-])")


# a person to be told, named after the telling word: "call the conservator", "text Sam", "let the coach know"
_THING = (r"(?:run|step|job|batch|file|files|list|report|api|endpoint|service|server|script|skill|function|tool|"
          r"lookup|query|request|webhook|url|link|printer|scanner|board|queue|database|db|cache|it|this|that|retry)")
# (not "call us": what others do, "they'll just say call us"; not a noun: "the text Sam wrote", "on the radio")
_PERSON = _rx(r"(?i)(?<![\w-])(?<!the\s)(?<!a\s)(?<!an\s)(?<!your\s)(?<!our\s)(?<!this\s)(?P<w>(?:call|ring|phone|"
              r"text|sms|whatsapp|page|ping|email|e-mail|message|notify|"
              r"alert|tell|inform)[ \t]++(?:me|him|her|them|(?:the|our|my|your)[ \t]++(?!" + _THING + r"(?![\w-]))"
              r"[A-Za-z][\w-]*+(?:[ \t]++(?!" + _THING + r"(?![\w-])|so\b|and\b|if\b|when\b|then\b|to\b)[A-Za-z][\w-]*+)"
              r"{0,2}+|(?-i:[A-Z][a-z]++))|let[ \t]++(?:me|us|him|her|them|(?:the|our|my|your)[ \t]++[A-Za-z][\w-]*+"
              r"(?:[ \t]++[A-Za-z][\w-]*+)?+|(?-i:[A-Z][a-z]++))[ \t]++know)(?![\w-])")


_THINGS = frozenset(("run", "step", "job", "batch", "file", "files", "list", "report", "api", "endpoint",
                     "service", "server", "script", "skill", "function", "tool", "lookup", "query", "request",
                     "webhook", "url", "link", "printer", "scanner", "board", "queue", "database", "db", "cache",
                     "it", "this", "that", "retry", "host", "site", "device", "machine", "sensor", "gateway",
                     "portal", "system", "app", "bot", "logger", "feed", "pipeline", "health", "check", "monitor"))
_WORDS = _rx(r"[A-Za-z][\w-]*+")
# a ping said with how often it recurs ("ping the inbox every 2 minutes"): polling a thing, not telling a person
_POLLED = _rx(r"(?i)[ \t]*+(?:[A-Za-z][\w-]*+[ \t]++){0,2}?(?:every|each)[ \t]++(?:\d|few|couple|other|half|few|min|sec|hour)")


def person_to_tell(text: str) -> tuple[int, int] | None:
    """Where `text` asks for a person to be told ("then call the conservator", "text Sam"), or None; a machine
    pinged or called ("ping the badge printer", "call the lookup API") is none."""
    for m in _PERSON.finditer(text):
        said = [*_WORDS.findall(m.group("w"))[1:], *_WORDS.findall(text[m.end():m.end() + 40])[:1]]
        if not any(w.lower() in _THINGS for w in said):  # "Ping the badge printer": the word after it too
            return m.start("w"), m.end("w")
    return None


# a role named after the telling word, as approvals say it: "page the RPh supervisor", "ring the duty manager"
_ROLE = _rx(r"(?i)(?<![\w-])(?:page|ping|ring|call|phone|text|sms|radio|notify|alert|tell|email|e-mail|escalate\s++to)\s++"
            r"(?:me|us|him|her|them|(?:the\s++)?on-?call|(?:the|our|my|your)\s++(?!(?:run|step|job|batch|file|list|report|text|email|"
            r"message|board|api|script|skill)\b)[\w-]++(?:\s++[\w-]++){0,2}?\s*+(?:supervisor|manager|lead|on-?call|director|"
            r"boss|chief|nurse|pharmacist|officer|owner|team|desk|person|engineer|editor|rph)|on-?call|(?-i:[A-Z][a-z]++))"
            r"(?![\w-])")


def told_at_approval(text: str) -> str | None:
    """The words of an approval's text that ask for a person to be told ("page the RPh supervisor",
    "ring the duty doctor"), or None."""
    if (m := _ROLE.search(text)) is not None:
        return m.group(0)
    tell = person_to_tell(text)
    return text[tell[0]:tell[1]] if tell is not None else None


def told(sentence: str, message: str, carries_on: bool) -> bool:
    """True when the escalation `message` read in `sentence` asks for a person to be told and no failure
    calls for it (module docstring): beside a carry-on (`carries_on`), or with the step's finishing said."""
    if _TELLS.match(message) is None:
        return False
    if carries_on:
        return True
    return _FAILURE.search(sentence) is None and _DONE.search(sentence) is not None


def polled(sentence: str, message: str) -> bool:
    """Whether the escalation `message` read in `sentence` is a ping said with how often it recurs ("ping the results
    inbox every 2 minutes"): a thing polled, no person told and no fallback."""
    if not message.lower().lstrip().startswith("ping"):
        return False
    at = sentence.lower().find(message.lower().strip())
    return at >= 0 and _POLLED.match(sentence, at + len(message.strip())) is not None


# a telling word and the one person told: "email me", "ping us", "text Sam", "email Dolores at the print shop"
# (not a rota, channel or address: "page the on-call", "alert #data-eng", "email ops@" stay escalations)
_TELLS_ONE = _rx(r"(?i)^(?:email|e-mail|text|ping|message|tell|ring|call|phone|slack|inform)\s++"
                 r"(?:me|us|(?-i:[A-Z][a-z]++))(?![\w@#.-])")
# the step given up, said right before that telling: "stop and ", "give up and then ", "fail the run and "
_GIVES_UP = _rx(r"(?i)(?<![\w-])(?:giv(?:e|ing)\s++up|stop|halt|abort|fail\s++(?:the\s++)?(?:run|step|job|workflow))"
                r"\s*+,?\s*+(?:and\s++)?(?:then\s++)?$")


def gives_up_telling(sentence: str, message: str) -> bool:
    """True when the escalation `message` read in `sentence` tells one person ("me", a name) right after the
    sentence gives the step up ("after that stop and email Dolores", "give up and email me", "fail the run and
    ping me"): the step fails as said, and the person is told by no one (`notice`); a rota, channel or address
    paged ("stop and page #ml-oncall", "give up and alert #data-eng") stays an escalation."""
    if _TELLS_ONE.match(message) is None or (at := sentence.find(message)) < 0:
        return False
    return _GIVES_UP.search(sentence[max(0, at - 40):at]) is not None


def tells(message: str) -> bool:
    """Whether an escalation's words ask for a person to be told ("message her on Teams", "ping Sam")."""
    return _TELLS.match(message) is not None


def notice(message: str, kept: str) -> str:
    """The warning's words for a message the run does not send; `kept` says what the step does instead."""
    return (f"'{message.strip()[:80]}' asks for a person to be told; the run sends no message, page or call, so it "
            f"is not read as a policy ({kept}): add a step with a skill that sends it if it must happen")


_rx.save()
