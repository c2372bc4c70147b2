"""The steps whose outputs a grouped YAML step's inputs read (`times.results`, `steps.times.output.x`).

Under `stages:` a step that says nothing of what it waits for waits on every step of the stage
before (`spec.yaml_grouped`). A step whose inputs (`with:`, `inputs:`..., or a `feed:` the form does
not read as inputs) read the outputs
of other steps of the document waits on those steps instead: a step of the same stage whose
output it reads (the stage rule would start the two together, before that output exists), and
not on the steps of the stage before that give it nothing. `fed_from` finds those steps; the
caller warns each such reading at the step's line with what to write.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# `times.results`, `steps.times.output.results`, `${{ steps.times.outputs.results }}`: the step's name
_REF = _rx(r"(?<![\w$.-])(?:steps\.)?+(?P<id>[A-Za-z_][\w-]{0,80}+)\.(?:outputs?+\.)?+[A-Za-z_]")
_MAX_DEPTH = 4
# keys that say what a step is fed, though the form does not read them as its inputs (yet): what they
# name still says which steps it waits on
_FEED_KEYS = frozenset({"feed", "feeds", "fed", "fed_from", "feed_from", "inputs_from", "takes_from"})


def _scalars(node: Node, depth: int = 0) -> list[str]:
    if isinstance(node, ScalarNode):
        return [str(node.value)]
    if depth >= _MAX_DEPTH:
        return []
    if isinstance(node, SequenceNode):
        return [s for v in node.value for s in _scalars(v, depth + 1)]
    if isinstance(node, MappingNode):
        return [s for _, v in node.value for s in _scalars(v, depth + 1)]
    return []


def fed_from(step: MappingNode, own: str, ids: set[str]) -> list[str]:
    """The other steps (of `ids`) whose outputs the step's input keys read, in the order they are read."""
    found: list[str] = []
    for k, v in step.value:
        if not isinstance(k, ScalarNode) or (yk.step_key(str(k.value)) != "input"
                                             and yk.key_name(str(k.value)) not in _FEED_KEYS):
            continue
        for text in _scalars(v):
            found += [m.group("id") for m in _REF.finditer(text) if m.group("id") in ids and m.group("id") != own]
    return list(dict.fromkeys(found))


_rx.save()
