"""Constants a workflow file sets (GitHub's top-level `env:`, an Ansible play's `vars:`) read as the
literal values of the steps that read them (forty-eighth round).

    env:                                   jobs:
      RACE: "Measure 4"                      too-close:
      DESK: Metro                              with: {race: "${{ env.RACE }}"}    -> race: the literal "Measure 4"
    vars:                                  tasks:
      sms_sender: BrightSmile                - args: {sender: "{{ sms_sender }}"} -> sender: the literal "BrightSmile"

The author set these values in the file; nobody is asked for them when the run starts, so a step
that reads one (`${{ env.X }}`, `{{ X }}`, `{{ env.X }}`, `{{ vars.X }}`, the whole value or inside a
text, "[${{ env.DESK }}] ...") is given the value itself, typed as written (`LIMIT: 3` is the number
3). A constant left empty (`TOKEN: ""`, `TOKEN:`) is a value to be given, and one whose name a step
still says some other way (inside a `${{ ... }}` expression, `$X` in a shell line) stays a workflow
input with its value as the default, as before (`yaml_dialect._constants`).
"""

from __future__ import annotations

from collections.abc import Iterable

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a reference to a constant: GitHub's `${{ env.X }}`, Jinja's `{{ X }}` / `{{ env.X }}` / `{{ vars.X }}`
_REF = _rx(r"\$\{\{[ \t]*+env\.(?P<gh>[A-Za-z_]\w{0,80}+)[ \t]*+\}\}|"
           r"\{\{[ \t]*+(?:env\.|vars\.)?+(?P<j2>[A-Za-z_]\w{0,80}+)[ \t]*+\}\}")
_WORD = _rx(r"[A-Za-z_]\w*+")


def _scalars(node: Node) -> Iterable[ScalarNode]:
    """Every value scalar under `node` (a mapping's keys are no values)."""
    todo = [node]
    seen: set[int] = set()
    while todo:
        n = todo.pop()
        if id(n) in seen:  # an alias is the same node
            continue
        seen.add(id(n))
        if isinstance(n, ScalarNode):
            yield n
        elif isinstance(n, MappingNode):
            todo += [v for _, v in n.value]
        elif isinstance(n, SequenceNode):
            todo += list(n.value)


def literal_constants(constants: MappingNode, readers: Iterable[Node]) -> tuple[MappingNode | None, list[str]]:
    """Each reference to a set constant under `readers` replaced by its value, in place (module docstring);
    returns the constants that stay workflow inputs (None when none does) and the names made literals."""
    values = {str(k.value): v for k, v in constants.value
              if isinstance(k, ScalarNode) and isinstance(v, ScalarNode) and str(v.value).strip()}
    if not values:
        return constants, []
    used: set[str] = set()
    readers = list(readers)
    scalars = [s for n in readers for s in _scalars(n)]
    for s in scalars:
        text = str(s.value)
        whole = _REF.fullmatch(text.strip())
        name = (whole.group("gh") or whole.group("j2")) if whole is not None else None
        if name in values:
            s.value, s.tag = values[name].value, values[name].tag  # the value as written, typed
            used.add(name)
            continue
        if "{{" not in text:
            continue

        def put(m: object) -> str:
            said = m.group("gh") or m.group("j2")  # type: ignore[attr-defined]
            if said not in values:
                return str(m.group(0))  # type: ignore[attr-defined]
            used.add(said)
            return str(values[said].value)

        changed = _REF.sub(put, text)
        if changed != text:
            s.value, s.tag = changed, "tag:yaml.org,2002:str"
    from orchestrator.spec.constant_said55 import still_said

    still = still_said(readers, values)  # a step's title "will the hoist take her" says no `hoist` (`55`)
    literal = sorted(used - still)
    kept = [(k, v) for k, v in constants.value if str(getattr(k, "value", "")) not in literal]
    if not kept:
        return None, literal
    return MappingNode(constants.tag, kept, constants.start_mark, constants.end_mark), literal


_rx.save()
