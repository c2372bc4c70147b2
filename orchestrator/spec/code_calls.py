"""A spec written as code: a Python, JavaScript or TypeScript module whose steps are a list of calls
or objects with keyword fields, read field by field by the YAML form's readers.

    REQUEST = None        # filled in per run          -> a workflow input `request` (None / null / undefined)
    BIG_EVENT = 150                                    -> a constant, put in where a condition names it
    STEPS = [                                          -> the steps (a list of `dict(...)` / `{...}` / `Step(...)`)
        dict(key="intake", skill="permit-intake",
             takes={"request": REQUEST},               -> `REQUEST`: the input; `"REQUEST['date']"`: its field date
             # 20 sec max then call it a failure       -> a comment inside a call's parentheses: that step's text
             ),
        dict(key="big", skill="large-review",
             when="intake.attendees > BIG_EVENT"),     -> the step's condition (150 put in for BIG_EVENT)
        dict(key="easy", skill="standard", when="else"),   -> the otherwise of the condition before
    ]
    export const steps = [{ id: "fetch", skill: "fetch-rows", condition: "..." }];   (JS / TS the same)

The module is read, never run (`code_literal`). Its assignments become the document the YAML form
reads (`read_yaml(src, root)`, as `toml_form` does): the list of steps under `steps`, every field a
key at its own line, so that `when=`/`condition=`, `after=`, `takes=`/`args=`, `for_each=` and the
policy keys are read by the same vocabulary as a YAML spec, and a field no table knows is a warning
at its line. A name or a string that is a reference (`intake.attendees`, `wx.risk`, `REQUEST['date']`)
becomes the form's reference to that step's output or that input's field. Comments inside a call's
brackets, or right above it, are its text, read sentence by sentence by the policy readers; comments
before the steps are the title and the intent. A constant no step uses, a statement that is no
assignment and an expression that is no value are each a warning at their line.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec import yaml_keys as yk
from orchestrator.spec.check import SpecParts
from orchestrator.spec.code_literal import Lit, LiteralError, Tok, parse_module
from orchestrator.spec.js_config50 import any_join, exclusive_branches
from orchestrator.spec.model import Reading, SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE_SUFFIXES = {".py": "py", ".js": "js", ".mjs": "js", ".cjs": "js", ".ts": "js", ".mts": "js", ".cts": "js",
                 ".jsx": "js", ".tsx": "js"}
_TAG = "tag:yaml.org,2002:"
# `intake.attendees`, `REQUEST['date']`, `wx?.risk`, `steps.fetch.rows` (a name, then fields)
_REF = _rx(r"^(?P<head>[A-Za-z_$][\w$]*+)(?P<tail>(?:\??\.[A-Za-z_$][\w$]*+|\[['\"][^'\"\]]{1,60}+['\"]\])*+)$")
_FIELD = _rx(r"\??\.(?P<a>[A-Za-z_$][\w$]*+)|\[['\"](?P<b>[^'\"\]]{1,60}+)['\"]\]")
_WORD = _rx(r"(?<![\w.$'\"])(?P<name>[A-Za-z_$][\w$]*+)(?![\w$'\"(])")
# `bigdesk|easy .decision`: a field of whichever of the steps ran
_EITHER = _rx(r"^(?P<steps>[\w-]++(?:\s*+\|\s*+[\w-]++)++)\s*+\.\s*+(?P<field>[A-Za-z_]\w*+)$|^[\w.-]++(?:\s*+\|\s*+[\w.-]++)++$")
_STEP_KEYS = ("skill", "agent")
_SKILL_WORDS = frozenset({"skill", "script", "uses", "tool", "agent", "action", "run_skill", "skill_name"})
_STEP_FIELD = re.compile(r"(?<![\w.])[A-Za-z_][\w-]*+(?:\.[A-Za-z_]\w*+)++")  # `card.published`
_STRICT = re.compile(r"([!=])==")  # JS's `===` / `!==`
_TOP_WORDS = frozenset({"name", "title", "description", "intent", "timeout", "retry", "limits", "success", "version"})


def _run_key(name: str) -> bool:
    """A name of more than one word that the YAML form knows as the run's success check or whole-run limit
    (`doneWhen`, `success_if`, `maxRunTime`, `timeLimit`); a one-word constant (`LIMIT`, `DEADLINE`) stays a
    constant the steps may use."""
    return "_" in yk.key_name(name) and yk.top_key(name) in ("success", "timeout")


def code_language(path: str) -> str | None:
    """"py" or "js" for a code file by its suffix, else None."""
    return CODE_SUFFIXES.get(PurePath(path).suffix.lower())


def _mark(path: str, line: int) -> Mark:
    return Mark(path, 0, max(line, 1) - 1, 0, None, None)


def _is_step(item: Lit) -> bool:
    return item.kind == "map" and any(k.lower() in _SKILL_WORDS or yk.step_key(k) in _STEP_KEYS
                                      for k, _, _ in item.pairs)


def _steps_of(value: Lit, name: str) -> bool:
    """A list whose items are calls or objects, one naming a skill (or under a name that says steps)."""
    if value.kind != "seq" or not value.items or not all(i.kind in ("map", "ref", "expr") for i in value.items):
        return False
    maps = [i for i in value.items if i.kind == "map"]
    return bool(maps) and (any(_is_step(i) for i in maps) or yk.top_key(name.lower()) in ("steps", "pipeline"))


class _Module:
    def __init__(self, src: Source, assigned: list[tuple[str, int, Lit]], *, keep_case: bool = False) -> None:
        self.src = src
        self.keep_case = keep_case  # a .env's KEY= is the variable's own name; a module's REQUEST = None is `request`
        self.inputs: dict[str, tuple[int, str]] = {}  # name as written -> (line, input name)
        self.constants: dict[str, tuple[int, object]] = {}
        self.used: set[str] = set()
        self.top: list[tuple[str, int, Lit]] = []
        self.steps: Lit | None = None
        self.steps_line = 1
        self.ids: set[str] = set()
        self.assigned: dict[str, Lit] = {}
        self.notes: list[Reading] = []  # how a reference, a constant or an input was read: shown on its step
        for name, line, value in assigned:
            if name == "default" and value.kind == "map":
                for key, kline, inner in value.pairs:
                    self._assign(key, kline, inner)
            else:
                self._assign(name, line, value)
        listed: list[Lit] = self.steps.items if self.steps is not None else []
        for item in listed:
            for key, _, inner in item.pairs:
                if yk.step_key(key) in ("id", "name") and inner.kind == "str" and isinstance(inner.value, str):
                    self.ids.add(inner.value)
        self.branches = exclusive_branches(listed)

    def _assign(self, name: str, line: int, value: Lit) -> None:
        if value.kind == "ref" and value.value in self.assigned:  # `module.exports = { steps }`: a name set above
            value = self.assigned[str(value.value)]
            if value is self.steps:
                return
        self.assigned[name] = value
        if self.steps is None and _steps_of(value, name):
            self.steps, self.steps_line = value, line
        elif value.kind == "null":
            self.inputs[name] = (line, name if self.keep_case else name.lower())
        elif value.kind in ("str", "num", "bool") and name.lower() not in _TOP_WORDS and not _run_key(name):
            self.constants[name] = (line, value.value)
        else:  # `doneWhen`, `maxRunTime`, `time_limit`: the run's check and limit under any key spelling
            self.top.append((yk.top_key(name) if _run_key(name) else name.lower(), line, value))

    # -- references ------------------------------------------------------------------------
    def reference(self, text: str) -> tuple[str | None, object]:
        """(what it is, its value): ("input", "{{ inputs.x.f }}"), ("step", "{{ steps.s.output.f }}"),
        ("constant", value), or (None, text) when the text names nothing of the module."""
        m = _REF.match(text.strip())
        if m is None:
            return None, text
        head = m.group("head")
        fields = [f.group("a") or f.group("b") for f in _FIELD.finditer(m.group("tail"))]
        if head in self.constants and not fields:
            self.used.add(head)
            return "constant", self.constants[head][1]
        if head in self.inputs:
            self.used.add(head)
            return "input", "{{ inputs." + ".".join([self.inputs[head][1], *fields]) + " }}"
        if head in self.ids and fields:
            return "step", "{{ steps." + head + ".output." + ".".join(fields) + " }}"
        return None, text

    def alternatives(self, text: str) -> list[str]:
        """`"bigdesk|easy"` in a step's `after=`: each of the steps (whichever ran), else []."""
        names = [n.strip() for n in text.split("|")]
        return names if len(names) > 1 and all(n in self.ids for n in names) else []

    def either(self, text: str) -> str:
        """`"bigdesk|easy .decision"` / `"bigdesk.fee|easy.fee"`: the value of whichever step ran, in the
        words the either-input reader reads (`bigdesk.decision or easy.decision`), else ""."""
        text = text.replace("||", "|")  # `power.routes || tech.routes` (JS): the same
        m = _EITHER.match(text.strip())
        if m is None:
            return ""
        names = self.alternatives(m.group("steps") or "")
        if names:
            return " or ".join(f"{n}.{m.group('field')}" for n in names)
        parts = [p.strip() for p in text.split("|")]
        refs = [_REF.match(p) for p in parts]
        if len(parts) > 1 and all(r is not None and r.group("head") in self.ids and r.group("tail") for r in refs):
            return " or ".join(parts)
        return ""

    def condition(self, text: str, line: int) -> str:
        """A condition's text with the module's constants put in (`> BIG_EVENT` -> `> 150`)."""
        def put(m: re.Match[str]) -> str:
            name = m.group("name")
            if name in self.constants:
                self.used.add(name)
                value = self.constants[name][1]
                self.notes.append(Reading(what="condition", where=self.src.where(line), text=text[:160],
                                                 note=f"`{name}` is the constant {value!r} "
                                                      f"(line {self.constants[name][0]})"))
                return repr(value) if isinstance(value, str) else str(value)
            return name
        return _WORD.sub(put, text)

    def check(self, text: str) -> str:
        """A success check's text with `ID.field` of a step of the module written `steps.ID.output.field` and JS's
        `===` / `!==` as `==` / `!=` (`card.published === true`: the card step's output `published`)."""
        def put(m: re.Match[str]) -> str:
            kind, said = self.reference(m.group(0))
            return said.strip("{} ") if kind == "step" and isinstance(said, str) else m.group(0)
        return _STEP_FIELD.sub(put, _STRICT.sub(lambda m: m.group(1) + "=", text))

    # -- nodes -----------------------------------------------------------------------------
    def node(self, value: Lit, key: str = "") -> Node:
        mark = _mark(self.src.path, value.line)
        canonical = yk.step_key(key) if key else ""
        if value.kind == "map":
            items: list[tuple[Node, Node]] = []
            positional = [v for k, _, v in value.pairs if not k]
            named = {k for k, _, _ in value.pairs if k}
            for k, kline, inner in value.pairs:
                if not k:
                    continue
                if k in ("**", "..."):
                    self.src.warn(kline, f"'{k}{inner.value}' spreads other fields into this one; they are not read",
                                  "spec.unread")
                    continue
                kmark = _mark(self.src.path, kline)
                items.append((ScalarNode(f"{_TAG}str", k, kmark, kmark, style='"'), self.node(inner, k)))
            if positional and positional[0].kind == "str" and "name" not in named and "id" not in named:
                items.insert(0, (ScalarNode(f"{_TAG}str", "name", mark, mark, style='"'), self.node(positional[0])))
                positional = positional[1:]
            for extra in positional:
                self.src.warn(extra.line, f"the value '{str(extra.value)[:60]}' is given without a field name in "
                                          f"`{value.call or 'the call'}(...)`, so it is not read (write `name=value`)",
                              "spec.unread")
            return MappingNode(f"{_TAG}map", items, mark, mark)
        if value.kind == "seq" and canonical == "depends_on" and (either := any_join(value, self.branches, self.src.path)):
            return either  # `after: ['power', 'tech']`, one the otherwise of the other: whichever ran
        if value.kind == "seq":
            nodes = [self.node(i, key) for i in value.items]
            flat = [n for node in nodes for n in (node.value if isinstance(node, SequenceNode) and canonical == "depends_on"
                                                  else [node])]
            return SequenceNode(f"{_TAG}seq", flat, mark, mark)
        if value.kind == "bool":
            return ScalarNode(f"{_TAG}bool", "true" if value.value else "false", mark, mark)
        if value.kind == "null":
            return ScalarNode(f"{_TAG}null", "null", mark, mark)
        if value.kind == "num":
            tag = "int" if isinstance(value.value, int) else "float" if isinstance(value.value, float) else "str"
            return ScalarNode(f"{_TAG}{tag}", str(value.value), mark, mark)
        text = str(value.value)
        if canonical == "when":
            return self._scalar(self.condition(text, value.line), mark)
        if canonical == "success" and value.kind == "str":  # `doneWhen: 'card.published === true'`
            return self._scalar(self.check(text), mark)
        if value.kind == "str" and canonical == "depends_on" and (names := self.alternatives(text)):
            return SequenceNode(f"{_TAG}seq", [self._scalar(n, mark) for n in names], mark, mark)
        if value.kind == "str" and (either := self.either(text)):
            return self._scalar(either, mark)
        if value.kind == "str":
            kind, said = self.reference(text) if canonical not in ("id", "name", "skill", "description") else (None, text)
            if kind is not None:
                self.notes.append(Reading(what="input", where=self.src.where(value.line), text=text[:160],
                                                 note=f"a reference in the code: {said}"))
            return self._plain(said, mark)
        kind, said = self.reference(text)
        if kind is None and value.kind == "ref":
            self.src.warn(value.line, f"the name `{text[:60]}` is not set in this file, so its value is not known: "
                                      "it is read as the text itself", "spec.unread")
        elif kind is None:
            self.src.warn(value.line, f"the expression `{text[:60]}` is code, not a value: it is not worked out, "
                                      "and is read as its text", "spec.unread")
        return self._plain(said, mark)

    def _plain(self, value: object, mark: Mark) -> Node:
        if isinstance(value, bool):
            return ScalarNode(f"{_TAG}bool", "true" if value else "false", mark, mark)
        if isinstance(value, int | float):
            return ScalarNode(f"{_TAG}{'int' if isinstance(value, int) else 'float'}", str(value), mark, mark)
        return self._scalar(str(value), mark)

    @staticmethod
    def _scalar(text: str, mark: Mark) -> ScalarNode:
        return ScalarNode(f"{_TAG}str", text, mark, mark, style='"')


