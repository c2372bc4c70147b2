"""A step said to run when an earlier step did not, in a sentence or under a label of the author's own.

    - Only if step 2 wasn't needed                  the other branch of step 2
    Only when step 3 was skipped (no red flags).    the other branch of step 3
    - Only do this if: there was no need for step 2 the other branch of step 2
    - Do this only when: we skipped step 4          the other branch of step 4
    - Run it only if: the claim step had nothing to do

`spec.condition_unhappened` reads "<a step> didn't run / was skipped / wasn't needed" on a `When:`
line and at a step's opening. Said in an "Only if ..." sentence inside the step it was taken for a
comparison: "step 2 wasn't needed" was warned as not read and both steps ran, and with an aside
("(no red flags)") it became a flag `red` no step gives, false on every run, without a word. Under a
label such as "Only do this if:" the line was "label not understood" and the step ran on every run.

`skipped(text, compared)` gives what `unhappened` gives, with a few more ways to say it ("there was
no need for step 2", "we skipped step 4", "step 2 had nothing to do"); `spec.step` takes it in an
"Only if" sentence as it does on a `When:` line (the step is the other branch, warned). A label that
says "do this only if" in the author's words is a `When:` label (`condition_label`).
"""

from __future__ import annotations

from orchestrator.spec.condition_unhappened import unhappened
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "only do this if", "do this only when", "run it only if", "only run this step if", "perform this only if"
_LABEL = _rx(r"(?i)^(?:only\s++)?+(?:do|run|perform|execute|start|carry\s++out)\s++(?:this|it|that)(?:\s++step)?+"
             r"\s++(?:only\s++)?+(?:if|when|whenever)$|^only\s++(?:if|when)\s++(?:needed|required)\s++(?:if|when)$")
_REF = r"(?P<ref>(?:step\s++[\w.]{1,6}+|the\s++[\w-]{1,30}+(?:\s++[\w-]{1,30}+)?+\s++step|[A-Za-z])(?![\w-]))"
_MORE = (
    _rx(rf"(?i)^\W*+there\s++(?:was|is|were)\s++no\s++need\s++(?:for|of)\s++{_REF}\W*+$"),
    _rx(rf"(?i)^\W*+(?:we|you|they|I)\s++(?:have\s++|had\s++)?+(?:skipped|did\s++not\s++(?:need|do|run)|"
        rf"didn['’]t\s++(?:need|do|run))\s++{_REF}\W*+$"),
    _rx(rf"(?i)^\W*+{_REF}\s++(?:had|has)\s++nothing\s++to\s++do\W*+$"),
    _rx(rf"(?i)^\W*+{_REF}\s++(?:was|is)(?:n['’]t|\s++not)\s++called\s++for\W*+$"),
)
_ASIDE = _rx(r"(?<!\s)\s*+\([^()]{0,200}+\)\s*+$")


def condition_label(label: str | None) -> bool:
    """True when a bullet's label is a condition said in the author's words ("Only do this if")."""
    return bool(label) and _LABEL.match(" ".join(str(label).split())) is not None


def skipped(text: str, compared: bool) -> tuple[str | None, str, bool] | None:
    """(the words naming the step, or None for the nearest step before with a condition; what was said;
    strong) when `text` says an earlier step did not run (module docstring); `compared` (a comparison reads
    the text too) is the caller's to weigh against a reading that is not strong."""
    gone = unhappened(text)
    if gone is not None:  # a weak one ("no delays") as `unhappened` gives it: the caller weighs it with `compared`
        return gone
    t = text.strip().rstrip(".;:!")
    bare = t[: m.start()] if (m := _ASIDE.search(t)) is not None and m.start() > 0 else t
    for pattern in _MORE:  # each names the step: read so even where a comparison reads the words
        if (m := pattern.match(bare)) is not None:
            return m.group("ref").strip(), bare, True
    return None


_rx.save()
