"""The run's inputs a sentence lists in the author's own words, each bound to the skill input it is (round 54).

    You need three things off the enquiry form: the customer's name, the site address and the date
    they'd like us.                                                   (`spec.own_inputs54`)
    -> workflow inputs customer_name (for skill input `client`), site_address (for `address`),
       wanted_date (for `from_date`)

Each part is a workflow input named as the author calls it (`spec.own_inputs54.own_name`). It is matched to
the name a skill reads as `plan.prose_inputs` matches a part (every word of the name said, its last word,
what its words stand for), with two more readings of meaning: a customer said for a `client` (and back),
and a wished-for thing ("the date they'd like us") for the one name no step outputs ending in its word
(`from_date`). A part whose words are exactly the name's is that name, not renamed; a part that matches
no name is still the author's input, said as not matched (so a step's own "put_in is heads out" may take
it). Each input matched holds `for skill input NAME` (`plan.renamed_input` binds it). One warning at
the sentence's line says how each part was read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.near_input import singular_word
from orchestrator.plan.prose_inputs import match_part
from orchestrator.spec.model import InputSpec
from orchestrator.spec.own_inputs54 import CUSTOMER_WORDS, own_name
from orchestrator.spec.regex_cache import Patterns

__all__ = ["fields_said", "own_inputs"]

_NOT_NAME = frozenset({"name", "number", "no", "id", "the", "of"})


def _words(name: str) -> list[str]:
    return [singular_word(w) for w in name.lower().replace("-", "_").split("_") if w]


def _by_meaning(own: str, reads: Mapping[str, str], made: set[str], taken: set[str]) -> tuple[str, str] | None:
    """(name, how) for a skill input the author's words clearly are but do not say (module docstring)."""
    words = _words(own)
    person = [w for w in words if w in CUSTOMER_WORDS]
    if person:
        found = [n for n in reads if n not in made and n not in taken
                 and set(_words(n)) - _NOT_NAME and set(_words(n)) - _NOT_NAME <= CUSTOMER_WORDS]
        if len(found) == 1:
            return found[0], f"'{person[0]}' said for `{found[0]}`"
    if words[:1] == ["wanted"] and len(words) >= 2:
        found = [n for n in reads if n not in made and n not in taken and _words(n)[-1:] == words[-1:]]
        if len(found) == 1:
            return found[0], f"the {words[-1]} wanted, the one `{words[-1]}` a step reads and none outputs"
    return None


def own_inputs(parts: Sequence[tuple[str, str]], reads: Mapping[str, tuple[str, bool]], made: Iterable[str],
               have: Iterable[str], path: str) -> tuple[list[InputSpec], list[Diagnostic]]:
    """The inputs the parts name in the author's words and the warning at the sentence's line (module docstring)."""
    if not parts:
        return [], []
    made_set, held = set(made), set(have)
    about = {name: text for name, (text, _) in reads.items()}
    taken: set[str] = set()
    read: list[str] = []
    unread: list[str] = []
    out: list[InputSpec] = []
    for part, where in parts:
        own = own_name(part)
        if own is None or own in held:
            continue
        matched = None if own.startswith("wanted_") else match_part(part, about, made_set)
        if matched is not None and matched[0] in taken:
            matched = None
        matched = matched or _by_meaning(own, about, made_set, taken)
        if matched is None:
            unread.append(f"'{part}' as `{own}`")
            out.append(InputSpec(name=own, where=where, description=f"said in the text as '{part}'"))
            held.add(own)
            continue
        name, how = matched
        taken.add(name)
        if set(_words(name)) == set(_words(own)) - _NOT_NAME or name == own:
            own = name  # "the trip code" is `trip_code`, "the week number" `week`: the skill's own name
        held.add(own)
        read.append(f"'{part}' as `{own}`" + (f" for skill input `{name}`" if own != name else "")
                    + (f" ({how})" if how else ""))
        out.append(InputSpec(name=own, required=not reads[name][1], where=where,
                             description=f"said in the text as '{part}'"
                                         + (f", for skill input {name}" if own != name else "")))
    message = "the text lists what the run is given in its own words"
    if read:
        message += ": read as the workflow inputs " + ", ".join(read)
    if unread:
        message += ("; " if read else ": ") + "the workflow inputs " + ", ".join(unread) + \
            ", not matched to any input a skill reads (a step that names them takes them)"
    example = out[0].name if out else "name"
    message += (f". To say so plainly write an Inputs section: `## Inputs` then one `- {example}: what it is` "
                "line per input")
    return out, [warning_at(parts[0][1], path, message, "plan.inputs-in-prose")]


_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "put_in is heads out", "`landed` = heads in": a name the step's skill reads, then the words of an input
_IS = _rx(r"(?<![\w`-])`?+(?P<f>[a-z][a-z0-9]{0,30}+(?:_[a-z0-9]{1,30}+){0,4}+)`?+\s++(?:is|=|comes\s++from)\s++"
          r"(?P<w>[A-Za-z][A-Za-z'’ -]{0,40}?)(?=\s*+(?:[,.;:)]|\band\b|$))")


def fields_said(text: str, reads: Iterable[str], inputs: Iterable[str]) -> dict[str, str]:
    """Each name the step's skill reads that its text says is an input in the author's words ("trip-headcount -
    put_in is heads out, landed is heads in": `put_in` <- `heads_out`) -> that input; names the skill does not
    read, and words that are no input's, are not read."""
    wanted, names = set(reads), set(inputs)
    out: dict[str, str] = {}
    for m in _IS.finditer(text[:4000]):
        own = own_name(m.group("w"))
        if m.group("f") in wanted and own in names and m.group("f") not in out:
            out[m.group("f")] = own
    return out


_rx.save()
