"""The workflow inputs a sentence says the run is given (`spec.prose_inputs`), matched to the names
the skills read.

"you'll need to give it the order number, the store code and your name": each part is matched to
an input a step's skill reads (its input schema or its SKILL.md instructions):

- every word of the name is a word of the part, plurals aside: "the order number" is
  `order_number`, "how many servings" is `servings`, "the raw CSV export" is `export_csv`;
- or every word of what the SKILL.md says of the name in its parenthesis is: `cook` (your name)
  is "your name".

Two names for one part: the one no step outputs, else the one of more words; still two is a
guess, and the part is said as not matched. Each part read becomes a workflow input (the skill
says whether it may be left out), and the sentence's line gets a warning that says how each part
was read, which were not, and how to write an Inputs section instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.near_input import singular_word
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CASE = _rx(r"([a-z])([A-Z])")
_NOT_WORD = _rx(r"[^0-9a-z]++")

_STOP = frozenset({"a", "an", "the", "my", "your", "our", "their", "its", "his", "her", "which", "what", "how",
                   "many", "much", "of", "off", "on", "in", "to", "for", "from", "with", "and", "or", "it", "is",
                   "was", "were", "s", "be", "that", "this", "each", "every", "time", "file", "string", "int",
                   "integer", "number", "list", "object", "bool", "boolean", "optional", "required", "e", "g"})


def _words(text: str) -> set[str]:
    text = _CASE.sub(r"\1 \2", text)
    return {singular_word(w) for w in _NOT_WORD.split(text.lower()) if w and w not in _STOP}


def _match(part: str, reads: Mapping[str, str], made: set[str]) -> str | None:
    said = _words(part)
    found = []
    for name, about in reads.items():
        words, about_words = _words(name.replace("_", " ").replace("-", " ")), _words(about)
        if (words and words <= said) or (about_words and about_words <= said and len(about_words) <= 3):
            found.append(name)
    if len(found) > 1:
        found = [n for n in found if n not in made] or found
    if len(found) > 1:
        most = max(len(_words(n.replace("_", " "))) for n in found)
        found = [n for n in found if len(_words(n.replace("_", " "))) == most]
    return found[0] if len(found) == 1 else None


def prose_inputs(said: Iterable[tuple[str, str]], reads: Mapping[str, tuple[str, bool]], made: Iterable[str],
                 have: Iterable[str], path: str) -> tuple[list[InputSpec], list[Diagnostic]]:
    """The inputs `said` names (module docstring) that `have` does not hold, and the warning at its
    line. `reads`: each name a skill reads -> (what its SKILL.md says of it, optional)."""
    parts = list(said)
    if not parts:
        return [], []
    made_set, held = set(made), set(have)
    about = {name: text for name, (text, _) in reads.items()}
    read: list[tuple[str, str]] = []
    unread: list[str] = []
    out: list[InputSpec] = []
    for part, where in parts:
        name = _match(part, about, made_set)
        if name is None:
            unread.append(part)
            continue
        read.append((part, name))
        if name not in held:
            held.add(name)
            out.append(InputSpec(name=name, required=not reads[name][1], where=where,
                                 description=f"said in the text as '{part}'"))
    where = parts[0][1]
    message = "the text says what the run is given"
    if read:
        message += ": read as the workflow inputs " + ", ".join(f"'{p}' as `{n}`" for p, n in read)
    if unread:
        message += ("; " if read else ": ") + "not matched to any input a skill reads: " + \
            ", ".join(f"'{p}'" for p in unread)
    example = read[0][1] if read else "name"
    message += (f". To say so plainly write an Inputs section: `## Inputs` then one `- {example}: what it is` "
                "line per input")
    return out, [warning_at(where, path, message, "plan.inputs-in-prose")]


_rx.save()
