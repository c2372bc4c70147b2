"""YAML values written in words, read as the markdown form reads its prose.

    retry: 3x, 2s apart                 → the phrase reader, as "retry: 3x, 2s apart"
    on_fail: page #payroll-oncall       → as "If it fails: page #payroll-oncall"
    if_still_failing: stop the workflow → as "If it still fails: stop the workflow"
    notes: no point retrying bad input  → each sentence, as a step's prose

Each becomes a `SentenceReading` cited at the value's line, with the YAML line as its
text (`prose.record`), so `plan` shows it beside the policy it set; a value with policy
words that is not read is a warning at its line, and one with none is reported as not
understood. Nothing here is guessed: the words go through `phrase` and its tables.

`resolve_references` finishes what needs every step first: `<step id>.<field>`, the
loop's variable (`receipt.merchant` inside `foreach: receipt in ...`), `$input.x` and
the other tools' forms (`yaml_keys.canonical_path`), and gathered results (`all
2_convert results`). A value that reads as a reference but names nothing is a warning
at its line, and stays the text it was.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.policy import ErrorClass
from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.ask_refs import unread_head
from orchestrator.spec.gha28 import whichever_ran
from orchestrator.spec.model import InputSpec, Reading, StepSpec
from orchestrator.spec.prose import read_named, record, sentences
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_bare import bare_name, names_in_template, read_bare, template_tokens
from orchestrator.spec.yaml_sigils import (
    asked_input,
    asking_heads,
    item_word,
    star_reference,
    star_step,
)
from orchestrator.spec.yaml_wiring import either_text

# how the phrase reader is given a value, by its (canonical) key; `{v}` is the value
FRAMES: dict[str, str] = {
    "retry": "retry: {v}",
    "retries": "retry: {v}",
    "attempts": "attempts: {v}",
    "timeout": "timeout: {v}",
    "retry_delay": "wait {v} between retries",
    "retry_for": "keep trying for {v}",
    "whole_run": "Whole run: {v}",  # a top-level key that limits the run (`yaml_top.run_limit_name`)
    "on_error": "If it fails: {v}",
    "if_still_failing": "If it still fails: {v}",
    "fallback": "If it still fails: {v}",
}
_FAILURE_KEYS = ("on_error", "if_still_failing", "fallback")
_CHANNEL = re.compile(r"^\s+(#[A-Za-z][\w.-]*)(?=\s|$)")  # `#ops`, not `# a comment`
_NAME = re.compile(r"^`?[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+`?$")  # a skill's name: `backup-mirror`


class PolicyText(BaseModel):
    """A step's value written in words, waiting for the phrase reader."""

    model_config = ConfigDict(frozen=True)

    step: str
    key: str  # as written
    canonical: str  # the key it stands for (`yaml_keys.step_key`)
    text: str
    line: int
    channel: str = ""  # `#payroll-oncall` right after the value: YAML took it for a comment
    also: str = ""  # another key read with it (`pause_between: 10s` beside `keep_trying_for: 3m`), as written


def warn_summary_policies(text: str, line: int, key: str, src: Source) -> None:
    """The workflow's summary is not a place for policy (nor is the markdown form's Intent): a
    sentence of it that reads as one is a warning at its line, never a policy."""
    rows = text.splitlines()
    for sentence, at in sentences(text, line):
        if not read_named(sentence, None).read:
            continue
        end, last = at, sentence.split()[-1]
        while end - line < len(rows) - 1 and last not in rows[end - line]:
            end += 1  # the line the sentence ends on
        lines = [n for n in range(at, end + 1) if read_named(rows[n - line], None).signal]
        for n in lines or [at]:
            src.warn(n, f"{key}: '{sentence}' reads like a recovery policy, but the workflow's {key} is not read "
                         "as one; write it under the step it is for (retry:, on_fail:, notes:)", "spec.summary-policy")


