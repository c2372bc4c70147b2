"""Branches written as pseudocode around the steps: LaTeX `algorithmic` (`\\If{...}`, `\\ElsIf{...}`,
`\\Else`, `\\EndIf`), or plain `if ... then` / `else` / `end if` (`endif`, `fi`) lines.

    \\State $S \\gets$ \\Call{aggregate-deltas}{...}        step-2
    \\If{$S.\\mathit{regressed}$}                          the steps up to \\Else run only when regressed is true
      \\State $m \\gets$ \\Call{rank-suspects}{...}         step-3: when regressed is true
    \\Else                                               the steps up to \\EndIf are its otherwise-branch
      \\State $m \\gets$ \\Call{all-clear-note}{...}        step-4: otherwise of step-3
    \\EndIf
    \\State $g \\gets$ \\Call{post-digest}{$m.message$}     step-5: once after whichever of 3, 4 ran

A step is placed in a branch by its line. A condition is the text in the braces (or between `if`
and `then`) with its math markup taken off (`$`, `\\mathit{x}`, `\\textsc{x}`, `\\_`, `\\neg`, `\\ge`...) and
a variable's qualifier dropped (`S.regressed`: `regressed`, the field of the step that set `S`); one
name alone is that name being true (`\\neg x`: false). The first step after the end of a block whose
branches hold steps runs once after whichever ran, unless it says what it depends on. Plain
`if/else/end if` lines count only in a document that has both an opening and a closing one, so a
sentence of prose starting with "if" is no branch. Each reading is shown on its step and warned at
its line; a condition that cannot be read is a warning, and the step then always runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_IF = _rx(r"^\s*+(?:\\If\s*+\{(?P<tex>.{1,200})\}|(?i:if)\s++(?P<plain>.{1,200}?)\s++(?i:then)\b)")
_ELSIF = _rx(r"^\s*+(?:\\ElsIf\s*+\{(?P<tex>.{1,200})\}|(?i:else\s*+if|elsif|elif)\s++(?P<plain>.{1,200}?)"
             r"\s++(?i:then)\b)")
_ELSE = _rx(r"^\s*+(?:\\Else(?![A-Za-z])|(?i:else)\s*+:?\s*+(?:%.*+|#.*+|//.*+)?$)")
_END = _rx(r"^\s*+(?:\\EndIf(?![A-Za-z])|(?i:end\s*+if|fi)\b)")
_LATEX_WRAP = _rx(r"\\(?:mathit|mathrm|textsc|text|texttt|textit|textbf|mathbf|operatorname)\s*+\{([^{}]*+)\}")
_LATEX_WORD = {r"\neg": " not ", r"\lnot": " not ", r"\land": " and ", r"\wedge": " and ", r"\lor": " or ",
               r"\vee": " or ", r"\geq": " >= ", r"\ge": " >= ", r"\leq": " <= ", r"\le": " <= ",
               r"\neq": " != ", r"\ne": " != ", r"\_": "_", "$": " ", r"\,": " ", "~": " "}
_COMMENT = _rx(r"\\Comment\b|(?<![\\\d])%")
_QUALIFIED = _rx(r"(?<![\w.])[A-Za-z]\w{0,20}+\.(?=[A-Za-z_])")
_ONE = _rx(r"^\s*+((?i:not)\s++)?([A-Za-z_]\w{0,60}+)\s*+$")


@dataclass
class _Arm:
    condition: str | None  # None: the else arm
    line: int  # the line of \If / \ElsIf / \Else
    steps: list[str] = field(default_factory=list)


@dataclass
class _Block:
    arms: list[_Arm]
    end: int  # the line of \EndIf


def _blocks(lines: list[str]) -> list[_Block]:
    plain_ok = any(_END.match(t) for t in lines) and any(_IF.match(t) for t in lines)
    blocks: list[_Block] = []
    open_: list[list[_Arm]] = []
    for number, raw in enumerate(lines, start=1):
        if not plain_ok:
            break
        text = _COMMENT.split(raw, maxsplit=1)[0]  # `\If{$x$} \Comment{...}`: the comment is not the condition
        if (m := _ELSIF.match(text)) is not None and open_:
            open_[-1].append(_Arm(m.group("tex") or m.group("plain"), number))
        elif (m := _IF.match(text)) is not None:
            open_.append([_Arm(m.group("tex") or m.group("plain"), number)])
        elif _ELSE.match(text) and open_:
            open_[-1].append(_Arm(None, number))
        elif _END.match(text) and open_:
            blocks.append(_Block(open_.pop(), number))
    return blocks


def control_line(text: str) -> bool:
    """`\\If{...}`, `if x > 3 then`, `else`, `end if`: a line of pseudocode that opens or closes a branch."""
    line = _COMMENT.split(text, maxsplit=1)[0]
    return bool(_IF.match(line) or _ELSIF.match(line) or _ELSE.match(line) or _END.match(line))


def condition_text(raw: str) -> str:
    """`$S.\\mathit{regressed}$` -> `regressed is true`; `\\neg x` -> `x is false`; else the plain text."""
    text = raw
    for _ in range(3):
        text = _LATEX_WRAP.sub(r"\1", text)
    for word, plain in sorted(_LATEX_WORD.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(word, plain)
    text = _QUALIFIED.sub("", " ".join(text.split()))
    one = _ONE.match(text)
    if one is not None:
        return f"{one.group(2)} is {'false' if one.group(1) else 'true'}"
    return text


def _line(step: StepSpec) -> int:
    tail = step.where.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0


def pseudocode_branches(steps: list[StepSpec], src: Source) -> list[StepSpec]:
    """The steps with the branches of the pseudocode around them read (module docstring)."""
    if "if" not in src.text.lower():
        return steps
    blocks = _blocks(src.text.splitlines())
    if not blocks:
        return steps
    by_id = {s.id: s for s in steps}
    for block in blocks:
        for position, arm in enumerate(block.arms):
            top = block.arms[position + 1].line if position + 1 < len(block.arms) else block.end
            arm.steps = [s.id for s in steps if arm.line < _line(s) < top]
        if sum(1 for a in block.arms if a.steps) == 0:
            continue
        first_if = block.arms[0].steps[0] if block.arms[0].steps else None
        for arm in block.arms:
            for sid in arm.steps:
                by_id[sid] = _branch(by_id[sid], arm, first_if, src)
        ran = [a.steps[-1] for a in block.arms if a.steps]
        after = next((s for s in steps if _line(s) > block.end), None)
        if after is not None and len(ran) >= 2:
            by_id[after.id] = _join(by_id[after.id], ran, block.end, src)
    return [by_id[s.id] for s in steps]


def _branch(step: StepSpec, arm: _Arm, first_if: str | None, src: Source) -> StepSpec:
    if step.when or step.otherwise_of or step.otherwise_where:
        return step  # said on the step itself
    line = _line(step)
    who = f"{step.id} ({step.name.strip()[:60]})"
    if arm.condition is None:
        if first_if is None or first_if == step.id:
            return step
        src.warn(line, f"{who}: it is under the `else` at line {arm.line}: it runs exactly when the condition of "
                       f"{first_if} was false", "spec.lead-condition")
        reading = Reading(what="otherwise", where=step.where, text=src.line_text(arm.line)[:160],
                          note=f"runs exactly when the condition of {first_if} was false (the `else` at line "
                               f"{arm.line})")
        return step.model_copy(update={"otherwise_where": step.where, "otherwise_of": first_if,
                                       "field_where": {**step.field_where, "when": step.where},
                                       "readings": (*step.readings, reading)})
    condition = condition_text(arm.condition)
    if read_condition(condition) is None:
        src.warn(line, f"{who}: it is under the `if` at line {arm.line}, whose condition '{arm.condition[:80]}' is not "
                       "read, so the step always runs: write it as a comparison of a named value (`x >= 5`)",
                 "spec.condition-not-read")
        return step
    src.warn(line, f"{who}: it is under the `if` at line {arm.line}: it runs only when {condition}",
             "spec.lead-condition")
    reading = Reading(what="when", where=step.where, text=arm.condition[:160],
                      note=f"runs only when {condition} (the `if` at line {arm.line})")
    return step.model_copy(update={"when": condition,
                                   "field_where": {**step.field_where, "when": step.where, "when_title": step.where},
                                   "readings": (*step.readings, reading)})


def _join(step: StepSpec, ran: list[str], end: int, src: Source) -> StepSpec:
    if step.depends_on or step.depends_where is not None or step.when:
        return step
    reading = Reading(what="join", where=step.where, text=src.line_text(end)[:160],
                      note=f"runs once after whichever of {', '.join(ran)} ran (after the `end if` at line {end})")
    return step.model_copy(update={"depends_on": tuple(ran), "depends_where": step.where, "join": "any",
                                   "readings": (*step.readings, reading)})


_rx.save()
