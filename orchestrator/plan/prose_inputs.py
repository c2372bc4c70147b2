"""The workflow inputs a sentence says the run is given (`spec.prose_inputs`), matched to the names
the skills read.

"you'll need to give it the order number, the store code and your name": each part is matched to
an input a step's skill reads (its input schema or its SKILL.md instructions):

- every word of the name is a word of the part, plurals aside: "the order number" is
  `order_number`, "how many servings" is `servings`, "the raw CSV export" is `export_csv`;
- or every word of what the SKILL.md says of the name in its parenthesis is: `cook` (your name)
  is "your name".

- no name has every word said, but one does save a unit it ends in: "the wind limit" is `limit_ms`,
  said so in the warning;
- or, failing all those, the part's last word is the last word of exactly one name no step outputs:
  "today's date" is `run_date`, said so in the warning.

Two parts that match one name are told apart by their first words: each is named by its first word
that is not the name's (nor "the", "a", ...) and the name, "the EDC listing export" and "the safety DB
case listing" for `listing` being `edc_listing` and `safety_listing` (a guess, said in the warning; the
step whose text says those words takes it: `plan.fed_input`). When their first words do not tell them
apart, neither is read (the warning names both). Two names for one part: the one no step outputs, else the one of more words, else the one for many
when the part speaks of many ("the hive list": `hives`, not `hive`) and the one for one when it
does not; still two is a guess, and the part is said as not matched. Each part read becomes a workflow input (the skill
says whether it may be left out), and the sentence's line gets a warning that says how each part
was read, which were not, and how to write an Inputs section instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from orchestrator.errors import Diagnostic
from orchestrator.plan.given_words import which_named
from orchestrator.plan.input_names_kept import abbreviates, label_name
from orchestrator.plan.location import warning_at
from orchestrator.plan.near_input import singular_word
from orchestrator.plan.said_again54 import said_again
from orchestrator.plan.said_names52 import event_field, event_time
from orchestrator.spec.input_word_names import stand_ins
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


# a unit a name may end in that its words need not say ("wind limit (m/s)" for `limit_ms`, "the weight" for
# `weight_kg`): read only when no name matches whole, and said in the warning
_UNITS = frozenset({"ms", "m", "s", "sec", "secs", "min", "mins", "h", "hr", "hrs", "km", "kg", "g", "mm", "cm",
                    "usd", "eur", "gbp", "pct", "percent", "c", "f", "kwh", "kw", "mw", "mph", "kph", "kmh", "kt", "kn", "l", "ml"})
_MANY = frozenset({"list", "lists", "all", "every", "set", "sheet", "table", "rows", "batch"})


def _name_words(name: str) -> list[str]:
    return [w for w in _NOT_WORD.split(_CASE.sub(r"\1 \2", name).lower()) if w]


def _plural(name: str, about: str) -> bool:
    """`turbines`, `rows`: a name for many, or one its skill says is a list."""
    last = (_name_words(name) or [""])[-1]
    return (last.endswith("s") and not last.endswith("ss") and singular_word(last) != last) or \
        about.lower().lstrip("( ").startswith(("list", "array"))


def _match(part: str, reads: Mapping[str, str], made: set[str]) -> tuple[str, str] | None:
    """(name, how it was read: "" when every word of it is said) for the one name `part` says."""
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
    if len(found) > 1:  # `turbine` and `turbines` for "the turbine list": the one for many, or the one for one
        many = bool(_MANY & set(_NOT_WORD.split(part.lower()))) or any(
            w.endswith("s") and singular_word(w) != w for w in _NOT_WORD.split(part.lower()) if w not in _STOP)
        found = [n for n in found if _plural(n, reads[n]) == many] or found
    if len(found) == 1:
        return found[0], ""
    if found:
        return None
    unit = []  # "the wind limit" for `limit_ms`: every word but a trailing unit
    for name in reads:
        parts = _name_words(name)
        if len(parts) > 1 and parts[-1] in _UNITS and (rest := {singular_word(w) for w in parts[:-1] if w not in _STOP}) \
                and rest and rest <= said:
            unit.append((name, f"its unit `{parts[-1]}` not said"))
    if len(unit) == 1:
        return unit[0]
    if unit:
        return None
    short = [name for name in reads if name not in made and abbreviates(part, name)]  # "NOM PSI", "EP#"
    if len(short) == 1:
        return short[0], "its words shortened"
    timed = event_field(part, reads, made)  # "what time they rang": `called_at` (`plan.said_names52`)
    if timed is not None:
        return timed, "the time of what the words say happened"
    return _last_word(part, reads, made) or _stood_for(part, said, reads, made) \
        or which_named(part, reads, made)  # "which weather buoy to read": `station` (buoy id)


def match_part(part: str, reads: Mapping[str, str], made: Iterable[str]) -> tuple[str, str] | None:
    """(name, how it was read) for the one name a part said in words is (module docstring), or None."""
    return _match(part, reads, set(made))


def _last_word(part: str, reads: Mapping[str, str], made: set[str]) -> tuple[str, str] | None:
    """The one name of several words whose last word is the part's last ("today's date" for `run_date`),
    unless the part's other words name a value of their own."""
    content = [w for w in _tokens(part) if w not in _STOP]
    last = content[-1:]  # the last word alone, its other words naming no value
    if any(singular_word(w) == o for o in content[:-1] for name in reads for w in _name_words(name)):
        return None  # "the sailing ref": `sailing` is a name of its own, so not `filing_ref`
    heads = [name for name in reads if name not in made and len(_name_words(name)) > 1 and last
             and singular_word(_name_words(name)[-1]) == last[0]]
    return (heads[0], f"only its last word '{last[0]}' said") if len(heads) == 1 else None


