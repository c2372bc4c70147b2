"""A bare name in a YAML input's template (`{{ cert_text }}`, `${pem}`, `$today`), read by what it names.

The form's references say where a value comes from (`{{ inputs.x }}`, `{{ fetch.pem }}`,
`{{ item.host }}`: `yaml_policy.reference`). People also write just the name, as Ansible,
Helm or a shell would. When that name is no declared workflow input, no step and not the
loop's item, it is looked up in this order, once every step is known and only when the
catalog is (`Source.vocabulary` says what each skill outputs):

1. an earlier step whose skill outputs a field of that name: the one such step's field
   (several: an error naming them, with how to write each);
2. a spec that declares no inputs: a workflow input of that name (added to the inputs,
   as the planner derives the others);
3. else nothing: a `{{ }}` template is an error naming what the name could be (the declared
   inputs and earlier outputs nearest to it); another wrapper stays text with a warning,
   as before.

Each reading is shown with the step (a Reading at the value's line) and warned there, with
the explicit form to write.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict
from yaml.nodes import MappingNode, Node, ScalarNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import InputSpec, StepSpec
from orchestrator.spec.source import Source

_NAME = re.compile(r"[A-Za-z_][\w-]*")


class Bare(BaseModel):
    """What a bare name was read as: a source, a workflow input to add, or neither (`problem` said)."""

    model_config = ConfigDict(frozen=True)

    source: str | None = None
    note: str = ""
    added: InputSpec | None = None


def bare_name(value: str) -> str | None:
    """`{{ cert_text }}`, `${cert_text}`, `$cert_text` → `cert_text`; None for anything else."""
    inner = yk.unwrap(value)
    if inner is None:
        return None
    path = yk.canonical_path(inner)
    return path if _NAME.fullmatch(path) else None


def _producers(name: str, earlier: Sequence[StepSpec], src: Source) -> list[StepSpec]:
    vocab = src.vocabulary
    out = []
    for step in earlier:
        skill = vocab.skill_for(step.skill) if step.skill else None
        outputs = vocab.outputs_of(skill) if skill else None
        if outputs and name in outputs:
            out.append(step)
    return out


def read_bare(value: str, name: str, step: StepSpec, earlier: Sequence[StepSpec], declared: tuple[str, ...] | None,
              line: int, src: Source, *, inline: bool = False) -> Bare | None:
    """A bare name's reading (module docstring), warned or refused at `line`; None when the
    catalog is not known (the value is left as the form left it). `inline`: a name inside a
    longer template, which the plan's template check refuses itself when nothing names it."""
    shown = f"{step.id}: {value.strip()}"
    from orchestrator.spec.ci_files26 import loop_item_in_capitals

    if (item := loop_item_in_capitals(name, step.for_each)) is not None:  # `$ITEM` in a loop (`spec.ci_files26`)
        src.warn(line, f"{shown} is written as an environment variable: read as the loop's item `{item}`",
                 "spec.reference")
        return Bare(source=item, note=f"`{name}`: the loop's item")
    if not src.vocabulary:
        return None
    made = _producers(name, earlier, src)
    if len(made) == 1:
        sid = made[0].id
        src.warn(line, f"{shown} names no workflow input, step or loop item; read as `{name}` of {sid}, the one "
                       f"earlier step whose skill ({made[0].skill}) outputs it: write `{{{{ {sid}.{name} }}}}` to say "
                       "so", "spec.reference")
        return Bare(source=f"steps.{sid}.output.{name}", note=f"the bare name `{name}`: {sid}'s output field")
    if made:
        ways = " or ".join(f"`{{{{ {s.id}.{name} }}}}`" for s in made)
        src.error(line, f"{shown}: `{name}` is output by {len(made)} earlier steps "
                        f"({', '.join(s.id for s in made)}); write which one: {ways}", "spec.reference")
        return Bare()
    if declared is None:
        src.warn(line, f"{shown} names no step, loop item or earlier step's output; read as the workflow input "
                       f"`{name}` (the spec declares none a run must be given): declare it under `inputs:` or write "
                       f"`{{{{ inputs.{name} }}}}` to say so", "spec.reference")
        return Bare(source=f"inputs.{name}", note=f"the bare name `{name}`: a workflow input",
                    added=InputSpec(name=name, where=src.where(line)))
    if inline or not value.strip().startswith("{{"):
        return None  # `$HOME`, `${x}`: kept as text, warned as a reference that names nothing (as before)
    outputs = sorted({f for s in earlier if s.skill
                      for f in src.vocabulary.outputs_of(src.vocabulary.skill_for(s.skill) or "") or ()})
    near = difflib.get_close_matches(name, [*declared, *outputs, *(s.id for s in earlier)], n=3, cutoff=0.6)
    listed = ", ".join(declared) if declared else "none"
    hint = f"; did you mean {' or '.join(f'`{n}`' for n in near)}?" if near else "."
    src.error(line, f"{shown}: `{name}` is not a workflow input (the spec's: {listed}), a step, the loop's item "
                    f"or an earlier step's output{hint} Write `{{{{ inputs.NAME }}}}` or `{{{{ STEP.FIELD }}}}`",
              "spec.reference")
    return Bare()


