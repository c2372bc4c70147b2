"""A process model dumped as text (a BPMN / Camunda export: elements, gateways, sequence flows) read
for what its flows say about the steps found in it:

    Gateway_Fork        parallel gateway (diverging)       an element: an id at the line's start, two
    Task_Parse          service task  "Parse invoice"      spaces, its kind (and a quoted name); its
       implementation: skill  parse-invoice                indented lines are its attributes
       inputs: lines <- ${Task_Parse.lines}, id <- ${id}
    Gateway_Ok          exclusive gateway  "Matched?"
       Flow_Yes   condition: ${matched == true}           a flow's condition, or its default flow,
       Flow_No    default flow                            written under its gateway (`-> Target` on
    Flow_01  Task_Parse -> Gateway_Ok                      the line is an edge too)
    Flow_Yes Gateway_Ok -> Task_Pay                       a sequence flow: `Id  From -> To`

A step (found by the document reader in an element's lines) runs after the steps the flows lead
from, through gateways, events and tasks that are no step: two tasks after one parallel gateway
start together. A step reached from only one flow of an exclusive gateway runs only when that
flow's condition holds (`${matched == true}`: `matched == true`), or, reached only from its default
flow, exactly when the condition of the step on the conditioned flow was false; a step that the
flows of an exclusive gateway merge into runs once after whichever ran. An input written
`name <- ${Task_X.field}` takes step Task_X's output `field`. Each reading is warned at its line.
A document is such an export when it has three sequence-flow lines or more; the reading is made
once per text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.engine_time import iso_seconds
from orchestrator.spec.model import FieldSpec, InputSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.warnings39 import drop_unplaced

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FLOW = _rx(r"^\s{0,8}+(?P<id>[A-Za-z]\w{0,80}+)\s++(?P<a>[A-Za-z]\w{0,80}+)\s*+->\s*+(?P<b>[A-Za-z]\w{0,80}+)\s*+$")
_ELEMENT = _rx(r"^(?P<id>[A-Za-z][A-Za-z0-9]{0,40}+_\w{1,80}+)\s++(?P<kind>[a-z][^\"\n]{0,120}?)"
               r"(?:\s++\"(?P<name>[^\"\n]{0,200}+)\")?+\s*+$")
_ATTR_FLOW = _rx(r"^\s++(?P<id>[A-Za-z]\w{0,80}+)\s++(?:condition:\s*+\$\{(?P<cond>[^}\n]{1,200}+)\}|"
                 r"(?P<default>default\s++flow))(?:\s*+->\s*+(?P<to>[A-Za-z]\w{0,80}+))?+\s*+$")
_VAR = _rx(r"(?P<name>[A-Za-z_]\w{0,60}+)\s*+<-\s*+\$\{(?P<var>[A-Za-z_]\w{0,60}+)\}")
_PAYLOAD = _rx(r"^\s++(?:payload|variables|data)\s*+:\s*+(?P<names>[A-Za-z_]\w*+(?:\s*+,\s*+[A-Za-z_]\w*+){0,30}+)\s*+$")
_MAPPING = _rx(r"(?P<name>[A-Za-z_]\w{0,60}+)\s*+<-\s*+(?:\$\{[^}\n]{1,200}+\}|(?P<num>-?\d{1,12}+(?:\.\d{1,6}+)?+)"
                r"(?![\w.]))")
_ISO_TIMER = _rx(r"(?i)boundary\w{0,40}+[^\n]{0,80}?timeDuration:\s*+(P(?:T?+\d{1,6}+[DHMS]){1,4}+)")
_SKILL_OF = _rx(r"(?i)implementation:\s*+skill\s++`?([a-z0-9][a-z0-9-]{0,80}+)")
_REF = _rx(r"(?P<name>[A-Za-z_]\w{0,60}+)\s*+<-\s*+\$\{(?P<el>[A-Za-z]\w{0,80}+)\.(?P<field>[A-Za-z_]\w{0,60}+)\}")


@dataclass
class _Model:
    kinds: dict[str, str] = field(default_factory=dict)  # element id -> kind
    lines: dict[str, tuple[int, int]] = field(default_factory=dict)  # element id -> (first, last line)
    edges: list[tuple[str, str, str, int]] = field(default_factory=list)  # (flow id, from, to, line)
    conditions: dict[str, tuple[str, int]] = field(default_factory=dict)  # flow id -> (condition, line)
    defaults: dict[str, int] = field(default_factory=dict)  # flow id -> line
    flow_gateway: dict[str, str] = field(default_factory=dict)  # flow id -> the gateway it is written under
    payload: tuple[str, ...] = ()  # the names a start event's `payload:` carries in
    rows: tuple[str, ...] = ()  # the text's lines, split once


@lru_cache(maxsize=16)
def _model(text: str) -> _Model | None:
    lines = text.split("\n")
    flows = [(n, m) for n, raw in enumerate(lines, start=1) if "->" in raw and (m := _FLOW.match(raw))]
    if len(flows) < 3:
        return None
    model = _Model(rows=tuple(lines))
    current: str | None = None
    for number, raw in enumerate(lines, start=1):
        element = _ELEMENT.match(raw) if "->" not in raw else None
        if element is not None:
            current = element.group("id")
            model.kinds[current] = element.group("kind").strip().lower()
            model.lines[current] = (number, number)
            continue
        if not raw.strip() or not raw[:1].isspace():
            current = None
            continue
        if current is None:
            continue
        model.lines[current] = (model.lines[current][0], number)
        payload = _PAYLOAD.match(raw) if "start" in model.kinds.get(current, "") else None
        if payload is not None:
            model.payload += tuple(n.strip() for n in payload.group("names").split(","))
        attr = _ATTR_FLOW.match(raw)
        if attr is not None:
            flow = attr.group("id")
            model.flow_gateway[flow] = current
            if attr.group("cond"):
                model.conditions[flow] = (attr.group("cond").strip(), number)
            else:
                model.defaults[flow] = number
            if attr.group("to"):
                model.edges.append((flow, current, attr.group("to"), number))
    model.edges += [(m.group("id"), m.group("a"), m.group("b"), n) for n, m in flows]
    return model


def payload_inputs(src: Source) -> tuple[InputSpec, ...] | None:
    """The workflow inputs a process model's start event carries in (`payload: invoice, receipts`),
    or None when the text is no process model or its start event names none."""
    model = _model(src.text) if "->" in src.text else None
    if model is None or not model.payload:
        return None
    line = next((n for n, raw in enumerate(src.lines, start=1) if _PAYLOAD.match(raw)), 1)
    src.warn(line, f"process model: the start event's payload read as the workflow inputs {', '.join(model.payload)}; "
                   "to say so plainly write them in an Inputs section", "spec.reading")
    return tuple(InputSpec(name=n, where=src.where(line)) for n in dict.fromkeys(model.payload))


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def _reach(start: str, out: dict[str, list[str]], steps: dict[str, str]) -> set[str]:
    """The steps first met going along the flows from `start` (itself when it is one)."""
    found: set[str] = set()
    todo, seen = [start], set[str]()
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        if node in steps:
            found.add(steps[node])
            continue
        todo += out.get(node, [])
    return found


def bpmn_flows(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the flows of a process-model export read (module docstring)."""
    model = _model(src.text) if "->" in src.text else None
    if model is None or not steps:
        return steps
    of_element: dict[str, str] = {}  # element id -> step id
    implements = {e: m.group(1) for e in model.lines if (m := _SKILL_OF.search(_element_text(model, e)))}
    for step in steps:  # the element that names the step's skill (`implementation: skill x`), else the one at its line
        line = _line(step)
        skill = (step.skill or (step.mentions[0].text if step.mentions else "")).strip("`")
        element = next((e for e, said in implements.items() if said == skill and e not in of_element), None) or next((e for e, (a, b) in model.lines.items() if a <= line <= b), None)
        if element is not None and element not in of_element:
            of_element[element] = step.id
    if len(of_element) < 2:
        return steps
    into: dict[str, list[str]] = {}
    out: dict[str, list[str]] = {}
    for _, a, b, _ in model.edges:
        into.setdefault(b, []).append(a)
        out.setdefault(a, []).append(b)
    by_id = {s.id: s for s in steps}
    update: dict[str, dict[str, object]] = {s.id: {} for s in steps}
    for element, sid in of_element.items():
        before: list[str] = []
        todo, seen = list(into.get(element, [])), {element}
        merged = False
        while todo:
            node = todo.pop(0)
            if node in seen:
                continue
            seen.add(node)
            if node in of_element:
                before.append(of_element[node])
                continue
            kind = model.kinds.get(node, "")
            merged = merged or ("exclusive" in kind and len(into.get(node, [])) >= 2)
            todo += into.get(node, [])
        order = [s.id for s in steps if s.id in before]
        step = by_id[sid]
        update[sid]["depends_on"] = tuple(order)
        update[sid]["depends_where"] = step.where
        note = f"after {', '.join(order)} (the sequence flows)" if order else "at the start (no step flows into it)"
        if merged and len(order) >= 2:
            update[sid]["join"] = "any"
            note = f"once after whichever of {', '.join(order)} ran (an exclusive gateway merges them)"
        update[sid]["readings"] = (*step.readings, Reading(what="depends", where=step.where,
                                                          text=src.line_text(_line(step))[:160],
                                                          note=f"process model: runs {note}"))
        src.warn(_line(step), f"{sid} ({step.name.strip()[:60]}): process model: runs {note}; to say so plainly "
                              "write `Depends on:` under the step", "spec.reading")
        for ref in _REF.finditer(_element_text(model, element)):
            giver = of_element.get(ref.group("el"))
            given = update[sid].get("inputs", step.inputs)
            if giver is None or giver == sid or not isinstance(given, tuple):
                continue
            fields = [f for f in given if f.name != ref.group("name")]
            fields.append(FieldSpec(name=ref.group("name"), source=f"steps.{giver}.output.{ref.group('field')}",
                                    where=step.where))
            update[sid]["inputs"] = tuple(fields)
    set_by = _variables(model, of_element, by_id, update, src)
    _branches(model, of_element, out, by_id, update, src, set_by)
    return [by_id[s.id].model_copy(update=update[s.id]) if update[s.id] else s for s in steps]


