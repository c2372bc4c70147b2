"""A step's input, `for each` list and `when` condition, from the plan's bindings.

Bindings are JSON pointers into workflow inputs, earlier outputs or the current
item, literals, or Jinja2 templates. Conditions and templates are rendered in
`templating.BoundedEnvironment`, Jinja2's `ImmutableSandboxedEnvironment` with
bounds: no attribute of a Python object that is not data, no mutation, no I/O,
nothing computed at compile time, and a budget of work per evaluation. The context is `inputs`, `steps` and `item`
(plus the `for each` variable's own name). `steps` holds the steps that have an
output, as the planner and the docs write them: `steps['fetch'].output.docs_found`
(`steps.fetch.docs_found`, the output's field read directly, works too; where an
output has a field of its own named `output`, `.output` is the whole output). In
a condition an undefined name is simply false (`steps.fetch.output.docs_found`
when `fetch` was skipped); in a template it is an error. Jinja2 is imported by the
first condition or template a run evaluates (a run of pointers only never needs it).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from orchestrator.errors import RunError
from orchestrator.plan.model import InputBinding, Plan, PlanStep

if TYPE_CHECKING:
    from orchestrator.templating import BoundedEnvironment

_NO_ITEM = object()


def _eval_errors() -> tuple[type[Exception], ...]:
    """What evaluating a user's expression may raise (sandbox violations are TemplateErrors)."""
    from jinja2 import TemplateError

    return (TemplateError, ArithmeticError, LookupError, TypeError, ValueError)
_QUOTED = 200  # characters of a condition or template quoted in an error


def _quote(text: str) -> str:
    return repr(text if len(text) <= _QUOTED else text[: _QUOTED - 1] + "…")


def _at(step: PlanStep, decision: str = "") -> str:
    """` (file:line)` of the step's decision (an input's line), else of the step."""
    made = step.provenance.get(decision) if decision else None
    where = made.where if made is not None and made.source == "spec" and made.where else step.where
    return f" ({where})" if where else ""


class RenderError(RunError):
    """A binding or expression could not be evaluated (the step's input is invalid)."""

    code = "render_error"


class _Missing(Exception):
    """An optional binding has nothing to bind."""


def resolve_pointer(document: Any, pointer: str) -> Any:
    """RFC 6901: `""` is the whole document; raises KeyError when a part is absent."""
    if not pointer:
        return document
    if not pointer.startswith("/"):
        pointer = "/" + pointer.replace(".", "/")
    value = document
    for raw in pointer[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, Mapping):
            if part not in value:
                raise KeyError(pointer)
            value = value[part]
        elif isinstance(value, list):
            try:
                value = value[int(part)]
            except (ValueError, IndexError):
                raise KeyError(pointer) from None
        else:
            raise KeyError(pointer)
    return value


def binding_sources(step: PlanStep) -> tuple[set[str], set[str]]:
    """(every step the bindings read, the steps whose output is required)."""
    every: set[str] = set()
    required: set[str] = set()
    bindings = list(step.inputs.values())
    if step.for_each is not None:
        bindings.append(step.for_each.source)
    for b in bindings:
        if b.source == "step" and b.sources():
            every.update(b.sources())
            # a join's input needs one of them, not each; a joined value none (a step that did not run adds nothing)
            if not b.optional and not b.any_of and not b.joined and b.step:
                required.add(b.step)
    return every, required


class _Steps(Mapping[str, Any]):
    """`steps` in an expression: step id -> its output, readable as `.output` too."""

    def __init__(self, outputs: Mapping[str, Any]) -> None:
        self._outputs = outputs

    def __getitem__(self, step_id: str) -> Any:
        output = self._outputs[step_id]
        if isinstance(output, Mapping):
            return {**output, "output": output}
        return {"output": output}

    def __iter__(self) -> Iterator[str]:
        return iter(self._outputs)

    def __len__(self) -> int:
        return len(self._outputs)


