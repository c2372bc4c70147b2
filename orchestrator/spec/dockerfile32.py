"""A workflow written as a Dockerfile-like build file (Dockerfile, Containerfile, an Earthfile's targets), read
natively and handed to the YAML form's readers as nodes with their lines, as `hcl30` does for HCL.

    ARG CITY                                      → the workflow input `CITY` (`ARG DAY=mon`: its default `mon`)
    ENV LOW_WATER=0.25                            → a constant: `$LOW_WATER` is the literal 0.25, never an input
    # 1) snapshot the docks, 4 retries            → the step's words (its name, and policies said beside its flags)
    RUN --retries=4 --backoff=2s*2 dock-status city=$CITY
                                                  → a step: the skill after the flags, `key=value` its inputs
    RUN --each=@1.docks --timeout=15s dock-fill dock=@item
    RUN --fallback=greedy plan fills=@all(2) trucks=2
    STOPSIGNAL deadline=20m                       → the whole run's limit (also `# ... not done in 20 min`)
    HEALTHCHECK CMD test "$(notify.sent)" = "true" → the run's success check: step `notify`'s output `sent` is true

RUN flags: `--retries=N` (`--retry`, `--attempts`), `--backoff=2s*2` (exponential from 2 s, x2; `--backoff=5s`:
5 s between tries), `--no-retry`, `--timeout=15s`, `--fallback=skill`, `--each=@N.list` (the for-each; `@item` its
item), `--when=...` / `--if=...` (its condition), `--after=@1,@2` / `--needs` (its dependencies). In values, `$X` /
`${X}` is the ARG `X` (a workflow input) or the ENV `X` (its literal value), `@N.f` step N's output `f` (N counts
RUN steps; a skill's name may stand for N), `@N` its whole output, `@all(N)` / `@N[*]` every result of step N
gathered, `@item` the for-each's item. A RUN line's skill is a catalog skill's name (or, with no catalog, a bare
name followed only by `key=value` pairs); a RUN line that runs anything else (`apt-get install ...`) is warned and
not read, as are Docker's own flags (`--mount`) and instructions (FROM, COPY, CMD, ...). A file in which no RUN
line runs a skill is an image build, not a workflow: refused with one error that says what its RUN lines run.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.source import Source

_TAG = "tag:yaml.org,2002:"
_NAMES = ("dockerfile", "containerfile", "earthfile", "skillfile")
_SUFFIXES = (".dockerfile", ".containerfile", ".earth", ".earthfile", ".skillfile")
_INSTRUCTIONS = frozenset({"FROM", "ARG", "ENV", "RUN", "CMD", "ENTRYPOINT", "COPY", "ADD", "WORKDIR", "USER",
                           "LABEL", "EXPOSE", "VOLUME", "SHELL", "ONBUILD", "STOPSIGNAL", "HEALTHCHECK",
                           "MAINTAINER", "VERSION", "SAVE", "BUILD", "IMPORT", "LOCALLY", "GIT", "FOR", "IF",
                           "END", "ELSE", "WAIT", "CACHE", "DO", "COMMAND", "FUNCTION", "PROJECT", "SET", "LET"})
# a build file's first instruction: `FROM image[:tag] [AS name]` or `ARG NAME[=default]` (never "FROM the desk: ...")
_HEAD = re.compile(r"^(?:FROM[ \t]++[\w./:@${}-]++(?:[ \t]++AS[ \t]++[\w-]++)?+|ARG[ \t]++[A-Za-z_]\w*+(?:=\S*+)?+)$")
_LINE = re.compile(r"^([A-Za-z]++)(?:[ \t]++(.*+))?+$")
_TARGET = re.compile(r"^[A-Za-z_][\w.-]*+:[ \t]*+$")  # an Earthfile target `build:`
_SKILL_NAME = re.compile(r"^[a-z][a-z0-9]*+(?:[-_][a-z0-9]++)++$")
_PAIR = re.compile(r"^([A-Za-z_][\w.-]*+)=(.*+)$")
_VAR = re.compile(r"^\$(?:\{([A-Za-z_]\w*+)\}|([A-Za-z_]\w*+))$")
_AT = re.compile(r"^@(?:all\(([\w-]++)\)|([\w-]++)\[\*\]|([\w-]++)((?:\.[\w-]++)*+))$")
_REF_IN = re.compile(r"@all\(([\w-]++)\)|@([\w-]++)((?:\.[\w-]++)*+)|\$\{?([A-Za-z_]\w*+)\}?")
_NUMBER = re.compile(r"^-?\d++(?:\.\d++)?$")
_DURATION = re.compile(r"^\d++(?:\.\d++)?(?:ms|s|m|h|sec|secs|min|mins)$")
_BACKOFF = re.compile(r"^(\d++(?:\.\d++)?(?:ms|s|m|h)?)\*(\d++(?:\.\d++)?)$")
_NUMBERED = re.compile(r"^\(?\d{1,3}+[.)][ \t]*+")
_CHECK = re.compile(r"""^(?:test|\[\[?)?[ \t]*+"?\$\(([\w-]++)\.([\w.-]++)\)"?[ \t]*+(==?|!=|-eq|-ne|-gt|-ge|-lt|-le)"""
                    r"""[ \t]*+"?([^"\]]*+)"?[ \t]*+\]?\]?$""")
