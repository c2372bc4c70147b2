"""A Gradle build script that is the spec (`build.gradle.kts` in Kotlin, `build.gradle` in Groovy), read
statement by statement (never run) into the recipes of `spec.recipes`, each line at the line it was
written on, as a Rakefile is (`spec.rakefile42`):

    val day: String by project                  a project property (`-Pday=...`): a workflow input (`day ?=`);
    val zone = findProperty("zone") ?: "north"     with `?: v` (`.getOrElse(v)`) an optional one
    val runner = "tools/run-skill"               a constant: a literal (`runner := tools/run-skill`)
    // the sensor hub is slow: 2 min cap         a comment: the task's text when inside (or right above) it
    tasks.register<Exec>("staffing") {          a task (`task("x")`, `task x(type: Exec)`, `val x by
        dependsOn("bookings", "props")             tasks.registering`); `dependsOn` the tasks it runs after
        commandLine(runner, "plan-staff", "groups=@bookings.groups", "day=$day", "cap=3")
    }                                              its command: a runner whose name says skill (`run-skill`,
                                                   `skill`) then the skill's name, or a path into `skills/`;
                                                   `executable` + `args(...)` the same

An argument `key=value` is an input: `$day` / `${day}` / a bare property name the workflow input,
`@task.field` (or `task.field`) the output `field` of that task, anything else a literal. A task whose
command calls no skill but that runs after others (`tasks.register("all") { dependsOn("rota") }`) is
the run itself: its comments are read as the whole run's (its limit, when it is done), and its
`timeout.set(Duration.ofMinutes(15))` the whole run's limit; in a task that calls a skill that timeout
is the step's. A statement inside a task that is none of these is said, not read. A script none of
whose tasks calls a skill is not read here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import PurePath

from orchestrator.spec.rakefile42 import split_arguments
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MAX_LINES = 5000  # a longer file is refused before it is read (`spec.foreign_length53`)
_NAME = r"[A-Za-z_][\w-]{0,80}+"
# `tasks.register<Exec>("x") {`, `tasks.register("x", Exec::class) {`, `tasks.create("x")`, `task("x") {`,
# `task<Exec>("x")`, Groovy `task x(type: Exec) {`, `task x {`, `task('x', type: Exec)`
_TASK = _rx(r"^\s*+(?:tasks\s*+\.\s*+(?:register|create|maybeCreate)|task)\s*+(?:<[\w.:]{1,80}+>)?\s*+"
            r"(?:\(\s*+['\"](?P<q>" + _NAME + r")['\"]|(?P<g>" + _NAME + r")\s*+[({])")
# `val x by tasks.registering(Exec::class) {`, `val x by tasks.creating {`
_REGISTERING = _rx(r"^\s*+val\s++(?P<name>" + _NAME + r")\s++by\s++tasks\s*+\.\s*+(?:registering|creating)\b")
# `val venue: String by project`, `val venue by project`
_BY_PROJECT = _rx(r"^\s*+(?:val|var)\s++(?P<name>[A-Za-z_]\w{0,63}+)\s*+(?::\s*+[\w.?<>]{1,40}+\s*+)?by\s++project\s*+$")
# `val v = project.property("v") as String`, `findProperty("v") as String? ?: "d"`, `(findProperty("v") ?: "d")`,
# `providers.gradleProperty("v").get()`, `.getOrElse("d")`, `.orElse("d").get()`, `System.getenv("V") ?: "d"`
_PROPERTY = _rx(r"^\s*+(?:val|var|def)\s++(?P<name>[A-Za-z_]\w{0,63}+)\s*+(?::\s*+[\w.?<>]{1,40}+\s*+)?=\s*+\(?\s*+"
                r"(?:project\s*+\.\s*+|providers\s*+\.\s*+|System\s*+\.\s*+)?"
                r"(?P<how>property|findProperty|gradleProperty|getenv|environmentVariable)\s*+\(\s*+['\"](?P<prop>[\w.-]{1,64}+)['\"]\s*+\)"
                r"(?P<rest>.{0,200}+)$")
_DEFAULT = _rx(r"(?:\?:|getOrElse\s*+\(|orElse\s*+\()\s*+(?P<d>\"[^\"]{0,200}+\"|'[^']{0,200}+'|-?\d{1,15}+(?:\.\d{1,15}+)?+|true|false)")
# `val runner = "tools/run-skill"`, `const val CAP = 3`
_CONST = _rx(r"^\s*+(?:const\s++)?(?:val|var|def)\s++(?P<name>[A-Za-z_]\w{0,63}+)\s*+(?::\s*+[\w.?]{1,40}+\s*+)?=\s*+"
             r"(?P<value>\"[^\"$]{0,300}+\"|'[^']{0,300}+'|-?\d{1,15}+(?:\.\d{1,15}+)?+|true|false)\s*+$")
_CALL = _rx(r"^\s*+(?P<what>dependsOn|commandLine|args|setArgs|executable|setCommandLine|description|timeout)"
            r"(?:\s*+\.\s*+set)?(?P<how>\s*+[(=]|\s++)")
_DURATION = _rx(r"Duration\s*+\.\s*+of(?P<unit>Seconds|Minutes|Hours|Millis)\s*+\(\s*+(?P<n>\d{1,9}+)[lL]?\s*+\)")
_PLAIN = _rx(r"^\s*+(?:\}\s*+)?(?:(?:doLast|doFirst|exec|project\s*+\.\s*+exec)\s*+\{|\}|\{|\)|\]|group\s*+=.*+"
             r"|group\s*+\(.*+|isIgnoreExitValue\s*+=\s*+false)\s*+$")
_REF = _rx(r"^@?(?P<task>[A-Za-z_][\w-]{0,80}+)\.(?P<field>[A-Za-z_]\w{0,63}+)$")
_TEMPLATE = _rx(r"\$\{\s*+(?P<a>[A-Za-z_]\w{0,63}+)\s*+\}|\$(?P<b>[A-Za-z_]\w{0,63}+)")
_TASK_REF = _rx(r"^(?:tasks\s*+\.\s*+(?:named|getByName)\s*+\(\s*+)?['\"]:?(?P<q>[\w-]{1,80}+)['\"]\s*+\)?$"
                r"|^(?P<bare>[A-Za-z_]\w{0,80}+)$")
_RUNNERS = frozenset(("skill", "run-skill", "run_skill", "runskill", "call-skill", "skill-run", "invoke-skill"))


def is_gradle(path: str) -> bool:
    """Whether the file's name says Gradle: `*.gradle.kts`, `*.gradle`."""
    name = PurePath(path).name.lower()
    return name.endswith((".gradle.kts", ".gradle"))


