"""A form's fill-in lines, read where the steps use them by their labels.

    ROUNDS TONIGHT: ______________                  an input named from its label: `rounds_tonight`
    ( i ) round-loader - feed it ROUNDS TONIGHT     round-loader reads `rounds`: the input is `rounds`
    ( iv ) only when TEAMS SIGNED IN is more than 12 -> room-split with that number
                                                    runs only when `teams > 12`; reads only the form's
                                                    values, so it waits for no step before it

A blank or dotted fill-in line with no name of its own (`spec.input_blocks24`) gives its input a name made
from its label. When the steps that name the label (its words in a row, any case) have skills that read
it under one shorter name made of the label's first or last words (`rounds` for ROUNDS TONIGHT, `teams`
for TEAMS SIGNED IN, `donor` for DONOR NAME), that name is the input's: the person who runs the spec
gives the value under the name the skills take. Skills that read two names, or a name already an input,
leave it as it was. Warned at the fill-in line, with what to write to name it yourself.

A step whose text says "only when" / "only if" / "when" / "if" then the label and a comparison with a number
("is more than 12", "is at least 20", "is under 5", "is 0"), ending at an arrow, a colon, a comma or the
sentence's end, runs only when the input compares so; a condition another reader kept in words that open
with the label ("TEAMS SIGNED IN is more than 12") is read the same way; any other condition is left alone.
When that step's skill reads only workflow inputs and the step says no order of its own, it waits for
no earlier step (it reads nothing they make). Both readings are warned with what to write.

`read_fill_names` runs in `spec._finish` after the condition readers, once; each label's pattern is built
once per call and each step's text is read once per label.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from orchestrator.spec.cue_notes import skill_of
from orchestrator.spec.form35 import rename_filled
from orchestrator.spec.model import InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "spec.fill-names"

# the description `spec.input_blocks24` gives a fill-in line's input: "the form's 'LABEL' (note)"
_FORM = _rx(r"^the form's '(?P<label>[^'\n]{2,80}+)'")
_WORD = _rx(r"[a-z0-9]++")
# a condition word before the label: "only when", "only if", "when", "if"
_LEAD = _rx(r"(?i)(?<![\w-])(?:only[ \t]++)?+(?:when|if)[ \t]++")
# after the label: "is more than 12 ->", "is at least 20,", "is 0:", "> 12"
_CMP = _rx(r"(?i)^[ \t]*+(?:is[ \t]++|are[ \t]++)?+(?P<op>more[ \t]++than|greater[ \t]++than|over|above|"
           r"at[ \t]++least|less[ \t]++than|fewer[ \t]++than|under|below|at[ \t]++most|exactly|equal[ \t]++to|"
           r">=|<=|>|<|=)?+[ \t]*+(?P<n>\d{1,12}+(?:\.\d{1,6}+)?+)(?![\w.])[ \t]*+(?:->|→|=>|:|,|;|\.|$)")
_OPS = {"more than": ">", "greater than": ">", "over": ">", "above": ">", "at least": ">=", "less than": "<",
        "fewer than": "<", "under": "<", "below": "<", "at most": "<=", "exactly": "==", "equal to": "==",
        ">=": ">=", "<=": "<=", ">": ">", "<": "<", "=": "==", "": "=="}


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def _slug(label: str) -> str:
    return "_".join(_words(re.sub(r"\([^()]*\)", " ", label)))


def _shorter(name: str, field: str) -> bool:
    """Whether `field` is the first or last words of `name` (`rounds` of `rounds_tonight`), each of 3+ letters."""
    a, b = name.split("_"), _words(field.replace("_", " "))
    if not b or len(b) >= len(a) or not all(len(w) >= 3 for w in b):
        return False
    return a[:len(b)] == b or a[-len(b):] == b


def _text(step: StepSpec) -> str:
    return " ".join(t.text for t in step.texts) or step.description


def _names(label: str, text_words: list[str]) -> bool:
    words = _words(label)
    n = len(words)
    return bool(n) and any(text_words[i:i + n] == words for i in range(len(text_words) - n + 1))


def _written(own: InputSpec, src: Source) -> bool:
    """Whether the input's line writes its name itself ("SOW DATE:   sow_date"), not only its label."""
    tail = own.where.rsplit(":", 1)[-1]
    if not tail.isdigit() or not 0 < int(tail) <= len(src.lines):
        return False
    line = src.lines[int(tail) - 1]
    return re.search(rf"(?<![\w-]){re.escape(own.name)}(?![\w-])", line) is not None


