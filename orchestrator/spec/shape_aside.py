"""A paragraph that names a skill but asks for no work, so it is never a step.

    Inputs: `shift_date` and `team`.                          the workflow's inputs (a label)
    You will want `load-roster` installed before you start.   a prerequisite: the skill is to be
    Make sure `fetch-repo` has a token in `GITHUB_TOKEN`.      installed, set up, given access
    Tip: if `grade-quiz` is slow, split the class in two.     a remark (tip, hint, warning, FYI,
    Heads up: `send-report` mails every parent.               heads up, caution, P.S.)

A paragraph that opens with a word of sequence ("Then", "First") or that runs a skill ("run",
"call", "invoke", "feed ... to") is still a step. The skills such a paragraph names and no step
runs are warned as such (a step may have been lost), never dropped in silence.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "Inputs: ...", "**Parameters:** ...", "Args -" : a label that lists what the workflow takes
_INPUTS_LABEL = _rx(r"(?i)^\s*+(?:\*\*|__)?+(?:workflow\s++|run\s++)?+(?:inputs?|parameters|params|arguments|args|knobs)"
                    r"(?:\*\*|__)?+\s*+[:—–]")
# a remark's opening label
_REMARK = _rx(r"(?i)^\s*+(?:\*\*|__)?+(?:tip|hint|warning|caution|fyi|heads[\s-]++up|p\.?s\.?|aside|n\.b\.|"
              r"side\s++note|pro[\s-]++tip|gotcha|remember)(?:\*\*|__)?+\s*+[:!—–-]")
# what a prerequisite says of a skill: that it is installed, set up or given access
_PREREQUISITE = _rx(r"(?i)(?<!\w)(?:installed|install\s++it|set\s++up|configured|available\s++on|on\s++your\s++path|"
                    r"in\s++your\s++path|has\s++(?:a|an|the)\s++(?:token|key|credentials?)|needs\s++(?:a|an|the)\s++"
                    r"(?:token|key|credentials?|login)|access\s++to|permissions?\s++(?:to|on|for)|logged\s++in|"
                    r"enabled\s++(?:on|for|in)|deployed\s++(?:to|on))(?!\w)")
_WANTS = _rx(r"(?i)^\s*+(?:you['’]?ll\s++(?:want|need)|you\s++(?:will\s++)?+(?:want|need)|make\s++sure|ensure|check\s++that|"
             r"be\s++sure|note\s++that|remember\s++that|before\s++you\s++start)(?!\w)")
# a verb that asks for the work itself
_RUNS = _rx(r"(?i)(?<!\w)(?:run|runs|call|calls|invoke|execute|trigger|feed|kick\s++off|start|use\s++`[^`\n]{1,80}`\s++(?:to|on|for))(?!\w)")


def not_a_step(text: str) -> bool:
    """The paragraph names what the workflow takes, a prerequisite or a remark (module
    docstring): no step, whatever skill it names."""
    if _INPUTS_LABEL.match(text):
        return True
    if _REMARK.match(text):
        return True
    return _PREREQUISITE.search(text) is not None and (_WANTS.match(text) is not None or _RUNS.search(text) is None)


_rx.save()