def _code(line: str) -> tuple[str, str]:
    """(the code, the `//` comment's text) of a line, quote-aware (`"http://x"` is no comment)."""
    quote = ""
    for i, c in enumerate(line):
        if quote:
            quote = "" if c == quote and line[i - 1] != "\\" else quote
        elif c in "'\"":
            quote = c
        elif c == "/" and line[i + 1:i + 2] == "/":
            return line[:i], line[i + 2:].strip()
    return line, ""


def _braces(code: str) -> int:
    """The braces a line of code opens minus those it closes (quote-aware; `${x}` in a string is none)."""
    depth, quote = 0, ""
    for i, c in enumerate(code):
        if quote:
            quote = "" if c == quote and code[i - 1] != "\\" else quote
        elif c in "'\"":
            quote = c
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
    return depth


def _arguments(code: str, how: str) -> str:
    """The text of a call's arguments: `f(a, b)`, `f = listOf(a, b)`, Groovy `f a, b`."""
    rest = code[code.index(how) + 1:].strip() if how in "(=" else code.strip().split(None, 1)[-1]
    if how == "(":
        rest = rest[:rest.rindex(")")] if ")" in rest else rest
    list_of = re.match(r"^(?:listOf|mutableListOf|arrayOf|\[)\s*\(?(.*?)\)?\]?\s*$", rest, re.S)
    return list_of.group(1) if list_of is not None and how == "=" else rest


