"""A step said to start beside the one before it, in words that name no step: "meanwhile",
"at the same time", "while that runs", "not blocked by anything", "can start immediately".

    Meanwhile, pull the refunds with `pull-refunds`.              starts beside the step before
    While that's running, kick off `pull-refunds`.                 the same
    Do this alongside card 1. · While step 2 runs, ...              the same (a step beside another)
    Has no prerequisites. · Not blocked by anything.                the same
    Parallel to step 1, run `pull-refunds`.                         the same (it names the step)
    Retry it at most twice in parallel.                             no: said of its tries
    Score every row in parallel.                                    no: said of its items (a For each)
    The export runs at the same time each night.                    no: a time of day, not a start

Such a step is a root in the sense of `step_prose.root_phrase`: it does not wait for the step
before it, only for the steps whose outputs it reads (the planner adds those). Each cue is a row
of `_CUES`, keyed on what the sentence means (a start, a wait, an ordering) rather than on a layout;
a sentence that also speaks of tries or of each item is no parallel start (`_NOT_A_START`). A cue
in a step's title ("Grab the refunds, kick it off together with #1") counts as one in its text.

`parallel_note`: a paragraph that is no step and names two or more steps by number as running side by
side ("Steps 1 and 2 don't depend on each other, kick them off together.", "Steps 2-4 can go in
parallel") makes each of them but the first not wait for the step before it; shown on each step.
`comment_roots`: in a YAML spec, a `# comment` within a step's lines that says so ("# no deps, goes in
parallel with usage") does the same for that step, unless the step says what it depends on.
"""

from __future__ import annotations

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CUES = tuple(_rx(p) for p in (
    # an adverb of simultaneity opening the sentence
    r"(?i)^\W*+(?:meanwhile|in\s++the\s++meantime|simultaneously|concurrently|independently|"
    r"alongside\s++(?:that|this|it)|(?:in\s++)?parallel\s++(?:to|with)|in\s++parallel|at\s++the\s++same\s++time)(?!\w)",
    # "can run in parallel", "goes concurrently", "run this at the same time"
    r"(?i)(?<!\w)(?:run|runs|go|goes|start|starts|happen|happens|kick\w*+|fire\w*+|launch\w*+)"
    r"(?:\s++(?:it|this|them|both|that|one|off)){0,2}+\s++(?:in\s++parallel|concurrently|simultaneously|"
    r"at\s++the\s++same\s++time|at\s++once|together)(?!\w)(?!\s++(?:each|every|per)\b)",
    # "while that's running", "while the orders are being pulled"
    r"(?i)^\W*+while\s++(?:that|this|it|the\s++[\w-]++(?:\s++[\w-]++)?+)(?:['’]s|\s++(?:is|are))?+\s++"
    r"(?:running|going|working|in\s++progress|being\s++\w++|runs|goes)(?!\w)",
    # "not blocked by anything", "has no prerequisites", "no dependency on the orders pull"
    r"(?i)(?:(?<!\w)not\s++|n['’]t\s++)(?:blocked\s++by|held\s++up\s++by)(?!\w)|"
    r"(?<!\w)(?:no\s++prerequisites?|no\s++dependency\s++on|no\s++ordering\s++"
    r"between|do(?:n['’]t|\s++not)\s++hold\s++(?:it|this|them)\s++(?:for|until)|"
    r"(?:can|may|should)\s++start\s++(?:immediately|now|at\s++once|before))(?!\w)",
    r"(?i)(?<!\w)(?:start|starts|run|runs|kick\w*+|fire\w*+|launch\w*+)(?:\s++(?:it|this|them|off)){0,2}+\s++"
    r"(?:immediately|straight\s++off|right\s++away|straight\s++away|as\s++soon\s++as\s++the\s++run\s++starts)"
    r"(?!\w)",
    r"(?i)^\W*+(?:the\s++)?same\s++time\s++as(?!\w)",
    # "do this alongside card 1", "work on it in parallel with task 3": the step done beside another
    r"(?i)(?<!\w)(?:do|does|doing|run|runs|start|starts|work|works|kick\w*+|fire\w*+|launch\w*+|begin\w*+)"
    r"(?:\s++(?:it|this|that|them|one|off|on\s++(?:it|this|that))){0,2}+\s++(?:alongside|in\s++parallel\s++(?:with|to)|"
    r"concurrently\s++with)(?!\w)",
    # "alongside card 1", "while step 2 runs", "in parallel with ticket #4": beside a step named by its number
    r"(?i)(?<!\w)(?:alongside|in\s++parallel\s++(?:with|to)|concurrently\s++with|while)\s++(?:the\s++)?+"
    r"(?:(?:card|step|task|job|stage|item|ticket|activity|station|line)\s*+(?:no\.?\s*+)?#?\d++|#\d++)(?!\w)",
))
# a sentence about tries ("retry twice in parallel") or items ("score every row in parallel",
# "one by one, or in parallel"), a time of day ("at the same time each night"), or a wait: no start
_NOT_A_START = _rx(
    r"(?i)(?<!\w)(?:retr(?:y|ies|ied)|attempts?|tries|each(?!\s++other)|every|per|items?|rows?|one\s++by\s++one|"
    r"batch(?:es)?|these|those|night|day|morning|week|hour|daily|nightly|wait\s++for\s++(?:it|the|step)|until)(?!\w)")