def _element_text(model: _Model, element: str) -> str:
    first, last = model.lines[element]
    return "\n".join(model.rows[first - 1:last])


def _variables(model: _Model, of_element: dict[str, str], by_id: dict[str, StepSpec],
               update: dict[str, dict[str, object]], src: Source) -> dict[str, str]:
    """`y <- ${x}`: a process variable another step's mapping set from a step's output (`x <- ${Task_A.f}`),
    or one the start event's payload carries in (a workflow input)."""
    set_by: dict[str, str] = {}  # variable -> `steps.<id>.output.<field>`
    spans = {e: _element_text(model, e) for e in of_element}
    for text in spans.values():
        for ref in _REF.finditer(text):
            giver = of_element.get(ref.group("el"))
            if giver is not None:
                set_by.setdefault(ref.group("name"), f"steps.{giver}.output.{ref.group('field')}")
    for element, sid in of_element.items():
        step = by_id[sid]
        numbers = {m.group("name"): float(m.group("num")) if "." in m.group("num") else int(m.group("num"))
                   for m in _MAPPING.finditer(spans[element]) if m.group("num")}
        if numbers:  # `terms_days <- 30`: the step's own value
            update[sid]["input_values"] = {**step.input_values, **numbers}
        if "<-" in step.description:  # the mappings are read into the step's inputs: no more words of its text
            update[sid]["description"] = " ".join(_MAPPING.sub("", step.description).replace(" ,", " ").split())
        for var in _VAR.finditer(spans[element]):
            name, said = var.group("name"), var.group("var")
            source = set_by.get(said) or (f"inputs.{said}" if said in model.payload else None)
            step = by_id[sid]
            fields = update[sid].get("inputs", step.inputs)
            if source is None or source.startswith(f"steps.{sid}.") or not isinstance(fields, tuple):
                continue
            if any(f.name == name and f.source for f in fields):
                continue
            update[sid]["inputs"] = (*(f for f in fields if f.name != name),
                                     FieldSpec(name=name, source=source, where=step.where))
            line = model.lines[element][0] + spans[element][:var.start()].count("\n")
            src.warn(line, f"{sid} ({step.name.strip()[:60]}): process model: `{name} <- ${{{said}}}` read as "
                           f"{source.replace('steps.', '').replace('.output.', ' output ')}; to say so plainly write "
                           f"`{name}` on an Input line with where it comes from", "spec.reading")
    return set_by


