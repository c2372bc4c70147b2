"""The workflow-wide parts of the YAML form: limits, scenarios, and escapes to mend."""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.policy import Limits
from orchestrator.spec import policy_text as pt
from orchestrator.spec.model import (
    ConvergenceSpec,
    InputSpec,
    Reading,
    ScenarioSpec,
    SpecText,
    StepSpec,
)
from orchestrator.spec.run_limit_keys import stop_key
from orchestrator.spec.source import Source
from orchestrator.spec.yaml_node import NodeReader
from orchestrator.spec.yaml_success import bare_check

_LIMIT_ALIASES = {"token_budget": "max_llm_tokens", "tokens": "max_llm_tokens",
                  "wall_time": "wall_time_s", "max_regenerations": "max_regenerations_total",
                  "max_attempts": "max_total_attempts", "total_attempts": "max_total_attempts",
                  **dict.fromkeys(("wallclock", "wall_clock", "wall_clock_time", "walltime", "max_wallclock",
                                   "max_wall_time", "run_time", "runtime", "total_time", "time"), "wall_time_s")}


# a limit said of the whole of the run under its own name: `whole_pipeline: 15m`, `entire_job: 1h`, `pipeline_timeout: 2h`
_WHOLE_KEY = re.compile(r"(?:whole|entire|overall|total|full)[_-]?(?:run|pipeline|job|workflow|flow|thing|process|batch|"
                        r"routine)(?:[_-]?(?:time|timeout|limit|max|cap|deadline|budget))?|(?:run|pipeline|job|workflow)[_-]?"
                        r"(?:timeout|limit|max|cap|deadline|budget|max[_-]?time|time[_-]?limit)", re.I)

# a top-level key whose duration is the whole run's limit, never a step's retry budget: `give_up_after: 3h`,
# `max_total: 3h`, `whole_thing_must_finish_in: 2h`, `everything_must_be_done_by: 45m`, `total_runtime: 1h`
_RUN_LIMIT = re.compile(r"give_up_after|max_total(?:_(?:time|duration|runtime|wall_?clock))?+|total_(?:duration|budget|"
                        r"runtime|wall_?clock)|(?:whole|entire|overall|all|everything)(?:_[a-z]++){0,4}?_(?:in|within|by|"
                        r"after|max|limit|cap|budget)|(?:[a-z]++_){0,3}?must_(?:finish|end|be_done|complete|wrap_up|stop)"
                        r"(?:_(?:in|within|by))?+")


def run_limit_name(raw: str) -> bool:
    """Whether a top-level key's name says the whole run's time limit (`give_up_after`, `max_total`)."""
    name = re.sub(r"[\s\-.]+", "_", raw.strip()).lower()
    return bool(_RUN_LIMIT.fullmatch(name) or _WHOLE_KEY.fullmatch(name) or stop_key(name))  # `stop_everything_after`


def run_limit_key(raw: str, value: Node) -> bool:
    """Whether a top-level key with this value is the whole run's time limit (`_RUN_LIMIT`, `_WHOLE_KEY`):
    its value a duration with its unit (`3h`, `90 min`)."""
    if not run_limit_name(raw) or not isinstance(value, ScalarNode):
        return False
    said = str(value.value).strip().lower()
    return not said.replace(".", "", 1).isdigit() and pt.parse_duration(said) is not None


def run_limit_words(raw: str, value: Node) -> bool:
    """Whether a top-level key named for the whole run's limit (`run_limit`, `job_deadline`) says it in words
    around its duration ("10 mins total, then stop it"): the whole run's, read from the words, never each
    step's `timeout`."""
    if not run_limit_name(raw) or not isinstance(value, ScalarNode) or not isinstance(value.value, str):
        return False
    said = value.value.strip()
    return bool(said) and pt.parse_duration(said.lower()) is None


