"""A thing the run is given that a parenthesis says the fields of: one input, an object of those fields.

    What we need from whoever starts this: the **loan record** (object no., title, lender, declared
    value + currency) and the courier's condition notes.
        -> workflow input `loan` (object_id, title, lender, declared_value, currency);
           condition-check's `object_id` <- `inputs.loan.object_id`, insurance-quote's `currency` <-
           `inputs.loan.currency`, ...

A part of the sentence that says what the run is given (`spec.prose_inputs`) that is no name a skill
reads, followed by a parenthesis of two or more parts (`spec.prose_inputs.records_in`), is one input
holding those parts as its fields, when at least two of them are names the skills read that no other part
of the sentence says and no step before outputs (each matched as a part of the sentence is,
`plan.prose_inputs.match_part`: "object no." is `object_id`). The input is named by the part's words
without a word for a holder ("record", "details", "form", "sheet", "slip", ...: "the loan record" is `loan`);
each skill input so matched is taken from that field of it (`inputs.loan.currency`) where nothing else
gives it, or where only an earlier step's copy of it would and the step's text names the input by its words
("object no. + lender (loan record)": the record's `object_id`, not condition-check's echo of it). The reading is warned at the sentence's line, with the fields read and those not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.prose_inputs import match_part
from orchestrator.spec.model import InputSpec

_HOLDER = frozenset({"record", "records", "details", "detail", "info", "information", "data", "form", "file", "sheet",
                     "entry", "card", "pack", "packet", "dossier", "profile", "slip", "docket"})
_STOP = frozenset({"the", "a", "an", "my", "your", "our", "their", "its", "his", "her", "this", "that", "of", "s"})


def record_name(part: str) -> str | None:
    """`loan` for "the loan record", `booking` for "the booking details", `order` for "your order"; None when
    only a holder's word is said ("the record")."""
    words = [w for w in re.findall(r"[a-z][a-z0-9]*+", part.lower()) if w not in _STOP]
    kept = [w for w in words if w not in _HOLDER]
    return "_".join(kept[-3:]) if kept else None


def record_inputs(parts: Sequence[tuple[str, str]], records: Iterable[tuple[str, tuple[str, ...]]],
                  reads: Mapping[str, str], made: Iterable[str], have: Iterable[str], path: str) \
        -> tuple[list[InputSpec], dict[str, str], list[Diagnostic]]:
    """The inputs the `records` of the sentence's `parts` make (module docstring), each skill input taken from
    one of them -> that input's name, and the warnings. `reads`: each name a skill reads -> what its SKILL.md
    says of it; `made`: names steps output; `have`: the inputs there are."""
    made_set, held = set(made), set(have)
    where_of = dict(parts)
    said = {m[0] for part, _ in parts if (m := match_part(part, reads, made_set)) is not None}
    out: list[InputSpec] = []
    taken: dict[str, str] = {}
    found: list[Diagnostic] = []
    for part, fields in records:
        if part not in where_of or match_part(part, reads, made_set) is not None:
            continue
        name = record_name(part)
        if name is None or name in held or name in reads:
            continue
        matched: dict[str, str] = {}
        unread: list[str] = []
        for field in fields:
            m = match_part(field, reads, made_set)
            if m is None or m[0] in said or m[0] in held or m[0] in taken or m[0] in matched.values():
                unread.append(field)
            else:
                matched[field] = m[0]
        if len(matched) < 2:
            continue
        held.add(name)
        taken.update({skill_input: name for skill_input in matched.values()})
        out.append(InputSpec(name=name, type="object", where=where_of[part],
                             description=f"said in the text as '{part}', holding "
                                         + ", ".join(f"`{f}`" for f in matched.values())))
        message = (f"'{part}' is read as the workflow input `{name}`, an object holding the fields "
                   + ", ".join(f"`{n}` ('{f}')" for f, n in matched.items())
                   + f"; the steps whose skills read those names take them from it (`{name}.{next(iter(matched.values()))}`)")
        if unread:
            message += "; not matched to any input a skill reads: " + ", ".join(f"'{f}'" for f in unread)
        found.append(warning_at(where_of[part], path, message + f". To say so plainly write an Inputs section with "
                                f"`- {name}: object with {', '.join(matched.values())}`", "plan.inputs-in-prose"))
    return out, taken, found


def says_record(text: str, part: str) -> bool:
    """Whether a step's text names the input by its words ("object no. + lender (loan record)", "off the loan
    record" for "the loan record"): then a name it holds is its field, not an earlier step's copy of it."""
    words = [w for w in re.findall(r"[a-z][a-z0-9]*+", part.lower()) if w not in _STOP]
    if not words:
        return False
    said = r"[\s*_]++".join(re.escape(w) for w in words)
    return re.search(rf"(?<![a-z0-9]){said}(?![a-z0-9])", text.lower()) is not None
