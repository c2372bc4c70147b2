"""The branches of a script runbook (`spec.script_runbook`) read onto its steps.

`branch_steps` puts the steps under each `if` in their arm: the steps of the first arm run when
its condition holds (in the condition reader's words: `spec.script_code.condition_words`), those of
an `elif` when it holds and the earlier ones did not, those of an `else` exactly when the first
arm's step did not run; the first step after the branch runs once after whichever arm ran.
A condition the reader cannot read is one warning at its `if`: the steps under it always run.
"""

from __future__ import annotations

from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.script_code import condition_words
from orchestrator.spec.script_flow import Block
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_CLAUSE = _rx(r"^(?P<a>[^<>=!]+?)\s*+(?P<op>==|!=|<=|>=|<|>)\s*+(?P<b>[^<>=!]++)$")
_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _negated(words: str) -> str | None:
    if " and " in words:
        return None
    out = []
    for clause in words.split(" or "):
        m = _CLAUSE.match(clause.strip())
        if m is None:
            return None
        out.append(f"{m.group('a').strip()} {_FLIP[m.group('op')]} {m.group('b').strip()}")
    return " and ".join(out)


def branch_steps(steps: list[StepSpec], arms: list[tuple[tuple[int, int], ...]], blocks: list[Block],
                 src: Source) -> list[StepSpec]:
    """The steps with the branches around them read (module docstring)."""
    by_number = {s.number or 0: s for s in steps}
    under: dict[tuple[int, int], list[int]] = {}  # (block, arm) -> the steps under it, kept as we go
    for s, a in zip(steps, arms, strict=True):
        for key in a:
            under.setdefault(key, []).append(s.number or 0)
    for b, block in enumerate(blocks):
        inside = [under.get((b, k), []) for k in range(len(block.arms))]
        if not any(inside):
            continue
        words = [condition_words(a.condition) if a.condition is not None else None for a in block.arms]
        unread = [(a, w) for a, w in zip(block.arms, words, strict=True) if w is not None and read_condition(w) is None]
        names = ", ".join(f"step-{n}" for arm in inside for n in arm)
        if unread:
            arm, said = unread[0]
            src.warn(arm.line, f"the condition '{(arm.condition or '')[:80]}' (read as '{said[:80]}') is not read, so the "
                               f"steps under this branch ({names}) all run: write it as a comparison of an output "
                               "field, e.g. `[ \"$(jq .total a.json)\" -gt 500 ]`", "spec.condition-not-read")
            continue
        for k, arm in enumerate(block.arms):
            earlier = [w for w in words[:k] if w is not None]
            negs = [_negated(w) for w in earlier]
            for number in inside[k]:
                step = by_number[number]
                if arm.condition is None and k == 1 and inside[0] and not step.when and not step.otherwise_of:
                    by_number[number] = _set(step, {"otherwise_where": step.where, "otherwise_of": f"step-{inside[0][0]}"},
                                             "otherwise", arm.line, f"runs exactly when the condition of step-{inside[0][0]}"
                                             f" was false (the `else` at line {arm.line})", src)
                    continue
                if any(n is None for n in negs):
                    src.warn(arm.line, f"step-{number} is under this branch, after others whose conditions cannot be "
                                       "turned round here, so it is not read: it always runs", "spec.condition-not-read")
                    continue
                cond = " and ".join([*(n for n in negs if n), *(w for w in words[k:k + 1] if w)])
                if step.otherwise_of or (step.when and (" or " in step.when or " or " in cond)):
                    src.warn(arm.line, f"step-{number} is under two branches; only the outer one's condition "
                                       f"({step.when or 'the else'}) is read", "spec.condition-not-read")
                    continue
                cond = f"{step.when} and {cond}" if step.when else cond
                by_number[number] = _set(step, {"when": cond}, "when", arm.line,
                                         f"runs only when {cond} (the branch at line {arm.line})", src)
        ran: list[int] = []
        for held in (a for a in inside if a):  # an arm's last step; one in a branch of its own: that branch's last ones
            nested = arms[held[-1] - 1]
            deeper = nested[nested.index(next(x for x in nested if x[0] == b)) + 1:][:1]
            inner = [under.get((deeper[0][0], kk), []) for kk in range(len(blocks[deeper[0][0]].arms))] if deeper else []
            ran += [a[-1] for a in inner if a] if sum(1 for a in inner if a) >= 2 else [held[-1]]
        last = max(n for arm in inside for n in arm)  # step n is steps[n - 1]
        after = next((s for s, a in zip(steps[last:], arms[last:], strict=True) if all(bb != b for bb, _ in a)), None)
        if after is not None and len(ran) >= 2 and not by_number[after.number or 0].depends_on:
            ids = tuple(f"step-{n}" for n in ran)
            by_number[after.number or 0] = _set(by_number[after.number or 0], {"depends_on": ids, "depends_where": after.where,
                                                                     "join": "any"}, "join", block.end,
                                           f"runs once after whichever of {', '.join(ids)} ran (the branch ends at "
                                           f"line {block.end})", src)
    return [by_number[s.number or 0] for s in steps]


def _set(step: StepSpec, update: dict[str, object], what: str, line: int, note: str, src: Source) -> StepSpec:
    reading = Reading(what=what, where=src.where(line), text=src.line_text(line).strip()[:160], note=note)
    where = {**step.field_where, "when": step.where} if what != "join" else step.field_where
    return step.model_copy(update={**update, "field_where": where, "readings": (*step.readings, reading)})


_rx.save()