def channel_after(text: str, line: int, column: int) -> str:
    """The `#name` that follows a plain value on its line (YAML reads it as a comment), or ""."""
    lines = text.splitlines()
    m = _CHANNEL.match(lines[line - 1][column:]) if 0 < line <= len(lines) else None
    return m.group(1) if m else ""


def framed(item: PolicyText) -> str:
    value = " ".join(item.text.split())
    if item.canonical in _FAILURE_KEYS and _NAME.match(value):  # `on_fail: backup-mirror`: that skill
        return f"If it still fails, use `{value.strip('`')}`"
    said = FRAMES.get(item.canonical, "{v}").format(v=value)
    if item.also:  # the wait between the tries of a time budget
        said += f", waiting {item.also.partition(': ')[2]} between tries"
    return said


def read_policy_texts(items: list[PolicyText], steps: tuple[StepSpec, ...], src: Source) -> None:
    """Read each value (module docstring) into `src`."""
    from orchestrator.spec.structure import StepIndex

    resolve = StepIndex(steps).resolve
    names = {s.id: s.name for s in steps}
    for item in items:
        name = names.get(item.step, item.step)
        place: dict[str, Any] = dict(section="step", steps=(item.step,), who=item.step, step_name=name)
        if not item.step:  # a top-level key: for every step, after what a step says itself
            place = dict(section="workflow", steps=(), who="workflow", specific=False)
        if item.canonical == "notes":  # a step's notes are its prose ("carry on as if X came back as 5": `as_if30`)
            from orchestrator.spec.as_if30 import as_if_notes

            said_notes = as_if_notes(item.text, next((s for s in steps if s.id == item.step), None), src)
            for text, line in sentences(said_notes, item.line):
                record(read_named(text, resolve), text, line, src, **place)
            continue
        phrase = read_named(framed(item), resolve)
        shown = f"{item.key}: {' '.join(item.text.split())}" + (f"; {item.also}" if item.also else "")
        if not phrase.read and item.channel:  # `on_fail: page #payroll-oncall`: the channel is the value's
            whole = item.model_copy(update={"text": f"{item.text} {item.channel}"})
            if (joined := read_named(framed(whole), resolve)).read:
                phrase, shown = joined, f"{shown} {item.channel}"
                src.warn(item.line, f"{item.step}: '{item.channel}' starts a YAML comment; it is read as part of "
                                    f"the value ('{whole.text}'): quote the value to say so", "spec.yaml-comment")
        # the key names a policy, so a value the reader cannot read is a policy not understood
        said = phrase if phrase.read or phrase.problems else phrase.model_copy(update={"signal": True})
        s = said.statement
        if item.canonical == "whole_run" and s.timeout_s is not None and not s.whole_run:  # the key says whose
            said = said.model_copy(update={"statement": s.model_copy(update={"whole_run": True})})
            s = said.statement
        if item.canonical in _FAILURE_KEYS and s.regenerate and s.applies_to is None and s.model_copy(
                update={"regenerate": None}).is_empty():  # `on_fail: regenerate once`: as the form's `regenerate:`
            said = said.model_copy(update={"statement": s.model_copy(update={"applies_to": ErrorClass.CODE_ERROR})})
        record(said, shown, item.line, src, **place)


# -- references -------------------------------------------------------------------------


def _loop_var(step: StepSpec) -> str | None:
    m = re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+", step.for_each or "")
    return m.group(1) if m else None