# Jinja's own words, never a name a template reads
_JINJA_WORDS = frozenset({"and", "or", "not", "in", "is", "if", "else", "true", "false", "none", "True", "False",
                          "None", "loop", "range", "lipsum", "dict", "cycler", "joiner", "namespace"})


def names_in_template(value: str) -> list[tuple[int, str]] | None:
    """The names a `{{ }}` template reads first (`pulled` in `{{ pulled.leads[0] | upper }}`), as
    (token index, name), with the template's tokens; None when it has `{% %}` blocks or is no template."""
    from jinja2.exceptions import TemplateSyntaxError

    from orchestrator.templating import BoundedEnvironment

    if "{{" not in value or "{%" in value or len(value) > 4000:
        return None
    try:
        tokens = list(BoundedEnvironment().lex(value))
    except TemplateSyntaxError:
        return None
    out: list[tuple[int, str]] = []
    before = ""
    for i, (_, kind, text) in enumerate(tokens):
        if kind == "whitespace":
            continue
        after = next((t for _, k, t in tokens[i + 1:] if k != "whitespace"), "")
        if kind == "name" and before not in (".", "|", "is") and text not in _JINJA_WORDS and after != "(":
            out.append((i, text))
        before = text if kind in ("operator", "name") else ""
    return out


def template_tokens(value: str) -> list[str]:
    from orchestrator.templating import BoundedEnvironment

    return [text for _, _, text in BoundedEnvironment().lex(value)]


def skill_keys(src: Source, keys: dict[str, tuple[Node, Node]], known: set[str], skill: str,
               sid: str) -> tuple[Node, Node] | None:
    """A step with no `input:` whose keys no table knows are named as its skill's inputs
    (`- skill: fetch-leads` / `source: s3://...`, as Kestra writes a task): those keys as its
    `input:` mapping, taken out of `keys` and warned; None when there are none."""
    vocab = src.vocabulary
    takes = vocab.inputs_of(vocab.skill_for(skill) or "") if vocab else None
    if not takes:
        return None
    moved = [k for k in keys if k not in known and (k in takes or yk.key_name(k) in takes)]
    if not moved:
        return None
    first = keys[moved[0]][0]
    line = int(first.start_mark.line) + 1
    them = "them" if len(moved) > 1 else "it"
    src.warn(line, f"{sid}: {', '.join(f'`{k}`' for k in moved)} (no step key) read as the input"
                   f"{'s' if len(moved) > 1 else ''} of `{skill}`, which takes {them}: put {them} under `input:` to "
                   "say so", "spec.anchored")
    pairs = [keys.pop(k) for k in moved]
    node = MappingNode("tag:yaml.org,2002:map", pairs, pairs[0][0].start_mark, pairs[-1][1].end_mark)
    return ScalarNode("tag:yaml.org,2002:str", "input", first.start_mark, first.end_mark), node
