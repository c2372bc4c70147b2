"""Jinja2 for what specs and skills write (`When` conditions, input templates, an `llm`
skill's prompt), bounded in memory and time.

    BoundedEnvironment(**options)   an ImmutableSandboxedEnvironment with the bounds below
    parse_expression(env, text)     the node tree of a condition; TemplateSyntaxError when it
                                    is not one, too long or nested too deeply
    check_source(text, limit)       TemplateSyntaxError when a template's source is too long
    evaluate(fn, **context)         call a compiled expression within one work budget
    render(template, **context)     render a template within one work budget

Jinja2 folds constant expressions while compiling (`'x' * 4000000000` was built,
then written into Python source: 11.7 GB before a SyntaxError), and its sandbox
lets a template multiply strings and lists, format with any width (`'%999999999s'`),
loop in loops and call macros without end. Here:

- nothing is computed at compile time: the optimizer is off, every arithmetic
  operator is intercepted (Jinja never folds those) and every filter takes the
  context (Jinja never folds those);
- one evaluation (a condition, a template's rendering) may build `WORK_LIMIT`
  characters or items (every operator, `~`, filter, method and format result is
  charged its size before it is built, and a template's output its length) and
  make `TURN_LIMIT` loop turns and calls. Past either, or for a format width over
  `MAX_WIDTH` or an integer over `MAX_INT_BITS`, evaluation stops with a
  `SecurityError` (a `TemplateError`), which callers report with the step and line;
- a condition longer than `MAX_EXPRESSION` characters, a template longer than
  `MAX_TEMPLATE`, or one nested too deeply to parse, is a `TemplateSyntaxError`;
- `lipsum` (text of any size on request) is not a global, and `str.translate` is
  not callable.
"""

from __future__ import annotations

import functools
import re
import string
import types
from collections.abc import Callable, Iterable, Iterator, Sized
from contextvars import ContextVar
from typing import Any

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.exceptions import SecurityError, TemplateAssertionError, TemplateSyntaxError
from jinja2.parser import Parser
from jinja2.runtime import Context, Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment
from jinja2.utils import _PassArg, pass_context

MAX_EXPRESSION = 10_000  # characters of a `When` condition
MAX_TEMPLATE = 100_000  # characters of an input template
WORK_LIMIT = 64 << 20  # characters or items an evaluation may build
TURN_LIMIT = 1_000_000  # loop turns and calls an evaluation may make (about a second)
MACRO_TURNS = 20  # a macro call costs about 20 times a loop turn
MAX_WIDTH = 10_000  # a %-format or str.format width or precision
MAX_INT_BITS = 100_000  # an integer an operator may build (some 30 000 digits)

_BUDGET: ContextVar[_Budget | None] = ContextVar("skillweave_template_budget", default=None)


class _Budget:
    def __init__(self) -> None:
        self.units = WORK_LIMIT
        self.turns = TURN_LIMIT


def charge(units: int, what: str) -> None:
    """Spend `units` (characters or items about to be built) of the current evaluation's
    budget; a lone operation outside any evaluation may use a whole budget by itself."""
    budget = _BUDGET.get()
    if units > (budget.units if budget is not None else WORK_LIMIT):
        raise SecurityError(f"{what} would build more than the {WORK_LIMIT >> 20} Mi characters or items "
                            "a template or condition may build")
    if budget is not None:
        budget.units -= units


def turn(what: str, count: int = 1) -> None:
    """Count `count` loop turns or calls of the current evaluation."""
    budget = _BUDGET.get()
    if budget is None:
        return
    budget.turns -= count
    if budget.turns < 0:
        raise SecurityError(f"{what} would go past the {TURN_LIMIT:,} loop turns and calls a template "
                            "or condition may make")


