"""CI workflow files (GitHub / Forgejo / Gitea Actions) read as specs: a value from whichever job ran, a
whole-run limit in a unit its key names.

    headline: ${{ needs.close.outputs.headline || needs.call.outputs.headline }}   → the value of whichever
                                                                                       of close / call ran
    timeout-minutes: 30            (at the top level, beside `jobs:`)             → the whole run's limit, 30 min

`whichever_ran`: a wrapped expression (`${{ }}`, `{{ }}`) that is only two or more references to steps'
outputs joined by `||` (or `or`) is the "first that is set" of those steps: in a workflow whose branches
skip each other, the value of the one that ran. It is read as the words the planner's join reader takes
(`a.headline or b.headline`, `plan.join_sources`): the step runs once after whichever ran. A part that
names no step (an input, a literal `'none'`) is no such join: the value stays as it was.

`run_limit_node`: a top-level key that is a step's timeout with its unit in its name (`timeout-minutes`,
`timeout_hours`, `timeout_seconds`) and a number is the whole run's time limit, in seconds (at the top
level no step owns it; as each job's key it stays that job's timeout).
"""

from __future__ import annotations

from yaml.nodes import Node, ScalarNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `${{ a || b }}`, `{{ a or b }}`: the inside of one wrapper
_WRAP = _rx(r"^\s*+\$?+\{\{([^{}]{3,300}+)\}\}\s*+$")
_OR = _rx(r"(?<![ \t])[ \t]*+(?:\|\||(?<![\w.-])or(?![\w.-]))[ \t]*+")
_UNIT_KEY = _rx(r"^timeout[_-](?:minutes|mins|min|hours|h|seconds|secs|s)$")


def whichever_ran(value: str, ids: set[str]) -> str | None:
    """`${{ needs.a.outputs.x || needs.b.outputs.x }}` → "a.x or b.x" when each part is a step's output
    (module docstring), else None."""
    m = _WRAP.match(value)
    if m is None:
        return None
    parts = _OR.split(m.group(1).strip())
    if len(parts) < 2:
        return None
    out: list[str] = []
    seen: set[str] = set()
    for part in parts:
        path = yk.canonical_path(part.strip())
        head, _, rest = path.partition(".")
        step, _, field = rest.partition(".output.")
        if head != "steps" or step not in ids or not field or step in seen:
            return None
        seen.add(step)
        out.append(f"{step}.{field}")
    return " or ".join(out)


def run_limit_node(raw: str, node: Node) -> ScalarNode | None:
    """A top-level `timeout-minutes: 30` as the whole run's limit (`1800s`), else None (module docstring)."""
    if not _UNIT_KEY.match(raw.strip().lower()) or not isinstance(node, ScalarNode) or node.style:
        return None
    try:
        number = float(str(node.value))
    except ValueError:
        return None
    if number <= 0:
        return None
    seconds = number * yk.unit_of(raw.replace("-", "_"))
    return ScalarNode("tag:yaml.org,2002:str", f"{seconds:g}s", node.start_mark, node.end_mark)


_rx.save()
