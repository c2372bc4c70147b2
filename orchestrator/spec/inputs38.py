"""Workflow inputs and literal values written the ways notes, forms and command lines write them (38th round).

    clinic is always "Harbour Street" - put that in wherever it asks.     (notes before the steps)
        -> clinic: "Harbour Street" for every step whose text names `clinic`, no workflow input
    fetch: sw run fetch-orders since=$ORDERS_SINCE shop=inkwell-main      (a Procfile / shell command line)
        -> shop: "inkwell-main" (the step's literal); since <- the workflow input ORDERS_SINCE
    DOG'S NAME ............ (dog_name)                                    (a dotted fill-in line)
        -> the workflow input `dog_name` (the bracket holds the input's name; the rest is its note)
    AIRFIELD ....... "Dunmore Hill"  (fixed, do not enter)                 -> Dunmore Hill, without the quotes

- "X is always V" (also "are always", "stays always") in the text before the first step: a value that
  holds for every run. X is one word or a name (`home_port`); V a quoted text, a number, a code in
  capitals ("DPD") or one token with a hyphen or a digit ("inkwell-main", "GH2"). A plain word ("the
  clinic is always busy") and any other adverb ("usually", "often") say nothing. Each step whose own
  text names X (as a word) takes V as its literal, warned at the line; no step naming it: warned.
- A command line in a step's text (at a line's start or after a colon): a process name and a colon may open it,
  then at most five words
  that end with a program or skill name (a hyphen, a dot, a slash or an underscore in it, or the word
  after "run" / "exec"), then only `key=value` arguments to the line's end. A `$NAME` / `${NAME}` value
  is the workflow input NAME (an environment variable given at start); an `@...` value is another
  reader's (a step's output); any other value is the step's literal (quotes taken off). A sentence with
  `key=value` in it ("Set mode=fast in the config file.") has words after or no command before it: no
  reading.
- A dotted fill-in line whose value is one bracketed name, `(dog_name)`, then any note: that name is the
  input. The name must be written as one (an underscore in it) or say a word of the label ("BREED ...
  (breed)"); "(optional)", "(see below)" are notes, not names.
- `unquote`: a value written as one quoted text ("Dunmore Hill", “Leith”) is the text inside.

Every pattern is anchored or bounded; each text is read once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.input_prose import literal_value
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_QUOTED = _rx(r"^(?:\"([^\"\n]{0,200}+)\"|'([^'\n]{0,200}+)'|“([^“”\n]{0,200}+)”|‘([^‘’\n]{0,200}+)’)$")

_ALWAYS = _rx(
    r"(?i)(?<![\w`-])`?+([A-Za-z][A-Za-z0-9]{1,30}+(?:_[A-Za-z0-9]{1,30}+){0,5}+)`?+[ \t]++(?:is|are|stays?)[ \t]++"
    r"always[ \t]++(\"[^\"\n]{1,80}+\"|“[^“”\n]{1,80}+”|'[^'\n]{1,80}+'|`[^`\n]{1,80}+`|-?\d++(?:\.\d++)?+(?![\w.])"
    r"|(?-i:[A-Z][A-Z0-9]{1,20}+)(?![\w-])|[A-Za-z0-9]++(?:[-_][A-Za-z0-9]++){1,6}+(?![\w-])"
    r"|[A-Za-z]{1,20}+\d[A-Za-z0-9]{0,20}+(?![\w-]))"
)
_AFTER_CODE = _rx(r"[ \t]*+(?:[,.;:!)\-–—]|$)")

_KV = _rx(r"([A-Za-z_][A-Za-z0-9_]{0,60}+)=(\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|[^\s\"']{1,200}+)")
_COMMAND = _rx(
    r"(?:^[ \t]{0,8}+|(?<=:)[ \t]++)(?:[A-Za-z_][\w-]{0,40}+:[ \t]++)?+((?:[^\s=:]{1,80}+[ \t]++){1,6}?)"
    r"((?:[A-Za-z_][A-Za-z0-9_]{0,60}+=(?:\"[^\"\n]{0,200}+\"|'[^'\n]{0,200}+'|[^\s\"']{1,200}+)[ \t]*+){1,20}+)$"
)
_PROGRAM = _rx(r"[-./_]")
_RUN_WORDS = frozenset({"run", "exec", "call", "invoke", "start"})
_NOT_PROGRAMS = frozenset({"with", "using", "the", "it", "and", "then", "as", "a", "an", "to", "by", "for", "of", "on"})
_ENV = _rx(r"^\$(?:\{([A-Za-z_][A-Za-z0-9_]{0,60}+)\}|([A-Za-z_][A-Za-z0-9_]{0,60}+))$")

_BRACKET = _rx(r"^(?:\(([a-z][a-z0-9]{0,30}+(?:_[a-z0-9]{1,30}+){0,5}+)\)|\[([a-z][a-z0-9]{0,30}+(?:_[a-z0-9]{1,30}+){0,5}+)\])"
               r"[ \t]*+(.{0,200}+)$")
_NOT_NAMES = frozenset({"optional", "required", "list", "text", "number", "see", "note", "blank", "none", "tbd",
                        "todo", "yes", "no", "if", "any", "all", "etc"})
_NOTE_LEAD = _rx(r"^(?:<-|<--|←|-|–|—|:)[ \t]*+")


def unquote(value: str) -> str:
    """The text inside a value written as one quoted text; any other value as it is."""
    m = _QUOTED.match(value.strip())
    if m is None:
        return value
    return next(g for g in m.groups() if g is not None)


def bracket_name(label: str, rest: str) -> tuple[str, str | None] | None:
    """(name, note) of a dotted fill-in line's value `(dog_name)  e.g. ...`, or None (module docstring)."""
    m = _BRACKET.match(rest.strip())
    name = (m.group(1) or m.group(2)) if m is not None else None
    if m is None or name is None or name in _NOT_NAMES:
        return None
    stems = {w[:4] for w in re.findall(r"[a-z0-9]+", label.lower()) if len(w) >= 3}
    if "_" not in name and name[:4] not in stems:
        return None
    note = _NOTE_LEAD.sub("", m.group(3).strip()).strip()
    return name, note or None


