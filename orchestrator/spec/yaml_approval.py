"""A YAML step's key of the author's own schema that names a person's yes, read as the step's approval.

    human_ok: "prod only -- change manager approves in #infra-cab, 1h or it's a no"
        → approval: when `prod` (the value of a workflow input), wait 1 h, then reject
    ok_from: the head of year                → approval: required (who signs is shown, not enforced)
    captain_approval: true / false           → approval: required / none

The key's name (`whole_approval.person_key`) says a person answers; its value is read as an
`approval:` sentence is (`condition.read_approval_text`: its condition, its wait and what silence
means). The reading is a guess about the author's schema, so it is warned at the key's line with
how to write it plainly; a value that says nothing of a wait is read as an approval with no wait.
"""

from __future__ import annotations

from yaml.nodes import Node, ScalarNode

from orchestrator.spec.condition import approval_sentence, approval_timeout
from orchestrator.spec.model import Reading
from orchestrator.spec.yaml_dialect import note, short
from orchestrator.spec.yaml_node import NodeReader


def person_approval(r: NodeReader, raw: str, knode: Node, vnode: Node, sid: str, notes: list[Reading]) -> dict[
        str, tuple[Node, Node]]:
    """{"approval": the key and its value} when the value can be an approval's (a sentence, a flag);
    else {} with the key kept for review by the form's warning."""
    if not isinstance(vnode, ScalarNode):
        return {raw: (knode, vnode)}  # a mapping under an own name: the form warns it, kept for review
    said = str(vnode.value).strip()
    words = said.lower()
    if words in {"false", "no", "off", "none", "never"}:
        notes.append(note(r, knode, f"{raw}: {said}", "no approval"))
        return {}
    seconds, then = approval_timeout(said)
    how = (f", waiting {seconds:g}s, then {then or 'reject'}" if seconds is not None else ", with no wait")
    r.src.warn(r.line(knode), f"{sid}: key '{raw}' is read as the step's approval (a person says yes before it runs)"
                              f"{how}: if that is meant, write `approval: {short(said)}`", "spec.approval-key")
    notes.append(note(r, knode, f"{raw}: {short(said)}", "an approval: the key names a person's yes"
                                                        + ("" if approval_sentence(said) or seconds else
                                                           " (its value says no more)")))
    return {"approval": (knode, vnode)}
