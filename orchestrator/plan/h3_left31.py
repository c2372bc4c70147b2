"""A condition's text value spelled as the skill that gives the field spells it.

    IF the risk from (b) is HIGH: ...        skill: `risk` (low, medium or high: high from 8)
        -> steps['step-2'].output.risk == 'high'    (not 'HIGH', which the skill never gives)
    when the status is Done                   skill: `status` (one of open / done / cancelled)
        -> ... .status == 'done'

Authors write a value in capitals for emphasis ("is HIGH", "band = AUTO") or with a capital at the
start of a table cell; the skill's script compares nothing, it prints the value as its instructions
list it. A condition compiled to `<step's field> == '<text>'` (or `!=`) whose text is not among the
values the field's skill lists, but equals exactly one of them when case is ignored, is rewritten to
the skill's spelling and said at the condition's line (`plan.value-spelling`). The values listed are
the words of the first clause of what the skill's instructions say of the field ("low, medium or
high", "one of open / done / cancelled", "ok|failed"), or the texts it quotes (`"red"`, `"amber"`).
A text that matches no listed value, or two, is left as written: nothing is guessed.

    Last, send-review-email to the `reviewer`, with ...      skill reads `to` -> the workflow input `reviewer`
    `notify-team` from the `sender` ...                       skill reads `from` -> the workflow input `sender`

`bind_addressed`: a skill input named as a preposition (`to`, `cc`, `bcc`, `from`, `via`, `by`, `for`) that
nothing gives is the workflow input the step's text names in backticks right after that word ("to the
`reviewer`"), warned at the step (`plan.input-addressed`); read before a value the document's header gives
a label of that name ("To: platform-automation@..." of an e-mail's own header is the mail's, not the step's).
Two different names after the word, or a name that is no workflow input: nothing is bound.

    validate-feeds: Inputs: `feeds` (list of convert-prices results)     -> every whole result of the loop
                                                                             step, gathered (not its `feed` field)

`whole_results`: a gathered input bound to one field of each item's result (the field its name is the plural
of: `feeds` -> `feed`) whose skill says it takes a list of the loop step's skill's results ("list of
convert-prices results", "list of `convert-prices` outputs") takes the whole results, warned
(`plan.gather-whole`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, MutableMapping

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.spec.model import StepSpec

_COMPARE = re.compile(r"steps\['(?P<sid>[\w.-]{1,80}+)'\]\.output\.(?P<field>\w{1,80}+)\s*+(?:==|!=)\s*+"
                      r"'(?P<lit>[^'\\\n]{1,60}+)'")
_FIRST_CLAUSE = re.compile(r"^[^:;(.]{0,200}+")
_OPENING = re.compile(r"(?i)^\s*+(?:(?:one|any)\s++of\s*+:?\s*+|either\s++)")
_SEPARATOR = re.compile(r"(?i)(?<!\s)\s*+(?:,|\||/|\bor\b|\band\b)\s*+")  # a space run tried once, at its start
_WORD = re.compile(r"[\w-]{1,40}+")
_QUOTED = re.compile(r"[\"“”'‘’`](?P<v>[\w -]{1,40}+)[\"“”'‘’`]")


def listed_values(about: str) -> list[str]:
    """The values the skill's words list for a field (module docstring); [] when they list none."""
    quoted = [m.group("v") for m in _QUOTED.finditer(about)]
    if len(quoted) >= 2:
        return quoted
    first = _FIRST_CLAUSE.match(about)
    said = _OPENING.sub("", first.group(0) if first else "").strip()
    parts = [p for p in _SEPARATOR.split(said) if p]
    if len(parts) < 2 or not all(_WORD.fullmatch(p) for p in parts):
        return []
    return parts


def value_spelling(expression: str, about_of: Callable[[str, str], str | None]) -> tuple[str, list[str]]:
    """The expression with each text compared to a step's field spelled as that field's skill lists
    it, and what was changed (module docstring). `about_of(step_id, field)` is what the step's skill
    says of the field, or None."""
    notes: list[str] = []

    def spelled(m: re.Match[str]) -> str:
        about = about_of(m.group("sid"), m.group("field"))
        lit = m.group("lit")
        values = listed_values(about) if about else []
        if not values or lit in values:
            return m.group(0)
        same = [v for v in values if v.casefold() == lit.casefold()]
        if len(same) != 1:
            return m.group(0)
        notes.append(f"'{lit}' is read as '{same[0]}', the value `{m.group('field')}` takes as its skill lists it "
                     f"({', '.join(values)}): if another value is meant, write it as the skill gives it")
        return m.group(0)[: m.start("lit") - m.start()] + same[0] + "'"

    return _COMPARE.sub(spelled, expression), notes


_PREPOSITIONS = frozenset({"to", "cc", "bcc", "from", "via", "by", "for"})
_ADDRESSED = re.compile(r"(?i)(?<![\w-])(?P<p>to|cc|bcc|from|via|by|for)[ \t]++(?:the[ \t]++|our[ \t]++|a[ \t]++)?+"
                        r"`(?P<x>[A-Za-z_]\w{0,60}+)`")


def bind_addressed(step: StepSpec, names: Iterable[str], inputs: Iterable[str], text: str, required: Iterable[str],
                   bindings: MutableMapping[str, InputBinding], provenance: MutableMapping[str, Provenance],
                   path: str) -> list[Diagnostic]:
    """Each preposition-named skill input among `names` bound to the workflow input the text names after
    that word (module docstring), warned."""
    wanted = [n for n in names if n.lower() in _PREPOSITIONS and n not in bindings]
    if not wanted:
        return []
    own, must = set(inputs), set(required)
    said: dict[str, set[str]] = {}
    for m in _ADDRESSED.finditer(text):
        said.setdefault(m.group("p").lower(), set()).add(m.group("x"))
    found: list[Diagnostic] = []
    for name in wanted:
        given = said.get(name.lower(), set())
        if len(given) != 1 or (x := next(iter(given))) not in own:
            continue
        bindings[name] = InputBinding(source="input", name=x, optional=name not in must)
        provenance[f"inputs.{name}"] = from_spec(step.where, f"workflow input: {x} (the text says '{name} `{x}`')")
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): its skill reads `{name}`, which nothing "
                                f"gives; the text says '{name} `{x}`': it is given the workflow input `{x}`; if that is "
                                f"not meant, write `{name}` in the step with the value it takes", "plan.input-addressed"))
    return found


_RESULTS_OF = re.compile(r"(?i)\blist\s++of\s++`?(?P<skill>[a-z][a-z0-9]*+(?:-[a-z0-9]++)++)`?\s++(?:results|outputs)\b")


def whole_results(step: StepSpec, bindings: MutableMapping[str, InputBinding], about_of: Callable[[str], str | None],
                  skill_of: Callable[[str], str | None], path: str) -> list[Diagnostic]:
    """Each gathered binding of one field whose skill's words take the loop step's whole results, made whole
    (module docstring), warned. `about_of(input)` is what the step's skill says of its input; `skill_of(step_id)`
    the skill a step runs."""
    found: list[Diagnostic] = []
    for name, binding in list(bindings.items()):
        if not binding.gather or not binding.pointer or binding.step is None:
            continue
        m = _RESULTS_OF.search(about_of(name) or "")
        if m is None or m.group("skill") != skill_of(binding.step):
            continue
        bindings[name] = binding.model_copy(update={"pointer": ""})
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): `{name}` is read as every whole result "
                                f"of {binding.step}, gathered (its skill takes a 'list of {m.group('skill')} results'), "
                                f"not each result's `{binding.pointer[1:]}`", "plan.gather-whole"))
    return found
