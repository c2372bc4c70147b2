"""A section that says when the run is done ("## Done when", "## Success", "## It's ready when"),
read a sentence at a time, and the sign-off that closes a document.

Under such a heading people write the check, and often more in the same paragraph: the
run's time limit ("Whole thing has to be wrapped up within 30 min"), then a closing
("Thanks! — P", "Cheers, Dana", "-- Sam"). Each sentence is read for what it is: a limit of
the whole run is that limit, a comparison is the run's success check (placed on a step by
the whole-document reader, `spec.whole_net`), any other check is warned at its line with
what to write. A sign-off is no check and is not read as one.
"""

from __future__ import annotations

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.prose import sentences
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import success_not_placed
from orchestrator.spec.source import Source
from orchestrator.spec.success37 import renamed
from orchestrator.spec.whole_doc import Said
from orchestrator.spec.whole_limit import whole_limit
from orchestrator.spec.whole_success import comparison, outputs_of, place

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a closing: thanks, regards, a dash and a name or initials, only emoji and marks
_SIGN_OFF = _rx(r"(?i)^\W*+(?:(?:many\s++)?+thanks?(?:\s++you)?+|thx|ty|cheers|regards|best(?:\s++regards)?+|kind\s++regards|"
                r"ciao|bye|see\s++ya|talk\s++soon|love)(?![\w-])(?!\s++(?:to|for)(?!\w))[^.\n]{0,40}$|^\s*+(?:--|—|–|~)\s*+[A-Za-z][\w. ]{0,30}$|"
                r"^[^\w]{1,12}$")


def sign_off(text: str) -> bool:
    """A closing line of a note ("Thanks! 🙏 — P", "Cheers, Dana", "-- Sam"): no check, no policy."""
    return len(text) <= 60 and _SIGN_OFF.match(text.strip()) is not None


def success_section(blocks: list[Block], src: Source, steps: list[StepSpec], title: str) -> None:
    """The sentences of a success section, each read for what it is (module docstring); `steps`
    is updated with the checks placed on them."""
    for block in blocks:
        if not isinstance(block, Para | Bullet):
            continue
        text = block.text.strip().lstrip("…. ")
        if sign_off(text):
            continue
        left: list[tuple[str, int]] = []  # what is no limit and no check read here: said once, as one check
        for sentence, line in sentences(text, block.line):
            clause = sentence.strip().lstrip("…. ")
            if sign_off(clause):
                continue
            if whole_limit(clause, outside=True) is not None:
                success_not_placed(clause, line, src)  # the run's limit, read as such
            elif not (steps and _place(clause, line, src, steps, title)):
                left.append((clause, line))
        if left:
            success_not_placed(" ".join(c for c, _ in left), left[0][1], src)


def _place(sentence: str, line: int, src: Source, steps: list[StepSpec], title: str) -> bool:
    """A sentence under the success heading that holds one comparison of an output field with a
    value ("comes back with `scheduled: true`"): that check, on the step whose output it is,
    warned at its line with what was read; False when it holds none."""
    one = comparison(sentence)
    if one is None:
        return False
    one = renamed(one, sentence, steps, src.vocabulary, outputs_of)  # "CV ≤ 15 %": `cv_pct` (`spec.success37`)
    at, how = place(Said(sentence, line, line), one.split(" ", 1)[0], steps, src)
    step = steps[at]
    rest = f"; only `{one}` is checked, the rest of the sentence is not" if len(sentence.split()) > 8 else ""
    src.warn(line, f"{step.id} ({step.name}): '{sentence[:60]}', under '{title}', is read as the run's success "
                   f"check `{one}`, on this step's output ({how}){rest}: check the plan, or write "
                   f"`- Success criteria: {one}` under the step", "spec.success")
    reading = Reading(what="success", where=src.where(line), text=" ".join(sentence.split())[:160],
                      note=f"the run's success check `{one}` (under '{title}'), checked on {step.id}'s output ({how})")
    steps[at] = step.model_copy(update={"texts": (*step.texts, SpecText(text=one, line=line, kind="success")),
                                        "readings": (*step.readings, reading)})
    return True


_rx.save()
