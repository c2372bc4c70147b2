"""The bounded Jinja2 environment: nothing computed at compile time, and one budget of work
per condition or template, whatever the operator, filter, method, loop or macro."""

from __future__ import annotations

import tracemalloc

import pytest
from jinja2 import StrictUndefined, TemplateSyntaxError
from jinja2.exceptions import SecurityError, UndefinedError

from orchestrator.templating import (
    MAX_EXPRESSION,
    BoundedEnvironment,
    compile_expression,
    compile_template,
    evaluate,
    parse_expression,
    render,
)

ENV = BoundedEnvironment()
TEMPLATES = BoundedEnvironment(undefined=StrictUndefined, autoescape=False)


def value(expr: str, **context: object) -> object:
    return evaluate(compile_expression(ENV, expr), **context)


@pytest.mark.parametrize("expr", [
    "'x' * 4000000000", "4000000000 * 'x'", "[1] * 4000000000", "(1, 2) * 4000000000",
    "'x' | center(4000000000)", "'x'.center(4000000000)", "'x'.ljust(4000000000)", "'x'.zfill(4000000000)",
    "'x' | indent(4000000000)", "('x' * 100000) | replace('', 'y' * 1000)", "range(100000) | join('x' * 10000)",
    "('a' * 100000).join(['b'] * 10000)", "range(9) | batch(4000000000, 'x') | list",
    "range(9) | slice(4000000000) | list", "('\\t' * 100000).expandtabs(100000)",
    "'x' | wordwrap(1, wrapstring='y' * 100000) ~ ('x ' * 100000) | wordwrap(1, wrapstring='y' * 1000)",
])
def test_what_would_build_gigabytes_stops_before_it_is_built(expr: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(SecurityError, match="would build more than the 64 Mi characters"):
            value(expr)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 << 20, f"{peak >> 20} MB"


@pytest.mark.parametrize(("expr", "words"), [
    ("'%999999999s' % 1", "width or precision of 999999999 is over 10000"),
    ("'%.999999999f' % 1", "width or precision of 999999999 is over 10000"),
    ("'%00999999999s' % 1", "width or precision of 999999999 is over 10000"),  # zero flags, then the width
    ("'%*s' % (999999999, 1)", "'*' width or precision"),
    ("'{:>999999999}'.format(1)", "width or precision of 999999999 is over 10000"),
    ("'{:{}}'.format(1, 999999999)", "width taken from the arguments"),
    ("'%999999999s' | format(1)", "width or precision of 999999999 is over 10000"),
    ("2 ** 999999999", "bits is over the 100,000 allowed"),
    ("9 ** 99999 ** 9", "bits is over the 100,000 allowed"),
    ("'x'.translate({120: 'yy'})", "str.translate is not available here"),
])
def test_formats_powers_and_translations_that_would_blow_up_are_refused(expr: str, words: str) -> None:
    with pytest.raises(SecurityError, match=words.replace("*", r"\*").replace("(", r"\(")):
        value(expr)


def test_nothing_is_computed_while_compiling() -> None:
    tracemalloc.start()
    try:
        compile_expression(ENV, "'x' * 4000000000 ~ 'y' | center(4000000000) ~ '%999999999s' % 1")
        compile_template(TEMPLATES, "{{ 'x' * 4000000000 }}{{ 'x' | center(4000000000) }}{{ 2 ** 999999999 }}")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 << 20, f"{peak >> 20} MB"


@pytest.mark.parametrize("source", [
    "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}{% endfor %}",
    "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(60) }}",
])
def test_loops_in_loops_and_macros_that_double_stop_after_a_million_turns(source: str) -> None:
    with pytest.raises(SecurityError, match="1,000,000 loop turns and calls"):
        render(compile_template(TEMPLATES, source))


@pytest.mark.parametrize("source", [
    "{% set ns = namespace(x='x') %}{% for i in range(100) %}{% set ns.x = ns.x ~ ns.x %}{% endfor %}",
    "{% set ns = namespace(x='x') %}{% for i in range(100) %}{% set ns.x = ns.x + ns.x %}{% endfor %}",
    "{% for i in range(100000) %}{{ big }}{% endfor %}",
])
def test_doubling_a_value_or_repeating_output_stops_at_the_budget(source: str) -> None:
    with pytest.raises(SecurityError, match="would build more than"):
        render(compile_template(TEMPLATES, source), big="z" * 1000)


@pytest.mark.parametrize("source", ["{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
                                    "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}"])
def test_endless_recursion_is_a_template_error(source: str) -> None:
    with pytest.raises(SecurityError, match="recurses too deeply"):
        render(compile_template(TEMPLATES, source))


def test_each_evaluation_has_its_own_budget() -> None:
    compiled = compile_expression(ENV, "('x' * 40000000) | length")
    assert [evaluate(compiled) for _ in range(3)] == [40_000_000] * 3
    with pytest.raises(SecurityError):
        evaluate(compile_expression(ENV, "('x' * 40000000 ~ 'x' * 40000000) | length"))


@pytest.mark.parametrize("text", ["x" * (MAX_EXPRESSION + 1), "(" * 5000 + "1" + ")" * 5000, "9" * 5000])
def test_conditions_too_long_too_deep_or_with_a_huge_literal_are_syntax_errors(text: str) -> None:
    with pytest.raises(TemplateSyntaxError):
        parse_expression(ENV, text)


def test_ordinary_conditions_and_templates_work_as_before() -> None:
    steps = {"fetch": {"output": {"docs_found": False, "files": ["a.py", "b.py"]}}}
    assert value("not steps.fetch.output.docs_found and inputs.n > 2", steps=steps, inputs={"n": 3}) is True
    assert value("'%s-%05.1f' % ('a', 2.5) ~ '{}:{:>4}'.format('b', 7)") == "a-002.5b:   7"
    assert value("(steps.fetch.output.files | join(', ')) ~ ' ' ~ ('ab' * 3) | upper", steps=steps) == "a.py, b.py ABABAB"
    assert value("[1, 2] + [3] * 2 == [1, 2, 3, 3] and 2 ** 10 == 1024") is True
    assert value("range(3) | batch(2, 0) | list") == [[0, 1], [2, 0]]
    template = compile_template(TEMPLATES, "{% for f in files %}{{ loop.index }}={{ f | replace('.py', '') }};"
                                           "{% endfor %}{{ 'x' | center(5) }}|{{ text | indent(2, true) }}")
    assert render(template, files=["a.py", "b.py"], text="p\nq") == "1=a;2=b;  x  |  p\n  q"
    with pytest.raises(UndefinedError):
        render(compile_template(TEMPLATES, "{{ missing }}"))


def test_lipsum_is_not_offered() -> None:
    assert "lipsum" not in ENV.globals


@pytest.mark.parametrize(("text", "words"), [("inputs.a | nosuch", "No filter named 'nosuch'."),
                                             ("not (inputs.a is nosuchtest)", "No test named 'nosuchtest'."),
                                             ("inputs.a | upper | nosuch(1)", "No filter named 'nosuch'.")])
def test_an_unknown_filter_or_test_is_found_without_compiling(text: str, words: str) -> None:
    with pytest.raises(TemplateSyntaxError, match=words.replace(".", r"\.")):
        parse_expression(ENV, text)
