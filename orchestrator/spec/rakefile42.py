"""A Rakefile (Ruby's `rake`) that is the spec, read field by field (never run) into the recipes of
`spec.recipes`, each line at the line it was written on:

    DAY  = ENV.fetch('DAY')              an environment variable: a workflow input (`DAY ?=`); with a
    ZONE = ENV.fetch('ZONE', 'north')    default (`ENV.fetch('X', v)`, `ENV.fetch('X') { v }`,
                                         `ENV['X'] || v`) an optional one; `.to_i` and the like dropped
    SHOP = 'Main St'                     a constant: a literal (`SHOP := Main St`)
    def skill(name, input) ... end       a helper whose body runs `skills/<name>/...`: calling it,
                                         `skill('load-rows', day: DAY)`, calls that skill
    desc 'fetch the rows'                the task's text, like a comment right above it
    task :total => [:fetch] do           a task; after `=>` (or `name: [...]`) the tasks it runs after
      # retry 3 times                    a comment inside the task: its text
      @sum = skill('sum-rows', rows: @rows['rows'])
    end

A keyword argument is an input: a constant or `ENV[...]` the workflow input or literal it stands
for, `@x` (or a local) the output of the task that set it from a skill (`@x['f']`, `@x[:f]` its
field `f`), `'text'` and numbers literals. `@list.map { |b| skill('x', code: b['code']) }` (`each`,
`collect`, `do |b|`) runs the skill once per item of the list, `b['code']` the item's field. `sh`,
`system` and backticks with one string run what the string says (`sh "skill x day=#{DAY}"`). An
argument read as none of these is said, not passed. A Rakefile none of whose tasks calls a skill
is not read here.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import PurePath

from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NAMES = frozenset(("rakefile", "rakefile.rb"))
_COMMENT = _rx(r"^\s*+#\s?(.*+)$")
_TASK = _rx(r"^(?P<indent>\s*+)(?:multi)?task\s*+\(?\s*+(?::(?P<sym>[\w-]{1,80}+)|['\"](?P<str>[\w:.-]{1,80}+)['\"]"
            r"|(?P<key>\w{1,80}+):(?!:))(?P<rest>.*+)$")
_DEP = _rx(r":(?P<sym>[\w-]{1,80}+)|['\"](?P<str>[\w:.-]{1,80}+)['\"]")
_DESC = _rx(r"^\s*+desc\s*+\(?\s*+(?:'(?P<q>[^']{0,300}+)'|\"(?P<dq>[^\"]{0,300}+)\")")
_DEF = _rx(r"^(?P<indent>\s*+)def\s++(?:self\.)?(?P<name>[a-z_]\w{0,63}+)")
_END = _rx(r"^\s*+end\b")
# `X = ENV.fetch('X')`, `X = ENV['X'] || 'v'`, `X = ENV.fetch('X', 'v').to_i`, `X = ENV.fetch('X') { 'v' }`
_ENV_CONST = _rx(r"^(?P<name>[A-Z][A-Z0-9_]{0,63}+)\s*+=\s*+ENV(?:\.fetch\s*+\(\s*+['\"](?P<a>\w{1,64}+)['\"]"
                 r"(?:\s*+,\s*+(?P<d1>[^)]{1,200}+))?+\s*+\)(?:\s*+\{\s*+(?P<d2>[^}]{1,200}+)\})?+"
                 r"|\[\s*+['\"](?P<b>\w{1,64}+)['\"]\s*+\](?:\s*+(?:\|\||\bor\b)\s*+(?P<d3>'[^']{0,200}+'|\"[^\"]{0,200}+\"|[\w.-]{1,200}+))?+)"
                 r"(?:\.to_[isf]\b|\.strip\b|\.downcase\b)*+\s*+(?:#.*+)?+$")
_CONST = _rx(r"^(?P<name>[A-Z][A-Z0-9_]{0,63}+)\s*+=\s*+(?P<value>'[^']{0,300}+'|\"[^\"#]{0,300}+\"|-?\d{1,15}+(?:\.\d{1,15}+)?+"
             r"|true|false)(?:\.freeze)?+\s*+(?:#.*+)?+$")
_ENV_REF = _rx(r"^ENV(?:\.fetch\s*+\(\s*+['\"](?P<a>\w{1,64}+)['\"][^)]{0,200}+\)|\[\s*+['\"](?P<b>\w{1,64}+)['\"]\s*+\])$")
# `@x = `, `x = `: who holds what a task's skill gave
_ASSIGNED = _rx(r"^\s*+(?P<var>@?[a-z_]\w{0,63}+)\s*+=(?!=)\s*+(?P<rhs>.*+)$")
# `@blocks.map { |b|`, `rows.each do |row|`: a loop over a list, its item's name
_LOOP = _rx(r"(?P<over>@?[a-z_]\w{0,63}+)(?:\[\s*+(?::(?P<s>\w{1,64}+)|['\"](?P<q>\w{1,64}+)['\"])\s*+\])?+"
            r"\.(?:map|each|collect|flat_map|each_with_object\([^)]{0,40}+\))\s*+(?:\{|do)\s*+\|\s*+(?P<item>[a-z_]\w{0,63}+)")
_SHELL = _rx(r"(?:^|[\s(=])(?:sh|system)\s*+\(?\s*+(?:\"(?P<dq>[^\"]{1,500}+)\"|'(?P<q>[^']{1,500}+)')|`(?P<bt>[^`]{1,500}+)`")
_VALUE_REF = _rx(r"^(?P<var>@?[A-Za-z_]\w{0,63}+)(?:\[\s*+(?::(?P<s>\w{1,64}+)|['\"](?P<q>\w{1,64}+)['\"])\s*+\]"
                 r"|\.fetch\s*+\(\s*+(?::(?P<fs>\w{1,64}+)|['\"](?P<fq>\w{1,64}+)['\"])\s*+\))?+(?:\.to_[isfa]\b|\.to_json\b)*+$")
_KEYED = _rx(r"^\s*+(?:(?P<k1>[A-Za-z_]\w{0,63}+):(?!:)|:(?P<k2>[A-Za-z_]\w{0,63}+)\s*+=>|['\"](?P<k3>[A-Za-z_][\w-]{0,63}+)['\"]\s*+(?::|=>))\s*+(?P<v>.*+)$")
_HELPER_CALL = _rx(r"\b([a-z_]\w{0,63}+)(\s*+\(\s*+|\s++)(?::([\w-]{1,80}+)|'([\w-]{1,80}+)'|\"([\w-]{1,80}+)\")")
_CALL_WORDS = frozenset(("skill", "run_skill", "call_skill", "skill_run", "invoke_skill"))
_MAX_LINES = 5000


def is_rakefile(path: str, text: str) -> bool:
    """Whether the file is a Rakefile by its name (`Rakefile`, `*.rake`) with a `task` in it."""
    p = PurePath(path)
    named = p.name.lower() in _NAMES or p.suffix.lower() == ".rake"
    return named and any(_TASK.match(line) for line in text.split("\n")[:_MAX_LINES])


def _block_end(lines: list[str], start: int, indent: int) -> int:
    """The line index of the `end` closing the block opened at `start` (by its indentation, as Ruby is
    written), or the file's end."""
    for j in range(start + 1, len(lines)):
        line = lines[j]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            return j if _END.match(line) else j - 1
    return len(lines) - 1


