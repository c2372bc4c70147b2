"""A success check said in words and restated: in the parenthesis it ends with, or after "i.e.".

People say when the run is done in their own words and then say it again the way the system
sees it, in a parenthesis at the end: "We're done when the brewsheet line is written (logged
comes back true)", "How will we know it worked: huddle board shows today's status (posted =
yes)", "finished once the label is out (`printed` is true)". The words before the parenthesis
are what the check means to the author; the parenthesis is the check. A clause that ends in a
parenthesis holding one comparison of a field with a value (`posted = yes`, `count >= 3`) or a
field said to come back as a value (`logged comes back true`, or bare: `printed true`, an output some step gives) is
read by that parenthesis (`restatement`); the warning at the line quotes what was read.

A parenthesis that is no such check ("(see the wiki)", "(usually 20 rows)", "(logged in the
binder)") leaves the clause as it was: read or warned by the other readers.

A check of two values said after words that mean the same ("every urgent finding has a work order
# i.e. WO count == urgent count", "all rows made it, in other words rows loaded equals rows read"):
the comparison of two values (`spec.success_compare31`) is read from what follows "i.e.", "in other
words", "that is to say", "namely" (`said_plainly`), so the author's words before it are not read as a
side of it.

"A as many N as B" ("the gateway says it queued as many texts as we wrote", "the printer printed as many
labels as there were jars") is a comparison of two values too: equal ("at least as many": at least).
Its left side is the last word before it that is an output of a step (`queued`); its right side is how
many N the other step that makes them gives: the one step (not the left's) whose output is named by N
(`text`, `texts`), counted (a step run for each item gives one per item). No such output, or several
steps that give it, read nothing (`as_many`): the sentence stays warned as not checked.

An Obsidian callout of success (`> [!success] Done when` over `> nothing is left on the unplaced
pile.`; `[!done]`, `[!check]` alike, folded or not) says when the run is done: its body is the check, its
title a label of it (`callout_check`). "Nothing is left on / in X", "no X is left", "X has nothing left
in it" say that the output X names is empty (`emptied`): the one output of one step named by the words
of X ("the unplaced pile": `unplaced`); words that name no output, or one several steps give, read
nothing. Said as the parenthesis a clause ends with ("every route has a driver (nothing left in
unassigned)"), it is the check the words before it mean (`restated_empty`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from orchestrator.spec.model import CompareOp, CompareValueSpec, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.success import read_criteria
from orchestrator.spec.success_halves import read_half

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# words, then a closing parenthesis that ends the clause: "X is written (logged comes back true)."
_TRAILING = _rx(r"^(?P<before>[^()]{3,300}?)\s*+\((?P<inner>[^()]{3,120}+)\)\s*+[.!]?\s*+$")


def restatement(clause: str, names: frozenset[str]) -> tuple[str, str] | None:
    """(the parenthesis as written, the check it is as `field == value`) of a clause that restates its
    check in the parenthesis it ends with (module docstring), or None. `names`: the outputs the steps
    give (a field said to come back as a value must be one of them)."""
    m = _TRAILING.match(clause.strip())
    if m is None or not any(c.isalpha() for c in m.group("before")):
        return None
    inner = m.group("inner").replace("`", "").strip()
    from orchestrator.spec.whole_success import comparison

    one = comparison(inner)
    if one is not None and one.partition(" ")[0] == _field_of(inner):
        checks, rest = read_criteria(one)
        if checks and not rest:
            return inner, one
    half = read_half(inner, names) if names else None
    if half is None and (bare := _BARE.match(inner)) is not None and bare.group("field") in names:
        value = bare.group("value").lower()  # "(printed true)": an output, then the value it comes back as
        value = {"yes": "true", "no": "false"}.get(value, value)
        return inner, f"{bare.group('field')} == {value}"
    return (inner, half.written) if half is not None else None


# an output named, then a bare value: "(printed true)", "(rows 0)" (round 47)
_BARE = _rx(r"(?i)^(?P<field>[A-Za-z_]\w*+)\s++(?P<value>true|false|yes|no|-?\d++(?:\.\d++)?)$")


_FIELD = _rx(r"^[`*]*+(?P<field>[A-Za-z_][\w.]*+)")


def _field_of(inner: str) -> str:
    """The name the parenthesis starts with (a comparison inside words is no restatement)."""
    m = _FIELD.match(inner)
    return m.group("field") if m else ""


# "..., i.e. X", "# i.e. X", "in other words X": what follows says the same plainly
_PLAINLY = _rx(r"(?i)(?<![\w.-])(?:i\.\s*+e\.|in\s++other\s++words|that\s++is\s++to\s++say|namely)[,:]?+\s++(?=\S)")


def said_plainly(text: str) -> str:
    """What follows the last "i.e." (or "in other words", ...) of a check's words, else the words."""
    found = list(_PLAINLY.finditer(text))
    return text[found[-1].end():].strip() if found else text