def parallel_start(sentence: str) -> bool:
    """The sentence says its step starts beside the one before it (module docstring)."""
    if not any(cue.search(sentence) for cue in _CUES):
        return False
    return not _NOT_A_START.search(sentence) or bool(_NO_WAIT.search(sentence))


# "not blocked by", "no prerequisites": said of waiting, so a time word beside it is no time of day
_NO_WAIT = _rx(r"(?i)(?:(?<!\w)not|n['’]t)\s++blocked(?!\w)|(?<!\w)no\s++prerequisites?(?!\w)")


_MUTUAL = _rx(r"(?i)(?<!\w)(?:do(?:n['’]t|\s++not)\s++depend\s++on\s++each\s++other|(?:are\s++)?independent(?:\s++of"
              r"\s++each\s++other)?|in\s++parallel|side\s++by\s++side|together|at\s++the\s++same\s++time|"
              r"concurrently|simultaneously)(?!\w)")


def parallel_note(text: str, line: int, steps: list[StepSpec], src: Source) -> list[StepSpec] | None:
    """The steps with those a note names as running side by side made so (module docstring); None when
    the text is no such note."""
    from orchestrator.spec.step_prose import read_step_list

    if not _MUTUAL.search(text) or _NOT_A_START.search(text.replace("each other", "")):
        return None
    named = read_step_list(text, bare_digits=False).ids
    order = [s.id for s in steps]
    ids = sorted((i for i in dict.fromkeys(named) if i in order), key=order.index)
    if len(ids) < 2:
        return None
    out = []
    for step in steps:
        if step.id in ids[1:] and not step.depends_on and step.depends_where is None:
            reading = Reading(what="depends_on", where=src.where(line), text=" ".join(text.split())[:160],
                              note=f"does not wait for the step before it (only for the steps whose outputs it "
                                   f"reads): the note says {', '.join(ids)} run side by side")
            step = step.model_copy(update={"unordered_where": src.where(line), "readings": (*step.readings, reading)})
        out.append(step)
    return out


_YAML_COMMENT = _rx(r"(?:^|\s)#\s*+(.{3,200})$")


def comment_roots(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps of a YAML spec with those whose comment says they start beside the others made so."""
    from orchestrator.spec.step_prose import root_phrase

    if not src.path.endswith((".yaml", ".yml", ".toml")):
        return steps
    lines = [int(s.where.rpartition(":")[2]) if s.where.rpartition(":")[2].isdigit() else 0 for s in steps]
    out = []
    for index, step in enumerate(steps):
        end = next((n for n in lines[index + 1:] if n > lines[index]), len(src.lines) + 1)
        if lines[index] and not step.depends_on and step.depends_where is None and step.unordered_where is None:
            for number in range(lines[index], end):
                m = _YAML_COMMENT.search(src.line_text(number))
                if m is not None and (root_phrase(m.group(1)) or _NO_DEPS.search(m.group(1))):
                    reading = Reading(what="depends_on", where=src.where(number), text=m.group(0).strip()[:160],
                                      note="does not wait for the step before it (only for the steps whose outputs "
                                           "it reads): its comment says so")
                    step = step.model_copy(update={"unordered_where": src.where(number),
                                                   "readings": (*step.readings, reading)})
                    break
        out.append(step)
    return out


_NO_DEPS = _rx(r"(?i)(?<!\w)(?:no\s++deps|no\s++dependencies|depends\s++on\s++nothing|(?:a\s++)?root)(?!\w)")


_rx.save()
