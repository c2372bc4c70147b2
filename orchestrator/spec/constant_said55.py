"""Where a constant's name is still said once its references are read as its value (round 55).

    vars:
      hoist: "40t Wise"
    tasks:
      - name: will the hoist take her          <- a task's title: prose, no reference to `hoist`
        args: {hoist: "{{ hoist }}"}           <- read as the literal "40t Wise" (`spec.env_literals48`)
        when: hoist != "25t"                   <- still said: `hoist` stays an input with that default

- `still_said(readers, names)`: the names of `names` a value under `readers` still says as a word, leaving out the
  values of the keys that title or describe a step (`name`, `title`, `description`, `label`, `comment`, ...): a
  word of a title is no reference to a value.
"""

from __future__ import annotations

from collections.abc import Iterable

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

_WORD = _rx(r"(?<![\w-])[A-Za-z_]\w*+(?![\w-])")  # "hoist-check" names a skill, no `hoist`
_TITLES = frozenset({"name", "title", "description", "desc", "summary", "label", "comment", "comments", "note",
                     "notes", "display_name", "displayname", "about", "purpose"})


def _said(nodes: Iterable[Node]) -> Iterable[ScalarNode]:
    """Every value scalar under `nodes` but the values of title keys."""
    todo = list(nodes)
    seen: set[int] = set()
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if isinstance(n, ScalarNode):
            yield n
        elif isinstance(n, MappingNode):
            todo += [v for k, v in n.value
                     if not (isinstance(k, ScalarNode) and isinstance(v, ScalarNode)
                             and str(k.value).strip().lower() in _TITLES)]
        elif isinstance(n, SequenceNode):
            todo += list(n.value)


def still_said(readers: Iterable[Node], names: Iterable[str]) -> set[str]:
    """The names still said by a value under `readers` (module docstring)."""
    wanted = set(names)
    return {w for s in _said(readers) for w in _WORD.findall(str(s.value)) if w in wanted}


_rx.save()