def _approval(model: _Model, gateway: str, flow: str, target: str, out: dict[str, list[str]],
              of_element: dict[str, str], by_id: dict[str, StepSpec], update: dict[str, dict[str, object]],
              set_by: dict[str, str], src: Source) -> None:
    """A conditioned flow into a user task whose flow goes on to a step every other flow of the gateway
    reaches too: the step waits for a person's OK when the flow's condition holds; the user task's
    boundary timer is how long, and no decision then is a no."""
    if "user task" not in model.kinds.get(target, "") or flow not in model.conditions:
        return
    after = _reach(target, out, of_element)
    if len(after) != 1:
        return
    sid = next(iter(after))
    words = model.conditions[flow][0].split()
    before = [of_element[a] for _, a, b, _ in model.edges if b == gateway and a in of_element]
    if not words or not words[0].isidentifier():
        return
    source = set_by.get(words[0])  # `invoice_total` another step's mapping set: that step's output
    if source is None and len(before) == 1:  # `payout`: the output of the step right before the gateway
        source = f"steps.{before[0]}.output.{words[0]}"
    if source is None:
        return
    giver, _, name = source.removeprefix("steps.").partition(".output.")
    cond = " ".join([f"steps['{giver}'].output.{name}", *words[1:]]) if source.startswith("steps.") \
        else " ".join(words)
    task = _element_text(model, target)
    timer = _ISO_TIMER.search(task)
    step = by_id[sid]
    update[sid]["approval"] = ApprovalPolicy(timeout_s=iso_seconds(timer.group(1)) if timer else None, when=cond)
    update[sid]["field_where"] = {**step.field_where, **update[sid].get("field_where", {}),  # type: ignore[dict-item]
                                  "approval": src.where(model.lines[target][0])}
    src.warn(model.lines[target][0], f"{sid} ({step.name.strip()[:60]}): process model: the user task {target} on the "
                                     f"flow {flow} of {gateway} read as its approval, asked when {cond}"
                                     + (f", no decision in {timer.group(1)} a no" if timer else "")
                                     + "; to say so plainly write `Approval: required when ...` under the step",
             "spec.reading")
    drop_unplaced(src, model.lines[target][0])  # the line was read: not "names no step" (`spec.warnings39`)


