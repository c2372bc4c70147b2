"""CI pipeline files read as specs: their variables as inputs, their fan-out wrappers as loops.

    variables:
      DB_NAME: "orders"              # the workflow input DB_NAME (default "orders")
    probe:
      parallel:
        for_each: list.snapshots     # a loop over list's `snapshots`, one run per item
      with: {snapshot: $ITEM}        # the loop's item

A workflow input declared in an environment's spelling (`DB_NAME`) keeps its author's name; a run
given `db_name` takes it (`engine.input_alias`: the same name in other letter case). `looped_wrapper`:
a fan-out wrapper (`parallel:`, `strategy:`) holding a loop key (`for_each`, `foreach`, `each`,
`items`...) rather than a `matrix:` is that loop. `loop_item_in_capitals`: in a step that loops,
`$ITEM` (the loop variable's name in capitals, as CI tools spell theirs) is the loop's item.
"""

from __future__ import annotations

from yaml.nodes import Node

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_ENV_NAME = _rx(r"^[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)*+$")
_LOOP_KEYS = ("for_each", "foreach", "each", "items", "with_items", "loop", "over", "in")


def looped_wrapper(own: dict[str, tuple[Node, Node]]) -> tuple[str, Node] | None:
    """(key, value) of the loop key inside a fan-out wrapper (module docstring), else None."""
    if "matrix" in own:
        return None
    for key in _LOOP_KEYS:
        if key in own:
            return key, own[key][1]
    return None


def loop_item_in_capitals(name: str, for_each: str | None) -> str | None:
    """The loop's variable for `$ITEM` (its name in capitals) in a step that loops, else None."""
    if not for_each or not _ENV_NAME.match(name):
        return None
    var = for_each.split(" in ", 1)[0].strip()
    return var if var and var.lower() == name.lower() else None


_rx.save()
