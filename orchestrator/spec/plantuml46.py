"""A spec drawn as a PlantUML activity diagram (`.puml`, or text opening `@startuml`), read field by field into
the YAML form's nodes, as `hcl30` does for HCL.

    :Clerk types in **order_id** and **region**;     → a box before the first step: its bold (or `code`) names
                                                        are the workflow inputs
    :fetch-order(order_id)\\n-> total, lines;         → a step: skill `fetch-order`, its input `order_id` (the
                                                        workflow input), its outputs `total`, `lines`
    fork / fork again / end fork                     → the branches start together; the box after `end fork`
                                                        waits for every branch
    if (big?) then (yes) ... else (no) ... endif     → the `then` branch runs when the earlier step's `big` is
                                                        true, the `else` branch otherwise; the box after `endif`
                                                        waits for whichever ran, and a name both branches output
                                                        is the value of whichever ran
    note right: 2 retries, 10 s apart                → the words of the step whose box is above it (a block
    note left ... end note                              note alike): read for its policies
    legend ... endlegend                             → the whole run's words: its limit and success check

An argument `name = "text"` (or a number) is a literal; `name from the X` or `name (gloss)` is `name`, taken from
the latest earlier box that outputs it (else the workflow input of that name, warned when no box declared it).
`title` is the workflow's name; `'` and `/' ... '/` comments, `start`, `stop`, `end`, `skinparam`, swimlanes
`|Lane|`, `partition`/`group` and arrow labels are layout. An `elseif (c) then (yes)` branch runs when `c` holds
and no condition before it did. `while`/`repeat` loops are warned as not read, as is any other line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from yaml.nodes import MappingNode, Node, SequenceNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.hcl30 import _TAG, _mark, _s
from orchestrator.spec.rakefile42 import split_arguments
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

SUFFIXES = (".puml", ".plantuml", ".pu", ".iuml", ".wsd")
_START = _rx(r"^\s*+@startuml\b")
_CALL = _rx(r"^([A-Za-z][\w.-]*+)[ \t]*+\((.*)\)[ \t]*+$")
_OUTS = _rx(r"^(.*?)(?:\\n|\n|\s)*+(?:->|=>|→)[ \t]*+([\w ,]*+)$")
_NAME = _rx(r"^([A-Za-z_][\w]*+)")
_LIT = _rx(r"""^([A-Za-z_]\w*+)[ \t]*+[=:][ \t]*+("[^"]*+"|'[^']*+'|-?\d++(?:\.\d++)?|true|false)$""")
_BOLD = _rx(r"\*\*([A-Za-z_]\w*+)\*\*|`([A-Za-z_]\w*+)`")
_IF = _rx(r"^if[ \t]*+\((.*)\)[ \t]*+(?:is[ \t]*+\((.*?)\)[ \t]*+)?then(?:[ \t]*+\((.*)\))?[ \t]*+$")
_ELSE = _rx(r"^else(?:[ \t]*+\((.*)\))?[ \t]*+$")
_COND = _rx(r"^([A-Za-z_]\w*+)[ \t]*+\??+$")
_CMP = _rx(r"^([A-Za-z_]\w*+)[ \t]*+(==|!=|>=|<=|>|<)[ \t]*+(-?\d++(?:\.\d++)?|true|false|\"[^\"]*+\")$")
_NOTE1 = _rx(r"^note[ \t]++(?:left|right|top|bottom)[ \t]*+:[ \t]*+(.*)$")
_NOTE = _rx(r"^(?:floating[ \t]++)?note[ \t]++(?:left|right|top|bottom)[ \t]*+$")
_LAYOUT = _rx(r"^(?:start|stop|end|kill|detach|skinparam\b.*|\|.*\|.*|partition\b.*|group\b.*|end[ \t]*+group|"
              r"\}|->.*|hide\b.*|scale\b.*|!.*|header\b.*|footer\b.*|caption\b.*)$")
_YES = frozenset({"yes", "y", "true", "ok", "yep", "correct"})
_NO = frozenset({"no", "n", "false", "nope"})


