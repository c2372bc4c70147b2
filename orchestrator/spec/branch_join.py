"""A step said to run once after whichever branch of a choice ran, in words that name no step.

    Hand it the status from whichever of the two above actually ran.      a join (a verb of running)
    ... the tracking from whichever of the two happened.                   the same
    ... status + ref from 4 or 5, whichever you did.                       the same (a doer before its verb)
    Both branches land here → Write the reply.                             the same (the branches meet)
    After either branch, write up the summary.                             the same
    Either way, send the welcome mail.                                     the same, right after a choice
    then `confirm`, whichever quote it was                                 the same, right after a choice
    Whichever reviewer you pick, be polite.                                no: no branch ran

`join_said(text)` is the strong reading, used by the guard that warns when a step says so and does not
run after a choice (`plan.guards`): "whichever"/"either"/"one of" with a verb of a branch running, or
the branches meeting. `join_said(text, after_choice=True)` also takes the looser words ("either
way", "in both cases", "regardless", "no matter which"), said of a step that comes right after the
branches of a choice (`sections.join_branches`). Each cue is a row of a table below.

`join_after_conditions` does the same for steps that are branches by their own conditions (headings
"Ship — only if remote", "Desk — if not remote"): a step right after two or more conditional steps in
a row, whose text says so and that says nothing of what it depends on, runs once after whichever of
them ran.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a branch running, said of "whichever" / "either" / "one of": "ran", "happened", "we came through"
_RAN = (r"(?:ran|runs?|was\s++run|got\s++run|happened|went|took\s++place|was\s++(?:taken|chosen|picked|done|"
        r"applied|used|executed)|fired|executed|applied|finished|came\s++through|we\s++came\s++through|"
        r"(?:you|we|they|i)\s++(?:did|chose|picked|went\s++with)|"
        r"we\s++(?:went|took|ended\s++up)|(?:is|was)\s++done|succeeded|completed|came\s++out\s++of)")
_STRONG = tuple(_rx(p) for p in (
    rf"(?i)(?<!\w)(?:whichever|either(?:\s++(?:one|of))?+|(?:the\s++)?one\s++(?:that|which))(?:\s++[\w'’/-]++){{0,8}}?\s++{_RAN}(?!\w)",
    r"(?i)(?<!\w)(?:both|the\s++two|all)\s++(?:branches|paths|routes|arms|sides|cases|options)\s++"
    r"(?:land|meet|join|merge|end|come\s++together|converge|lead|flow)(?!\w)",
    r"(?i)(?<!\w)(?:after|once|when)\s++(?:either|both|each|whichever|any)\s++(?:branch|path|route|arm|side|option)"
    r"(?:es|s)?+(?!\w)",
    r"(?i)(?<!\w)(?:from|of)\s++the\s++(?:branch|path|route|arm|option)\s++(?:that|which)\s++(?:ran|was\s++taken|"
    r"happened|fired)(?!\w)",
    r"(?i)(?<!\w)(?:regardless\s++of|no\s++matter)\s++which\s++(?:branch|path|route|arm|option|one|of\s++the)(?!\w)",
))
_LOOSE = _rx(r"(?i)(?<!\w)(?:either\s++way|in\s++(?:both|either)\s++cases?|both\s++ways|regardless|no\s++matter\s++"
             r"(?:what|which)|whatever\s++(?:happened|the\s++outcome|the\s++result|was\s++decided)|"
             r"(?:the\s++)?branches\s++(?:meet|join|merge)|whichever\s++[a-z][\w-]{1,30}+\s++it\s++(?:was|is))(?!\w)")


def join_said(text: str, *, after_choice: bool = False) -> bool:
    """The text says its step runs once after whichever branch ran (module docstring)."""
    if any(cue.search(text) for cue in _STRONG):
        return True
    return after_choice and bool(_LOOSE.search(text))


def strong_join(text: str) -> re.Match[str] | None:
    """The first strong cue of a join in `text` (for the guard's message), or None."""
    return next((m for cue in _STRONG if (m := cue.search(text)) is not None), None)


def join_after_conditions(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps, each that comes right after conditional steps and says it runs after whichever ran
    made to (module docstring)."""
    from orchestrator.spec.sections import join_branches

    out: list[StepSpec] = []
    run: list[str] = []  # the conditional steps right before this one, kept as the steps go (not walked back)
    for step in steps:
        if len(run) >= 2 and not step.when and not step.depends_on and step.depends_where is None:
            step = join_branches(step, list(run), src)
        out.append(step)
        if step.when or step.otherwise_of or step.otherwise_where:
            run.append(step.id)
        else:
            run = []
    return out


_rx.save()
