"""A paragraph that lists what the workflow takes: "TIP: Inputs you need in hand: ... (`log`)",
"You'll need: `orders` and `as_of`", "Requires: `repo`", "Prerequisites - `token`", "**What the
crew needs to fill in before starting:** ... (`date`)", "You'll be asked for: `site`, `ref`", "Form fields, for the bot: `member`, `svg_url`". Its names in
backticks are the workflow's inputs; it is never a step, even when a name is shaped like a
skill's (`commit_log`). An admonition label before it (TIP, NOTE, INFO, HINT, IMPORTANT) is
no part of it.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NEED = r"(?:['’]ll|\s++will)?+\s++need"
# "you'll be asked for", "what the desk needs to fill in", "to fill in before starting", "have these ready": said
# of the one who starts the run (`spec.prose_inputs` reads the same words before names not in backticks)
ASKED_LEAD = (r"you(?:['’]ll|\s++will)\s++be\s++asked\s++(?:for|to\s++(?:give|enter|fill\s++in|provide|supply|type\s++in))"
              r"|what\s++(?:the\s++|our\s++|your\s++)?+(?!needs?\b)[a-z]++\s++needs?+\s++to\s++"
              r"(?:fill\s++in|give|enter|type\s++in|provide|supply|bring|have(?:\s++ready)?+)"
              r"|(?:things\s++)?+to\s++fill\s++in\s++before\s++(?:you\s++)?+(?:start|begin|kick)"
              r"|have\s++(?:these|this|the\s++following)\s++ready|(?:it|this|the\s++run)\s++asks\s++(?:you\s++)?+for")
# "Form fields, for the bot people:", "The booking form's fields:", "Fields on the form:", "Web form inputs:": the
# fields a request form hands the run (45th round)
FORM_FIELDS = (r"(?:the\s++)?+(?:[a-z]++\s++)?form(?:['’]s)?+\s++(?:fields|inputs)"
               r"|(?:the\s++)?+fields\s++(?:on|in|of)\s++the\s++(?:[a-z]++\s++)?form")
INPUTS_LEAD = _rx(
    r"(?i)^\s*+(?:(?:tip|note|info|hint|important)\s*+:\s*+)?+(?:\*\*|__)?+"
    rf"(?:(?:the\s++)?+inputs?\s++(?:you|we){_NEED}|(?:what\s++)?+you{_NEED}|requires|required\s++inputs?|"
    rf"prerequisites|before\s++you\s++start|{ASKED_LEAD})(?!\w)[^:\n]{{0,40}}?(?:\*\*|__)?+\s*+[:—–-]"
    rf"|^\s*+(?:\*\*|__)?+(?:{FORM_FIELDS})(?!\w)[^:\n]{{0,40}}?(?:\*\*|__)?+\s*+:"  # a form's: a colon only
)


def inputs_lead(text: str) -> bool:
    """The paragraph opens by saying what the workflow takes, so it lists inputs, not a step."""
    return INPUTS_LEAD.match(text) is not None


_rx.save()
