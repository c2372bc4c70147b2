"""A messaging app's exported group chat (WhatsApp, Signal, Telegram) where a plan is agreed.

Its messages open with a date and a time: `12/05/2025, 09:02 - Name: text` (Android) or
`[12/05/2025, 09:02:11] Name: text` (iOS); `transcript` reads them as turns. What such an export
holds besides the plan is kept out of the steps:

- the app's own lines (a date and a time but no speaker: "Messages and calls are end-to-end
  encrypted", "X created group", "Y added Z") are blank;
- the proposer is the speaker whose messages ask for the most skills; a message of anyone else
  is a reply: blank, unless it says something a policy could be made of (a number, a skill's
  name, a word of retrying, waiting, failing or approving), which is kept as the text of the
  step proposed last, for the policy reader to read or report, never dropped without a word;
- the proposer's chatter (a greeting, a laugh, an emoji, "<Media omitted>") is blank, so it is no
  step's text.

A step's text is then the proposer's messages from the one that asks for it to the one that asks
for the next (`transcript.read_transcript`).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a message's date and time as an app writes it: "12/05/2025, 09:02", "2025-05-12 9:02 pm"
DATED = (r"\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4},?\s{1,3}\d{1,2}:\d{2}(?::\d{2})?(?:\s{0,2}[AaPp]\.?[Mm]\.?)?")
_SYSTEM = _rx(rf"^\s*+(?:\[\s*+)?{DATED}(?:\s*+\])?\s*+(?:[-–—]\s++)?(?P<rest>[^:]*+)$")
# a message with nothing for the plan: a greeting, a laugh, thanks, a thumb, a file left out
_CHATTER = _rx(
    r"(?i)^\W*+(?:(?:good\s+)?(?:morning|afternoon|evening)|hi|hello|hey|hiya|thanks?|thank\s+you|ta|cheers|lol|lmao|"
    r"haha\w*+|hehe\w*+|yay|wow|omg|aw+|ok(?:ay)?|k|sure|nice|great|cool|perfect|brilliant|love\s+it|"
    r"<media\s+omitted>|<attached:[^>]*+>|image\s+omitted|sticker\s+omitted|this\s+message\s+was\s+deleted)\b"
    r".{0,60}$")
_BARE = _rx(r"^[\W_]*+$")  # an emoji or punctuation alone
# what a policy could be made of: a number, a skill-like name, a word of the policies
_WORDS = (r"(?<![a-z0-9])[a-z0-9]++-[a-z0-9]|\b(?:retry|retries|re-?try|again|tries|wait|timeout|time\s*out|fail\w*|"
          r"error\w*|approv\w*|sign\s+off|skip|instead|fallback|minutes?|mins?|hours?|hrs?|seconds?|secs?|"
          r"step\s+\d|only\s+if|unless)\b")
_CUE = _rx(r"(?i)\d|" + _WORDS)
_CUE_WORD = _rx(r"(?i)" + _WORDS)  # a greeting with a number ("40 days to go!") is still chatter


_DATED_AT = _rx(rf"^\s*+\[?\s*+{DATED}")
# a message's head: its date and time, then who sent it ("12/05/2025, 09:16 - Nkechi (Bloom Weddings): ")
_HEAD = _rx(rf"^\s*+(?:\[\s*+{DATED}\s*+\]|{DATED}\s++[-–—])\s*+[^\W\d_][^:\n]{{0,38}}+:\s++(?=\S)")


def is_export(lines: list[str], turns: list[int]) -> bool:
    """Most turns open with a date and a time: a messaging app's export."""
    return sum(1 for i in turns if _DATED_AT.match(lines[i])) * 2 > len(turns)


def message_text(line: str) -> str | None:
    """The text of a line that opens an export's message, its date, time and sender dropped
    ("12/05/2025, 09:16 - Nkechi: if the total ..." -> "if the total ..."); None for any other line."""
    head = _HEAD.match(line)
    return line[head.end():] if head is not None else None


def proposer(asked: dict[str, int]) -> str | None:
    """The speaker whose messages ask for the most skills (`asked`: speaker → skills asked), or
    None when no one asks for one."""
    best = max(asked.items(), key=lambda kv: kv[1], default=None)
    return best[0] if best is not None and best[1] > 0 else None


def system_line(line: str) -> bool:
    """An app's line: a date and a time and no speaker ("X created group ...")."""
    return _SYSTEM.match(line) is not None


def chatter(text: str) -> bool:
    """A message that says nothing for the plan (module docstring)."""
    return _BARE.match(text) is not None or (_CHATTER.match(text) is not None and _CUE_WORD.search(text) is None) \
        or text.strip().lower() in ("<media omitted>", "null")


def says_rule(text: str) -> bool:
    """A reply that may set a rule: a number, a skill-like name or a word of the policies."""
    return _CUE.search(text) is not None


_rx.save()