def _stood_for(part: str, said: set[str], reads: Mapping[str, str], made: set[str]) -> tuple[str, str] | None:
    """The one name whose words the part's words stand for ("the crate no." for `crate_id`, "today's date" for
    `run_date`, "what's in it" for `commodity`: `spec.input_word_names`), said so in the warning."""
    stand, how = stand_ins(part)
    if not stand:
        return None
    found = [name for name in reads if name not in made  # a step's output is no input to ask for
             and (words := _words(name.replace("_", " ").replace("-", " "))) and words <= said | stand and words & stand]
    return (found[0], f"by what {how} stands for") if len(found) == 1 else None


def _tokens(text: str) -> list[str]:
    return [singular_word(w) for w in _NOT_WORD.split(_CASE.sub(r"\1 \2", text).lower()) if w]


def _count(tokens: list[str], run: list[str]) -> int:
    n = len(run)
    return sum(tokens[i:i + n] == run for i in range(len(tokens) - n + 1)) if n else 0


TOLD_APART = "could each be skill input "


def told_apart(parts: Sequence[str], name: str) -> dict[str, str] | None:
    """Each of the parts that all match `name` -> its first word that is not the name's, before the name
    (`edc_listing` for "the EDC AE listing export"); None when a part has no such word, or two share it."""
    own = {singular_word(w) for w in _name_words(name)}
    out: dict[str, str] = {}
    for part in parts:
        first = next((w for w in _NOT_WORD.split(part.lower()) if w and w not in _STOP and singular_word(w) not in own), "")
        if not first or not first[0].isalpha():
            return None
        out[part] = f"{first}_{name}"
    return out if len(set(out.values())) == len(out) == len(parts) >= 2 else None


def without_skill(text: str, skill: str | None) -> str:
    """A step's text for `author_name` with its skill's name left out: "read-study-plot" names the skill, it does
    not say "study plot" again (the input "Study plot readings" stays the skill's `plot`)."""
    if not skill:
        return text
    return " ".join(w for w in text.split() if w.strip("`*_'\"()[]{}.,;:").lower() != skill.lower())


def author_name(part: str, name: str, text: str, parts: Sequence[str] = ()) -> str:
    """`name` as the author calls it: `panel_sheet` for `sheet` when the part says "the tasting panel
    sheet" and the text of the step that reads it says "the panel sheet" too (the one word before the
    name's words, the same in both), unless the step's text holds the part and another of the list's
    `parts` word for word (the list itself, inside a step read from a memo); else `name`."""
    words = [singular_word(w) for w in _name_words(name)]
    said = _tokens(part)
    n = len(words)
    starts = [i for i in range(1, len(said) - n + 1) if said[i:i + n] == words]
    if len(starts) != 1:
        return name
    modifier = said[starts[0] - 1]
    if modifier in _STOP or not modifier.isalpha() or len(modifier) < 2 or modifier in words:
        return name
    step = _tokens(text)
    held = sum(bool(_count(step, _tokens(p))) for p in dict.fromkeys([part, *parts]))
    if _count(step, said) and (held >= 2 or len(set(parts) | {part}) == 1) and not said_again(
            step, [_tokens(p) for p in dict.fromkeys([part, *parts])], [modifier, *words]):
        return name  # the step's text holds the list itself (a memo read as one step): it says nothing again
    if not _count(step, [modifier, *words]):
        return name
    return "_".join([modifier, *_name_words(name)])