def read_code_calls(src: Source, language: str) -> SpecParts | None:
    """The parts of a spec written as code (module docstring), or None when the module holds no list
    of steps (a script runbook then, `spec.script_runbook`, or text). A value that cannot be read is
    an error at its line."""

    try:
        comments, parser = parse_module(src.text, language)
    except LiteralError as exc:
        if not re.search(r"(?im)^[ \t]*+(?:export[ \t]++)?(?:const[ \t]++|let[ \t]++|var[ \t]++)?steps\b", src.text):
            return None
        src.error(exc.line, f"the code cannot be read here: {exc}", "spec.code")
        src.raise_if_errors()
        raise
    return read_assigned(src, comments, parser.assigned, parser.skipped)


def read_assigned(src: Source, comments: list[Tok], assigned: list[tuple[str, int, Lit]],
                  skipped: list[tuple[int, str]], *, keep_case: bool = False) -> SpecParts | None:
    """The parts of a module's assignments (`STEPS = [...]`, its constants and inputs) and comments, read by the
    YAML form's readers; None when no assignment is a list of steps. Also what `spec.dotenv42` builds."""
    from orchestrator.spec.yaml_form import read_yaml

    module = _Module(src, assigned, keep_case=keep_case)
    if module.steps is None:
        return None
    for line, said in skipped:
        src.warn(line, f"the code '{said[:60]}' is not a value this file sets, so it is not read (only the module's "
                       "assignments are: the list of steps, its constants and inputs)", "spec.unread")
    steps_lit = module.steps
    prose = [""] * len(src.lines)
    for tok in comments:
        if 0 < tok.line <= len(prose):
            prose[tok.line - 1] = tok.text
    texts, header, after = _comment_owners(comments, steps_lit, module)
    items: list[tuple[Node, Node]] = []
    for name, line, value in module.top:
        mark = _mark(src.path, line)
        items.append((ScalarNode(f"{_TAG}str", name, mark, mark, style='"'), module.node(value, name)))
    steps_mark = _mark(src.path, module.steps_line)
    items.append((ScalarNode(f"{_TAG}str", "steps", steps_mark, steps_mark, style='"'), module.node(steps_lit, "steps")))
    if module.inputs and not any(yk.top_key(n) == "inputs" for n, _, _ in module.top):
        inputs: list[tuple[Node, Node]] = []
        for written, (line, name) in module.inputs.items():
            mark = _mark(src.path, line)
            said = next((t.text for t in comments if t.line == line), "")
            spec = [(ScalarNode(f"{_TAG}str", "description", mark, mark), ScalarNode(f"{_TAG}str", said, mark, mark))] \
                if said else []
            inputs.append((ScalarNode(f"{_TAG}str", name, mark, mark), MappingNode(f"{_TAG}map", spec, mark, mark)))
            module.notes.append(Reading(what="input", where=src.where(line), text=f"{written} = None",
                                        note=f"a name the module leaves unset, given per run: the input `{name}`"))
        first = _mark(src.path, min(line for line, _ in module.inputs.values()))
        items.insert(0, (ScalarNode(f"{_TAG}str", "inputs", first, first), MappingNode(f"{_TAG}map", inputs, first, first)))
    for name, (line, constant) in module.constants.items():
        if name not in module.used:
            src.warn(line, f"the constant {name} = {constant!r} is used by no step, so it is not read", "spec.unread")
    src.text = "\n".join(prose)  # what the later readers see: the comments, each at its line
    src.lines = list(prose)
    root = MappingNode(f"{_TAG}map", items, _mark(src.path, 1), _mark(src.path, 1))
    parts = read_yaml(src, root)
    steps: list[StepSpec] = []
    bounds = [(item.line, item.end_line) for item in steps_lit.items]
    for step in parts.steps:
        at = step.where.rsplit(":", 1)[-1]
        start = int(at) if at.isdigit() else 0
        own = texts.get(start, [])
        end = next((e for s, e in bounds if s == start), start)
        notes = [n for n in module.notes if start <= int(n.where.rsplit(":", 1)[-1]) <= end] if start else []
        if not steps:  # the inputs' readings: with the first step
            notes = [*(n for n in module.notes if int(n.where.rsplit(":", 1)[-1]) < steps_lit.line), *notes]
        step = step.model_copy(update={"texts": (*step.texts, *own), "readings": (*notes, *step.readings)})
        steps.append(step)
    title = header[0][1] if header else parts.title
    intent = "\n".join(t for _, t in header[1:] if t) if header else parts.intent
    for line, text in header:  # "the whole thing gets 10 minutes": the run's limit, said before the steps
        read_run_limit(text, line, src, who="whole run")
    for line, text in after:
        src.warn(line, f"the comment '{text[:60]}' comes after the last step, so it is not read", "spec.unread")
    return parts.model_copy(update={"steps": tuple(steps), "title": parts.title or title,
                                    "intent": parts.intent or intent})