def is_plantuml(path: str, text: str) -> bool:
    """Whether the file's name says PlantUML, or its text opens with `@startuml`."""
    return Path(path).suffix.lower() in SUFFIXES or _START.match(text) is not None


@dataclass
class _Step:
    sid: str
    skill: str
    line: int
    args: str
    outputs: list[str]
    deps: list[str] = field(default_factory=list)
    join_any: bool = False
    when: str | None = None
    otherwise: str | None = None
    notes: list[tuple[int, str]] = field(default_factory=list)
    bound: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, tag


@dataclass
class _Frame:
    kind: str  # fork, if
    before: list[str]  # the ends the block started after
    branch_ends: list[list[str]] = field(default_factory=list)
    branch_steps: list[list[str]] = field(default_factory=list)
    conds: list[str | None] = field(default_factory=list)  # the `if`'s and each `elseif`'s, as the form writes them
    then_first: str | None = None

    def now(self) -> str | None:
        """The condition of the branch being read: its own after the negation of each one before it (an `else`:
        each one's negation); None when one of them is not read."""
        k = len(self.branch_steps) - 1
        if any(c is None for c in self.conds[: k + 1]):
            return None
        parts = [f"not ({c})" for c in self.conds[:k]]
        return " and ".join([*parts, *(c for c in self.conds[k:k + 1] if c is not None)])


def _clean(text: str) -> str:
    return text.replace("**", "").replace("//", "").replace('""', "").replace("__", "")