def _helpers(lines: list[str]) -> set[str]:
    """The methods the file defines that run a skill: their body names `skills/`."""
    out = set(_CALL_WORDS)
    for i, line in enumerate(lines):
        m = _DEF.match(line)
        if m is not None:
            end = _block_end(lines, i, len(m.group("indent")))
            if any("skills/" in x for x in lines[i:end + 1]):
                out.add(m.group("name"))
    return out


def _call(line: str, helpers: set[str]) -> tuple[str, str, int, int] | None:
    """(skill, its arguments' text, where the call starts, where it ends) of the first helper call
    on the line: `skill('name', k: v)`, `skill :name, k: v`, `run_skill("name", {k: v})`."""
    for m in _HELPER_CALL.finditer(line):
        if m.group(1) not in helpers:
            continue
        skill = m.group(3) or m.group(4) or m.group(5)
        i, depth, quote = m.end(), 0, ""
        paren = "(" in m.group(2)
        while i < len(line):
            c = line[i]
            if quote:
                quote = "" if c == quote else quote
            elif c in "'\"":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                if depth == 0:
                    break
                depth -= 1
            elif c == "#" and not paren:
                break
            i += 1
        args = line[m.end():i].strip().lstrip(",").strip()
        if args.startswith("{") and args.endswith("}"):
            args = args[1:-1]
        return skill, args, m.start(), i + (1 if paren and i < len(line) else 0)
    return None


