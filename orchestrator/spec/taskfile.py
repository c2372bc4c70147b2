"""A Taskfile (go-task's `Taskfile.yml`, and task runners written like it) pasted in a fenced block,
read into the recipes of `spec.recipes`:

    ```yaml
    vars:
      DAY: '{{.DAY}}'
    tasks:
      # flaky store: retry 2 times, 10s apart      the comments above a task and inside it: its text
      fetch:
        cmds:
          - skill fetch-orders day={{.DAY}}        a command that calls a skill: the task is a step
      total:
        deps: [fetch]                            what it runs after
        cmds:
          - skill sum-orders rows={{.fetch.rows}}
    ```

A fenced YAML block is one when it has a `tasks:` mapping whose tasks have `cmds:`. `{{.X}}`
is read as `{{X}}`; `vars:` and `env:` are the file's variables.
"""

from __future__ import annotations

import re

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"^\s*#\s?(.*)$")


def _pairs(node: Node) -> list[tuple[str, Node, int]]:
    if not isinstance(node, MappingNode):
        return []
    return [(str(k.value), v, k.start_mark.line) for k, v in node.value if isinstance(k, ScalarNode)]


def _strings(node: Node | None, key: str = "") -> list[tuple[int, str]]:
    """The strings of a scalar or a list (of strings, or of mappings holding `key`), with their lines."""
    if isinstance(node, ScalarNode):
        return [(node.start_mark.line, str(node.value))]
    out: list[tuple[int, str]] = []
    if isinstance(node, SequenceNode):
        for item in node.value:
            if isinstance(item, ScalarNode):
                out.append((item.start_mark.line, str(item.value)))
            elif key:
                out += [(line, text) for k, v, line in _pairs(item) if k == key for _, text in _strings(v)]
    return out


def taskfile_lines(body: list[str]) -> list[str] | None:
    """The fenced YAML `body` as recipe-file lines (`name: deps` headers, tab-indented commands and
    comments, `NAME := value` variables; each at the line it was written on, the lines keep their
    numbers), or None when it is not a Taskfile."""
    try:
        root = yaml.compose("\n".join(body))
    except yaml.YAMLError:
        return None
    if root is None:
        return None
    top = {k: v for k, v, _ in _pairs(root)}
    tasks = _pairs(top.get("tasks")) if "tasks" in top else []
    if not tasks or not any("cmds" in {k for k, _, _ in _pairs(v)} for _, v, _ in tasks):
        return None
    out = ["" if not _COMMENT.match(line) else line.strip() for line in body]  # free comments stay
    for section in ("vars", "env"):
        for name, value, line in _pairs(top.get(section)) if section in top else []:
            text = str(value.value) if isinstance(value, ScalarNode) else ""
            out[line] = f"{name} := {text}"
    ends = [line for _, _, line in tasks[1:]] + [len(body)]
    for (name, node, line), end in zip(tasks, ends, strict=True):
        own = {k: v for k, v, _ in _pairs(node)}
        deps = [text for _, text in _strings(own.get("deps"), "task")]
        out[line] = f"{name}: {' '.join(deps)}".rstrip()
        above = end  # the comments right above the next task are that task's
        while above - 1 > line and _COMMENT.match(body[above - 1]):
            above -= 1
        for at in range(line + 1, above):  # a comment inside the task is its text
            comment = _COMMENT.match(body[at])
            out[at] = f"\t# {comment.group(1)}" if comment else ""
        for at, command in _strings(own.get("cmds"), "cmd"):
            out[at] = "\t" + " ".join(command.split())
    return [re.sub(r"\{\{\s*\.", "{{", line) for line in out]


_rx.save()