class Renderer:
    """Evaluates a plan's bindings and conditions; compiled expressions are cached."""

    def __init__(self, plan: Plan, inputs: Mapping[str, Any]) -> None:
        self.plan = plan
        self.inputs = inputs
        self._compiled: dict[str, Any] = {}

    @functools.cached_property
    def _conditions(self) -> BoundedEnvironment:
        from jinja2 import ChainableUndefined

        from orchestrator.templating import BoundedEnvironment

        return BoundedEnvironment(undefined=ChainableUndefined)

    @functools.cached_property
    def _templates(self) -> BoundedEnvironment:
        from jinja2 import StrictUndefined

        from orchestrator.templating import BoundedEnvironment

        return BoundedEnvironment(undefined=StrictUndefined, autoescape=False)

    def _context(self, step: PlanStep, outputs: Mapping[str, Any], item: Any) -> dict[str, Any]:
        ctx: dict[str, Any] = {"inputs": self.inputs, "steps": _Steps(outputs)}
        if item is not _NO_ITEM:
            ctx["item"] = item
            if step.for_each is not None:
                ctx[step.for_each.item] = item
        return ctx

    def condition(self, step: PlanStep, outputs: Mapping[str, Any], item: Any = _NO_ITEM) -> bool:
        """The step's `when` (true when it has none)."""
        if not step.when:
            return True
        expr = step.when.strip()
        if expr.startswith("{{") and expr.endswith("}}"):
            expr = expr[2:-2].strip()
        from jinja2 import UndefinedError

        import orchestrator.templating as templating

        compiled = self._compiled.get(expr)
        try:
            if compiled is None:
                compiled = self._compiled[expr] = templating.compile_expression(self._conditions, expr)
            return bool(templating.evaluate(compiled, **self._context(step, outputs, item)))
        except UndefinedError:
            return False  # a comparison with a value that does not exist is not true
        except _eval_errors() as exc:
            raise RenderError(f"condition {_quote(step.when)}{_at(step)}: {exc}") from exc

    def gate(self, step: PlanStep, outputs: Mapping[str, Any], item: Any = _NO_ITEM) -> bool:
        """Whether the step's approval gate holds: it has one and its condition (if any) is true."""
        gate = step.policy.approval
        if gate is None or not gate.required:
            return False
        if not gate.when:
            return True
        return self.condition(step.model_copy(update={"when": gate.when}), outputs, item)

    def items(self, step: PlanStep, outputs: Mapping[str, Any]) -> list[Any]:
        """The list a `for each` step fans out over."""
        assert step.for_each is not None
        value = self._bind(step, step.for_each.source, outputs, _NO_ITEM)
        if not isinstance(value, list):
            raise RenderError(
                f"`for each` needs a list, got {type(value).__name__} from {_describe(step.for_each.source)}"
            )
        return value

    def step_input(self, step: PlanStep, outputs: Mapping[str, Any], item: Any = _NO_ITEM) -> dict[str, Any]:
        rendered: dict[str, Any] = {}
        for name, binding in step.inputs.items():
            try:
                rendered[name] = self._bind(step, binding, outputs, item, name)
            except _Missing:
                continue
        return rendered

    def _bind(self, step: PlanStep, b: InputBinding, outputs: Mapping[str, Any], item: Any, name: str = "") -> Any:
        try:
            if b.source == "literal":
                return b.value
            if b.source == "template":
                return self._render_template(step, b.template or "", outputs, item, name)
            if b.source == "input":
                if b.name is None or b.name not in self.inputs:
                    raise KeyError(b.name)
                return resolve_pointer(self.inputs[b.name], b.pointer)
            if b.source == "step" and b.joined:
                return self._joined(step, b, outputs, item, name)
            if b.source == "step":
                ran = next((sid for sid in b.any_of if sid in outputs), None) if b.any_of else b.step
                if (ran is None or ran not in outputs) and b.if_skipped is not None:
                    return b.if_skipped  # the value said for a producer that did not run
                if ran is None or ran not in outputs:
                    raise KeyError(b.step)
                pointer = b.pointer_of(ran)  # a join whose steps each give it under their own field
                if b.any_of and not b.gather:
                    self._one_ran(b, outputs)
                if b.gather and isinstance(outputs[ran], list):  # a For each step's results, in item order
                    return [resolve_pointer(one, pointer) for one in outputs[ran]]
                return resolve_pointer(outputs[ran], pointer)
            if b.source == "item":
                if item is _NO_ITEM:
                    raise RenderError(f"{_describe(b)} is used outside a `for each` step")
                return resolve_pointer(item, b.pointer)
        except KeyError:
            if b.optional:
                raise _Missing from None
            raise RenderError(f"{_describe(b)} has no value") from None
        raise RenderError(f"unknown binding source {b.source!r}")

    def _joined(self, step: PlanStep, b: InputBinding, outputs: Mapping[str, Any], item: Any, name: str) -> list[Any]:
        """A joined value: its parts in order, put together into one list (`InputBinding.joined`)."""
        out: list[Any] = []
        for part in b.joined:
            if part.source == "step" and part.step not in outputs:
                continue  # skipped, or failed and went on: adds nothing
            try:
                value = self._bind(step, part, outputs, item, name)
            except _Missing:
                continue
            if isinstance(value, list):
                out.extend(value)
            elif value is not None:
                out.append(value)
        return out

    @staticmethod
    def _one_ran(b: InputBinding, outputs: Mapping[str, Any]) -> None:
        """A join's "whichever ran" when two of its steps ran and gave different values: which is meant is not
        known (their conditions were not read as exclusive), so no value is taken rather than the first."""
        said: dict[str, Any] = {}
        for sid in b.any_of:
            if sid in outputs:
                with contextlib.suppress(KeyError, IndexError, TypeError, ValueError):
                    said[sid] = resolve_pointer(outputs[sid], b.pointer_of(sid))
        if len({repr(v) for v in said.values()}) > 1:
            raise RenderError(f"{_describe(b)}: {' and '.join(repr(s) for s in said)} both ran and gave different "
                              "values, so which one is meant is not known; make the steps exclusive (a condition on "
                              "one and `Otherwise` on the other)")

    def _render_template(self, step: PlanStep, source: str, outputs: Mapping[str, Any], item: Any,
                         name: str = "") -> str:
        import orchestrator.templating as templating

        compiled = self._compiled.get("template:" + source)
        try:
            if compiled is None:
                compiled = self._compiled["template:" + source] = templating.compile_template(self._templates, source)
            return templating.render(compiled, **self._context(step, outputs, item))
        except _eval_errors() as exc:
            raise RenderError(f"template {_quote(source)}{_at(step, f'inputs.{name}')}: {exc}") from exc


def _describe(b: InputBinding) -> str:
    if b.source == "input":
        return f"workflow input {b.name!r}{' at ' + b.pointer if b.pointer else ''}"
    if b.source == "step" and b.joined:
        return "the value joined from " + " + ".join(_describe(p) for p in b.joined)
    if b.source == "step" and b.pointers:
        each = ", ".join(f"{sid!r}{' at ' + b.pointer_of(sid) if b.pointer_of(sid) else ''}" for sid in b.any_of)
        return f"output of whichever of steps {each} ran"
    if b.source == "step":
        return f"output of step {b.step!r}{' at ' + b.pointer if b.pointer else ''}"
    if b.source == "item":
        return f"the item{' at ' + b.pointer if b.pointer else ''}"
    return f"{b.source} binding"