class _Script:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.props: dict[str, str] = {}  # the val -> the project property (workflow input) it reads
        self.consts: dict[str, str] = {}  # the val -> its literal value
        self.tasks: set[str] = set()
        self.notes: list[tuple[int, str]] = []
        self.out = [""] * len(lines)

    def word(self, raw: str, at: int, task: str) -> str | None:
        """One command-line argument as a recipe word, or None (said) when it is Kotlin not read."""
        text = raw.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            value = text[1:-1]
            single = text[0] == "'"  # Groovy's '...' has no templates
        elif re.fullmatch(r"-?\d{1,15}(?:\.\d{1,15})?|true|false", text):
            return text
        elif text in self.props or text in self.consts:
            value, single = "${" + text + "}", False
        else:
            self.notes.append((at, f"task '{task}': the argument {text[:50]} is Kotlin the reader does not read, so it is "
                                   "not passed: write a quoted \"key=value\", \"key=$property\" or \"key=@task.field\""))
            return None

        def sub(m: re.Match[str]) -> str:
            name = m.group("a") or m.group("b")
            if name in self.consts:
                return self.consts[name]
            return "{{" + self.props.get(name, name) + "}}"

        value = value if single else _TEMPLATE.sub(sub, value)
        key, eq, rhs = value.partition("=")
        ref = _REF.match(rhs) if eq else None
        if ref is not None and ref.group("task") in self.tasks:
            return f"{key}={{{{{ref.group('task')}.{ref.group('field')}}}}}"
        if eq and rhs and not re.fullmatch(r"[\w.:/@{}-]*+", rhs):
            return f"{key}={shlex.quote(rhs)}"
        return value if re.fullmatch(r"[\w.:/@{}=-]*+", value) else shlex.quote(value)

    def command(self, words: list[str]) -> str:
        """The recipe line of a command: a runner whose name says skill becomes `skill <name> ...`."""
        if not words:
            return ""
        program = PurePath(words[0]).name.lower()
        program = program.rsplit(".", 1)[0] if "." in program else program
        if program in _RUNNERS and len(words) > 1:
            return " ".join(["skill", *words[1:]])
        return " ".join(words)

    def statement(self, code: str, at: int, end: int, task: str, state: dict[str, object]) -> None:
        """One statement of a task's block (`code` spans lines `at`..`end`, 0-based)."""
        call = _CALL.match(code)
        if call is None:
            if not _PLAIN.match(code) and code.strip():
                self.notes.append((at + 1, f"task '{task}': `{' '.join(code.split())[:60]}` is Gradle the reader does "
                                           "not read: it is not in the plan"))
            return
        what, how = call.group("what"), call.group("how").strip() or " "
        args = split_arguments(_arguments(code, how))
        if what == "dependsOn":
            for a in args:
                m = _TASK_REF.match(a)
                name = (m.group("q") or m.group("bare")) if m is not None else None
                if name is None:
                    self.notes.append((at + 1, f"task '{task}': the dependency {a[:50]} is not read: write dependsOn(\"task\")"))
                    continue
                state["deps"] = [*state["deps"], name]  # type: ignore[misc]
        elif what == "description":
            said = args[0].strip("\"'") if args else ""
            self.out[at] = f"\t# {said}" if said else ""
        elif what == "timeout":
            m = _DURATION.search(code)
            if m is None:
                self.notes.append((at + 1, f"task '{task}': the timeout `{code.strip()[:50]}` is not read: write "
                                           "timeout.set(Duration.ofMinutes(N))"))
                return
            unit = {"Seconds": "seconds", "Minutes": "minutes", "Hours": "hours", "Millis": "milliseconds"}[m.group("unit")]
            state["timeout"] = (at, f"{m.group('n')} {unit}")
        else:
            words = [w for a in args if (w := self.word(a, at + 1, task)) is not None]
            if what == "executable":
                state["exe"] = words[:1]
            elif what in ("args", "setArgs"):
                state["args"] = [*state["args"], *words]  # type: ignore[misc]
            else:
                state["cmd"] = words
            state["at"] = state.get("at", at)

    def block(self, start: int, name: str) -> int:
        """The task block opening at line `start` into its recipe; the index of its last line."""
        lines = self.lines
        code, _ = _code(lines[start])
        depth = _braces(code)
        end = start
        if depth > 0:
            for j in range(start + 1, len(lines)):
                depth += _braces(_code(lines[j])[0])
                if depth <= 0:
                    end = j
                    break
            else:
                end = len(lines) - 1
        state: dict[str, object] = {"deps": [], "args": [], "exe": [], "cmd": []}
        head = code[code.index("{") + 1:] if "{" in code else ""
        inner = [(start, head)] if head.strip().rstrip("}").strip() else []
        trailed: list[tuple[int, str]] = []
        j = start + 1
        while j <= end:
            piece, comment = _code(lines[j])
            if j == end:
                piece = piece[:piece.rindex("}")] if "}" in piece else piece
            if comment and not piece.strip():
                self.out[j] = f"\t# {comment}"
            elif comment:
                trailed.append((j, comment))
            joined, last = piece, j
            while joined.count("(") > joined.count(")") and last < end:  # a call over several lines
                last += 1
                joined += " " + _code(self.lines[last])[0]
            if joined.strip():
                inner.append((j, joined))
            j = last + 1
        for at, text in inner:
            for part in text.split(";"):
                if part.strip():
                    self.statement(part, at, at, name, state)
        command = state["cmd"] or (state["exe"] + state["args"] if state["exe"] else [])  # type: ignore[operator]
        deps = [d for d in state["deps"] if isinstance(d, str)]  # type: ignore[attr-defined]
        said = _code(lines[start])[1]
        self.out[start] = f"{name}: {' '.join(deps)}".rstrip() + (f" # {said}" if said else "")
        recipe = self.command(command)  # type: ignore[arg-type]
        placed: list[tuple[int, str]] = []
        if recipe:
            placed.append((int(state["at"]), f"\t{recipe}"))  # type: ignore[call-overload]
        timeout = state.get("timeout")
        if isinstance(timeout, tuple):
            whole = not recipe and deps  # an aggregate task's timeout bounds the tasks it runs: the run
            placed.append((timeout[0], f"\t# the whole run gets {timeout[1]} at most" if whole else f"\t# timeout {timeout[1]}"))
        placed += [(at, f"\t# {trailing}") for at, trailing in trailed]  # `commandLine(...)  // 3 retries`
        for at, text in placed:  # each at its line, else the next free line of the block (a one-line block: none)
            free = next((k for k in range(at, end + 1) if k != start and not self.out[k]), None)
            if free is None:
                self.notes.append((at + 1, f"task '{name}': '{text.strip()[:50]}' shares its line with another "
                                           "statement, so it is not read: put it on a line of its own"))
            else:
                self.out[free] = text
        return end

    def read(self) -> list[str] | None:
        lines = self.lines
        for line in lines:  # every task's name first: `@task.field` may name a task written further down
            m = _TASK.match(line) or _REGISTERING.match(line)
            if m is not None:
                self.tasks.add(m.group("name") if "name" in m.groupdict() else (m.group("q") or m.group("g")))
        i, depth = 0, 0
        while i < len(lines):
            code, comment = _code(lines[i])
            task = _TASK.match(code) if depth == 0 else None
            reg = _REGISTERING.match(code) if depth == 0 else None
            if task is not None or reg is not None:
                name = reg.group("name") if reg is not None else (task.group("q") or task.group("g"))  # type: ignore[union-attr]
                i = self.block(i, name) + 1
                continue
            if comment and not code.strip():
                self.out[i] = f"# {comment}"
            elif depth == 0 and (prop := _BY_PROJECT.match(code)) is not None:
                self.props[prop.group("name")] = prop.group("name")
                self.out[i] = f"{prop.group('name')} ?="
            elif depth == 0 and (prop2 := _PROPERTY.match(code)) is not None:
                name = prop2.group("prop").lower() if prop2.group("how") in ("getenv", "environmentVariable") \
                    else prop2.group("prop")
                self.props[prop2.group("name")] = name
                d = _DEFAULT.search(prop2.group("rest"))
                self.out[i] = f"{name} ?= {d.group('d').strip(chr(39) + chr(34)) if d else ''}".rstrip()
            elif depth == 0 and (const := _CONST.match(code)) is not None:
                value = const.group("value").strip("\"'")
                self.consts[const.group("name")] = value
                self.out[i] = f"{const.group('name')} := {value}"
            elif depth == 0 and re.search(r"\b(?:dependsOn|commandLine)\b", code):
                self.notes.append((i + 1, f"`{' '.join(code.split())[:60]}` is outside every task block, so it is not "
                                           "read: write it inside the task's `tasks.register(...) { }`"))
            depth = max(0, depth + _braces(code))
            i += 1
        return self.out if self.tasks else None


def gradle_lines(lines: list[str]) -> tuple[list[str], tuple[tuple[int, str], ...]] | None:
    """The Gradle script `lines` as recipe-file lines (module docstring; each at its own line) and
    what was not read ((line, why)); None when it registers no task."""
    if len(lines) > _MAX_LINES or not any(_TASK.match(x) or _REGISTERING.match(x) for x in lines):
        return None
    script = _Script(lines)
    out = script.read()
    return None if out is None else (out, tuple(script.notes))


_rx.save()