def reference(value: str, ids: set[str], inputs: set[str], loop: str | None) -> str | None:
    """`value` as a source (`inputs.x`, `steps.<id>.output[.f]`, `item[.f]`), or None."""
    if (star := star_reference(value, ids)) is not None:  # `$grade[*].score`: gathered (`yaml_sigils`)
        return star
    if loop is not None and yk.one_item(value):  # `item: "<the one sku>"` in a For each: the item
        return "item"
    inner = yk.unwrap(value)
    path = yk.canonical_path(inner if inner is not None else value.strip())
    head, _, rest = path.partition(".")
    if (step := yk.gather_form(inner if inner is not None else value)) is not None and step in ids:
        return f"steps.{step}.output"  # `{{ a | collect }}`, `a[*]`: step a's results, gathered
    if not re.fullmatch(r"[\w-]+(?:\.[\w.-]+)?", path):
        step = yk.gathered(value)
        return f"steps.{step}.output" if step in ids else None
    if head == "inputs" and loop is not None and loop not in inputs and rest.partition(".")[0] == loop:
        return "item" + rest[len(loop):]  # Tekton's matrix parameter: `$(params.page.slug)` is the item's
    if head == "inputs" and rest:
        return path
    if head == "steps" and rest.partition(".")[0] in ids:
        return path
    if loop is not None and (head in (loop, "item", "this") or (
            item_word(head) and head not in ids and head not in inputs)):  # `$it.blade`  # `this.stops`: the loop's item, whatever its name
        return "item" + (f".{rest}" if rest else "")
    if head in ids and rest:
        field = rest.removeprefix("output.").removeprefix("outputs.")
        return f"steps.{head}.output" + ("" if field in ("output", "outputs") else f".{field}")
    if inner is not None and not rest:  # `$x`, `{{ x }}`: a workflow input or a step by that name
        if head in inputs:
            return f"inputs.{head}"
        if head in ids:
            return f"steps.{head}.output"
    if inner is not None and rest and head not in ids:  # `$ask.site`: the workflow input asked for
        return asked_input(head, rest, inputs)
    if inner is None and rest and head not in ids and "." not in rest:  # bare `ask.site`: the input asked for
        return asked_input(head, rest, inputs)
    return None


def looks_like_reference(value: str) -> bool:
    """`$input.x`, `{{ x.y }}`: written as a reference, whatever it names."""
    return yk.unwrap(value) is not None and not value.strip().startswith("{{")


