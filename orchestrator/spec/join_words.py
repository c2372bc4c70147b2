"""A step that says in words it waits for two or more earlier steps: it waits for all of them.

    once both Average and Forecast are back, ...            waits for steps 1 and 2
    after the soundings, the weather and step 2, ...        waits for steps 1, 3 and 2
    when the forecast and the crew have both finished ...   waits for steps 2 and 3

A step's own text (not a `Depends on:` line, which its reader takes) that says "after", "once",
"when", "as soon as", "waits for" or "until" a list of two or more things joined by "and" (or
"&", commas), each of them naming an earlier step (its name, number, skill, or words of its
name: `StepIndex.resolve`), waits for every step named, beside the steps whose outputs it reads
and those it was already said to wait for. Before, the planner took the dependencies from the
data the step reads alone, and a step named only in words was silently not waited for. The
reading is warned at its line with what to write. A list in which some things name a step and
others none is read for those it names, and the others are said in the warning not read; one
that names no step is left alone (it is about data: "after the samples and the forecast are
loaded"). "Whichever of A or B" is the branch join's (`spec.branch_join`), not this.
"""

from __future__ import annotations

import re

from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.structure import StepIndex

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.join-words"

# "once both A and B are back": the lead, then the list up to a verb, a comma or the sentence's end
_LEAD = _rx(r"(?i)(?<![\w-])(?:after|once|when|as[ \t]++soon[ \t]++as|wait(?:s|ing)?+[ \t]++(?:for|on)|until|"
            r"following)[ \t]++(?:(?:both|all)[ \t]++(?:of[ \t]++)?+)?+(?P<list>[^.;:=\n]{3,160}+)")
# where the list ends: a verb of being done, or a comma before a clause
_END = _rx(r"(?i)(?<![ \t])[ \t]++(?:are|have|has|is|were|both|all|come|came|get|got|finish|finished|return|returned|land|"
           r"landed|report|reported|complete|completed)(?![\w-])|,[ \t]*+(?:then[ \t]|run[ \t]|`|\*\*)|[,:—–-][ \t]*+$")
_AND = _rx(r"(?i)(?<![ \t])[ \t]*+,[ \t]*+(?:and[ \t]++|&[ \t]*+)?+|(?<![ \t])[ \t]++(?:and|&)[ \t]++")
_OR = _rx(r"(?i)(?<![\w-])(?:or|either|whichever|nor)(?![\w-])")
_THE = _rx(r"(?i)^(?:the|step|steps|stage)[ \t]++")
_HAS_AND = _rx(r"(?i)(?<![\w-])(?:and|&)(?![\w-])")
# "doesn't wait for", "no need to wait for", "never after": the step does not wait
_DENIED = _rx(r"(?i)(?:n['’]t|not|never|no[ \t]++need[ \t]++to|without)(?:[ \t]++\w++){0,2}+[ \t]*+$")
_MAX_WORDS = 4  # a thing of the list longer than this is a clause ("A, the clerk then checks ..."): the list ends


def _names(said: str) -> list[str]:
    """The things of a list, its articles set apart; it ends before a thing that is a clause."""
    out = []
    for part in _AND.split(said):
        name = part.strip(" \t`*_\"'()")
        while (m := _THE.match(name)) is not None:
            name = name[m.end():]
        if len(name.split()) > _MAX_WORDS:
            break
        if name:
            out.append(name)
    return out


_NEAR_MAX = 400  # steps whose names are searched for a thing's words (beyond: names, numbers and skills only)


def _words(text: str) -> set[str]:
    return set(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _resolve(name: str, index: StepIndex, steps: list[StepSpec], before: int) -> str | None:
    """The earlier step a thing names: by `StepIndex`, else the one earlier step whose name holds
    all its words ("the case" for "Blind-bake the case")."""
    sid = index.resolve(name)
    if sid is not None or len(steps) > _NEAR_MAX:
        return sid
    words = _words(name)
    near = [s.id for s in steps[:before] if words and words <= _words(s.name)]
    return near[0] if len(near) == 1 else None


def _line_of(said: str, step: StepSpec, src: Source) -> int:
    """The line of the step's text that holds `said` (its first words), from the step's own line."""
    at = step.where.rsplit(":", 1)[-1]
    start = int(at) if at.isdigit() else 1
    head = " ".join(said.split()[:4])
    for n in range(start, min(start + 200, len(src.lines)) + 1):
        if head and head in " ".join(src.lines[n - 1].split()):
            return n
    return start


def join_words(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """`steps`, each waiting for the earlier steps its text says it waits for (module docstring)."""
    if len(steps) < 3:
        return steps
    index = StepIndex(steps)
    order = {s.id: i for i, s in enumerate(steps)}
    out = list(steps)
    for i, step in enumerate(steps):
        text = step.description
        for lead in _LEAD.finditer(text):
            said = lead.group("list")
            end = _END.search(said)
            said = said[:end.start()] if end is not None else said
            if _OR.search(said) or _HAS_AND.search(said) is None or _DENIED.search(text[max(0, lead.start() - 30):lead.start()]):
                continue
            names = _names(said)
            if not 2 <= len(names) <= 8:
                continue
            found = [(n, _resolve(n, index, steps, i)) for n in names]
            ids = [sid for _, sid in found if sid is not None and order.get(sid, i) < i]
            if not ids or (len(set(ids)) < 2 and len(ids) == len(names)):
                continue
            unknown = [n for n, sid in found if sid is None or order.get(sid, i) >= i]
            deps = tuple(dict.fromkeys((*step.depends_on, *ids)))
            line = _line_of(lead.group(0), step, src)
            where = src.where(line)
            also = f"; '{', '.join(unknown)}' names no earlier step and is not read" if unknown else ""
            note = f"read as: waits for {', '.join(dict.fromkeys(ids))} (all of them)"
            src.warn(line, f"{step.id} ({step.name}): '{lead.group(0)[:60].strip()}' {note}{also}: check the "
                                f"plan, or write `Depends on: {', '.join(s.removeprefix('step-') for s in dict.fromkeys(ids))}`",
                     CODE)
            reading = Reading(what="depends_on", where=where, text=" ".join(lead.group(0).split())[:160], note=note)
            out[i] = out[i].model_copy(update={"depends_on": deps, "readings": (*out[i].readings, reading)})
            break
    return out


_rx.save()