def _line(step: StepSpec) -> int:
    tail = step.where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 1


def read_fill_names(inputs: tuple[InputSpec, ...] | None, steps: Sequence[StepSpec],
                    src: Source) -> tuple[tuple[InputSpec, ...] | None, list[StepSpec]]:
    """The inputs with label-made names renamed as the skills read them, and the steps with the conditions
    said on a label read (module docstring)."""
    if not inputs or not steps:
        return inputs, list(steps)
    vocab = src.vocabulary
    labelled = [(i, m.group("label")) for i, spec in enumerate(inputs)
                if (m := _FORM.match(spec.description)) is not None and spec.name == _slug(m.group("label"))]
    if not labelled:
        return inputs, list(steps)
    texts = [_text(s) for s in steps]
    words = [_words(t) for t in texts]
    reads = [set(vocab.inputs_of(vocab.skill_for(skill_of(s)) or "") or ()) if vocab else set() for s in steps]
    out_inputs = list(inputs)
    taken = {i.name for i in inputs}
    for index, label in labelled:
        own = inputs[index]
        if _written(own, src):  # "SOW DATE:   sow_date": the author named it; that name stands
            continue
        fields: set[str] = set()
        users: list[str] = []
        for k, step in enumerate(steps):
            if not _names(label, words[k]):
                continue
            fits = {own.name} if own.name in reads[k] else {f for f in reads[k] if _shorter(own.name, f)}
            fields |= fits
            if fits:
                users.append(skill_of(step))
        if len(fields) != 1 or (field := next(iter(fields))) == own.name or field in taken:
            continue
        taken.add(field)
        out_inputs[index] = own.model_copy(update={"name": field})
        rename_filled(src, own.name, field)  # the earlier warning of the form's inputs names it so too
        src.warn(int(own.where.rsplit(":", 1)[-1]) if own.where.rsplit(":", 1)[-1].isdigit() else 1,
                 f"the fill-in line '{label}' is the workflow input `{field}`, the name "
                 f"{', '.join(dict.fromkeys(users))} read{'s' if len(set(users)) == 1 else ''} it as (not "
                 f"`{own.name}`, made from its label): give `{field}` on a run; to name it yourself write "
                 f"`{label}: <name>`", CODE)
    names = {i.name for i in out_inputs}
    label_of = {label: out_inputs[index].name for index, label in labelled}
    out_steps = list(steps)
    for k, step in enumerate(steps):
        if step.otherwise_of is not None or k == 0:
            continue
        # a condition another reader kept in words that open with the label ("PLAYERS IN is more than 80")
        said = _said_condition(f"when {step.when}", label_of) if step.when else _said_condition(texts[k], label_of)
        if said is None:
            continue
        when, clause = said
        line = _line(step)
        who = f"{step.id} ({step.name.strip()[:60]})"
        where = src.where(line)
        reading = Reading(what="when", where=where, text=clause[:160],
                          note=f"runs only when {when} (a fill-in line's label compared)")
        update: dict[str, object] = {"when": when, "readings": (*step.readings, reading),
                                     "field_where": {**step.field_where, "when": where}}
        note = ""
        if reads[k] and reads[k] <= names and not step.depends_on and step.depends_where is None \
                and step.unordered_where is None and step.starts_with is None:
            update["unordered_where"] = where
            note = (f"; its skill reads only workflow inputs ({', '.join(sorted(reads[k]))}), so it waits for no "
                    f"step before it: if it should, write `Depends on: {steps[k - 1].id}`")
        src.warn(line, f"{who}: '{clause[:80]}' is read as its condition: it runs only when {when}, the fill-in "
                       f"input compared{note}; to say so plainly write `- When: {when}`", CODE)
        out_steps[k] = step.model_copy(update=update)
    return tuple(out_inputs), out_steps


def _said_condition(text: str, label_of: dict[str, str]) -> tuple[str, str] | None:
    """(the condition, the words read) of "only when LABEL is more than 12 ->" in `text`, or None."""
    for m in _LEAD.finditer(text):
        rest = text[m.end():m.end() + 200]
        for label, name in label_of.items():
            if not rest.upper().startswith(label.upper()):
                continue
            after = rest[len(label):]
            if after[:1].isalnum() or (c := _CMP.match(after)) is None:
                continue
            op = _OPS[" ".join((c.group("op") or "").lower().split())]
            return f"{name} {op} {c.group('n')}", text[m.start():m.end() + len(label) + c.end()].strip()
    return None


_rx.save()