def _value(raw: str) -> object:
    found, value = literal_value(raw)
    if found:
        return value
    return unquote(raw.strip("`"))


def always_values(text: str) -> dict[str, tuple[object, str]]:
    """name -> (value, the words as written) for each "X is always V" of `text` (module docstring)."""
    out: dict[str, tuple[object, str]] = {}
    for m in _ALWAYS.finditer(text):
        raw = m.group(2)
        if raw[0] not in "\"'“`" and not raw[0].isdigit() and raw[0] != "-" \
                and _AFTER_CODE.match(text, m.end()) is None:
            continue  # "is always DPD drivers": a code must end its clause
        name = m.group(1)
        if name.lower() in ("it", "this", "that", "there", "he", "she", "they", "which", "what"):
            continue
        out.setdefault(name, (_value(raw), " ".join(m.group(0).split())))
    return out


def command_values(line: str) -> tuple[dict[str, object], dict[str, str]] | None:
    """(literals, key -> the workflow input a `$NAME` gives) of a command line, or None when `line` is none."""
    for m in _COMMAND.finditer(line.rstrip()):
        head = m.group(1).split()
        program = head[-1]
        if program.lower() not in _NOT_PROGRAMS and (
                _PROGRAM.search(program) or (len(head) >= 2 and head[-2].lower() in _RUN_WORDS)):
            return _arguments(m.group(2))
    return None


def _arguments(tail: str) -> tuple[dict[str, object], dict[str, str]]:
    literals: dict[str, object] = {}
    envs: dict[str, str] = {}
    for kv in _KV.finditer(tail):
        key, raw = kv.group(1), kv.group(2)
        if raw.startswith("@") or "@" in raw:
            continue  # a step's output (`@fetch.orders`): another reader's
        if (env := _ENV.match(raw)) is not None:
            envs.setdefault(key, env.group(1) or env.group(2))
        elif "$" not in raw:
            literals.setdefault(key, _value(raw if raw[0] in "\"'" else raw.rstrip(".,;")))
    return literals, envs


