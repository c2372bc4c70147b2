"""`$`-references in an author's own YAML whose head is a word, not a step or `inputs`.

    ask_operator: [site, report]            # the inputs, asked of whoever runs it
    steps:
      - id: pull
        takes: {report: $ask.report}        # the workflow input `report`
      - id: grade
        for_each_of: $pull.findings         # a loop (`for_each_in`, `loop_over`, `for_every`...)
        takes: {blade: $it.blade}           # each item's field `blade`
      - id: roll
        takes: {all: "$grade[*]", scores: "$grade[*].score"}   # grade's results, gathered

`asked_input`: `$ask.x`, `$asked.x`, `$user.x`, `$operator.x`, `$prompt.x`, `$given.x` name the
workflow input `x` when `x` is one (a head that names a step is the step's, read before this);
anything else stays unread and warned. `item_word`: inside a loop, `it`, `each`, `this`,
`current`, `entry`, `element`, `row`, `record`, `one` are the loop's item (as `item` and the
loop's own variable are), unless a step or input has that name. `star_reference`: `x[*]`,
`$x[*]`, `${x[*].f}`, `{{ x[*].f }}` (JSONPath's every element) are step x's results, gathered:
each item's output, or each item's field `f`, in item order (`steps.x.output[.f]`, which the
planner gathers for a For each step; `yaml_policy` warns when x does not loop). `loop_key`: the
keys that make a step run once per item of a list, in their many spellings.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

# the head of `$ask.x`: the inputs asked of the person who runs it (or given on the command line)
_ASKED = _rx(r"^(?:ask(?:s|ed|_for|_user|_operator|_me|_them)?+|answers?+|user(?:_input)?+|operator|prompts?+|"
             r"prompted|given|provided|supplied|entered|from_(?:user|you|operator|cli)|cli|you|your|form)$")
# a word that stands for the loop's current item
_ITEM = _rx(r"^(?:it|each|this|current|cur|entry|element|elem|el|row|record|one|thing|x)$")
# `x[*]` and `x[*].field`, bare or in one of the wrappers people use
_STAR = _rx(r"^\s*+(?:\$\{\{|\{\{|\$\{|\$\(|\$)?+\s*+([A-Za-z_][\w-]*+)\s*+\[\s*+\*\s*+\](\.[\w.-]++)?+"
            r"\s*+(?:\}\}|\}|\))?+\s*+$")
# keys that loop: `for_each_of`, `for_each_in`, `for_every`, `loop_over`, `loop_through`, `iterate_across`,
# `once_for_every`, `per_item_of`, `fan_out_over`
_LOOP = _rx(r"^(?:(?:for_|once_for_|run_for_|do_for_)?+(?:each|every|all)(?:_one|_item|_entry|_row)?+(?:_of|_in|_from|_over)"
            r"|loop(?:s|ing)?+_(?:over|through|across|on|in)|iterat(?:e|ing)_(?:over|through|across|on)"
            r"|per_(?:item|entry|row|element)_(?:of|in)|fan(?:ning)?+_out_(?:over|across|on))$")


def asked_input(head: str, rest: str, inputs: set[str]) -> str | None:
    """`inputs.<x>` for `$ask.x` (module docstring), else None."""
    name = rest.partition(".")[0]
    if not name or name not in inputs or not _ASKED.match(head.lower()):
        return None
    return f"inputs.{rest}"


def asking_heads(value: str) -> set[str]:
    """{the head of `value`} when it is `HEAD.NAME` with a head that says asked (`ask.site`), else {}."""
    head = value.strip().partition(".")[0]
    return {head} if _ASKED.match(head.lower()) else set()


def item_word(head: str) -> bool:
    """Whether `head` (`$it.blade`) stands for the loop's current item."""
    return bool(_ITEM.match(head.lower()))


def star_reference(value: str, ids: set[str]) -> str | None:
    """`steps.<x>.output[.field]` for `$x[*]` / `$x[*].field` naming step x; else None."""
    m = _STAR.match(value)
    if m is None or m.group(1) not in ids:
        return None
    return f"steps.{m.group(1)}.output{(m.group(2) or '').rstrip('.')}"


def star_step(value: str) -> str | None:
    """The step a `[*]` reference gathers (`$x[*].f` → x), whatever it names; else None."""
    m = _STAR.match(value)
    return m.group(1) if m else None


def loop_key(name: str) -> bool:
    """Whether a step key (made plain: `for_each_of`) makes the step loop over a list."""
    return bool(_LOOP.match(name))


_rx.save()