def split_arguments(args: str) -> list[str]:
    """A call's arguments split at the top-level commas (quotes and brackets kept whole), each stripped."""
    out, depth, quote, piece = [], 0, "", ""
    for c in args:
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(piece)
            piece = ""
            continue
        piece += c
    return [p.strip() for p in [*out, piece] if p.strip()]


class _Task:
    def __init__(self, name: str) -> None:
        self.name = name
        self.item: str | None = None
        self.holder: str | None = None  # `@samples = @blocks.map do |b|`: who holds what the loop's skill gives


class _Rake:
    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.helpers = _helpers(lines)
        self.env: dict[str, str] = {}  # constant -> the environment variable it reads
        self.consts: set[str] = set()
        self.held: dict[str, tuple[str, str]] = {}  # `@x` -> (the task that set it from a skill, the field taken)
        self.loops: dict[str, tuple[str, str, str, str]] = {}
        self.feeds: dict[str, str] = {}
        self.notes: list[tuple[int, str]] = []

    def value(self, key: str, raw: str, at: int, task: _Task) -> str | None:
        """`key=...` for the recipe line, or None (said) when the Ruby value is not read."""
        text = raw.strip()
        if re.fullmatch(r"'[^']*'|\"[^\"#]*\"", text):
            return f"{key}={shlex.quote(json.dumps(text[1:-1]))}"
        if re.fullmatch(r"-?\d{1,15}(?:\.\d{1,15})?|true|false|nil", text):
            return f"{key}={'null' if text == 'nil' else text}"
        bare = text
        while bare.endswith((".to_i", ".to_s", ".to_f")):  # `ENV['WEEK'].to_i`: the value as given
            bare = bare[:-5]
        env = _ENV_REF.match(bare)
        if env is not None:
            return f"{key}={{{{{env.group('a') or env.group('b')}}}}}"
        ref = _VALUE_REF.match(text)
        if ref is not None:
            var = ref.group("var")
            field = ref.group("s") or ref.group("q") or ref.group("fs") or ref.group("fq") or ""
            if var in self.env or var in self.consts:
                return None if field else f"{key}={{{{{self.env.get(var, var)}}}}}"
            if task.item is not None and var == task.item:
                return f"{key}={{{{{var}{'.' + field if field else ''}}}}}"
            if var in self.held:
                owner, taken = self.held[var]
                if not (taken and field):
                    path = taken or field
                    return f"{key}={{{{{owner}{'.' + path if path else ''}}}}}"
        self.notes.append((at, f"task '{task.name}': the argument {key}: {text[:50]} is Ruby the reader does not "
                               "read, so it is not passed: write a constant, an `ENV.fetch('NAME')`, `@var['field']` "
                               "of a task that set it from a skill, or a quoted value"))
        return None

    def body_line(self, i: int, line: str, task: _Task) -> str:
        loop = _LOOP.search(line)
        if loop is not None:
            over, field = loop.group("over"), loop.group("s") or loop.group("q") or ""
            held = self.held.get(over)
            if held is not None and not (held[1] and field):
                self.loops[task.name] = (over, held[1] or field, "", loop.group("item"))
                self.feeds[over] = held[0]
            task.item = loop.group("item")
            before = _ASSIGNED.match(line[:loop.start()])
            task.holder = before.group("var") if before is not None else task.holder
        shell = _SHELL.search(line)
        call = _call(line, self.helpers)
        if call is None and shell is not None:
            command = shell.group("dq") or shell.group("q") or shell.group("bt") or ""
            command = re.sub(r"#\{\s*([A-Za-z_@]\w*)\s*\}", lambda m: "{{" + self.env.get(m.group(1), m.group(1)).lstrip("@") + "}}", command)
            return "\t" + " ".join(command.split())
        if call is None:
            return ""
        skill, args, start, end = call
        words = [f"skill {skill}"]
        for arg in split_arguments(args):
            keyed = _KEYED.match(arg)
            if keyed is None:
                self.notes.append((i + 1, f"task '{task.name}': the argument '{arg[:50]}' of `{skill}` has no name, so "
                                          "it is not passed: write `name: value`"))
                continue
            said = self.value(keyed.group("k1") or keyed.group("k2") or keyed.group("k3"), keyed.group("v"), i + 1, task)
            if said is not None:
                words.append(said)
        assigned = _ASSIGNED.match(line[:start])
        rest = line[end:]
        if assigned is not None:
            taken = re.match(r"\s*+\[\s*+(?::(\w{1,64}+)|['\"](\w{1,64}+)['\"])\s*+\]", rest)
            self.held[assigned.group("var")] = (task.name, (taken.group(1) or taken.group(2)) if taken else "")
        elif task.holder is not None:
            self.held[task.holder] = (task.name, "")
        return "\t" + " ".join(words)

    def read(self) -> list[str] | None:
        lines, out = self.lines, [""] * len(self.lines)
        i = 0
        tasks = 0
        while i < len(lines):
            line = lines[i]
            comment, task, desc = _COMMENT.match(line), _TASK.match(line), _DESC.match(line)
            if comment is not None:
                out[i] = "# " + comment.group(1)
            elif desc is not None:
                out[i] = "# " + (desc.group("q") or desc.group("dq") or "")
            elif (env := _ENV_CONST.match(line)) is not None:
                name = env.group("a") or env.group("b")
                self.env[env.group("name")] = name
                default = env.group("d1") or env.group("d2") or env.group("d3") or ""
                out[i] = f"{name} ?= {default.strip().strip(chr(39) + chr(34))}".rstrip()
            elif (const := _CONST.match(line)) is not None:
                self.consts.add(const.group("name"))
                out[i] = f"{const.group('name')} := {const.group('value').strip(chr(39) + chr(34))}"
            elif task is not None:
                tasks += 1
                name = task.group("sym") or task.group("str") or task.group("key")
                rest = task.group("rest")
                rest = re.sub(r"^\s*+,\s*+\[[^\]]{0,200}+\]", "", rest)  # `task :x, [:arg] => ...`
                head = re.split(r"\bdo\b|\{", rest, maxsplit=1)[0]
                deps = [d.group("sym") or d.group("str") for d in _DEP.finditer(head.split("=>", 1)[-1] if "=>" in head
                                                                                  else head if task.group("key") else "")]
                out[i] = f"{name.replace(':', '-')}: {' '.join(d.replace(':', '-') for d in deps)}".rstrip()
                if re.search(r"\bdo\b|\{", rest):
                    end = _block_end(lines, i, len(task.group("indent")))
                    here = _Task(name.replace(":", "-"))
                    for j in range(i + 1, end + 1):
                        inner = _COMMENT.match(lines[j])
                        if inner is not None:
                            out[j] = "\t# " + inner.group(1)
                        elif not _END.match(lines[j]) or j != end:
                            out[j] = self.body_line(j, lines[j], here)
                    i = end
            elif (d := _DEF.match(line)) is not None:  # a helper's body is plumbing, not read
                i = _block_end(lines, i, len(d.group("indent")))
            i += 1
        return out if tasks else None


def rakefile_lines(lines: list[str]) -> tuple[list[str], dict[str, tuple[str, str, str, str]], dict[str, str],
                                               tuple[tuple[int, str], ...]] | None:
    """The Rakefile `lines` as recipe-file lines (module docstring; each at its own line), the loops
    (task -> (the list's holder, its field, "", the item's name)), who holds each list (`@x` -> task),
    and what was not read ((line, why)); None when it has no task."""
    if len(lines) > _MAX_LINES or not any(_TASK.match(x) for x in lines):
        return None
    rake = _Rake(lines)
    out = rake.read()
    if out is None:
        return None
    return out, rake.loops, rake.feeds, tuple(rake.notes)


# a task's comment "wait 15s then double each time", "pause 5s and double it every try": a backoff from the wait said
EARLY: tuple[Row, ...] = (
    Row("exponential", r"(?<!\w)(?:then\s+|and\s+)?double(?:\s+(?:it|that|them|the\s+(?:wait|delay|pause|gap)))?"
        r"\s+(?:each|every|after\s+each|after\s+every)\s+(?:time|retry|try|go|attempt|failure)\b"),
)
GATES = {"EARLY": r"|double"}


_rx.save()
