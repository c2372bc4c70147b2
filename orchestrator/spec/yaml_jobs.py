"""A GitHub Actions job whose `steps:` run several skills, as one step per skill.

    jobs:
      docs:
        needs: setup
        outputs: {urls: ${{ steps.map.outputs.urls }}}
        steps:
          - uses: actions/checkout@v4          # not a skill: a reading (`yaml_step_shape`)
          - id: lint
            uses: ./skills/check-links
          - id: map
            uses: ./skills/build-sitemap
      ship:
        needs: docs
        with: {urls: ${{ needs.docs.outputs.urls }}}

becomes the steps `lint` (after `setup`) and `map` (after `lint`), and `ship` after `map`,
its `needs.docs.outputs.urls` read as `steps.map.outputs.urls` (the job's `outputs:` say
which step; without them, the job's last step). A step's id is its `id:`, else its name
made an id, else `<job>-<n>`. The job's other keys (`if:`, `timeout-minutes:`, ...) hold
for each of its steps unless the step says its own. A job with one skill step stays one
step (`yaml_step_shape` reads it).
"""

from __future__ import annotations

import re

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.model import Reading
from orchestrator.spec.yaml_dialect import MAP, SEQ, by_name, note, pairs, scalar
from orchestrator.spec.yaml_node import NodeReader

_NEEDS_REF = re.compile(r"needs\.([\w-]+)\.outputs\.([\w-]+)")
_STEP_REF = re.compile(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}")
_JOB_ONLY = ("steps", "outputs", "needs", "runs_on", "name")


def _skill_steps(job: Node) -> list[Node]:
    own = by_name(job)
    steps = own.get("steps")
    if steps is None or not isinstance(steps[1], SequenceNode):
        return []
    out = []
    for item in steps[1].value:
        uses = by_name(item).get("uses") or by_name(item).get("skill")
        if uses is not None and isinstance(uses[1], ScalarNode) and not str(uses[1].value).startswith("actions/"):
            out.append(item)
    return out


def _id(item: Node, job: str, n: int) -> str:
    own = by_name(item)
    if "id" in own:
        return str(own["id"][1].value)
    if "name" in own and (slug := re.sub(r"[^a-z0-9]+", "-", str(own["name"][1].value).lower()).strip("-")):
        return slug
    return f"{job}-{n}"


def flatten_jobs(r: NodeReader, node: Node) -> tuple[Node, list[Reading]]:
    """`jobs:` (a mapping) with each several-skill job as its steps (module docstring)."""
    if not isinstance(node, MappingNode):
        return node, []
    jobs = [(str(k.value), k, v) for k, v in node.value]
    split = {name: _skill_steps(v) for name, _, v in jobs if len(_skill_steps(v)) > 1}
    notes: list[Reading] = []
    last: dict[str, str] = {}  # job -> the step that ends it
    output_of: dict[tuple[str, str], tuple[str, str]] = {}  # (job, output) -> (step, output)
    for name, _, v in jobs:
        ids = [_id(item, name, i) for i, item in enumerate(split.get(name, []), start=1)]
        last[name] = ids[-1] if ids else name
        outputs = by_name(v).get("outputs")
        for key, (_, value) in pairs(outputs[1]).items() if outputs else ():
            m = _STEP_REF.search(str(value.value)) if isinstance(value, ScalarNode) else None
            if m and (name in split or m.group(2) != key):  # a job's output under another name: its step's
                output_of[(name, key)] = (m.group(1) if name in split else name, m.group(2))
    if not split and not output_of:
        return node, []
    out: list[tuple[Node, Node]] = []
    for name, knode, v in jobs:
        v = _rewrite(v, last, output_of, split)
        if name not in split:
            out.append((knode, _renamed_needs(v, {j: s for j, s in last.items() if j in split})))
            continue
        shared = [(k, val) for k, val in v.value if yk.key_name(str(k.value)) not in _JOB_ONLY]
        needs = by_name(v).get("needs")
        before: str | None = None
        for i, item in enumerate(split[name], start=1):
            sid = _id(item, name, i)
            own = [(k, val) for k, val in item.value if yk.key_name(str(k.value)) not in ("id", "name")]
            said = {yk.key_name(str(k.value)) for k, _ in own}
            own += [(k, val) for k, val in shared if yk.key_name(str(k.value)) not in said]
            if before is not None:
                own.append((scalar("needs", item), SequenceNode(SEQ, [scalar(before, item)], item.start_mark,
                                                                 item.end_mark)))
            elif needs is not None:
                own.append(_renamed_pair(needs, last))
            out.append((scalar(sid, item), MappingNode(MAP, own, item.start_mark, item.end_mark)))
            before = sid
        notes.append(note(r, knode, name, f"a job of {len(split[name])} skill steps: read as the steps "
                                          f"{', '.join(_id(s, name, i) for i, s in enumerate(split[name], 1))}, "
                                          "in order", what="step"))
    return MappingNode(MAP, out, node.start_mark, node.end_mark), notes


def _renamed_pair(pair: tuple[Node, Node], last: dict[str, str]) -> tuple[Node, Node]:
    k, v = pair
    if isinstance(v, ScalarNode):
        return k, scalar(last.get(str(v.value), str(v.value)), v)
    if isinstance(v, SequenceNode):
        return k, SequenceNode(SEQ, [scalar(last.get(str(n.value), str(n.value)), n) if isinstance(n, ScalarNode)
                                     else n for n in v.value], v.start_mark, v.end_mark)
    return pair


def _renamed_needs(job: Node, last: dict[str, str]) -> Node:
    if not isinstance(job, MappingNode):
        return job
    items = [(_renamed_pair((k, v), last) if yk.key_name(str(k.value)) == "needs" else (k, v)) for k, v in job.value]
    return MappingNode(MAP, items, job.start_mark, job.end_mark)


def _rewrite(node: Node, last: dict[str, str], output_of: dict[tuple[str, str], tuple[str, str]],
             split: dict[str, list[Node]]) -> Node:
    """`needs.<split job>.outputs.<x>` in every value → the step that gives it."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str) and "needs." in node.value:
        def one(m: re.Match[str]) -> str:
            job, field = m.group(1), m.group(2)
            if job not in split and (job, field) not in output_of:
                return m.group(0)
            step, out = output_of.get((job, field), (last[job], field))
            return f"needs.{step}.outputs.{out}"
        return ScalarNode(node.tag, _NEEDS_REF.sub(one, node.value), node.start_mark, node.end_mark, node.style)
    if isinstance(node, MappingNode):
        return MappingNode(node.tag, [(k, _rewrite(v, last, output_of, split)) for k, v in node.value], node.start_mark,
                           node.end_mark)
    if isinstance(node, SequenceNode):
        return SequenceNode(node.tag, [_rewrite(v, last, output_of, split) for v in node.value], node.start_mark,
                            node.end_mark)
    return node