def _branches(model: _Model, of_element: dict[str, str], out: dict[str, list[str]], by_id: dict[str, StepSpec],
              update: dict[str, dict[str, object]], src: Source, set_by: dict[str, str]) -> None:
    """Each exclusive gateway's conditioned and default flows on the steps only they reach."""
    targets = {flow: b for flow, _, b, _ in model.edges}
    for gateway in dict.fromkeys(model.flow_gateway.values()):
        flows = [f for f, g in model.flow_gateway.items() if g == gateway and f in targets]
        reached = {f: _reach(targets[f], out, of_element) for f in flows}
        if len(flows) >= 2 and all(reached[f] == reached[flows[0]] for f in flows):
            for flow in flows:
                _approval(model, gateway, flow, targets[flow], out, of_element, by_id, update, set_by, src)
        conditioned: list[str] = []
        for flow in flows:
            only = reached[flow] - set().union(*(reached[f] for f in flows if f != flow))
            for sid in sorted(only):
                step = by_id[sid]
                if flow in model.conditions:
                    cond, line = model.conditions[flow]
                    update[sid]["when"] = cond
                    update[sid]["field_where"] = {**step.field_where, "when": src.where(line)}
                    conditioned.append(sid)
                    src.warn(line, f"{sid} ({step.name.strip()[:60]}): process model: the flow {flow} of "
                                   f"{gateway}: it runs only when {cond}; to say so plainly write `Only if: {cond}` "
                                   "under the step", "spec.lead-condition")
        for flow in flows:
            only = reached[flow] - set().union(*(reached[f] for f in flows if f != flow))
            if flow not in model.defaults or len(conditioned) != 1:
                continue
            for sid in sorted(only):
                line = model.defaults[flow]
                update[sid]["otherwise_of"] = conditioned[0]
                update[sid]["otherwise_where"] = src.where(line)
                src.warn(line, f"{sid} ({by_id[sid].name.strip()[:60]}): process model: the default flow {flow} of "
                               f"{gateway}: it runs exactly when the condition of {conditioned[0]} was false; to say "
                               "so plainly write `Otherwise:` under the step", "spec.lead-condition")


_rx.save()
