"""A paragraph that names a skill but asks for no work, so it is never a step.

    Inputs: `shift_date` and `team`.                          the workflow's inputs (a label)
    You will want `load-roster` installed before you start.   a prerequisite: the skill is to be
    Make sure `fetch-repo` has a token in `GITHUB_TOKEN`.      installed, set up, given access
    Tip: if `grade-quiz` is slow, split the class in two.     a remark (tip, hint, warning, FYI,
    Heads up: `send-report` mails every parent.               heads up, caution, P.S.)
    **4.1 Definitions.** "Invoice" means ... (`invoice_text`)  terms defined: its names are inputs

    Give the renderer one retry; if it still fails,           the fallback of the step before: its
    switch to `render-plain` rather than failing.             only skill is named after a failure

A page's footer (a thematic break, "Last reviewed by ...", "Questions -> ...") ends the last
step and is none of its text.

A paragraph that opens with a word of sequence ("Then", "First") or that runs a skill ("run",
"call", "invoke", "feed ... to") is still a step; so is one that names a skill before a failure
("Run `a`; if it fails, use `b` instead"). The skills such a paragraph names and no step
runs are warned as such (a step may have been lost), never dropped in silence.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Para
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

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


# a failure said before a name ("if it still fails, switch to"), or a fallback word just before it
_FAILED_BEFORE = _rx(r"(?i)(?<!\w)(?:if|when|should|once|in\s++case)(?!\w)[^.;]{0,80}?(?<!\w)(?:fails?|failed|falls\s++over|"
                     r"errors?|errored|breaks|crash(?:es)?|times\s++out|is\s++down|is\s++unavailable|gives\s++up)(?!\w)|"
                     r"(?<!\w)(?:fall(?:s|ing)?\s*+back\s++(?:to|on)|failing\s++that|plan\s++b|as\s++a\s++(?:backup|fallback))(?!\w)")
_INSTEAD_AFTER = _rx(r"(?i)^[^.;]{0,40}?(?<!\w)instead(?!\w)")
_SKILLISH = _rx(r"`[a-z0-9]++(?:-[a-z0-9]++)++`|\*\*[a-z0-9]++(?:-[a-z0-9]++)++\*\*")
_SENTENCE_END = _rx(r"(?<=[.!?])\s++")


def fallback_only(text: str) -> bool:
    """Every skill the paragraph names is named as what to use when the work failed: the
    paragraph is the fallback of the step before, not a step."""
    named = False
    for sentence in _SENTENCE_END.split(text):
        for m in _SKILLISH.finditer(sentence):
            named = True
            if not (_FAILED_BEFORE.search(sentence[:m.start()]) or _INSTEAD_AFTER.match(sentence[m.end():])):
                return False
    return named


# a page's footer: after a thematic break, or who reviewed it, whom to ask, what it replaced
_FOOTER = _rx(r"(?i)^\s*+(?:'{3,}+|-{3,}+|\*{3,}+|_{3,}+)[ \t]*+(?:$|\n)|^\W*+(?:\[small\]#)?+(?:questions?\s*+(?:->|→|\?|:)|"
              r"last\s++(?:reviewed|updated|edited|changed)\s++(?:by|on)|page\s++owner\s*+:|maintained\s++by|"
              r"contact\s*+:|previous\s++version\s*+:)")


def footer(text: str) -> bool:
    """A page's footer (a thematic break, then "Questions -> #channel. Last reviewed by ..."):
    it ends the last step and is none of its text."""
    return _FOOTER.match(text) is not None


# a lead that names a part of a document about words, not work ("4.1 Definitions.", "Interpretation")
_TERMS_LEAD = _rx(r"(?i)^\W*+(?:\d++(?:\.\d++)*+\.?+\s*+)?+(?:definitions?|interpretation|glossary|defined\s++terms|"
                  r"terms\s++used|inputs?|parameters|what\s++you\s++need)\W*+$")
_NAMES = _rx(r"`([A-Za-z_]\w*+)`")
_MEANS = _rx(r"[\"“][^\"”\n]{1,40}[\"”]\s++(?:means|refers\s++to|is\s++defined\s++as|shall\s++mean)(?!\w)")


def defines_terms(lead: str, text: str) -> bool:
    """A paragraph that defines the document's words ("**4.1 Definitions.** "Invoice" means the
    text ... (the `invoice_text`)"): its backticked names are the workflow's inputs, it is no step."""
    return _TERMS_LEAD.match(lead) is not None or len(_MEANS.findall(text)) >= 2


def not_a_step(text: str) -> bool:
    """The paragraph names what the workflow takes, a prerequisite or a remark (module
    docstring): no step, whatever skill it names."""
    if _INPUTS_LABEL.match(text):
        return True
    if _REMARK.match(text):
        return True
    return _PREREQUISITE.search(text) is not None and (_WANTS.match(text) is not None or _RUNS.search(text) is None)


def definitions_unread(blocks: list[Block], src: Source) -> None:
    """A paragraph that defines terms and names values in backticks is not read as the inputs
    (the steps may take more than it names): said at its line, with what to write."""
    from orchestrator.spec.sections import lead_of

    for block in blocks:
        if not isinstance(block, Para):
            continue
        lead = lead_of(block.text)
        names = _NAMES.findall(block.text) if lead is not None and defines_terms(*lead) else []
        if names:
            listed = ", ".join(f"`{n}`" for n in dict.fromkeys(names))
            src.warn(block.line, f"'{lead[0] if lead else ''}' defines terms and names {listed}; they are not read as "
                                 "the workflow's inputs (those are read from what the steps take): to declare them, "
                                 f"write `## Inputs` with a line each (`- {names[0]}: ...`)", "spec.unread")


_rx.save()