_OPS = {"=": "==", "==": "==", "!=": "!=", "-eq": "==", "-ne": "!=", "-gt": ">", "-ge": ">=", "-lt": "<",
        "-le": "<="}
_LIMIT = re.compile(r"^(?:(?:deadline|timeout|limit|wall|wall_time|max)[=:][ \t]*+)?(\d++(?:\.\d++)?[a-z]*+)$")
_SIGNAL = re.compile(r"^(?:SIG)?[A-Z]{2,8}+\d*+$|^\d++$")
_FLAG = re.compile(r"^--([a-z][\w-]*+)(?:=(.*+))?+$")
_DOCKER_FLAGS = frozenset({"mount", "network", "security", "chmod", "chown", "from", "link", "platform", "privileged",
                           "ssh", "secret", "push", "interactive", "entrypoint"})
_RETRY_FLAGS = frozenset({"retries", "retry", "max-retries", "max_retries"})


def is_dockerfile(path: str, text: str) -> bool:
    """Whether the file is a Dockerfile-like build file: by its name (`Dockerfile`, `Containerfile`, `Earthfile`,
    `*.dockerfile`, `Dockerfile.prod`), or its first instruction is FROM / ARG and a line begins `RUN `."""
    name = Path(path).name.lower()
    if name in _NAMES or name.startswith(tuple(f"{n}." for n in _NAMES)) or Path(path).suffix.lower() in _SUFFIXES:
        return True
    first = next((ln.strip() for ln in text.splitlines()[:200] if ln.strip() and not ln.lstrip().startswith("#")), "")
    return _HEAD.match(first) is not None and re.search(r"(?m)^[ \t]*+RUN[ \t]++\S", text) is not None


def _mark(path: str, line: int, col: int) -> Mark:
    return Mark(path, 0, line - 1, col, None, None)


def _s(path: str, text: str, line: int, col: int, tag: str = "str") -> ScalarNode:
    m = _mark(path, line, col)
    return ScalarNode(f"{_TAG}{tag}", text, m, m, style='"' if tag == "str" else None)


def _map(path: str, items: list[tuple[Node, Node]], line: int, col: int) -> MappingNode:
    m = _mark(path, line, col)
    return MappingNode(f"{_TAG}map", items, m, m)


def _literal_tag(text: str) -> str:
    if _NUMBER.match(text):
        return "float" if "." in text else "int"
    return "bool" if text.lower() in ("true", "false") else "str"


class _Line:
    def __init__(self, line: int, col: int, word: str, rest: str) -> None:
        self.line, self.col, self.word, self.rest = line, col, word, rest


