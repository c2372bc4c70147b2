"""A step said to start together with another one named by its number: it waits for what that one waits for.

    2 · Lift status (same time as #1)                 starts with step-1
    Cue 5 - fog machine, alongside cue 4              starts with step-4
    Weigh the crates in parallel with the first one   starts with step-1
    Kick this off with 1, it needs nothing from it    starts with step-1
    Retry it twice in parallel                        no: no step is named
    At the same time as step 1 finishes               no: after it (`ends_after`)
    Shall not be run concurrently with step 1         no: a negation

`starts_with(text)` finds the words anywhere in a step's title or sentence ("(same time as #1)" inside
a longer outline line), the step named by its number ("#1", "step 2", "cue 4", "no. 3") or by an
ordinal ("the first one", "the second step"); it gives that step's id, or None. The step reader keeps
it as `StepSpec.starts_with`; the planner (`plan.mapping`) then gives the step the dependencies of the
step it starts with instead of the step before it (the default order would chain it after that one,
which is what the text says not to do), and the steps whose outputs it reads. A phrase that names a
step by its name only ("alongside the invoices") is `branch_parallel`'s: a start with no wait at all.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
             "eighth": 8, "ninth": 9, "tenth": 10}
# a step named by its number or an ordinal, after a word of starting together
_REF_ALTS = (r"(?:step|card|task|stage|item|cue|job|line|station|no\.?|number)\s*+#?\s*+(\d{1,4}+)(?!\w)(?!\.\d)|"
        r"#\s*+(\d{1,4}+)(?!\w)|(?:the\s++)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)"
        r"\s++(?:one|step|task|item|cue|stage|job)(?!\w)")
_REF = f"(?:{_REF_ALTS})"
_BESIDE = _rx(
    r"(?i)(?<!\w)(?:(?:at\s++)?(?:the\s++)?same\s++time\s++as|alongside|together\s++with|"
    r"in\s++parallel\s++(?:with|to)|parallel\s++(?:with|to)|concurrently\s++with|side\s++by\s++side\s++with)\s++"
    + _REF)
# "kick off with 1", "start it with step 2": a bare number only after such a verb
_KICK = _rx(r"(?i)(?<!\w)(?:kick\w*+|start\w*+|fire\w*+|launch\w*+|run|runs)(?:\s++(?:it|this|them|that))?+"
            r"(?:\s++off)?+\s++(?:with|alongside)\s++(?:" + _REF_ALTS + r"|(\d{1,4}+)(?=\s*+(?:[,;:)]|\.(?!\d)|$)))")
# "at the same time as step 1 finishes / is done": after it, not beside it
_ENDS = _rx(r"(?i)\s*+(?:(?:has\s++|is\s++)?(?:finish|end|complet|return|succeed|fail|stop)[a-z]*+|is\s++(?:done|over|through)|"
            r"(?:wraps|winds)\s++up|when\s++it\s++is\s++(?:done|over|through|finished))(?!\w)")


# a negation right before the words of starting together: "shall not be run concurrently with step 1"
_NOT_BEFORE = _rx(r"(?i)(?<![\w-])(?:not|never|n['’]t)\s++(?:[a-z]++\s++){0,3}+$")


def ends_after(text: str, at: int) -> bool:
    """Whether the words at `at`, right after a step named beside this one, say when it ends ("finishes")."""
    return _ENDS.match(text, at) is not None


def starts_with(text: str) -> str | None:
    """The id of the step the text says this one starts together with (module docstring), or None."""
    m = _BESIDE.search(text) or _KICK.search(text)
    if m is None or ends_after(text, m.end()) or _NOT_BEFORE.search(text[max(0, m.start() - 40):m.start()]):
        return None  # "shall not clean concurrently with step 1": no start
    for group in m.groups():
        if group is None:
            continue
        number = _ORDINALS.get(group.lower()) or int(group)
        return f"step-{number}"
    return None


_rx.save()