def prose_inputs(said: Iterable[tuple[str, str]], reads: Mapping[str, tuple[str, bool]], made: Iterable[str],
                 have: Iterable[str], path: str,
                 texts: Mapping[str, str] | None = None) -> tuple[list[InputSpec], list[Diagnostic]]:
    """The inputs `said` names (module docstring) that `have` does not hold, and the warning at its
    line. `reads`: each name a skill reads -> (what its SKILL.md says of it, optional); `texts`: each
    name -> the text of the steps that read it, for the name the author gives it (`author_name`): an
    input so named holds the description `for skill input NAME`."""
    parts = list(said)
    if not parts:
        return [], []
    made_set, held = set(made), set(have)
    about = {name: text for name, (text, _) in reads.items()}
    read: list[tuple[str, str, str]] = []
    unread: list[str] = []
    twice: dict[str, list[str]] = {}  # a name two parts both match, to those parts
    out: list[InputSpec] = []
    matches = [_match(part, about, made_set) for part, _ in parts]
    shared = {m[0] for m in matches if m is not None and sum(o is not None and o[0] == m[0] for o in matches) > 1}
    for (part, where), matched in zip(parts, matches, strict=True):
        if matched is not None and matched[0] in shared:  # two parts for one name: which is it? neither is read
            twice.setdefault(matched[0], []).append(part)
            continue
        if matched is None:
            unread.append(part)
            continue
        name, how = matched
        own = author_name(part, name, (texts or {}).get(name, ""), [p for p, _ in parts])
        if own == name and (label := label_name(part, name)) is not None:  # "NOM PSI": `nom_psi`, as the form says
            own, how = label, f"the form's label for skill input `{name}`, its words shortened"
        elif own == name and how and (said_own := event_time(part)) is not None:
            own = said_own if isinstance(said_own, str) else said_own[0]  # "door type": `door_type` (`said_names52`)
            how = f"the author's words for skill input `{name}`" + (f"; {how}" if how else "")
        if own != name and own != label_name(part, name) and not how.startswith("the author's words"):
            how = (f"the skill reads `{name}`; the step's text says '{own.replace('_', ' ')}' too"
                   + (f"; {how}" if how else ""))
        read.append((part, own, f" ({how})" if how else ""))
        if own not in held:
            held.add(own)
            out.append(InputSpec(name=own, required=not reads[name][1], where=where,
                                 description=f"said in the text as '{part}'"
                                             + (f", for skill input {name}" if own != name else "")))
    where = parts[0][1]
    message = "the text says what the run is given"
    if read:
        message += ": read as the workflow inputs " + ", ".join(f"'{p}' as `{n}`{h}" for p, n, h in read)
    if unread:
        message += ("; " if read else ": ") + "not matched to any input a skill reads: " + \
            ", ".join(f"'{p}'" for p in unread)
    apart: list[str] = []
    for name, alike in list(twice.items()):
        told = told_apart(alike, name)
        step_words = [set(_tokens(text)) for text in (texts or {}).values()]
        if told is None or not all(any(set(_tokens(own.replace("_", " "))) <= words for words in step_words)
                                   for own in told.values()):
            continue  # a guess only where a step's text says all the words of each name it makes ("the EDC listing")
        del twice[name]
        for part, own in told.items():
            where_said = next(w for p, w in parts if p == part)
            if own not in held:
                held.add(own)
                out.append(InputSpec(name=own, required=not reads[name][1], where=where_said,
                                     description=f"said in the text as '{part}', which {TOLD_APART}{name}"))
        apart.append(", ".join(f"'{p}' as `{n}`" for p, n in told.items())
                     + f" (each could be `{name}`: told apart by their first words, a guess; the step whose text "
                       "says those words takes it)")
    if apart:
        message += ("; and " if read or unread else ": read as the workflow inputs ") + "; ".join(apart)
    for name, alike in twice.items():
        message += ("; " if read or unread else ": ") + f"not read, as each could be `{name}`: " + \
            ", ".join(f"'{p}'" for p in alike)
    example = read[0][1] if read else "name"
    message += (f". To say so plainly write an Inputs section: `## Inputs` then one `- {example}: what it is` "
                "line per input")
    return out, [warning_at(where, path, message, "plan.inputs-in-prose")]


_rx.save()
