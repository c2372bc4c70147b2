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

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_COMMENT = _rx(r"^\s*#\s?(.*)$")
# a variable the caller sets, with its default: `{{.DAY}}`, `{{.DISTRICT | default "central"}}`
_GIVEN = _rx(r"\{\{\s*+\.(?P<name>[A-Za-z_]\w{0,63}+)\s*+(?:\|\s*+default\s++(?:\"(?P<q>[^\"{}]{0,200}+)\"|(?P<b>[\w.-]{1,200}+))\s*+)?+\}\}")
# a loop variable built from a file: `sh: jq -r '[.stations[].id] | join(",")' out/stations.json`
_SH_LIST = _rx(r"\bjq\b[^'\"]{0,40}+(?:'[^']{0,200}?\.(?P<field>[A-Za-z_]\w{0,63}+)\[\](?:\.(?P<item>[A-Za-z_]\w{0,63}+))?+[^']{0,200}+'"
               r"|\"[^\"]{0,200}?\.(?P<field2>[A-Za-z_]\w{0,63}+)\[\](?:\.(?P<item2>[A-Za-z_]\w{0,63}+))?+[^\"]{0,200}+\")"
               r"\s++(?P<file>[\w./{}-]{1,200}+)")
_DASH = _rx(r"^\s*+-\s++")
# the keys of a go-task command mapping
_TASK_KEYS = frozenset(("cmd", "task", "for", "defer", "silent", "vars", "ignore_error", "platforms", "set", "shopt"))


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


def _commands(node: Node | None, body: list[str]) -> list[tuple[int, str]]:
    """The task's commands with their lines: a string, a `cmd:` of a mapping (a `for:` loop's), and a
    command YAML took for a mapping (`- jq -s '{rows: .}' a.json`, an unquoted `: ` in it) as written."""
    out: list[tuple[int, str]] = []
    for item in node.value if isinstance(node, SequenceNode) else []:
        keys = {k for k, _, _ in _pairs(item)}
        if isinstance(item, MappingNode) and not keys & _TASK_KEYS:
            at = item.start_mark.line
            out.append((at, _DASH.sub("", body[at]).strip()))
        else:
            out += [(v.start_mark.line, str(v.value)) for k, v, _ in _pairs(item) if k == "cmd" and isinstance(v, ScalarNode)]
            out += _strings(item) if not isinstance(item, MappingNode) else []
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
            given = _GIVEN.fullmatch(text.strip())
            if given is not None and given.group("name") == name:  # `{{.DAY}}`, `{{.DAY | default "x"}}`: the caller's
                out[line] = f"{name} ?= {given.group('q') or given.group('b') or ''}".rstrip()
            else:
                out[line] = f"{name} := {text}"
    ends = [line for _, _, line in tasks[1:]] + [len(body)]
    for (name, node, line), end in zip(tasks, ends, strict=True):
        own = {k: v for k, v, _ in _pairs(node)}
        deps = [text for _, text in _strings(own.get("deps"), "task")]
        out[line] = f"{name}: {' '.join(deps)}".rstrip()
        above = end  # the comments right above the next task are that task's
        while above - 1 > line and _COMMENT.match(body[above - 1]):
            above -= 1
        indent = len(body[line]) - len(body[line].lstrip())
        for at in range(line + 1, above):  # a comment inside the task is its text; one back at the
            comment = _COMMENT.match(body[at])  # task's own indentation or left of it is not
            inside = comment is not None and len(body[at]) - len(body[at].lstrip()) > indent
            out[at] = f"\t# {comment.group(1)}" if comment and inside else body[at].strip() if comment else ""
        for at, command in _commands(own.get("cmds"), body):
            out[at] = "\t" + " ".join(command.split())
    return [re.sub(r"\{\{\s*\.", "{{", line) for line in out]


def taskfile_loops(body: list[str]) -> dict[str, tuple[str, str, str, str]]:
    """Each task whose command is a go-task `for:` loop over a variable built from a file another task
    writes: task -> (the file, its list field, the item's field or "", the item's name: `ITEM` or `as:`)."""
    try:
        root = yaml.compose("\n".join(body))
    except yaml.YAMLError:
        return {}
    top = {k: v for k, v, _ in _pairs(root)} if root is not None else {}
    loops: dict[str, tuple[str, str, str, str]] = {}
    for name, node, _ in _pairs(top.get("tasks")) if "tasks" in top else []:
        own = {k: v for k, v, _ in _pairs(node)}
        built: dict[str, tuple[str, str, str]] = {}
        for var, value, _ in _pairs(own.get("vars")) if "vars" in own else []:
            sh = {k: v for k, v, _ in _pairs(value)}.get("sh")
            m = _SH_LIST.search(str(sh.value)) if isinstance(sh, ScalarNode) else None
            if m is not None:
                built[var] = (m.group("file"), m.group("field") or m.group("field2"), m.group("item") or m.group("item2") or "")
        cmds = own.get("cmds")
        for item in cmds.value if isinstance(cmds, SequenceNode) else []:
            spec = {k: v for k, v, _ in _pairs(item)}
            loop = {k: v for k, v, _ in _pairs(spec["for"])} if "for" in spec else {}
            over, alias = loop.get("var"), loop.get("as")
            if isinstance(over, ScalarNode) and str(over.value) in built:
                loops[name] = (*built[str(over.value)], str(alias.value) if isinstance(alias, ScalarNode) else "ITEM")
    return loops


def is_taskfile(text: str) -> bool:
    """A YAML file that is a Taskfile (`tasks:` with `cmds:`) one of whose commands calls a skill (a
    `skills/<name>/` path, `skill <name>`): read as a recipe file, not as the YAML form."""
    from orchestrator.spec.recipes import find_recipe_file

    if "tasks" not in text or "cmds" not in text:
        return False
    found = find_recipe_file(text)
    return found is not None and found.first == 1 and bool(found.recipes)


# a task's comment "if nothing back in 20s kill it", "no answer within 2 min -> give up": the attempt's time limit
EARLY: tuple[Row, ...] = (
    Row("timeout", r"\b(?:if\s+)?(?:nothing|no\s+(?:answer|reply|response|result|data|output))\s+(?:(?:comes?|came|is|has\s+come)\s+)?"
        r"(?:back\s+)?(?:in|within|after|by)\s+{D}(?=\s*+(?:,|->|-|:)?\s*+(?:then\s+)?(?:kill(?=\s*+(?:it|that|this|the\s+\w+)\b|\s*+$|[.;,!])|forget|give\s+up|drop|abandon|stop|"
        r"cancel|bin|abort|time\s+(?:it\s+)?out))"),
)
GATES = {"EARLY": r"|nothing|no\s+answer|no\s+reply|no\s+response|no\s+result|no\s+data|no\s+output"}


_rx.save()