def _text(step: StepSpec) -> str:
    return "\n".join([step.description, *(t.text for t in step.texts)])


def _names(text: str, name: str) -> bool:
    return re.search(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def read_inputs38(steps: Sequence[StepSpec], inputs: tuple[InputSpec, ...] | None, src: Source
                  ) -> tuple[list[StepSpec], tuple[InputSpec, ...] | None]:
    """The steps with their command-line and "always" literals, and the inputs with the `$NAME`s the command
    lines read (module docstring); each reading warned at its line."""
    out = list(steps)
    new_inputs: dict[str, InputSpec] = {}
    declared = {i.name for i in inputs or ()}
    for k, step in enumerate(out):
        lines = dict.fromkeys(line for t in [step.description, *(t.text for t in step.texts)]
                              for line in t.splitlines() if "=" in line)
        literals: dict[str, object] = {}
        envs: dict[str, str] = {}
        for line in lines:
            if (found := command_values(line)) is not None:
                for key, value in found[0].items():
                    literals.setdefault(key, value)
                for key, env in found[1].items():
                    envs.setdefault(key, env)
        given = {key: v for key, v in literals.items()
                 if key not in step.input_values and not any(f.name == key and f.source for f in step.inputs)}
        fields = [FieldSpec(name=key, where=step.where, source=f"inputs.{env}") for key, env in envs.items()
                  if key not in step.input_values and not any(f.name == key for f in step.inputs)]
        if not given and not fields:
            continue
        said = [f"{key} = {v!r}" for key, v in given.items()] + [f"{f.name} <- ${f.source[7:]}" for f in fields
                                                                 if f.source]
        note = "the command line's arguments " + ", ".join(said)
        reading = Reading(what="input", where=step.where, text=note,
                          note=note + " (literals are the step's own; a $NAME is the workflow input NAME)")
        out[k] = step.model_copy(update={"input_values": {**step.input_values, **given},
                                         "inputs": (*step.inputs, *fields), "readings": (*step.readings, reading)})
        for f in fields:
            env = (f.source or "")[7:]
            if env not in declared and env not in new_inputs:
                new_inputs[env] = InputSpec(name=env, description=f"${env} on the command line", where=step.where)
        line_no = int(step.where.rsplit(":", 1)[1]) if step.where.rsplit(":", 1)[-1].isdigit() else 0
        if line_no:
            src.warn(line_no, f"{step.id}: {note} are read as its inputs; check the plan", "spec.reading")
    out = _always(out, src)
    if new_inputs:
        inputs = (*(inputs or ()), *new_inputs.values())
    return out, inputs


def _always(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    firsts = [int(w.rsplit(":", 1)[1]) for w in (s.where for s in steps) if w.rsplit(":", 1)[-1].isdigit()]
    end = min(firsts) - 1 if firsts else 0
    texts = [_text(s) for s in steps]
    for i, raw in enumerate(src.lines[:end], 1):
        if "always" not in raw.lower():
            continue
        for name, (value, said) in always_values(raw).items():
            taken = []
            for k, step in enumerate(steps):
                if name in steps[k].input_values or any(f.name == name and f.source for f in step.inputs) \
                        or not _names(texts[k], name):
                    continue
                note = f"{name} = {value!r} (line {i}: '{said}')"
                reading = Reading(what="input", where=step.where, text=note,
                                  note=note + " (the step's own, no workflow input)")
                steps[k] = step.model_copy(update={"input_values": {**step.input_values, name: value},
                                                   "readings": (*step.readings, reading)})
                taken.append(step.id)
            if taken:
                src.warn(i, f"'{said}' is read as a fixed value, not a workflow input: {name} = {value!r} for "
                            f"{', '.join(taken)} (the steps that name it); check the plan", "spec.reading")
            else:
                src.warn(i, f"'{said}' says a fixed value for {name}, but no step names it, so no step takes it",
                         "spec.reading")
    return steps


_rx.save()