class _Reader:
    def __init__(self, src: Source) -> None:
        self.src = src
        self.path = src.path
        self.args: dict[str, str | None] = {}
        self.envs: dict[str, str] = {}
        self.arg_at: dict[str, _Line] = {}
        self.ids: dict[str, str] = {}  # a step's number or skill -> its id
        names = src.vocabulary.skills if src.vocabulary else frozenset()
        self.skills: frozenset[str] = frozenset(names)

    def lines(self) -> list[_Line]:
        """The instruction lines, continuations (`\\` at the end) joined; Earthfile targets and comments left."""
        out: list[_Line] = []
        held: _Line | None = None
        for n, raw in enumerate(self.src.lines, 1):
            bare = raw.strip()
            if held is not None:
                if bare.startswith("#"):
                    continue
                held.rest = f"{held.rest} {bare.removesuffix(chr(92)).strip()}".strip()
                if not bare.endswith("\\"):
                    held = None
                continue
            if not bare or bare.startswith("#") or _TARGET.match(bare):
                continue
            m = _LINE.match(bare.removesuffix("\\").rstrip())
            if m is None or m.group(1).upper() not in _INSTRUCTIONS:
                self.src.warn(n, f"'{bare[:60]}' is no instruction of a build file: not read", "spec.unread")
                continue
            item = _Line(n, len(raw) - len(raw.lstrip()), m.group(1).upper(), (m.group(2) or "").strip())
            out.append(item)
            held = item if bare.endswith("\\") else None
        return out

    def is_skill(self, name: str, rest: list[str]) -> bool:
        if name in self.skills:
            return True
        return not self.skills and _SKILL_NAME.match(name) is not None and all(_PAIR.match(t) for t in rest)

    def read(self) -> Node:
        path = self.path
        lines = self.lines()
        runs: list[tuple[_Line, list[str], list[str], str, list[str]]] = []  # line, flags, docker, skill, pairs
        others: list[str] = []
        unread: list[_Line] = []
        for item in lines:
            if item.word == "ARG":
                self.arg(item)
            elif item.word == "ENV":
                self.env(item)
            elif item.word == "RUN":
                try:
                    words = shlex.split(item.rest)
                except ValueError:
                    words = item.rest.split()
                flags = []
                while words and words[0].startswith("--"):
                    flags.append(words.pop(0))
                if words and self.is_skill(words[0], words[1:]):
                    runs.append((item, flags, [], words[0], words[1:]))
                    self.ids[str(len(runs))] = f"step-{len(runs)}"
                    self.ids.setdefault(words[0], f"step-{len(runs)}")
                else:
                    others.append(words[0] if words else item.rest[:30])
                    unread.append(item)
            elif item.word not in ("STOPSIGNAL", "HEALTHCHECK"):
                unread.append(item)
        if not runs:
            said = f" (its RUN lines run: {', '.join(dict.fromkeys(others))})" if others else " (it has no RUN line)"
            self.src.error(1, "this build file is an image build, not a workflow: no RUN line runs a skill"
                              f"{said}; write one step a line as `RUN skill-name key=value`", "spec.no-steps")
            self.src.raise_if_errors()
        items: list[tuple[Node, Node]] = []
        if self.args:
            first = min(at.line for at in self.arg_at.values())
            entries = []
            for name, default in self.args.items():
                at = self.arg_at[name]
                entry = [] if default is None else [(_s(path, "default", at.line, at.col),
                                                     _s(path, default, at.line, at.col, _literal_tag(default)))]
                entries.append((_s(path, name, at.line, at.col), _map(path, entry, at.line, at.col)))
            items.append((_s(path, "inputs", first, 0), _map(path, entries, first, 0)))
        for item in lines:
            if item.word == "STOPSIGNAL":
                self.stop_signal(item, items)
        steps = [self.step(n, *run) for n, run in enumerate(runs, 1)]
        for item in lines:
            if item.word == "HEALTHCHECK":
                self.health(item, steps)
        head = runs[0][0].line
        items.append((_s(path, "steps", head, 0),
                      SequenceNode(f"{_TAG}seq", list(steps), _mark(path, head, 0), _mark(path, head, 0))))
        for item in unread:
            what = "runs no skill" if item.word == "RUN" else "builds the image, not the workflow"
            self.src.warn(item.line, f"`{item.word} {item.rest[:50]}` {what}: not read", "spec.unread")
        return _map(path, items, 1, 0)

    def arg(self, item: _Line) -> None:
        name, _, default = item.rest.partition("=")
        name = name.strip()
        if not name.isidentifier():
            self.src.warn(item.line, f"`ARG {item.rest}` names no input: not read", "spec.unread")
            return
        self.arg_at[name] = item
        self.args[name] = default.strip().strip("\"'") if default.strip() else None

    def env(self, item: _Line) -> None:
        try:
            words = shlex.split(item.rest)
        except ValueError:
            words = item.rest.split()
        if words and "=" not in words[0] and len(words) >= 2:  # the old form `ENV NAME value`
            self.envs[words[0]] = " ".join(words[1:])
            return
        for word in words:
            m = _PAIR.match(word)
            if m is None:
                self.src.warn(item.line, f"`ENV {item.rest}`: '{word}' is no NAME=value: not read", "spec.unread")
                continue
            self.envs[m.group(1)] = m.group(2)

    def value(self, text: str, line: int, col: int, step: str) -> ScalarNode:
        """A RUN pair's value as a node: a reference in the form's words, or a literal (module docstring)."""
        path = self.path
        var = _VAR.match(text)
        if var is not None:
            name = var.group(1) or var.group(2)
            if name in self.args:
                return _s(path, f"inputs.{name}", line, col)
            if name in self.envs:
                return _s(path, self.envs[name], line, col, _literal_tag(self.envs[name]))
            self.src.warn(line, f"{step}: `{text}` is neither an ARG nor an ENV of the file: read as the workflow "
                                f"input `{name}`", "spec.inputs")
            return _s(path, f"inputs.{name}", line, col)
        at = _AT.match(text)
        if at is not None:
            if at.group(1) or at.group(2):
                return _s(path, f"{self.step_id(at.group(1) or at.group(2), line, step)}[*]", line, col)
            head, tail = at.group(3), at.group(4)
            if head in ("item", "each"):
                return _s(path, f"item{tail}", line, col)
            return _s(path, f"{self.step_id(head, line, step)}{tail}", line, col)
        if _REF_IN.search(text) is not None:
            self.src.warn(line, f"{step}: '{text}' mixes a reference into text: taken as the literal text",
                          "spec.unread")
        return _s(path, text, line, col, _literal_tag(text))

    def step_id(self, ref: str, line: int, step: str) -> str:
        if ref in self.ids:
            return self.ids[ref]
        self.src.warn(line, f"{step}: `@{ref}` names no RUN step (by its number or skill): not read", "spec.unread")
        return ref

    def ref_text(self, text: str, line: int, step: str) -> str:
        """A `--when` / `--each` text with its `@N.f` and `$X` in the form's words."""

        def one(m: re.Match[str]) -> str:
            if m.group(1):
                return f"{self.step_id(m.group(1), line, step)}[*]"
            if m.group(2):
                if m.group(2) in ("item", "each"):
                    return f"item{m.group(3)}"
                return f"{self.step_id(m.group(2), line, step)}{m.group(3)}"
            name = m.group(4)
            if name in self.envs:
                return self.envs[name]
            return f"inputs.{name}"

        return _REF_IN.sub(one, text)

    def step(self, n: int, item: _Line, flags: list[str], _docker: list[str], skill: str, pairs: list[str]) -> Node:
        path, line, col = self.path, item.line, item.col
        sid = f"step-{n}"
        nodes: list[tuple[Node, Node]] = [(_s(path, "id", line, col), _s(path, sid, line, col)),
                                          (_s(path, "skill", line, col), _s(path, skill, line, col))]
        name = self.name_above(line)
        if name:
            nodes.append((_s(path, "name", line, col), _s(path, name, line, col)))
        retry: list[tuple[Node, Node]] = []
        for flag in flags:
            m = _FLAG.match(flag)
            key, value = (m.group(1).lower(), (m.group(2) or "").strip("\"'")) if m else ("", "")
            if key in _RETRY_FLAGS and value.isdigit():
                retry.append((_s(path, "retries", line, col), _s(path, value, line, col, "int")))
            elif key == "attempts" and value.isdigit():
                retry.append((_s(path, "attempts", line, col), _s(path, value, line, col, "int")))
            elif key == "no-retry" and not value:
                retry.append((_s(path, "retries", line, col), _s(path, "0", line, col, "int")))
            elif key == "backoff" and (b := _BACKOFF.match(value)) is not None:
                retry += [(_s(path, "backoff", line, col), _s(path, "exponential", line, col)),
                          (_s(path, "delay", line, col), _s(path, b.group(1), line, col)),
                          (_s(path, "multiplier", line, col), _s(path, b.group(2), line, col,
                                                                _literal_tag(b.group(2))))]
            elif key in ("backoff", "delay", "retry-delay", "wait") and _DURATION.match(value):
                retry.append((_s(path, "delay", line, col), _s(path, value, line, col)))
            elif key == "timeout" and _DURATION.match(value):
                nodes.append((_s(path, "timeout", line, col), _s(path, value, line, col)))
            elif key == "fallback" and value:
                nodes.append((_s(path, "fallback", line, col), _s(path, value, line, col)))
            elif key in ("each", "for-each", "foreach", "over") and value:
                over = self.ref_text(value, line, sid)
                nodes.append((_s(path, "for_each", line, col), _s(path, f"item in {over}", line, col)))
            elif key in ("when", "if", "only-if") and value:
                nodes.append((_s(path, "when", line, col), _s(path, self.ref_text(value, line, sid), line, col)))
            elif key in ("after", "needs", "depends-on", "wait-for") and value:
                deps = [self.step_id(d.strip().lstrip("@"), line, sid) for d in value.split(",") if d.strip()]
                nodes.append((_s(path, "depends_on", line, col),
                              SequenceNode(f"{_TAG}seq", [_s(path, d, line, col) for d in deps],
                                           _mark(path, line, col), _mark(path, line, col))))
            elif key in _DOCKER_FLAGS:
                self.src.warn(line, f"{sid}: `{flag}` is Docker's own flag, not a policy: not read", "spec.unread")
            else:
                self.src.warn(line, f"{sid}: the flag `{flag}` is not understood: not in the plan", "spec.policy")
        if retry:
            nodes.append((_s(path, "retry", line, col), _map(path, retry, line, col)))
        said = self.comments_above(line)
        if said and not retry and not any(k.value in ("timeout", "fallback") for k, _ in nodes):
            # no policy flag for the comment to sit on (`key_comments27`): its words are the step's notes
            nodes.append((_s(path, "notes", line - len(said), col), _s(path, " ".join(said), line - len(said), col)))
        inputs: list[tuple[Node, Node]] = []
        for pair in pairs:
            m = _PAIR.match(pair)
            if m is None:
                self.src.warn(line, f"{sid}: '{pair}' after the skill `{skill}` is no key=value: not read",
                              "spec.unread")
                continue
            inputs.append((_s(path, m.group(1), line, col), self.value(m.group(2), line, col, sid)))
        if inputs:
            nodes.append((_s(path, "input", line, col), _map(path, inputs, line, col)))
        return _map(path, nodes, line, col)

    def comments_above(self, line: int) -> list[str]:
        """The comment block directly above `line` (no blank line between), top first."""
        at, said = line - 1, list[str]()
        while at >= 1 and self.src.line_text(at).strip().startswith("#"):
            said.insert(0, self.src.line_text(at).strip().lstrip("#").strip())
            at -= 1
        return said

    def name_above(self, line: int) -> str:
        """The first line of the comment block directly above `line`, its numbering (`1)`) taken off."""
        said = self.comments_above(line)
        first = _NUMBERED.sub("", said[0]) if said else ""
        return re.split(r"(?<=[.;])\s", first, maxsplit=1)[0].rstrip(".;")[:80] if first else ""

    def stop_signal(self, item: _Line, items: list[tuple[Node, Node]]) -> None:
        m = _LIMIT.match(item.rest.strip())
        if m is not None and not m.group(1).isdigit() and _DURATION.match(m.group(1)):
            items.append((_s(self.path, "timeout", item.line, item.col), _s(self.path, m.group(1), item.line, 0)))
        elif _SIGNAL.match(item.rest.strip()):
            self.src.warn(item.line, f"`STOPSIGNAL {item.rest}` is the signal that stops a container, not a time "
                                     "limit: not read", "spec.unread")
        else:
            self.src.warn(item.line, f"`STOPSIGNAL {item.rest}` is no time limit (write `STOPSIGNAL deadline=20m`): "
                                     "not read", "spec.unread")

    def health(self, item: _Line, steps: list[Node]) -> None:
        """`HEALTHCHECK [opts] CMD test "$(skill.f)" = "v" && ...`: each part a step's own success check."""
        rest = item.rest
        if rest.upper().startswith("NONE"):
            return
        cmd = re.split(r"(?:^|\s)CMD\s", rest, maxsplit=1)
        body = cmd[1] if len(cmd) == 2 else rest
        for part in (p.strip() for p in re.split(r"&&|\s-a\s", body) if p.strip()):
            m = _CHECK.match(part)
            sid = self.ids.get(m.group(1)) if m is not None else None
            if m is None or sid is None:
                self.src.warn(item.line, f"the HEALTHCHECK's part '{part}' does not compare one step's output with "
                                         "a value (`test \"$(skill.field)\" = \"value\"`): not checked",
                              "spec.success")
                continue
            value = m.group(4).strip()
            said = value if _literal_tag(value) != "str" else f'"{value}"'
            check = f"{m.group(2)} {_OPS[m.group(3)]} {said}"
            node = steps[int(sid.removeprefix("step-")) - 1]
            assert isinstance(node, MappingNode)
            have = next((v for k, v in node.value if k.value == "success"), None)
            if isinstance(have, ScalarNode):
                have.value = f"{have.value} and {check}"
            else:
                node.value.append((_s(self.path, "success", item.line, 0), _s(self.path, check, item.line, 0)))
            self.src.warn(item.line, f"{sid} (`{m.group(1)}`): '{part[:60]}' is read as the run's success check "
                                     f"`{check}` on this step's output (the HEALTHCHECK names its skill): check the "
                                     "plan", "spec.success")


def read_dockerfile(src: Source) -> SpecParts:
    """Read a build-file spec (module docstring); a file with no skill step stops here."""
    from orchestrator.spec.key_comments27 import read_whole_run_comments
    from orchestrator.spec.yaml_form import read_yaml

    root = _Reader(src).read()
    read_whole_run_comments(src)  # the head's comments speak for the whole run (`key_comments27`)
    return read_yaml(src, root)