def _comment_owners(comments: list[Tok], steps: Lit, module: _Module) -> tuple[
        dict[int, list[SpecText]], list[tuple[int, str]], list[tuple[int, str]]]:
    """Each step item's comments (inside its brackets, or between the item before and it), the header
    (before the list, not on an input's or constant's line) and those after the last step."""
    owned: dict[int, list[SpecText]] = {}
    header: list[tuple[int, str]] = []
    after: list[tuple[int, str]] = []
    taken = {line for line, _ in module.inputs.values()} | {line for line, _ in module.constants.values()}
    bounds = [(item.line, item.end_line) for item in steps.items]
    for tok in comments:
        if not tok.text:
            continue
        if tok.line < steps.line:
            if tok.line not in taken:
                header.append((tok.line, tok.text))
            continue
        owner = next((n for n, (start, end) in enumerate(bounds) if tok.line <= end), None)
        if owner is None:
            if tok.line <= steps.end_line:
                after.append((tok.line, tok.text))
            continue
        texts = owned.setdefault(owner, [])
        last = texts[-1] if texts else None
        if last is not None and tok.line == last.line + last.text.count("\n") + 1 and last.text.rstrip().endswith(
                (",", "-", "and", "or", "then", "but")):
            texts[-1] = last.model_copy(update={"text": f"{last.text}\n{tok.text}"})
        else:
            texts.append(SpecText(text=tok.text, line=tok.line))
    return {steps.items[n].line: t for n, t in owned.items()}, header, after


_rx.save()