def resolve_references(steps: list[StepSpec], inputs: tuple[InputSpec, ...] | None, src: Source) -> tuple[
        list[StepSpec], tuple[InputSpec, ...]]:
    """Each step's input values and `for_each` source that reference a step, a workflow
    input or the loop's item, as sources (module docstring); with the workflow inputs that
    bare names in a spec that declares none stand for (`yaml_bare`)."""
    ids = {s.id for s in steps}
    fans = {s.id: bool(s.for_each) for s in steps}
    names = {i.name for i in inputs or ()}
    # inputs that all have a value (`vars:`, `env:` constants) do not say what comes from outside
    declared = tuple(i.name for i in inputs) if inputs is not None and any(i.required for i in inputs) else None
    added: list[InputSpec] = []
    out: list[StepSpec] = []
    for index, step in enumerate(steps):
        update: dict[str, Any] = {}
        readings = list(step.readings)
        if step.for_each:
            var, _, source = step.for_each.partition(" in ")
            ref = _loop_results(reference(source, ids, names, None), fans)
            if ref is not None and ref != source and not source.startswith("steps."):
                update["for_each"] = f"{var} in {ref}"
                readings.append(Reading(what="for_each", where=step.field_where.get("for_each", step.where),
                                        text=step.for_each, note=f"loops over {ref}"))
        loop = _loop_var(step)
        values = dict(step.input_values)
        fields = list(step.inputs)
        for i, field in enumerate(fields):
            head, _, rest = (field.source or "").partition(".")
            if head == "inputs" and loop is not None and loop not in names and rest.partition(".")[0] == loop:
                fields[i] = field.model_copy(update={"source": "item" + rest[len(loop):]})  # Tekton's matrix param
                readings.append(Reading(what="input", where=field.where, text=f"{field.name}: {field.source}",
                                        note=f"`{loop}` is the loop's variable: read as {fields[i].source}"))
                continue
            value = values.get(field.name)
            if not isinstance(value, str):
                continue
            if (either := either_text(value, ids) or whichever_ran(value, ids)) is not None:  # `a|b .ref`, `${{ a.x || b.x }}`
                del values[field.name]
                fields[i] = field.model_copy(update={"description": either})
                readings.append(Reading(what="input", where=field.where, text=f"{field.name}: {value}",
                                        note=f"the value of whichever ran: {either}"))
                continue
            ref = _loop_results(reference(value, ids, names, loop), fans)
            bare = bare_name(value) if ref is None else None
            said = read_bare(value, bare, step, steps[:index], declared, _line(field.where), src) if bare else None
            if said is not None and said.source is None:  # refused, said at its line
                continue
            if said is not None:
                ref = said.source
                if said.added is not None and said.added.name not in names:
                    names.add(said.added.name)
                    added.append(said.added)
            elif (ref or "").startswith("inputs.") and declared is None and src.vocabulary and (
                    wanted := (ref or "").split(".")[1]) not in names:  # `{{ inputs.x }}`, x declared nowhere
                names.add(wanted)
                added.append(InputSpec(name=wanted, where=field.where))
            if ref is None and (text := _named_template(value, step, steps[:index], ids, names, declared, loop,
                                                         _line(field.where), src, added)) is not None:
                values[field.name] = text
                readings.append(Reading(what="input", where=field.where, text=f"{field.name}: {value}",
                                        note=f"a template; its names read as {text}"))
                continue
            if ref is None:
                if looks_like_reference(value):
                    src.warn(_line(field.where), f"{step.id}: {field.name}: '{value}' reads as a reference but "
                                                 "names no step, workflow input or loop item here; kept as text",
                             "spec.reference")
                elif names and (unread := unread_head(str(value), asking_heads(str(value)), names)) is not None:
                    src.warn(_line(field.where), f"{step.id}: {field.name}: {unread}", "spec.reference")
                continue
            gathered = yk.gather_form(yk.unwrap(value) or "") or star_step(value)
            if gathered is not None and gathered in fans and not fans[gathered]:
                src.warn(_line(field.where), f"{step.id}: {field.name}: '{value}' gathers the results of "
                                             f"{gathered}, which runs once (no for-each): read as its whole "
                                             "output", "spec.reference")
            del values[field.name]
            fields[i] = field.model_copy(update={"source": ref})
            readings.append(Reading(what="input", where=field.where, text=f"{field.name}: {value}",
                                    note=f"read as a reference to {ref}" + (f" ({said.note})" if said else "")))
        if values != step.input_values or fields != list(step.inputs):
            update.update(inputs=tuple(fields), input_values=values)
        if update:
            update["readings"] = tuple(readings)
            step = step.model_copy(update=update)
        out.append(step)
    return out, tuple(added)


def _named_template(value: str, step: StepSpec, earlier: list[StepSpec], ids: set[str], names: set[str],
                    declared: tuple[str, ...] | None, loop: str | None, line: int, src: Source,
                    added: list[InputSpec]) -> str | None:
    """A longer template whose names are steps (`{{ pulled.leads[0].name }}`), inputs or bare
    names (`yaml_bare`), in the form's own words (`steps.pulled.output...`); None when none changes."""
    found = names_in_template(value)
    if not found:
        return None
    tokens = template_tokens(value)
    changed = False
    for i, name in found:
        if name in ("inputs", "steps", "item") or name == loop:
            continue
        if name in ids:
            tokens[i] = f"steps.{name}.output"
        elif name in names:
            tokens[i] = f"inputs.{name}"
        elif (said := read_bare("{{ " + name + " }}", name, step, earlier, declared, line, src,
                                inline=True)) is not None and said.source is not None:
            tokens[i] = said.source
            if said.added is not None and said.added.name not in names:
                names.add(said.added.name)
                added.append(said.added)
        else:
            continue
        changed = True
    return "".join(tokens) if changed else None


def _loop_results(ref: str | None, fans: dict[str, bool]) -> str | None:
    """`steps.score.output.results` of a For each step (Ansible's `register:` of a loop): its
    results, gathered, as `steps.score.output`."""
    m = re.fullmatch(r"steps\.([\w-]+)\.output\.results", ref or "")
    return f"steps.{m.group(1)}.output" if m and fans.get(m.group(1)) else ref


def _line(where: str) -> int:
    tail = where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 1