def read_limits(r: NodeReader, node: Node) -> tuple[ConvergenceSpec, dict[str, float]]:
    keys = r.mapping(node, "limits") or {}
    values: dict[str, float] = {}
    where: dict[str, str] = {}
    for name, (knode, vnode) in keys.items():
        field = _LIMIT_ALIASES.get(name, "wall_time_s" if _WHOLE_KEY.fullmatch(name) else name)
        if field.endswith("_s") or field == "wall_time_s":
            value = r.seconds(vnode, f"limits.{name}")
        else:
            count = r.value(vnode)
            value = count if isinstance(count, int) and not isinstance(count, bool) else None
        if field not in Limits.model_fields or value is None:
            r.src.warn(r.line(knode), f"limit '{name}' not understood; ignored", "spec.unread")
            continue
        try:
            Limits.model_validate({field: value})
        except ValueError:
            r.src.warn(r.line(vnode), f"limit '{name}: {value}' is out of range; ignored",
                       "spec.limit")
            continue
        values[field] = value
        where[field] = r.src.where(r.line(knode))
    return ConvergenceSpec(limits=Limits.model_validate(values), limit_where=where), values


def read_scenarios(r: NodeReader, node: Node) -> tuple[ScenarioSpec, ...]:
    if not isinstance(node, SequenceNode):
        r.src.warn(r.line(node), "scenarios must be a list; not read", "spec.unread")
        return ()
    out: list[ScenarioSpec] = []
    kinds = ("happy", "degradation", "recovery", "escalation", "edge", "other")
    for item in node.value:
        value = r.value(item)
        if not isinstance(value, dict) or not isinstance(value.get("name"), str):
            r.src.warn(r.line(item), "a scenario needs a name; not read", "spec.unread")
            continue
        kind = value.get("kind", "other")
        out.append(ScenarioSpec(name=value["name"], description=str(value.get("description", "")),
                                kind=kind if kind in kinds else "other",
                                where=r.src.where(r.line(item))))
    return tuple(out)


SURROGATE_ESCAPE = re.compile(r"\\[uU]0{0,4}[dD][89a-fA-F]")


def mend_surrogates(root: Node, src: Source) -> None:
    """YAML's `\\ud83d\\udea6` escapes give two surrogates, not the character they encode:
    join each pair into its character; a lone one is an error at its line (it is not Unicode)."""
    seen: set[int] = set()
    todo: list[Node] = [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            if isinstance(node.value, str) and not node.value.isascii():
                joined = node.value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
                if joined != node.value and "\ufffd" in joined and "\ufffd" not in node.value:
                    src.error(int(node.start_mark.line) + 1, "a lone surrogate escape (\\uD800-\\uDFFF) is not "
                              "valid Unicode; write the character itself or both halves of its pair", "spec.yaml")
                node.value = joined
        elif isinstance(node, MappingNode):
            todo.extend(n for pair in node.value for n in pair)
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)


_FROM_JSON = re.compile(r"\bfrom_?json\(\s*(?:github\.event\.)?inputs\.([\w-]+)\s*\)", re.I)


def json_inputs(inputs: tuple[InputSpec, ...], src: Source, notes: list[Reading]) -> tuple[InputSpec, ...]:
    """GitHub inputs are strings, so a list is passed as JSON and read with `fromJSON(inputs.x)`:
    such an input takes the JSON value itself (its `type: string` is not checked), and said so."""
    parsed = {m.group(1) for m in _FROM_JSON.finditer(src.text)}
    out = []
    for spec in inputs:
        if spec.name in parsed and spec.type == "string":
            notes.append(Reading(what="input", where=spec.where, text=f"{spec.name}: type string",
                                 note="read through fromJSON(): the input takes the JSON value itself (a list or "
                                      "an object), not its text"))
            spec = spec.model_copy(update={"type": None})
        out.append(spec)
    return tuple(out)


_STEP_CHECK = re.compile(r"^\s*+steps\.([\w-]++)\.outputs?\.([A-Za-z_][\w.]*+)\s*+(\S.*)$", re.S)


_OWN_REF = re.compile(r"\$\{\{?+\s*+([\w.-]++)\s*+\}\}?+|\{\{\s*+([\w.-]++)\s*+\}\}")


