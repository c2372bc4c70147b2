"""A code the document states once for the whole run, taken by a step whose skill reads it.

    # Nightly stock count — Dockside Store (DS4)            (the title names the store's code)
    Counts for store 0412 only.                             (the intro: "for store 0412")
    Property code: HVH                                      (the intro, the name's words and a colon)
    ...
    3. Send the counts for our store code with `send-counts`.

A step's skill reads an identifier (`store_code`, `vessel_id`, `site_no`: a name of two words or
more whose last word is code, id, no, number, ref or key) that no workflow input, earlier output or
value of the step gives. The document says it once for every run, in one of three ways:

- the name's words, then "is", "=" or ":" and the value, in the text before the steps (`said_value`);
- the name's first word (the thing it identifies) then a code, in the text before the steps:
  "for store 0412", "Hotel HVH" (a code: capitals and digits, at least two, with a digit or all
  capitals);
- a code in parentheses in the title ("Harbour View (HVH)"), when the step's own text names the
  value in words with "our" or "this" before them ("for our hotel code"): the document's own code.

That value is the step's literal, warned at the step's line with where it was read and how to write
it plainly (`store_code: "DS4"` in the step). Two different codes found the same way are a guess
between them: nothing is bound, and the warning names both. Read before the rule that gives a lone
input the one other value the step's text names, so that "our store code" does not take an earlier
step's `code`.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.plan.said_value import bind_literal, said_value
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ID_WORDS = frozenset({"code", "id", "no", "number", "ref", "key"})
_TOKEN = _rx(r"#?+[A-Za-z0-9][A-Za-z0-9-]*+")
_PAREN = _rx(r"\(([^()\n]{1,14}+)\)")
_WORD = _rx(r"[A-Za-z]++")


def _code(token: str, after: str = "") -> bool:
    """A code: 2 to 12 capitals, digits and dashes, with a digit, or all capitals after a word that is not
    ("Hotel HVH", not "BRITE TANK RELEASE")."""
    token = token.lstrip("#")
    if not 2 <= len(token) <= 12 or token.upper() != token or not token[:1].isalnum() or not token[-1:].isalnum():
        return False
    return any(c.isdigit() for c in token) or (token.isalpha() and not after.isupper())


def _codes_after(word: str, text: str) -> list[str]:
    """The codes that follow `word` ("store 0412", "Hotel HVH", "store #0412") in `text`."""
    tokens = _TOKEN.findall(text)
    return [tokens[i + 1].lstrip("#") for i in range(len(tokens) - 1)
            if tokens[i].lower() in (word, word + "s") and _code(tokens[i + 1], tokens[i])]


def _ours(name: str, text: str) -> bool:
    """The step's text says the name's words after "our" or "this" ("for our hotel code")."""
    words = name.split("_")
    said = [w.lower() for w in _WORD.findall(text)]
    n = len(words)
    return any(said[i + 1:i + 1 + n] == words and said[i] in ("our", "this") for i in range(len(said) - n))


def document_constant(name: str, title: str, preamble: str, text: str) -> tuple[list[object], str]:
    """(the values found, how) for identifier `name` (module docstring): one value is the reading,
    two or more a guess said as such, none nothing."""
    words = name.lower().split("_")
    if len(words) < 2 or words[-1] not in _ID_WORDS or not all(w.isalpha() for w in words):
        return [], ""
    said = said_value(name, preamble)
    if said is not None:
        return [said[0]], f"the text before the steps says '{said[1]}'"
    owner = words[-2]
    after = list(dict.fromkeys(_codes_after(owner, preamble)))
    if after:
        return list(after), f"the text before the steps says '{owner} {after[0]}'"
    if _ours(name, text):
        coded = list(dict.fromkeys(m.group(1).strip().lstrip("#") for m in _PAREN.finditer(title)
                                   if _code(m.group(1).strip())))
        if coded:
            return list(coded), f"the title '{title.strip()[:60]}' holds the code ({coded[0]})"
    return [], ""


def bind_constants(step: StepSpec, names: Iterable[str], title: str, preamble: str, text: str,
                   bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                   path: str, doubtful: set[str]) -> list[Diagnostic]:
    """Bind each of `names` (identifiers nothing gives) to the code the document states for the whole
    run (module docstring), warned; two codes: none bound, both said, the name added to `doubtful` (no
    other rule guesses a value for it)."""
    found: list[Diagnostic] = []
    for name in names:
        values, how = document_constant(name, title, preamble, text)
        if len(values) > 1:
            found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which "
                                    f"nothing gives; {how}, but the document names more than one code "
                                    f"({', '.join(map(str, values))}): none is taken; write `{name}: value` in the "
                                    "step", "plan.input-said-value"))
            doubtful.add(name)
            continue
        if not values:
            continue
        found.append(bind_literal(step, path, name, values[0], f"{how}, for the whole run",
                                  f"{how}: it is read as the document's own code {values[0]!r} for every run",
                                  bindings, provenance))
    return found


_rx.save()
