"""The run inputs a spec declares in its own syntax (`spec.declared52`) as the workflow's inputs, when no reader
found any (round 52).

A spec with no Inputs section of a form the readers know (`parts.inputs` None, no first step's Input line) may
still declare its run inputs its own way: `input ResetKickoff { siteCode: String! }`, `my $ward = shift @ARGV;`,
`&run basin = '' /`, `SET WARD=`, `[inputs]`. Those declarations are read (`declared_inputs`) and kept when a step
uses one of them:

- a step's `key SEP value` (`site: $siteCode`, `ward => $ward` - the input even where an earlier step outputs
  a `ward` -, `basin = run%basin`, `-Site $Site`) whose value
  refers to a declared input in any notation (`spec.declared52.reference_names`, or the bare name) binds the key
  to it: the key is the skill's field, or the one field of the step's skill that differs from it only by case and
  separators;
- a field of the step's skill that differs from a declared input only by case and separators (`site_code` ~
  `siteCode`) and that no earlier step's skill outputs binds to it;
- a declared input named by a step's skill as a field of its own is used as it is (the planner binds it).

When one is used, the inputs are every member of a group any used input is in (a group named for the run's inputs
is all of them) and every other used declaration; each is required unless it has a default. It is said once, at
the first declaration's line ("read the declared inputs ... as the workflow inputs"), in place of the planner
deriving inputs from what the skills take. Nothing used: nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from orchestrator.spec.declared52 import DeclaredInput, declared_inputs, name_key, reference_names
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PAIR = _rx(r"(?<![\w.$%&@-])-?+(?P<key>[A-Za-z_][\w-]{0,60}+)[\"']?+[ \t]*+(?:(?::=|=>|<-|->|=|:)[ \t]*+|"
            r"(?<=[ \t])(?=[$&%@]))[\"']?+(?P<value>[$&%@]?+\{?+[A-Za-z_][\w.%:>{}\[\]'\"-]{0,120}+)")
_GROUPED = frozenset({"argv", "env", "stdin", "argparse", "options", "project", "input", "ARGV"})


def _text(step: StepSpec) -> str:
    return "\n".join([step.description, *(t.text for t in step.texts)])


def _line(where: str) -> int:
    tail = where.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() else 0


def _skill_of(step: StepSpec, text: str, src: Source) -> str | None:
    """The step's skill: as read, else the first catalog skill its text names."""
    vocab = src.vocabulary
    if step.skill and (found := vocab.skill_for(step.skill.strip("`*_ "))):
        return found
    folded = text.casefold()  # `EXEC SKILL=DORMANT-SCAN`: the skill in capitals
    named = [(folded.find(s.casefold()), s) for s in vocab.skills if s.casefold() in folded]
    return min(named)[1] if named else None


def _target(value: str, by_name: dict[str, DeclaredInput], by_key: dict[str, DeclaredInput]) -> DeclaredInput | None:
    for name in [*reference_names(value), value.strip("\"'{}")]:
        if name in by_name:
            return by_name[name]
    for name in reference_names(value):
        if (d := by_key.get(name_key(name))) is not None:
            return d
    return None


def _field(key: str, fields: frozenset[str] | None) -> str | None:
    if fields is None or key in fields:
        return key
    same = [f for f in fields if name_key(f) == name_key(key)]
    return same[0] if len(same) == 1 else None


