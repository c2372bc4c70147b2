"""A workflow kept in an XML file of its author's own schema, read natively and handed to the YAML
form's readers as nodes with their lines (as `toml_form` does for TOML).

    <batchjob name="scan" maxWallclock="1h">         → name; the run's time limit (a duration under a
                                                        name that says a limit, on the root element)
      <asks><field id="manifest">the list</field>    → the workflow input `manifest`, described
      <task seq="1" tool="scan-read" together-with="2"> → a step (an element with a skill attribute:
                                                        `tool`, `skill`, `uses`, ...), id `step-1`; it
                                                        starts with step 2: it waits for no step
        <give name="manifest" from="asks.manifest"/>  → input manifest <- `{{ inputs.manifest }}`
        <give name="files" from="task1.files"/>       → input files <- step-1's output `files`
        <give name="collection" value="PHOTO-ARCH"/>  → input collection, the literal
        <comment>three more goes, 20s apart</comment> → the step's notes, read by the policy grammar
      <task seq="3" after="1,2">                      → depends_on [step-1, step-2]
      <target name="build" depends="fetch"><run skill="make-site"/></target>
                                                      → a step whose skill is named by its one child
    <plist><dict><key>steps</key><array>...           → a property list: its dicts and arrays as the
                                                        mappings and lists they are

Every other attribute and child element keeps its name (the YAML form's key table reads `retries`,
`timeout`, `if`, ...; a key it does not know is warned at its line). A comment inside a step is the
step's words; a comment outside any step is warned as not read, unless it names an attribute that
was read (it explains it). A file that is not well-formed, an HTML page, or one whose elements name
no skill is not read here (the caller reads it as text, as before); entity declarations are never
expanded (the file is not read here).
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.h24_left31 import root_aside
from orchestrator.spec.model import Reading
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TAG = "tag:yaml.org,2002:"
_MAX_DEPTH = 60
_SKILL_ATTRS = ("skill", "tool", "uses", "action", "call", "run", "exec", "template", "script", "command")
_DEPEND_ATTRS = ("after", "depends", "depends-on", "dependson", "needs", "requires", "wait-for", "waits-for",
                 "waitfor", "run-after", "runafter", "upstream")
_TOGETHER_ATTRS = ("together-with", "togetherwith", "parallel-with", "parallelwith", "alongside", "concurrent-with",
                   "start-with", "starts-with", "same-time-as", "in-parallel-with", "with-step")
_SEQ_ATTRS = ("seq", "n", "no", "num", "number", "order", "index", "step", "position", "pos")
_NAME_ATTRS = ("name", "title", "label")
_ENTRY_KEYS = ("name", "id", "key", "param", "field", "arg", "for", "input", "var")
_VALUE_KEYS = ("value", "val", "literal", "const", "default")
_FROM_KEYS = ("from", "source", "src", "ref", "select", "take", "takes", "use")
_NOTE_TAGS = frozenset({"comment", "comments", "note", "notes", "remark", "remarks", "why", "description", "desc",
                        "doc", "documentation", "about", "info"})
_INPUT_TAGS = frozenset({"asks", "ask", "inputs", "input", "params", "parameters", "param", "arguments", "args",
                         "fields", "variables", "vars", "properties", "prompts", "questions", "needs", "requires",
                         "givens", "wants"})
_INPUT_WORDS = frozenset({"inputs", "input", "asks", "params", "parameters", "args", "arguments", "workflow", "vars",
                          "variables", "properties", "props", "run"})
_LIMIT_NAME = _rx(r"(?i)(?:wall[-_]?clock|time[-_]?out|timeout|deadline|time[-_]?limit|max[-_]?(?:time|duration|"
                  r"runtime|run[-_]?time|wall)|run[-_]?time|budget|duration|total[-_]?time|limit)")
_DURATION = _rx(r"(?i)\d{1,6}(?:\.\d{1,3})?+\s*+(?:ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|d|"
                r"days?)")
_SPLIT = _rx(r"[\s,;+&]++|\band\b")
_REF = _rx(r"(?P<head>[A-Za-z_][\w-]{0,60}+)\.(?P<field>[A-Za-z_][\w-]{0,60}+)")


@dataclass
class _El:
    tag: str
    attrs: dict[str, str]
    line: int
    children: list[_El] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)

    def attr(self, names: tuple[str, ...]) -> tuple[str, str] | None:
        lowered = {k.lower(): k for k in self.attrs}
        for name in names:
            if name in lowered:
                return lowered[name], self.attrs[lowered[name]]
        return None

    @property
    def body(self) -> str:
        return " ".join(" ".join(self.text).split())


def looks_like_xml(suffix: str, text: str) -> bool:
    """Whether a file is an XML document that is not an HTML page: `.xml` / `.plist`, or text that opens with
    an XML declaration or a plist doctype."""
    head = text.lstrip("\ufeff \t\r\n")[:200].lower()
    if head.startswith("<!doctype html") or head.startswith("<html"):
        return False
    return suffix in (".xml", ".plist") or head.startswith("<?xml") or head.startswith("<!doctype plist")


class _Refused(Exception):
    """An entity declaration, or elements nested too deep: the file is not read as XML."""


def _parse(text: str) -> tuple[_El | None, list[tuple[int, str]], int | None]:
    """The element tree, the comments outside the root's steps (all comments; sorted out later), and the line of a
    syntax error (None when well-formed)."""
    parser = xml.parsers.expat.ParserCreate()
    stack: list[_El] = []
    top: list[_El] = []
    loose: list[tuple[int, str]] = []

    def start(name: str, attrs: dict[str, str]) -> None:
        el = _El(name, dict(attrs), parser.CurrentLineNumber)
        if len(stack) >= _MAX_DEPTH:
            raise _Refused(parser.CurrentLineNumber)
        (stack[-1].children if stack else top).append(el)
        stack.append(el)

    def end(name: str) -> None:
        if stack:
            stack.pop()

    def chars(data: str) -> None:
        if stack and data.strip():
            stack[-1].text.append(data)

    def comment(data: str) -> None:
        said = " ".join(data.split())
        if said:
            (stack[-1].comments if stack else loose).append((parser.CurrentLineNumber, said))

    def entity(*_: object) -> None:  # never expanded: the file is not read here
        raise _Refused(parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.CommentHandler = comment
    parser.EntityDeclHandler = entity
    try:
        parser.Parse(text, True)
    except xml.parsers.expat.ExpatError as exc:
        return None, loose, exc.lineno or 1
    except _Refused as exc:
        return None, loose, int(exc.args[0])
    if not top:
        return None, loose, 1
    return top[0], loose, None


def _mark(src: Source, line: int) -> Mark:
    return Mark(src.path, 0, line - 1, 0, None, None)


def _scalar(src: Source, value: str, line: int, typed: bool = True) -> ScalarNode:
    said = value.strip()
    tag = "str"
    if typed and re.fullmatch(r"-?\d{1,15}", said):
        tag = "int"
    elif typed and re.fullmatch(r"-?\d{1,12}\.\d{1,6}", said):
        tag = "float"
    elif typed and said.lower() in ("true", "false"):
        tag, said = "bool", said.lower()
    return ScalarNode(f"{_TAG}{tag}", said, _mark(src, line), _mark(src, line), style=None if tag != "str" else '"')


def _map(src: Source, items: list[tuple[str, Node, int]], line: int) -> MappingNode:
    pairs = [(_scalar(src, k, at, typed=False), v) for k, v, at in items]
    return MappingNode(f"{_TAG}map", pairs, _mark(src, line), _mark(src, line))


def _seq(src: Source, nodes: list[Node], line: int) -> SequenceNode:
    return SequenceNode(f"{_TAG}seq", nodes, _mark(src, line), _mark(src, line))


def _skill_attr(el: _El) -> tuple[str, str] | None:
    found = el.attr(_SKILL_ATTRS)
    return found if found is not None and re.fullmatch(r"[\w][\w.:/-]{0,80}", found[1].strip()) else None


def _skilled(el: _El) -> _El | None:
    """The element that names the step's skill: the step itself, or its one child that does."""
    if _skill_attr(el) is not None:
        return el
    named = [c for c in el.children if _skill_attr(c) is not None]
    return named[0] if len(named) == 1 else None


