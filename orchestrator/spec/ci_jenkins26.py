"""A declarative Jenkinsfile whose stages call skills, read as the YAML form's steps.

    pipeline {
      options { timeout(time: 25, unit: 'MINUTES') }        // the whole run's limit
      parameters { string(name: 'CURRENT_VERSION', defaultValue: 'v4.7.2') }   // an input
      stages {
        stage('Bump') {
          steps {
            // 2 retries, sleep 15s between                  (the stage's own policy text)
            skill 'version-bump', current: params.CURRENT_VERSION, level: changelog.bump
          }
        }
        stage('Tag') {
          when { expression { licences.violation_count == 0 } }   // the step's condition
          ...
        stage('Legal') {
          when { not { expression { licences.violation_count == 0 } } }   // Tag's otherwise

Each `skill 'name', key: value` (or `skill('name', key: value)`) is a step named by its stage;
`params.X` is the input X, `Stage.field` that stage's output, a quoted value a literal. The
`parameters` block's `string`/`text`/`booleanParam`/`choice` are the inputs (their
`defaultValue`, `description`); `options { timeout(time: N, unit: U) }` the run's limit. A
`// comment` inside a stage is that stage's text (its policies); the comments before `pipeline`
are the header (title, the run's limit and success check). `when { expression { c } }` is the
step's condition; `when { not { expression { c } } }` with c an earlier stage's condition is that
stage's otherwise, else the condition `not (c)`. Stages of a `parallel { }` do not wait for each
other; a step waits for the stages it reads (the YAML form's references).
"""

from __future__ import annotations

from pathlib import PurePath

from yaml.error import Mark
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from orchestrator.spec.check import SpecParts
from orchestrator.spec.model import SpecText, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.source import Source

_rx = Patterns(__name__)

_TAG = "tag:yaml.org,2002:"
_PIPELINE = _rx(r"(?m)^[ \t]*+pipeline[ \t]*+\{")
_STAGE = _rx(r"\bstage[ \t]*+\([ \t]*+['\"]([^'\"\n]++)['\"][ \t]*+\)")
_SKILL = _rx(r"^[ \t]*+skill[ \t]*+\(?[ \t]*+['\"]([\w.-]++)['\"][ \t]*+(?:,(.*))?$")
_PARAM = _rx(r"^[ \t]*+(string|text|booleanParam|choice|password)[ \t]*+\((.*)\)[ \t]*+$")
_ARG = _rx(r"(?<!\w)(\w++)[ \t]*+:[ \t]*+('[^'\n]*+'|\"[^\"\n]*+\"|\[[^\]\n]*+\]|[^,\n]++)")
_TIMEOUT = _rx(r"\btimeout[ \t]*+\((.*)\)")
_WHEN_NOT = _rx(r"\bwhen[ \t]*+\{[ \t]*+not[ \t]*+\{[ \t]*+expression[ \t]*+\{(.*?)\}[ \t]*+\}[ \t]*+\}")
_WHEN = _rx(r"\bwhen[ \t]*+\{[ \t]*+expression[ \t]*+\{(.*?)\}[ \t]*+\}")
_PARAMS_REF = _rx(r"^params\.(\w++)$")
_DOTTED = _rx(r"^([A-Za-z_][\w-]*+)\.([\w.]++)$")


def is_jenkinsfile(path: str, text: str) -> bool:
    """Whether the file is a declarative Jenkinsfile (by its name or a `pipeline {` block) calling skills."""
    named = "jenkinsfile" in PurePath(path).name.lower()
    body = _PIPELINE.search(text) is not None and "stages" in text
    return (named or body) and any(_SKILL.match(_code(line)) for line in text.splitlines())