# "A queued as many texts as we wrote", "A at least as many labels as there were jars"
_AS_MANY = _rx(r"(?i)^(?P<left>[^\n]{1,200}?)\s++(?P<least>at\s++least\s++|no\s++fewer\s++than\s++)?(?:just\s++|exactly\s++)?"
               r"as\s++many\s++(?P<noun>[a-z][\w-]{1,40}+)\s++as\s++(?P<right>[^\n]{1,200}+)$")
_NAME_WORD = _rx(r"[A-Za-z_][\w]*+")


def _forms(noun: str) -> list[str]:
    low = noun.lower().replace("-", "_")
    out = [low, low[:-1] if low.endswith("s") else low + "s"]
    if low.endswith("ies"):
        out.append(low[:-3] + "y")
    return list(dict.fromkeys(out))


def as_many(clause: str, steps: Sequence[StepSpec],
            outputs: Callable[[StepSpec], frozenset[str]]) -> tuple[CompareValueSpec, CompareOp, CompareValueSpec, str] | None:
    """"A <verb> as many N as B" as a comparison of two values (module docstring), or None."""
    clause = clause.strip().rstrip(".!").strip()
    m = _AS_MANY.match(clause)
    if m is None:
        return None
    given = [outputs(s) for s in steps]
    words = _NAME_WORD.findall(m.group("left"))
    field = next((w for w in reversed(words) if any(w in g for g in given)), None)
    if field is None:
        return None
    owners = {s.id for s, g in zip(steps, given, strict=True) if field in g}
    forms = _forms(m.group("noun"))
    makers = [(s, name) for s, g in zip(steps, given, strict=True) if s.id not in owners
              for name in [next((f for f in forms if f in g), None)] if name is not None]
    if len(makers) != 1:
        return None
    step, name = makers[0]
    left = CompareValueSpec(field=field, candidates=(field,), said=m.group("left").strip())
    right = CompareValueSpec(step=step.id, field=name, candidates=(name,), count=True,
                             said=f"as many {m.group('noun')} as {m.group('right').strip()}")
    return left, ("ge" if m.group("least") else "eq"), right, clause


# "[!success] Done when ...", "[!done]- Finished if: ...": a callout of success, its title a label
_CALLOUT = _rx(r"(?i)^[^\w\[]{0,4}+\[!(?:success|done|check)\][+-]?+\s*+(?:(?:definition\s++of\s++done|success\s++criteria|"
               r"(?:done|finished|complete|success)(?:\s++(?:when|if|once))?+)(?:\s*+:)?+\s++)?+(?P<body>\S[\s\S]*+)$")


def callout_check(sentence: str) -> str | None:
    """The body of a callout of success ("[!success] Done when nothing is left ..." -> "nothing is left ..."),
    or None when the sentence is no such callout."""
    m = _CALLOUT.match(sentence.strip())
    return m.group("body").strip().rstrip(".").strip() or None if m else None


_NOTHING = (
    _rx(r"(?i)^(?:there\s++is\s++|there['’]s\s++)?+nothing\s++(?:is\s++|was\s++)?+(?:left|remaining|remains|sits|still)"
        r"(?:\s++(?:left|sitting|over))?+\s++(?:on|in|at)\s++(?P<thing>[\w' -]{1,60}+)$"),
    _rx(r"(?i)^no\s++(?P<thing>[\w' -]{1,60}?)\s++(?:is|are|were|was|remains?)\s++(?:left|remaining)(?:\s++over)?+$"),
    _rx(r"(?i)^(?P<thing>[\w' -]{1,60}?)\s++(?:has|had)\s++nothing\s++(?:left\s++)?+(?:on|in)\s++it$"),
)
_THING_STOP = frozenset({"the", "a", "an", "our", "its", "their", "my", "pile", "list", "heap", "stack", "queue", "tray",
                         "bin", "box", "any", "more", "items", "entries", "things"})


def emptied(clause: str, outputs: Sequence[frozenset[str]]) -> str | None:
    """The output a clause says nothing is left in ("nothing is left on the unplaced pile" -> `unplaced`),
    when one step gives it; else None. `outputs`: each step's output names."""
    thing = next((m.group("thing") for rx in _NOTHING if (m := rx.match(clause.strip().rstrip(".").strip()))), None)
    if thing is None:
        return None
    words = [w.lower() for w in _NAME_WORD.findall(thing) if w.lower() not in _THING_STOP]
    if not words:
        return None
    names = {"_".join(words), *(f for w in words for f in _forms(w))}
    found = {n for given in outputs for n in given if n in names}
    if len(found) != 1:
        return None
    [name] = found
    return name if sum(name in given for given in outputs) == 1 else None


def restated_empty(clause: str, outputs: Sequence[frozenset[str]]) -> str | None:
    """The parenthesis a clause ends with when it restates the check as nothing left in one output
    ("every route has a driver (nothing left in unassigned)" -> "nothing left in unassigned"), else None."""
    m = _TRAILING.match(clause.strip())
    if m is None or not any(c.isalpha() for c in m.group("before")):
        return None
    inner = m.group("inner").replace("`", "").strip()
    return inner if emptied(inner, outputs) is not None else None


_rx.save()