class _Reader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.steps: list[_Step] = []
        self.by_id: dict[str, _Step] = {}
        self.inputs: dict[str, int] = {}
        self.ends: list[str] = []  # the steps the next box waits for
        self.join_any = False
        self.stack: list[_Frame] = []
        self.last: _Step | None = None  # the box a note attaches to
        self.title: tuple[int, str] | None = None
        self.legend: list[tuple[int, str]] = []
        self.outputs_in: dict[str, list[str]] = {}  # output name -> step ids giving it, in order

    def boxes(self) -> list[tuple[int, str]]:
        """The diagram's statements, each with its line: an activity box `:...;` spanning lines is one."""
        out: list[tuple[int, str]] = []
        lines = self.src.lines
        i = 0
        while i < len(lines):
            raw = lines[i].strip()
            if raw.startswith("/'"):
                while i < len(lines) and "'/" not in lines[i]:
                    i += 1
                i += 1
                continue
            if raw.startswith(":"):
                start, body = i + 1, raw[1:]
                while body.rstrip()[-1:] not in (";", "]", "|", "<", ">", "/", "}") and i + 1 < len(lines):
                    i += 1
                    body += "\n" + lines[i].strip()
                out.append((start, body.rstrip()[:-1]))
            elif raw and not raw.startswith("'"):
                out.append((i + 1, raw))
            i += 1
        return out

    def read(self) -> MappingNode:
        items = self.boxes()
        k = 0
        while k < len(items):
            line, text = items[k]
            low = text.lower()
            if line and self.src.lines[line - 1].lstrip().startswith(":"):
                self.box(line, text)
            elif low.startswith("@startuml") or low.startswith("@enduml") or _LAYOUT.match(low):
                pass
            elif low.startswith("title "):
                self.title = (line, text[6:].strip())
            elif low == "fork" or low == "split":
                self.stack.append(_Frame("fork", list(self.ends), branch_steps=[[]]))
            elif low in ("fork again", "split again"):
                self.next_branch("fork", line, text)
            elif low.startswith("end fork") or low.startswith("end merge") or low == "end split":
                self.close("fork", line, text)
            elif (m := _IF.match(text)) is not None:
                self.open_if(line, m.group(1), m.group(2), m.group(3))
            elif low.startswith("elseif") and (m := _IF.match("if" + text[6:])) is not None:
                self.open_if(line, m.group(1), m.group(2), m.group(3), also=True)
            elif (m := _ELSE.match(text)) is not None and low.startswith("else"):
                self.next_branch("if", line, text, m.group(1))
            elif low == "endif" or low == "end if":
                self.close("if", line, text)
            elif (m := _NOTE1.match(text)) is not None:
                self.note(line, [(line, m.group(1))])
            elif _NOTE.match(low) is not None:
                body: list[tuple[int, str]] = []
                k += 1
                while k < len(items) and items[k][1].lower() not in ("end note", "endnote"):
                    body.append(items[k])
                    k += 1
                self.note(line, body)
            elif low.startswith("legend"):
                k += 1
                while k < len(items) and items[k][1].lower() not in ("endlegend", "end legend"):
                    self.legend.append(items[k])
                    k += 1
            else:
                what = "a loop" if low.startswith(("while", "repeat", "endwhile", "backward")) else (
                    "this line")
                self.src.warn(line, f"PlantUML: {what} ('{text[:60]}') is not read: the plan does not follow it",
                              "spec.unread")
            k += 1
        if self.stack:
            self.src.warn(items[-1][0] if items else 1, f"PlantUML: a `{self.stack[-1].kind}` is not closed",
                          "spec.unread")
        return self.node()

    # -- boxes ---------------------------------------------------------------------------

    def box(self, line: int, text: str) -> None:
        body = _clean(text).replace("\\n", "\n").strip()
        outs: list[str] = []
        m = _OUTS.match(body)
        if m is not None:
            body, outs = m.group(1).strip(), [o.strip() for o in m.group(2).split(",") if o.strip()]
        call = _CALL.match(body)
        skills = self.src.vocabulary.skills
        if call is None or (skills and call.group(1) not in skills):
            if not self.steps:  # before the first step: its bold or `code` names are the run's inputs
                for b in _BOLD.finditer(text):
                    self.inputs.setdefault(b.group(1) or b.group(2), line)
            self.last = None
            if call is None and not self.steps and _BOLD.search(text):
                return
            self.src.warn(line, f"PlantUML: the box '{body[:60]}' names no skill as `skill(args)`: not a step",
                          "spec.unread")
            return
        sid = call.group(1)
        n = 2
        while sid in self.by_id:
            sid, n = f"{call.group(1)}-{n}", n + 1
        step = _Step(sid, call.group(1), line, call.group(2), outs, deps=list(self.ends), join_any=self.join_any)
        ifs = [f for f in self.stack if f.kind == "if"]
        inside = {x for b in ifs[-1].branch_steps[-1:] for x in b} if ifs else set()
        if ifs and not inside & set(step.deps):  # the first box of its branch: the branch's conditions
            frame, outer = ifs[-1], [c for f in ifs[:-1] if (c := f.now()) is not None]
            if len(frame.branch_steps) == 1 and frame.then_first is None:
                frame.then_first = sid
            if frame.now() is None:
                step.when = " and ".join(outer) or None
            elif len(frame.conds) == 1 and len(frame.branch_steps) > 1 and frame.then_first is not None and not outer:
                step.otherwise = frame.then_first  # the else branch: runs exactly when the `then` did not
            else:
                step.when = " and ".join([*outer, frame.now() or ""])
        for f in self.stack:
            f.branch_steps[-1].append(sid)
        self.steps.append(step)
        self.by_id[sid] = step
        self.ends, self.join_any, self.last = [sid], False, step

    def open_if(self, line: int, cond: str, equals: str | None, label: str | None, *, also: bool = False) -> None:
        """An `if` (or, `also`, an `elseif` of the `if` being read: a branch of its own)."""
        if also:
            if not self.stack or self.stack[-1].kind != "if" or len(self.stack[-1].conds) < len(
                    self.stack[-1].branch_steps):
                self.src.warn(line, f"PlantUML: 'elseif ({cond})' stands outside an `if` (or after its `else`): "
                                    "not read", "spec.unread")
                return
            self.next_branch("if", line, "elseif")
            frame = self.stack[-1]
        else:
            frame = _Frame("if", list(self.ends), branch_steps=[[]])
        said = cond.strip()
        if equals is not None:  # `if (status) is (approved) then`
            said = f'{said} == "{equals.strip()}"'
        ref = self.condition(said, (label or "yes").strip().lower())
        if ref is None:
            self.src.warn(line, f"PlantUML: the condition '({cond})' is not read as a comparison of an earlier "
                                "box's output: the branch runs on every run", "spec.condition")
        frame.conds.append(ref)
        if not also:
            self.stack.append(frame)
        self.last = None

    def condition(self, said: str, label: str) -> str | None:
        m = _COND.match(said)
        if m is not None and label in _YES | _NO:
            ref = self.ref(m.group(1))
            return None if ref is None else f"{ref} == {'true' if label in _YES else 'false'}"
        c = _CMP.match(said)
        if c is not None and label in _YES and (ref := self.ref(c.group(1))) is not None:
            return f"{ref} {c.group(2)} {c.group(3)}"
        return None

    def ref(self, name: str) -> str | None:
        giving = [s for s in self.steps if name in s.outputs]
        if giving:
            return f"steps.{giving[-1].sid}.output.{name}"
        return f"inputs.{name}" if name in self.inputs else None

    def next_branch(self, kind: str, line: int, text: str, label: str | None = None) -> None:
        if not self.stack or self.stack[-1].kind != kind:
            self.src.warn(line, f"PlantUML: '{text}' stands outside a `{kind}`: not read", "spec.unread")
            return
        frame = self.stack[-1]
        frame.branch_ends.append(list(self.ends))
        frame.branch_steps.append([])
        self.ends = list(frame.before)
        self.last = None
        if kind == "if" and label is not None and label.strip().lower() not in _NO | _YES:
            self.src.warn(line, f"PlantUML: the branch label '({label})' is read as the `else` of the `if` above it",
                          "spec.read")

    def close(self, kind: str, line: int, text: str) -> None:
        if not self.stack or self.stack[-1].kind != kind:
            self.src.warn(line, f"PlantUML: '{text}' closes no `{kind}`: not read", "spec.unread")
            return
        frame = self.stack.pop()
        frame.branch_ends.append(list(self.ends))
        ends: list[str] = []
        for b in frame.branch_ends:
            ends.extend(x for x in b if x not in ends)
        if kind == "if" and len(frame.branch_ends) == 1:
            ends.extend(x for x in frame.before if x not in ends)  # no else: the box after may follow the if's
        self.ends = ends
        self.join_any = kind == "if" and len(ends) > 1
        self.last = None

    def note(self, line: int, body: list[tuple[int, str]]) -> None:
        if self.last is None:
            self.src.warn(line, "PlantUML: a note not beside a step's box is not read", "spec.unread")
            return
        self.last.notes.extend((ln, _clean(t)) for ln, t in body if t.strip())

    # -- the form's nodes ------------------------------------------------------------------

    def binding(self, step: _Step, arg: str) -> list[tuple[str, str, str]]:
        """One argument: (name, value, tag) for each name it gives the skill."""
        arg = arg.strip()
        lit = _LIT.match(arg)
        if lit is not None:
            value = lit.group(2)
            tag = "str" if value[0] in "\"'" else "bool" if value in ("true", "false") else (
                "float" if "." in value else "int")
            return [(lit.group(1), value.strip("\"'") if tag == "str" else value, tag)]
        names = list(dict.fromkeys(m.group(1) for part in re.split(r"\+|&|\band\b", arg)
                                   if (m := _NAME.match(part.strip())) is not None))
        if not names:
            self.src.warn(step.line, f"{step.sid}: the argument '{arg[:40]}' names no value: not read", "spec.unread")
        out = []
        before = self.steps[: self.steps.index(step)]
        for name in names:
            giving = [s for s in before if name in s.outputs]
            last = giving[-1] if giving else None
            choice = [s for s in giving if s.sid in step.deps] if step.join_any else []
            if len(choice) > 1:
                parts = " || ".join(f"steps.{s.sid}.output.{name}" for s in choice)
                out.append((name, "${{ " + parts + " }}", "str"))
            elif last is not None:
                out.append((name, f"steps.{last.sid}.output.{name}", "str"))
            else:
                if name not in self.inputs:
                    self.src.warn(step.line, f"{step.sid}: `{name}` is given by no earlier box: read as the "
                                             "workflow input of that name", "spec.read")
                    self.inputs[name] = step.line
                out.append((name, f"inputs.{name}", "str"))
        return out

    def node(self) -> MappingNode:
        p = self.src.path
        if not self.steps:
            self.src.error(1, "this PlantUML diagram is not read as a workflow: no activity box names a skill as "
                              "`:skill(args);`", "spec.no-steps")
            self.src.raise_if_errors()
        items: list[tuple[Node, Node]] = []
        if self.title is not None:
            items.append((_s(p, "name", self.title[0], 0), _s(p, self.title[1], self.title[0], 6)))
        for s in self.steps:
            s.bound = [(n, v, t) for a in split_arguments(s.args) for n, v, t in self.binding(s, a)]
        if self.inputs:
            first = min(self.inputs.values())
            pairs = [(_s(p, n, ln, 0), MappingNode(f"{_TAG}map", [], _mark(p, ln, 0), _mark(p, ln, 0)))
                     for n, ln in self.inputs.items()]
            items.append((_s(p, "inputs", first, 0), MappingNode(f"{_TAG}map", pairs, _mark(p, first, 0),
                                                                   _mark(p, first, 0))))
        nodes = [self.step_node(s) for s in self.steps]
        first_line = self.steps[0].line
        items.append((_s(p, "steps", first_line, 0),
                      SequenceNode(f"{_TAG}seq", nodes, _mark(p, first_line, 0), _mark(p, first_line, 0))))
        m = _mark(p, 1, 0)
        return MappingNode(f"{_TAG}map", items, m, m)

    def step_node(self, s: _Step) -> MappingNode:
        p, ln = self.src.path, s.line
        items: list[tuple[Node, Node]] = [(_s(p, "id", ln, 2), _s(p, s.sid, ln, 2)),
                                         (_s(p, "skill", ln, 2), _s(p, s.skill, ln, 2))]
        if s.deps or s is not self.steps[0]:  # none: a fork's branches start together, not in step order
            seq = SequenceNode(f"{_TAG}seq", [_s(p, d, ln, 2) for d in s.deps], _mark(p, ln, 2), _mark(p, ln, 2))
            if s.join_any and len(s.deps) > 1:
                items.append((_s(p, "depends_on", ln, 2), MappingNode(
                    f"{_TAG}map", [(_s(p, "any", ln, 2), seq)], _mark(p, ln, 2), _mark(p, ln, 2))))
            else:
                items.append((_s(p, "depends_on", ln, 2), seq))
        if s.when is not None:
            items.append((_s(p, "when", ln, 2), _s(p, s.when, ln, 2)))
        if s.otherwise is not None:
            items.append((_s(p, "otherwise", ln, 2), _s(p, s.otherwise, ln, 2)))
        if s.bound:
            pairs = [(_s(p, n, ln, 2), _s(p, v, ln, 2, t)) for n, v, t in s.bound]
            items.append((_s(p, "input", ln, 2), MappingNode(f"{_TAG}map", pairs, _mark(p, ln, 2), _mark(p, ln, 2))))
        if s.notes:
            at = s.notes[0][0]
            items.append((_s(p, "notes", at, 2), _s(p, "\n".join(t for _l, t in s.notes), at, 2)))
        return MappingNode(f"{_TAG}map", items, _mark(p, ln, 2), _mark(p, ln, 2))


def read_plantuml(src: Source) -> SpecParts:
    """Read a PlantUML activity diagram (module docstring); one with no step box is refused at line 1."""
    from orchestrator.spec.run_limit import read_run_limit
    from orchestrator.spec.yaml_form import read_yaml

    reader = _Reader(src)
    root = reader.read()
    for line, text in reader.legend:  # the legend speaks for the whole run
        read_run_limit(_clean(text), line, src, who="whole run")
    return read_yaml(src, root)


_rx.save()