def step_success(r: NodeReader, top: tuple[Node, Node] | None, steps: list[StepSpec]) -> list[StepSpec]:
    """Each step's own `success:` (`success_when: "${verify.valid} == true"`) as its success check
    on its own output (`valid == true`), then the run's (`run_success`)."""
    out = []
    for step in steps:
        said = step.success.strip()
        if said and not any(t.kind == "success" for t in step.texts):
            def own(m: re.Match[str], sid: str = step.id) -> str:
                path = (m.group(1) or m.group(2)).split(".")
                return ".".join(path[1:]) if len(path) > 1 and path[0] in (sid, "self", "this", "output") else m.group(0)
            text = _OWN_REF.sub(own, said)
            text = re.sub(rf"(?<![\w.])(?:steps\.)?{re.escape(step.id)}\.(?:outputs?\.)?(?=[A-Za-z_])", "", text)
            at = int(step.where.rsplit(":", 1)[-1]) if step.where.rsplit(":", 1)[-1].isdigit() else 1
            line = next((n for n in range(at, len(r.src.lines) + 1) if said[:20] in r.src.line_text(n)), at)
            step = step.model_copy(update={"texts": (*step.texts, SpecText(text=text, line=line, kind="success"))})
        out.append(step)
    return run_success(r, top[0], top[1], out) if top is not None and out else out


def run_success(r: NodeReader, key: Node, node: Node, steps: list[StepSpec]) -> list[StepSpec]:
    """A run-level success condition (`successCondition: "steps.post.outputs.balanced == true"`):
    each clause on one step's output field is that step's success check, read as a step's own
    `success:` is; any other is a warning at its line (not checked)."""
    text = r.value(node)
    line = r.line(node)
    if not isinstance(text, str) or not text.strip():
        r.src.warn(line, f"{key.value}: write a condition on a step's output (`steps.ID.output.FIELD == value`); "
                         "not checked", "spec.success")
        return steps
    by_id = {s.id: i for i, s in enumerate(steps)}
    out = list(steps)
    for clause in re.split(r"(?i)(?<!\s)\s+(?:and|&&)\s+", text.strip()):
        m = _STEP_CHECK.match(clause)
        if m is None and (bare := bare_check(clause, line, steps, r.src)) is not None:  # `count == 0`: its step's
            i, check = bare
            out[i] = _the_runs(out[i], check, r.src, text, said_at=True)  # `bare_check` said it
            continue
        if m is None or m.group(1) not in by_id:
            r.src.warn(line, f"{key.value}: '{clause}' is not a condition on a step's output "
                             "(`steps.ID.output.FIELD == value`); not checked", "spec.success")
            continue
        i = by_id[m.group(1)]
        check = SpecText(text=f"{m.group(2)} {m.group(3)}", line=line, kind="success")
        out[i] = _the_runs(out[i], check, r.src, text)
    return out


def _the_runs(step: StepSpec, check: SpecText, src: Source, said: str, *, said_at: bool = False) -> StepSpec:
    """`step` with the run's success check `check` on its output, noted as the run's (a top-level key judges the
    whole run: `plan.run_checks37` checks it once the run has ended, not as the step's own output contract)."""
    where = src.where(check.line)
    noted = any(n.what == "success" and n.where == where for n in step.readings)
    written = " ".join((src.line_text(check.line) or said).split()) if 0 < check.line <= len(src.lines) else said
    note = () if noted else (Reading(what="success", where=where, text=" ".join(written.split())[:160],
                                     note=f"the run's success check `{check.text}`, checked on {step.id}'s output "
                                          "(a top-level key of the file)"),)
    if not noted and not said_at:  # said, as `spec.properties47` says its done key: the step is not failed by it
        src.warn(check.line, f"'{' '.join(written.split())[:60]}' is read as the run's success check: {step.id} puts out "
                             f"{check.text}, checked once the run has ended", "spec.success")
    return step.model_copy(update={"texts": (*step.texts, check), "readings": (*step.readings, *note)})