def _size(value: Any) -> int:
    if isinstance(value, str | bytes | list | tuple | dict | set | frozenset):
        return len(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value.bit_length() // 8
    return 1


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


# -- operators ------------------------------------------------------------------------------------

# a width starts 1-9: zeros are flags, so a run of them has one reading, not one per split
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(\*|[1-9]\d*)?(?:\.(\*|\d+))?[hlL]?[diouxXeEfFgGcrsa%]")


def check_percent_format(fmt: str) -> None:
    """Refuse `%`-format widths and precisions over MAX_WIDTH, and `*` ones (given by data)."""
    for m in _PERCENT.finditer(fmt):
        for part in m.groups():
            if part == "*":
                raise SecurityError("a '*' width or precision in a %-format is not allowed here")
            if part is not None and int(part) > MAX_WIDTH:
                raise SecurityError(f"a %-format width or precision of {part} is over {MAX_WIDTH}")


def check_brace_format(fmt: str) -> None:
    """Refuse `str.format` widths over MAX_WIDTH and widths taken from the arguments."""
    try:
        fields = list(string.Formatter().parse(fmt))
    except ValueError as exc:
        raise SecurityError(f"not a format string: {exc}") from None
    for _, _, spec, _ in fields:
        if spec and "{" in spec:
            raise SecurityError("a format width taken from the arguments is not allowed here")
        for number in re.findall(r"\d+", spec or ""):
            if int(number) > MAX_WIDTH:
                raise SecurityError(f"a format width or precision of {number} is over {MAX_WIDTH}")


def _binop_cost(operator: str, left: Any, right: Any) -> int:
    if operator == "*":
        for seq, n in ((left, right), (right, left)):
            if isinstance(seq, str | bytes | list | tuple) and isinstance(n, int):
                return len(seq) * _count(n)
        if isinstance(left, int) and isinstance(right, int):
            return _int_cost(abs(left).bit_length() + abs(right).bit_length())
    elif operator == "**":
        if isinstance(left, int) and isinstance(right, int) and right > 0:
            if abs(left) <= 1:
                return 1
            return _int_cost(right * abs(left).bit_length())
    elif operator == "+":
        if isinstance(left, Sized) and isinstance(right, Sized):
            return len(left) + len(right)
    elif operator == "%" and isinstance(left, str):
        check_percent_format(left)
        args = right if isinstance(right, tuple) else (right,)
        return len(left) + sum(len(str(a)) if isinstance(a, str) else 32 for a in args) + len(args) * MAX_WIDTH
    return 1


def _int_cost(bits: int) -> int:
    if bits > MAX_INT_BITS:
        raise SecurityError(f"an integer of about {bits:,} bits is over the {MAX_INT_BITS:,} allowed")
    return bits // 8 + 1


# -- filters and str methods ----------------------------------------------------------------------


def _lines(text: Any) -> int:
    return str(text).count("\n") + 1


def _replace_cost(s: Any, old: Any = "", new: Any = "", count: Any = None, *_: Any, **__: Any) -> int:
    s, old, new = str(s), str(old), str(new)
    hits = s.count(old) if old else len(s) + 1
    if isinstance(count, int) and count >= 0:
        hits = min(hits, count)
    return len(s) + hits * max(len(new) - len(old), 0)


def _width_cost(s: Any, width: Any = 80, *_: Any, **__: Any) -> int:
    return max(len(str(s)), _count(width))


def _indent_cost(s: Any, width: Any = 4, *_: Any, **__: Any) -> int:
    pad = len(width) if isinstance(width, str) else _count(width)
    return len(str(s)) + _lines(s) * pad


def _wordwrap_cost(s: Any, width: Any = 79, *args: Any, **kwargs: Any) -> int:
    wrap = kwargs.get("wrapstring", args[1] if len(args) > 1 else None)
    text = str(s)
    breaks = len(text) // max(_count(width), 1) + _lines(text)
    return len(text) + breaks * (len(wrap) if isinstance(wrap, str) else 1)


def _batch_cost(_: Any, linecount: Any = 1, fill_with: Any = None, *__: Any, **___: Any) -> int:
    return _count(linecount) if fill_with is not None else 1


def _slice_cost(_: Any, slices: Any = 1, *__: Any, **___: Any) -> int:
    return _count(slices)


def _format_cost(s: Any, *args: Any, **kwargs: Any) -> int:
    return _binop_cost("%", str(s), args or kwargs)


def _expandtabs_cost(s: Any, tabsize: Any = 8, *_: Any, **__: Any) -> int:
    return len(str(s)) + str(s).count("\t") * _count(tabsize)


_FILTER_COSTS: dict[str, Callable[..., int]] = {
    "replace": _replace_cost, "center": _width_cost, "indent": _indent_cost,
    "wordwrap": _wordwrap_cost, "batch": _batch_cost, "slice": _slice_cost, "format": _format_cost,
}
_METHOD_COSTS: dict[str, Callable[..., int]] = {
    "replace": _replace_cost, "center": _width_cost, "ljust": _width_cost, "rjust": _width_cost,
    "zfill": _width_cost, "expandtabs": _expandtabs_cost,
}
_REFUSED_METHODS = frozenset({"translate", "maketrans"})


def _bounded_filter(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    """`func` charged for what it builds, taking the context so Jinja never runs it at compile time."""
    pass_arg = _PassArg.from_obj(func)
    cost = _FILTER_COSTS.get(name)

    @pass_context
    def bounded(context: Context, value: Any, *args: Any, **kwargs: Any) -> Any:
        if name == "join":
            value = list(value) if isinstance(value, Iterable) and not isinstance(value, str) else value
            sep = args[0] if args else kwargs.get("d", "")
            charge(_size(value) * (len(str(sep)) + 1), "join")
        turn(f"the filter {name}")
        if cost is not None:
            charge(cost(value, *args, **kwargs), f"the filter {name}")
        if pass_arg is _PassArg.context:
            result = func(context, value, *args, **kwargs)
        elif pass_arg is _PassArg.eval_context:
            result = func(context.eval_ctx, value, *args, **kwargs)
        elif pass_arg is _PassArg.environment:
            result = func(context.environment, value, *args, **kwargs)
        else:
            result = func(value, *args, **kwargs)
        if isinstance(result, Iterator):
            return _charged_items(result, f"the filter {name}")
        return result

    return bounded


def _charged_items(items: Iterable[Any], what: str) -> Iterator[Any]:
    for item in items:
        turn(what)
        yield item


# -- compiling ------------------------------------------------------------------------------------


class _BoundedCodeGenerator(CodeGenerator):
    def visit_Concat(self, node: nodes.Concat, frame: Frame) -> None:
        self.write("environment.concat_bounded((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class BoundedEnvironment(ImmutableSandboxedEnvironment):
    """The sandbox every user-written condition and template runs in (module docstring)."""

    intercepted_binops = frozenset({"+", "-", "*", "/", "//", "%", "**"})
    code_generator_class = _BoundedCodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(optimized=False, **options)
        self.globals.pop("lipsum", None)
        self.filters = {name: _bounded_filter(name, func) for name, func in self.filters.items()}

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):  # `for x in y` -> `for x in environment.loop_bounded(y)`
            bound = nodes.Call(nodes.EnvironmentAttribute("loop_bounded"), [loop.iter], [], None, None,
                               lineno=loop.lineno)
            loop.iter = bound.set_environment(self)
        return tree

    def call_binop(self, context: Context, operator: str, left: Any, right: Any) -> Any:
        charge(_binop_cost(operator, left, right), f"`{operator}`")
        return super().call_binop(context, operator, left, right)

    def call(__self, __context: Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        turn("a call", MACRO_TURNS if isinstance(__obj, Macro) else 1)
        if isinstance(__obj, types.BuiltinMethodType) and isinstance(__obj.__self__, str):
            method = __obj.__name__
            if method in _REFUSED_METHODS:
                raise SecurityError(f"str.{method} is not available here")
            if method == "join" and args:
                items = list(args[0])
                charge(sum(len(i) if isinstance(i, str) else 1 for i in items)
                       + len(items) * len(__obj.__self__), "str.join")
                args = (items, *args[1:])
            elif method in _METHOD_COSTS:
                charge(_METHOD_COSTS[method](__obj.__self__, *args, **kwargs), f"str.{method}")
        return super().call(__context, __obj, *args, **kwargs)

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is not None:
            check_brace_format(value.__self__)
        return wrapped

    def concat_bounded(self, parts: tuple[Any, ...]) -> str:
        texts = [str(p) for p in parts]
        charge(sum(map(len, texts)), "`~`")
        return "".join(texts)

    def loop_bounded(self, iterable: Any) -> Iterator[Any]:
        return _charged_items(iterable, "a loop")


@functools.cache
def shared_environment() -> BoundedEnvironment:
    """One environment for parsing conditions (parsing changes nothing in it)."""
    return BoundedEnvironment()


def check_source(text: str, limit: int, what: str = "the template") -> None:
    if len(text) > limit:
        raise TemplateSyntaxError(f"{what} is {len(text):,} characters long; at most {limit:,}", 1)


def parse_expression(env: BoundedEnvironment, text: str) -> nodes.Expr:
    """The tree of the condition `text` (nothing is compiled or computed)."""
    check_source(text, MAX_EXPRESSION, "the condition")
    try:
        parser = Parser(env, text, state="variable")
        expr = parser.parse_expression()
        if not parser.stream.eos:
            raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
    except RecursionError:
        raise TemplateSyntaxError("the condition is nested too deeply", 1) from None
    except ValueError as exc:  # an integer literal of thousands of digits
        raise TemplateSyntaxError(str(exc), 1) from None
    expr.set_environment(env)
    for node in [expr, *expr.find_all((nodes.Filter, nodes.Test))]:  # what compiling asserts, not compiled
        if not isinstance(node, nodes.Filter | nodes.Test):
            continue
        known = env.filters if isinstance(node, nodes.Filter) else env.tests
        if node.name not in known:
            kind = "filter" if isinstance(node, nodes.Filter) else "test"
            raise TemplateAssertionError(f"No {kind} named {node.name!r}.", node.lineno, None, None)
    return expr


def compile_expression(env: BoundedEnvironment, text: str) -> Callable[..., Any]:
    """`env.compile_expression(text)` after `parse_expression`'s checks."""
    parse_expression(env, text)
    try:
        compiled: Callable[..., Any] = env.compile_expression(text)
    except RecursionError:
        raise TemplateSyntaxError("the condition is nested too deeply", 1) from None
    return compiled


def compile_template(env: BoundedEnvironment, source: str, limit: int = MAX_TEMPLATE) -> Any:
    """`env.from_string(source)` for a source of at most `limit` characters."""
    check_source(source, limit)
    try:
        return env.from_string(source)
    except RecursionError:
        raise TemplateSyntaxError("the template is nested too deeply", 1) from None
    except ValueError as exc:
        raise TemplateSyntaxError(str(exc), 1) from None


def evaluate(expression: Callable[..., Any], /, **context: Any) -> Any:
    """Call a compiled expression within one budget of WORK_LIMIT."""
    token = _BUDGET.set(_Budget())
    try:
        return expression(**context)
    except RecursionError:
        raise SecurityError("the condition recurses too deeply") from None
    finally:
        _BUDGET.reset(token)


def render(template: Any, /, **context: Any) -> str:
    """Render a template within one budget of WORK_LIMIT (its output counts too)."""
    token = _BUDGET.set(_Budget())
    try:
        parts = []
        for chunk in template.generate(**context):
            charge(len(chunk), "the template's output")
            parts.append(chunk)
        return "".join(parts)
    except RecursionError:
        raise SecurityError("the template recurses too deeply") from None
    finally:
        _BUDGET.reset(token)