def read_declared(steps: Sequence[StepSpec], src: Source) -> tuple[list[StepSpec], tuple[InputSpec, ...] | None]:
    """The steps with their fields bound to the declared inputs, and those inputs (None: none used)."""
    declared = declared_inputs(src.lines)
    if not declared or not steps:
        return list(steps), None
    by_name = {d.name: d for d in declared}
    by_key: dict[str, DeclaredInput] = {}
    for d in declared:
        by_key.setdefault(name_key(d.name), d)
    used: set[str] = set()
    out: list[StepSpec] = []
    made: set[str] = set()  # what the earlier steps' skills output
    vocab = src.vocabulary
    starts = [_line(s.where) for s in steps]
    for k, step in enumerate(steps):
        ends = [n for n in starts[k + 1:] if n > starts[k]]
        # the step's own words, and the lines from its own to the next step's (a code line a reader left aside)
        span = src.lines[starts[k] - 1:(ends[0] - 1 if ends else starts[k] + 40)] if starts[k] else []
        text = "\n".join([_text(step), *span])
        skill = _skill_of(step, text, src)
        fields = vocab.inputs_of(skill) if skill else None
        # a literal another reader took that is a reference to a declared input (`kennel_code=&clinic`): that input
        refs = {k: t for k, v in step.input_values.items()
                if isinstance(v, str) and (t := _target(v, by_name, by_key)) is not None and reference_names(v)}
        given = {f.name for f in step.inputs if f.source} | (set(step.input_values) - set(refs))
        bound: dict[str, str] = {}
        dropped: set[str] = set()  # a literal of another reader's that is the reference (`week=&week`)
        for m in _PAIR.finditer(text):
            target = _target(m.group("value"), by_name, by_key)
            field = _field(m.group("key"), fields)
            if target is None or field is None or field in given or field in bound:
                continue
            if field == target.name and fields is not None and not reference_names(m.group("value")):
                used.add(target.name)  # `site: site`: the planner binds a name to the input of that name
                dropped.add(field)
                continue
            bound[field] = target.name
        for field in sorted(fields or ()):
            same = by_key.get(name_key(field))
            if same is None or field in given or field in bound or field in made:
                continue
            if same.name == field:
                used.add(same.name)
            else:
                bound[field] = same.name  # `site_code` ~ `siteCode`
        used.update(bound.values())
        dropped = (dropped | set(bound)) & set(refs)
        if dropped:
            step = step.model_copy(update={"input_values": {k: v for k, v in step.input_values.items()
                                                            if k not in dropped}})
        if bound:
            said = ", ".join(f"{f} <- {n}" for f, n in bound.items())
            reading = Reading(what="input", where=step.where, text=said,
                              note=f"{said}: the inputs the spec declares, as the step's text names them")
            step = step.model_copy(update={
                "inputs": (*step.inputs, *(FieldSpec(name=f, source=f"inputs.{n}", where=step.where)
                                           for f, n in bound.items())),
                "readings": (*step.readings, reading)})
        out.append(step)
        made |= set(vocab.outputs_of(skill) or ()) if skill else set()
    if not used:
        return list(steps), None
    groups = {by_name[n].container for n in used if by_name[n].container not in _GROUPED}
    kept = [d for d in declared if d.name in used or (d.container is not None and d.container in groups)]
    inputs = tuple(InputSpec(name=d.name, type=_json_type(d.type), default=d.default, required=d.default is None,
                             description=f"declared at line {d.line}" + (f" ({d.container})" if d.container else ""),
                             where=f"{src.path}:{d.line}") for d in kept)
    first = min(d.line for d in kept)
    listed = ", ".join(f"{d.name} (line {d.line})" for d in kept)
    src.warn(first, f"the spec has no Inputs section; read the declared inputs {listed} as the workflow inputs, "
                    "and each step's value that names one as taken from it: check the plan", "spec.reading")
    return out, inputs


def _json_type(word: str | None) -> str | None:
    bare = (word or "").lower().strip("[]!?*").split("[")[0].split("<")[0]
    if (word or "").strip().startswith("[") or bare in ("list", "array"):
        return "array"
    return {"int": "integer", "integer": "integer", "int32": "integer", "int64": "integer", "long": "integer",
            "float": "number", "double": "number", "number": "number", "decimal": "number", "real": "number",
            "bool": "boolean", "boolean": "boolean", "logical": "boolean", "string": "string", "str": "string",
            "text": "string", "id": "string", "char": "string", "date": "string", "varchar": "string",
            "dict": "object", "map": "object", "object": "object"}.get(bare)


_rx.save()