def _find_steps(root: _El) -> list[_El]:
    """The steps: the root's (or one container's) children that name a skill, two or more of one tag, else one."""
    best: list[_El] = []
    for holder in (root, *root.children):
        named = [c for c in holder.children if _skilled(c) is not None]
        if len(named) > len(best):
            best = named
    return best


class _Reader:
    """One XML document into the YAML form's node tree (module docstring)."""

    def __init__(self, src: Source, root: _El) -> None:
        self.src = src
        self.root = root
        self.steps = _find_steps(root)
        self.ids: dict[str, str] = {}
        self.refs: dict[str, str] = {}
        self.input_tags: set[str] = set()
        self.input_names: set[str] = set()
        self.readings: list[tuple[str, Reading]] = []  # (step id, reading)
        self.starts_with: dict[str, list[str]] = {}
        self.read_attrs: set[str] = set()
        for i, el in enumerate(self.steps, 1):
            seq = el.attr(_SEQ_ATTRS)
            own = el.attr(("id",))
            number = seq[1].strip() if seq is not None and seq[1].strip().isdigit() else str(i)
            sid = own[1].strip() if own is not None and own[1].strip() else f"step-{number}"
            self.ids[str(id(el))] = sid
            keys = [number, f"{el.tag}{number}", f"{el.tag}-{number}", f"{el.tag}_{number}", f"step{number}",
                    f"step-{number}", f"step_{number}", sid]
            name = el.attr(_NAME_ATTRS)
            if name is not None:
                keys.append(name[1].strip())
            for key in keys:
                self.refs.setdefault(key.lower(), sid)

    def sid(self, el: _El) -> str:
        return self.ids[str(id(el))]

    def ref(self, said: str) -> str:
        """A `from` reference as the YAML form writes it: an input, an earlier step's output, or as written."""
        text = said.strip().lstrip("$").strip("{}")
        m = _REF.fullmatch(text)
        if m is not None:
            head, name = m.group("head"), m.group("field")
            if head.lower() in self.input_tags or head.lower() in _INPUT_WORDS:
                return f"{{{{ inputs.{name} }}}}"
            if head.lower() in self.refs:
                return f"{{{{ steps.{self.refs[head.lower()]}.output.{name} }}}}"
        if text in self.input_names:
            return f"{{{{ inputs.{text} }}}}"
        return said.strip()

    def inputs(self) -> tuple[list[tuple[str, Node, int]], set[str]]:
        """The blocks of the root whose entries are asked for (`<asks>`, `<params>`): the workflow inputs."""
        items: list[tuple[str, Node, int]] = []
        used: set[str] = set()
        for block in self.root.children:
            if block in self.steps or block.tag.lower() not in _INPUT_TAGS or not block.children:
                continue
            entries = [(c, c.attr(_ENTRY_KEYS)) for c in block.children]
            if any(e is None for _, e in entries):
                continue
            self.input_tags.add(block.tag.lower())
            used.add(str(id(block)))
            for c, e in entries:
                assert e is not None
                name = e[1].strip()
                self.input_names.add(name)
                spec: list[tuple[str, Node, int]] = []
                if c.body:
                    spec.append(("description", _scalar(self.src, c.body, c.line, typed=False), c.line))
                for key, value in c.attrs.items():
                    if key.lower() in ("type", "default", "required", "optional", "help", "description"):
                        spec.append((key.lower(), _scalar(self.src, value, c.line), c.line))
                items.append((name, _map(self.src, spec, c.line), c.line))
        return items, used

    def step(self, el: _El) -> MappingNode:
        sid = self.sid(el)
        skilled = _skilled(el)
        assert skilled is not None
        skill = _skill_attr(skilled)
        assert skill is not None
        items: list[tuple[str, Node, int]] = [("id", _scalar(self.src, sid, el.line, typed=False), el.line)]
        name = el.attr(_NAME_ATTRS)
        items.append(("name", _scalar(self.src, (name or skill)[1], el.line, typed=False), el.line))
        items.append(("skill", _scalar(self.src, skill[1], skilled.line, typed=False), skilled.line))
        done = {skill[0].lower(), "id", *(n for n in _NAME_ATTRS), *_SEQ_ATTRS}
        depends = el.attr(_DEPEND_ATTRS)
        together = el.attr(_TOGETHER_ATTRS)
        if depends is not None:
            done.add(depends[0].lower())
            wanted = [w for w in _SPLIT.split(depends[1]) if w]
            ids = [self.refs.get(w.lower(), w) for w in wanted]
            items.append(("depends_on", _seq(self.src, [_scalar(self.src, i, el.line, typed=False) for i in ids],
                                             el.line), el.line))
        if together is not None:
            done.add(together[0].lower())
            mates = [self.refs.get(w.lower(), w) for w in _SPLIT.split(together[1]) if w]
            self.starts_with[sid] = mates
            if depends is None:
                items.append(("depends_on", _seq(self.src, [], el.line), el.line))
            self.readings.append((sid, Reading(
                what="depends_on", where=self.src.where(el.line), text=f'{together[0]}="{together[1]}"',
                note=f"starts together with {', '.join(mates)}: waits for "
                     + ("no step" if depends is None else "only the steps its `" + depends[0] + "` names"))))
        for key, value in el.attrs.items():
            if key.lower() not in done:
                items.append((key, _scalar(self.src, value, el.line), el.line))
        inputs: list[tuple[str, Node, int]] = []
        notes: list[str] = [c for _, c in el.comments]
        notes_line = el.comments[0][0] if el.comments else None
        kids = [c for c in el.children if c is not skilled] if skilled is not el else list(el.children)
        if skilled is not el:
            for key, value in skilled.attrs.items():
                if key.lower() != skill[0].lower():
                    inputs.append((key, _scalar(self.src, value, skilled.line), skilled.line))
            kids = [*skilled.children, *kids]
            notes.extend(c for _, c in skilled.comments)
        if el.body:
            notes.insert(0, el.body)
            notes_line = notes_line or el.line
        others: dict[str, list[_El]] = {}
        for kid in kids:
            entry = kid.attr(_ENTRY_KEYS)
            given = kid.attr(_FROM_KEYS)
            literal = kid.attr(_VALUE_KEYS)
            if kid.tag.lower() in _NOTE_TAGS and not kid.children:
                if kid.body:
                    notes.append(kid.body)
                    notes_line = notes_line or kid.line
            elif entry is not None and not kid.children and (given or literal or kid.body):
                if given is not None:
                    value = _scalar(self.src, self.ref(given[1]), kid.line, typed=False)
                else:
                    value = _scalar(self.src, literal[1] if literal is not None else kid.body, kid.line)
                inputs.append((entry[1].strip(), value, kid.line))
            else:
                others.setdefault(kid.tag, []).append(kid)
            notes.extend(c for _, c in kid.comments)
        if inputs:
            items.append(("input", _map(self.src, inputs, inputs[0][2]), inputs[0][2]))
        if notes:
            line = notes_line or el.line
            items.append(("notes", _scalar(self.src, " ".join(notes), line, typed=False), line))
        for tag, group in others.items():
            nodes = [self.generic(g, 1) for g in group]
            items.append((tag, nodes[0] if len(nodes) == 1 else _seq(self.src, nodes, group[0].line), group[0].line))
        return _map(self.src, items, el.line)

    def generic(self, el: _El, depth: int) -> Node:
        """Any other element: its attributes and children as keys, its text alone as a value."""
        if el.tag.lower() == "plist" or el.tag.lower() in ("dict", "array") or el.tag.lower() in _PLIST_SCALARS:
            return self.plist(el)
        if not el.attrs and not el.children:
            return _scalar(self.src, el.body, el.line)
        items: list[tuple[str, Node, int]] = [(k, _scalar(self.src, v, el.line), el.line) for k, v in el.attrs.items()]
        if el.body:
            items.append(("text", _scalar(self.src, el.body, el.line, typed=False), el.line))
        groups: dict[str, list[_El]] = {}
        for kid in el.children:
            groups.setdefault(kid.tag, []).append(kid)
        for tag, group in groups.items():
            nodes = [self.generic(g, depth + 1) for g in group]
            items.append((tag, nodes[0] if len(nodes) == 1 else _seq(self.src, nodes, group[0].line), group[0].line))
        return _map(self.src, items, el.line)

    def plist(self, el: _El) -> Node:
        """A property list's values: `<dict>` of `<key>`/value pairs, `<array>`, `<string>`, `<integer>`, `<true/>`."""
        tag = el.tag.lower()
        if tag == "plist":
            return self.plist(el.children[0]) if el.children else _scalar(self.src, "", el.line)
        if tag == "array":
            return _seq(self.src, [self.plist(c) for c in el.children], el.line)
        if tag == "dict":
            items: list[tuple[str, Node, int]] = []
            key: _El | None = None
            for kid in el.children:
                if kid.tag.lower() == "key":
                    key = kid
                elif key is not None:
                    items.append((key.body, self.plist(kid), key.line))
                    key = None
            return _map(self.src, items, el.line)
        if tag in ("true", "false"):
            return _scalar(self.src, tag, el.line)
        return _scalar(self.src, el.body, el.line, typed=tag in ("integer", "real"))

    def document(self, loose: list[tuple[int, str]]) -> MappingNode:
        inputs, used = self.inputs()
        items: list[tuple[str, Node, int]] = []
        root = self.root
        for key, value in root.attrs.items():
            if key.lower() in _NAME_ATTRS:
                items.append(("name", _scalar(self.src, value, root.line, typed=False), root.line))
                self.read_attrs.add(key.lower())
            elif _LIMIT_NAME.search(key) and _DURATION.fullmatch(value.strip()):
                items.append(("timeout", _scalar(self.src, value.strip(), root.line, typed=False), root.line))
                self.read_attrs.add(key.lower())  # the form's `timeout:` notes it as the run's stated limit
            elif (about := root_aside(key)) is not None:  # `owner="rk"`: set aside, noted (`spec.h24_left31`)
                self.readings.append((self.sid(self.steps[0]), Reading(
                    what="key", where=self.src.where(root.line), text=f'{key}="{value}"',
                    note=f"the root's attribute `{key}` says {about}, no workflow meaning: set aside")))
            else:
                items.append((key, _scalar(self.src, value, root.line), root.line))
        if inputs:
            items.append(("inputs", _map(self.src, inputs, inputs[0][2]), inputs[0][2]))
        steps = [self.step(el) for el in self.steps]
        line = self.steps[0].line
        items.append(("steps", _seq(self.src, steps, line), line))
        holders = {str(id(h)) for h in (root, *root.children) if any(c in self.steps for c in h.children)}
        for kid in root.children:
            if kid in self.steps or str(id(kid)) in used:
                continue
            if str(id(kid)) in holders:  # a container of the steps: its other children are read as any others
                for comment_line, said in kid.comments:
                    loose.append((comment_line, said))
                continue
            items.append((kid.tag, self.generic(kid, 1), kid.line))
        loose.extend(root.comments)
        for at, said in sorted(loose):
            words = said.lower()
            if any(a in words for a in self.read_attrs):
                continue  # it explains an attribute that was read
            self.src.warn(at, f"an XML comment outside the steps is a note for people, not read: "
                              f"'{said[:80]}'", "spec.unread")
        return _map(self.src, items, root.line)


_PLIST_SCALARS = frozenset({"string", "integer", "real", "true", "false", "date", "data"})


def read_xml(src: Source) -> SpecParts | tuple[int, str] | None:
    """Read an XML spec (module docstring); else None, or (line, why) when the file is not read as XML (the caller
    reads it as text and warns why at that line)."""
    from orchestrator.spec.yaml_form import read_yaml

    root, loose, bad = _parse(src.text)
    if root is None:
        return bad or 1, ("the file is not well-formed XML here (or declares entities, never expanded), so its "
                          "elements are not read: it is read as text")
    if root.tag.lower() == "html":
        return None
    reader = _Reader(src, root)
    if root.tag.lower() == "plist":
        node = reader.plist(root)
    elif not reader.steps:
        return None
    else:
        node = reader.document(loose)
    parts = read_yaml(src, node)
    if not reader.readings:
        return parts
    by_step: dict[str, list[Reading]] = {}
    for sid, r in reader.readings:
        if sid:
            by_step.setdefault(sid, []).append(r)
    steps = tuple(s.model_copy(update={"readings": (*s.readings, *by_step[s.id])}) if s.id in by_step else s
                  for s in parts.steps)
    return parts.model_copy(update={"steps": steps})


_rx.save()