def _code(line: str) -> str:
    """The line without its `//` comment (not inside quotes)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif line.startswith("//", i):
            return line[:i].rstrip()
    return line.rstrip()


def _comment(line: str) -> str:
    code = _code(line)
    rest = line[len(code):].strip()
    return rest[2:].strip() if rest.startswith("//") else ""


def _mark(path: str, line: int) -> Mark:
    return Mark(path, 0, max(line, 1) - 1, 0, None, None)


def _s(value: str, path: str, line: int) -> ScalarNode:
    mark = _mark(path, line)
    return ScalarNode(f"{_TAG}str", value, mark, mark, style='"')


def _map(pairs: list[tuple[Node, Node]], path: str, line: int) -> MappingNode:
    mark = _mark(path, line)
    return MappingNode(f"{_TAG}map", pairs, mark, mark)


def _args(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2).strip()) for m in _ARG.finditer(text or "")]


def _value(raw: str, renamed: dict[str, str] | None = None) -> str:
    """`params.X` → `{{ inputs.X }}`; `Stage.f` → `{{ Stage.f }}`; a quoted value → its text."""
    if raw[:1] in "'\"" and raw[-1:] == raw[:1]:
        return raw[1:-1]
    if (m := _PARAMS_REF.match(raw)) is not None:
        return f"{{{{ inputs.{renamed.get(m.group(1), m.group(1)) if renamed else m.group(1)} }}}}"
    if _DOTTED.match(raw):
        return f"{{{{ {raw} }}}}"
    return raw


def read_jenkinsfile(src: Source) -> SpecParts | None:
    """The parts of a declarative Jenkinsfile (module docstring), or None when it calls no skill."""
    from orchestrator.spec.yaml_form import read_yaml

    path, lines = src.path, src.lines
    stack: list[tuple[str, int]] = []  # (kind, depth): "stage:<name>", "params", "options", "other"
    depth = 0
    steps: list[tuple[int, str, str, list[tuple[str, str]]]] = []  # line, stage, skill, args
    texts: dict[str, list[SpecText]] = {}
    whens: dict[str, tuple[int, str, bool]] = {}
    inputs: list[tuple[Node, Node]] = []
    header: list[tuple[int, str]] = []
    prose = [""] * len(lines)
    started = False
    last_said: dict[str, int] = {}
    together: set[str] = set()  # the stages of a `parallel { }` block
    renamed: dict[str, str] = {}  # CURRENT_VERSION -> current_version
    for n, line in enumerate(lines, 1):
        code, said = _code(line), _comment(line)
        stage = next((k[6:] for k, _ in reversed(stack) if k.startswith("stage:")), None)
        if said:
            prose[n - 1] = said
            if not started:
                header.append((n, said))
            elif stage is not None:
                own = texts.setdefault(stage, [])
                if own and last_said.get(stage) == n - 1 and not code.strip():
                    own[-1] = own[-1].model_copy(update={"text": f"{own[-1].text} {said}"})  # a comment block
                else:
                    own.append(SpecText(text=said, line=n))
                last_said[stage] = n
        started = started or _PIPELINE.match(code) is not None
        inside = {k for k, _ in stack}
        if (m := _SKILL.match(code)) is not None and stage is not None:
            steps.append((n, stage, m.group(1), _args((m.group(2) or "").rstrip(") "))))
            if "parallel" in inside:
                together.add(stage)
        elif "params" in inside and (m := _PARAM.match(code)) is not None:
            args = dict(_args(m.group(2)))
            name = _value(args.get("name", ""))
            if name and name.lower() != name and name.upper() == name:
                src.warn(n, f"the parameter {name} is written as an environment variable: it is read as the input "
                            f"`{name.lower()}` (give it under that name)", "spec.inputs")
                renamed[name] = name.lower()
                name = name.lower()
            if name:
                spec: list[tuple[Node, Node]] = []
                if "defaultValue" in args:
                    spec.append((_s("default", path, n), _s(_value(args["defaultValue"]), path, n)))
                if "description" in args:
                    spec.append((_s("description", path, n), _s(_value(args["description"]), path, n)))
                inputs.append((_s(name, path, n), _map(spec, path, n)))
        elif "options" in inside and (m := _TIMEOUT.search(code)) is not None:
            args = dict(_args(m.group(1)))
            said_limit = f"timeout {args.get('time', '')} {_value(args.get('unit', 'MINUTES')).lower()}"
            read_run_limit(f"whole run: {said_limit}. {said}".strip(), n, src, who="whole run")
        if stage is not None and (m := _WHEN_NOT.search(code)) is not None:
            whens[stage] = (n, m.group(1).strip(), True)
        elif stage is not None and (m := _WHEN.search(code)) is not None:
            whens[stage] = (n, m.group(1).strip(), False)
        for ch in code.replace("{", " { ").replace("}", " } ").split():
            if ch == "{":
                depth += 1
                kind = "other"
                head = code.split("{", 1)[0]
                if (sm := _STAGE.search(head)) is not None and not any(k == f"stage:{sm.group(1)}" for k, _ in stack):
                    kind = f"stage:{sm.group(1)}"
                elif head.strip() == "parameters":
                    kind = "params"
                elif head.strip() == "options":
                    kind = "options"
                elif head.strip() == "parallel":
                    kind = "parallel"
                stack.append((kind, depth))
            elif ch == "}":
                if stack and stack[-1][1] == depth:
                    stack.pop()
                depth -= 1
    if not steps:
        return None
    items: list[tuple[Node, Node]] = []
    conditions: dict[str, str] = {}
    for n, stage, skill, call in steps:
        pairs: list[tuple[Node, Node]] = [(_s("id", path, n), _s(stage, path, n)),
                                          (_s("skill", path, n), _s(skill, path, n))]
        if call:
            pairs.append((_s("with", path, n), _map([(_s(k, path, n), _s(_value(v, renamed), path, n)) for k, v in call],
                                                   path, n)))
        names = {stage for _, stage, _, _ in steps}
        reads = any((d := _DOTTED.match(v)) is not None and d.group(1) in names for _, v in call)
        if stage in together and not reads and stage not in whens:  # starts with the others of its parallel block
            pairs.append((_s("needs", path, n), SequenceNode(f"{_TAG}seq", [], _mark(path, n), _mark(path, n))))
        if stage in whens:
            at, cond, negated = whens[stage]
            other = next((s for s, c in conditions.items() if c == cond), None) if negated else None
            if other is not None:
                pairs.append((_s("otherwise", path, at), _s(other, path, at)))
            else:
                pairs.append((_s("when", path, at), _s(f"not ({cond})" if negated else cond, path, at)))
                if not negated:
                    conditions[stage] = cond
        items.append(((_s("_", path, n)), _map(pairs, path, n)))
    step_seq = [v for _, v in items]

    first = steps[0][0]
    root_pairs: list[tuple[Node, Node]] = []
    if inputs:
        root_pairs.append((_s("inputs", path, inputs[0][0].start_mark.line + 1), _map(inputs, path, 1)))
    root_pairs.append((_s("steps", path, first), SequenceNode(f"{_TAG}seq", step_seq, _mark(path, first),
                                                              _mark(path, first))))
    src.text = "\n".join(prose)
    src.lines = list(prose)
    parts = read_yaml(src, _map(root_pairs, path, 1))
    out: list[StepSpec] = []
    for step in parts.steps:
        own = texts.get(step.id, []) or texts.get(step.name, [])
        out.append(step.model_copy(update={"texts": (*step.texts, *own)}))
    title = header[0][1] if header else parts.title
    for at_line, said_text in header:
        read_run_limit(said_text, at_line, src, who="whole run")
    return parts.model_copy(update={"steps": tuple(out), "title": parts.title or title})


_rx.save()
