"""Recovery phrasings older sets left unread (fiftieth round), in words that are not their own.

`plain` writes one notation in the words the grammar reads, before any row is tried (`spec.phrase`):

- "a couple of minutes" as one wait of a series whose other waits are numbers ("wait 30 sec and try again, then
  wait a couple of minutes, then 5 min") is 2 minutes; alone ("Wait a couple of minutes.") it stays too loose to read.

Rows of the policy grammar (`EARLY`, joined through `spec.grammar_families8`):

- a time given to the service a step calls, by its name: "give Slack 20s.", "Give Jira 45 seconds, then
  stop": the attempt's time (a name written with a capital and the time ending the clause; "give it 20s"
  and "give the portal 20s" were read already, and a person given time to answer is an approval's wait,
  `spec.approval_hold`, not this);
- a failure said not to count against the run: "if it can't post, whatever, the run still counts", "if the
  upload errors the job still counts as done": going on without the step's result.
"""

from __future__ import annotations

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_UNIT = r"(?:seconds|minutes|hours)"
# "then wait a couple of minutes", "a couple of minutes, then 5 min": a wait of a series
_COUPLE = _rx(r"(?i)(?<![\w-])(then\s++(?:wait\s++|pause\s++|after\s++|in\s++)?(?:for\s++)?)a\s++couple\s++of\s++(" + _UNIT
              + r")\b|(?<![\w-])a\s++couple\s++of\s++(" + _UNIT + r")(?=\s*+,?\s*+(?:and\s++)?then\b)")
_NUMBERED = _rx(r"(?i)(?<![\w.])\d{1,6}+(?:\.\d{1,3}+)?+\s*+(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)\b")


def plain(text: str) -> str:
    """`text` with "a couple of minutes" in a series of numbered waits written as 2 minutes (module docstring)."""
    if "couple" not in text.lower() or _NUMBERED.search(text) is None:
        return text
    return _COUPLE.sub(lambda m: f"{m.group(1)}2 {m.group(2)}" if m.group(2) else f"2 {m.group(3)}", text)

# what a person given time does: then the time is theirs to answer in, not the step's
_ANSWERS = (r"(?![^.]{0,80}?\b(?:answer|answers|reply|replies|respond|responds|ok|okay|approve|approves|sign\s+off|"
            r"say\s+yes|get\s+back|decide)\b)")

EARLY: tuple[Row, ...] = (
    # "give Slack 20s.", "Give Jira 45 seconds, then stop": the attempt's time
    Row("timeout", r"(?<![\w-])give\s++(?-i:[A-Z][\w-]{0,30}+)\s++(?:up\s++to\s++|at\s++most\s++|about\s++)?{D}"
        r"(?=\s*+(?:[.;!]|$|,\s*+(?:then|and)\b))" + _ANSWERS),
    # "if it can't post, whatever, the run still counts": going on
    Row("continue", r"(?<![\w-])(?:the\s++)?(?:run|job|workflow|pipeline|build|checklist|batch|whole\s++thing|night)\s++"
        r"still\s++(?:counts|passes|succeeds|goes\s++green|(?:is\s++|counts\s++as\s++)(?:a\s++)?(?:success|done|good|"
        r"ok|okay|fine|green|a\s++pass))\b", needs=r"{COND}"),
)

# the words its rows need in a sentence (`grammar.GATES`)
GATES = {"EARLY": r"|give|still"}

_rx.save()
