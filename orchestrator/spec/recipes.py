"""A task-runner recipe file (a Makefile, a justfile) in a spec, read as the steps.

The file is found in a fenced block whose info string names it (`just`, `make`,
`makefile`, ...; a fenced Taskfile is read as one, `spec.taskfile`) or, in a fence without one or bare in the document, as lines that are all
recipe-file lines with at least two recipes whose body calls a skill. In it:

    raw := env_var("RAW")          a variable: a workflow input (`raw`), when it comes from the
    DAY ?=                         environment or is left empty; a constant otherwise
    # retry it 3 times, 5s apart   the comment right above a recipe is that recipe's text
    load: fetch other              a recipe; after the colon, the recipes it depends on
        skill load-rows src="{{raw}}" n=3
                                   its body calls a skill (`skill <name>`, `run-skill <name>`,
                                   `skills/<name>/...`): the recipe is a step running it, and each
                                   `key=value` is an input: `{{raw}}`/`$(RAW)`/`${RAW}` a workflow
                                   input, `{{fetch.rows}}` the output `rows` of the recipe `fetch`,
                                   anything else a literal value

A recipe with no body (`default: all`) or only `echo` lines is not a step; an echo that says
when the run counts as good ("it only counts if publish printed ok=true") is a success check
on the step it names (else the step the recipe depends on). A recipe whose body runs a shell
command but calls no skill is not a step either: a warning at its line says what to write. A
comment that is not right above a recipe is commentary unless it states a whole-run limit
("the whole thing dies after 40 minutes"), which is read; one that states another policy is a
warning saying to put it above its recipe.
"""

from __future__ import annotations

import json
import re

from pydantic import BaseModel, ConfigDict

from orchestrator.spec.call_args import call_arguments
from orchestrator.spec.gradle49 import gradle_lines
from orchestrator.spec.justfile35 import (
    is_justfile,
    just_default,
    piped_arguments,
    piped_skill,
    skill_segment,
    written_file,
)
from orchestrator.spec.make_targets import (
    assigned_value,
    file_header,
    jq_arguments,
    pipeline_skill,
    skill_command,
    whole_file,
)
from orchestrator.spec.model import FieldSpec, InputSpec, Mention, Reading, SpecText, StepSpec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.prose import read_sentence
from orchestrator.spec.rakefile42 import rakefile_lines
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source
from orchestrator.spec.taskfile import taskfile_lines, taskfile_loops
from orchestrator.spec.whole_limit import has_limit, record_limit, whole_limit

# the info strings of a fenced recipe file
FENCE_KINDS = frozenset(("just", "justfile", "make", "makefile", "mk", "gnumake", "bmake", "mage", "taskfile"))
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FENCE_OPEN = _rx(r"^\s{0,3}(```+|~~~+)\s*([\w.+-]*)")
_COMMENT = _rx(r"^\s*#+\s?(.*)$")
_ASSIGN = _rx(r"^(?:export\s+|override\s+)?(?P<name>[A-Za-z_]\w*)\s*(?P<op>::=|:=|\?=|\+=|!=|=)\s*(?P<value>.*?)\s*(?:#.*)?$")
_HEADER = _rx(r"^@?(?P<name>[A-Za-z_][\w-]*)(?P<params>(?:\s+[$+*]?[A-Za-z_][\w-]*(?:=(?:\"[^\"]*\"|'[^']*'|\S+))?)*)"
              r"\s*:(?![=:])(?P<deps>[^#=]*?)\s*(?:#+\s?(?P<comment>.*))?$")
_DIRECTIVE = _rx(r"^(?:\.[A-Z_]+\s*:|set\s+[\w-]+|alias\s+|import\s+|mod\s+|include\s+|-include\s+|export\s+[A-Za-z_]\w*\s*$"
                 r"|ifn?(?:eq|def)\b|else\b|endif\b|\[[\w(), \"'-]+\]\s*$)")
_BODY = _rx(r"^(?:\t|\s{2,})\S")
# how a recipe's body calls a skill: a command word before its name, or a path into skills/
SKILL_CALLS: tuple[str, ...] = (
    r"^(?:skillweave\s+)?(?:skill|run-skill|call-skill|skill-run|run_skill)\s+(?P<name>[a-z0-9][\w-]*)",
    r"^(?:\$\(\w*SKILL\w*\)|\$\{\w*SKILL\w*\}|\{\{\s*\w*skill\w*\s*\}\})\s+(?P<name>[a-z0-9][\w-]*)",
    r"^(?:[\w.-]+\s+){0,2}(?:\./)?skills/(?P<name>[a-z0-9][\w-]*)(?:/\S*)?",
)
_SKILL_CALL = tuple(re.compile(p, re.I) for p in SKILL_CALLS)
_ECHO = _rx(r"^(?:echo|printf|@echo)\s+(?P<text>.*)$")
# a reference inside a value: {{a}}, {{a.b}}, $(A), ${A}, $A
_REF = _rx(r"\{\{\s*(?P<a>[A-Za-z_][\w-]*)(?:\.(?P<b>[A-Za-z_]\w*))?\s*\}\}"
           r"|\$\((?P<c>[A-Za-z_][\w-]*)(?:\.(?P<d>[A-Za-z_]\w*))?\)"
           r"|\$\{(?P<e>[A-Za-z_][\w-]*)(?:\.(?P<f>[A-Za-z_]\w*))?\}|\$(?P<g>[A-Za-z_]\w*)")
_FROM_ENV = _rx(r"^[\"']?(?:env_var(?:_or_default)?\s*\(|env\s*\(|\$\(|\$\{|\{\{|[\"']?$)")
# an echo that says when the run is good, and the comparison in it
_SUCCESS_SAID = _rx(r"(?i)\b(?:counts|succeeds?|succeeded|worked|works|passes|passed|is\s+good|is\s+ok|success(?:ful)?|done)\b"
                    r"[^.;]{0,20}?\b(?:if|when|only\s+if|once)\b(?P<rest>.+)$")
_COMPARED = _rx(r"(?i)\b(?P<field>[A-Za-z_]\w*)\s*(?:==?|:|\s+is\s+|\s+equals\s+)\s*(?P<value>true|false|null|-?\d+(?:\.\d+)?|\"[^\"]*\"|'[^']*')")


_GOES_ON = _rx(r"(?i)(?:[,(:/+&-]|->|→|\b(?:and|or|then|but|so|with|to|of|the|a|after|before))\s*$")


class Recipe(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    line: int
    deps: tuple[str, ...]
    comments: tuple[tuple[int, str], ...]  # (line, text) of the comment right above it and on its lines
    body: tuple[tuple[int, str], ...]


class RecipeFile(BaseModel):
    """The lines of a recipe file (1-based, inclusive) and what was read of it."""

    model_config = ConfigDict(frozen=True)

    first: int
    last: int
    recipes: tuple[Recipe, ...]
    variables: dict[str, tuple[int, str]]  # name -> (line, value as written)
    defaults: frozenset[str] = frozenset()  # the variables set with `?=`: the environment's, else this value
    free: tuple[tuple[int, str], ...]  # comments above no recipe
    # a go-task `for:` loop (`spec.taskfile`): recipe -> (the file it loops over, its list field, the item's field, the item's name)
    loops: dict[str, tuple[str, str, str, str]] = {}
    just: bool = False  # a justfile: its `:=` variables are the caller's to set (`spec.justfile35`)
    # a Rakefile's list held in `@x` (`spec.rakefile42`): `@x` -> the recipe whose skill gave it, looped over as a file
    feeds: dict[str, str] = {}
    notes: tuple[tuple[int, str], ...] = ()  # what the file's own reader did not read: (line, why), warned


def _is_recipe_line(line: str) -> bool:
    s = line.rstrip()
    return (not s.strip() or bool(_COMMENT.match(s) or _BODY.match(s) or _DIRECTIVE.match(s)
                                  or _ASSIGN.match(s) or _HEADER.match(s) or file_header(s)))


def _skill_of(command: str) -> str | None:
    text = command.strip().lstrip("@-+ ")
    for regex in _SKILL_CALL:
        m = regex.match(text)
        if m:
            return m.group("name")
    # "jq ... | $(PY) skills/margin-check/scripts/main.py > $@" (`spec.make_targets`), "jq ... | skill x" (`spec.justfile35`)
    return pipeline_skill(text) or piped_skill(text)


def _lines_of(body: object) -> list[tuple[int, str]]:
    """A recipe's body lines read so far, (line, command) each."""
    return [(int(at), str(text)) for at, text in body] if isinstance(body, tuple) else []


def _parse(lines: list[str], first: int) -> RecipeFile:
    """`lines` (the file, its first line being line `first` of the spec) into recipes."""
    recipes: list[Recipe] = []
    variables: dict[str, tuple[int, str]] = {}
    defaults: set[str] = set()
    free: list[tuple[int, str]] = []
    pending: list[tuple[int, str]] = []
    current: dict[str, object] | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            recipes.append(Recipe.model_validate(current))
            current = None

    for offset, raw in enumerate(lines):
        at, line = first + offset, raw.rstrip()
        if current is not None and _BODY.match(line):
            body = line.strip()
            comment = _COMMENT.match(body)
            if comment:
                current["comments"] = (*current["comments"], (at, comment.group(1)))  # type: ignore[misc]
            elif (so_far := _lines_of(current["body"])) and so_far[-1][1].endswith("\\"):
                was, text = so_far[-1]  # "jq ... \" + "| skill x": one command
                current["body"] = (*so_far[:-1], (was, f"{text[:-1].rstrip()} {body}"))
            else:
                current["body"] = (*current["body"], (at, body))  # type: ignore[misc]
            continue
        if current is not None and not line.strip():  # a blank line inside a recipe whose body goes on
            after = next((x for x in lines[offset + 1:] if x.strip()), "")
            if _BODY.match(after.rstrip()):
                continue
        close()
        if not line.strip():
            free.extend(pending)
            pending = []
            continue
        comment = _COMMENT.match(line)
        if comment and not line.startswith((" ", "\t")):
            pending.append((at, comment.group(1)))
            continue
        header = _HEADER.match(line) or file_header(line)  # "build/prices.json: ## ..." (`spec.make_targets`)
        if header and not _DIRECTIVE.match(line):
            own = [(at, header.group("comment"))] if header.group("comment") else []
            current = {"name": header.group("name"), "line": at, "deps": tuple(header.group("deps").split()),
                       "comments": (*pending, *own), "body": ()}
            pending = []
            continue
        assign = _ASSIGN.match(line)
        if assign:
            variables[assign.group("name")] = (at, assigned_value(line, assign.group("value")))  # "\\#x": "#x"
            if assign.group("op") == "?=":
                defaults.add(assign.group("name"))
        free.extend(pending)
        pending = []
    close()
    free.extend(pending)
    return RecipeFile(first=first, last=first + len(lines) - 1, recipes=tuple(recipes), variables=variables, defaults=frozenset(defaults),
                      free=tuple(free))


def _calls_skills(found: RecipeFile) -> int:
    return sum(1 for r in found.recipes if any(_skill_of(b) for _, b in r.body))


def recipe_file_of(src: Source) -> RecipeFile | None:
    """The recipe file of the spec whose recipes call skills, or None; a fenced Makefile or
    justfile none of whose recipes calls a skill is a warning at its fence saying what to write."""
    found = find_recipe_file(src.text)
    if found is not None and not _calls_skills(found):
        src.warn(found.first, f"a recipe file ({len(found.recipes)} recipes) in which no recipe calls a skill, so its "
                              "recipes are not read as steps: write each step's recipe body as "
                              "`skill <name> key=value` (e.g. `skill fetch-orders day=\"{{day}}\"`)", "spec.recipe-not-step")
        return None
    return found


def find_recipe_file(text: str) -> RecipeFile | None:
    """The recipe file in `text` (module docstring), or None."""
    lines = text.split("\n")
    whole = taskfile_lines(lines) if not any(_FENCE_OPEN.match(x) for x in lines) else None
    if whole is not None:  # a Taskfile.yml that is the spec: its tasks the recipes (`spec.taskfile`)
        found = _parse(whole, 1)
        if _calls_skills(found):
            return found.model_copy(update={"last": len(lines), "loops": taskfile_loops(lines)})
    gradle = gradle_lines(lines) if whole is None and not any(_FENCE_OPEN.match(x) for x in lines) else None
    if gradle is not None:  # a Gradle build script that is the spec: its tasks the recipes (`spec.gradle49`)
        found = _parse(gradle[0], 1)
        if _calls_skills(found):
            return found.model_copy(update={"last": len(lines), "notes": gradle[1]})
    rake = rakefile_lines(lines) if whole is None and not any(_FENCE_OPEN.match(x) for x in lines) else None
    if rake is not None:  # a Rakefile that is the spec: its tasks the recipes (`spec.rakefile42`)
        found = _parse(rake[0], 1)
        if _calls_skills(found):
            return found.model_copy(update={"last": len(lines), "loops": rake[1], "feeds": rake[2], "notes": rake[3]})
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i])
        if m is None:
            i += 1
            continue
        close = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(m.group(1))), len(lines))
        body = lines[i + 1:close]
        info = m.group(2).lower()
        tasks = taskfile_lines(body) if info in ("yaml", "yml", "taskfile", "") else None
        loops = taskfile_loops(body) if tasks is not None else {}
        if tasks is not None:  # a Taskfile: its tasks as recipes (`spec.taskfile`)
            body, info = tasks, "taskfile"
        found = _parse(body, i + 2).model_copy(update={"loops": loops})
        if (info in FENCE_KINDS and found.recipes) or (not info and _calls_skills(found) >= 2
                                                       and all(_is_recipe_line(x) for x in body)):
            return found.model_copy(update={"first": i + 1, "last": min(close + 1, len(lines)),
                                            **_just(info, body, found)})
        i = close + 1
    start = None  # bare: the longest run of recipe-file lines that calls skills in two recipes
    for i, line in enumerate([*lines, "\x00"]):
        if line != "\x00" and _is_recipe_line(line) and not _FENCE_OPEN.match(line):
            start = i if start is None else start
            continue
        if start is not None:
            found = _parse(lines[start:i], start + 1)
            if _calls_skills(found) >= 2:
                return found.model_copy(update=_just("", lines[start:i], found))
            start = None
    return None


def _just(info: str, lines: list[str], found: RecipeFile) -> dict[str, object]:
    """A justfile's variables are the caller's to set (`just as_of=...`): each is read like make's `?=`."""
    if info == "taskfile" or not is_justfile(info, lines):
        return {}
    return {"just": True, "defaults": found.defaults | {n for n, (_, v) in found.variables.items() if v.strip()}}


def blank_recipe_file(text: str, found: RecipeFile) -> str:
    """`text` with the recipe file's lines blanked (they keep their numbers)."""
    lines = text.split("\n")
    for i in range(found.first - 1, min(found.last, len(lines))):
        lines[i] = ""
    return "\n".join(lines)


def _literal(value: str) -> object:
    try:
        return json.loads(value)
    except ValueError:
        return value


class _Reader:
    def __init__(self, found: RecipeFile, src: Source) -> None:
        self.found, self.src = found, src
        self.by_name = {r.name: r for r in found.recipes}
        self.step_of: dict[str, str] = {}
        self.skill_of: dict[str, str] = {}  # a skill -> the first step that runs it
        self.inputs: dict[str, InputSpec] = {}
        self.success: list[tuple[str, SpecText]] = []
        self.run_success: set[int] = set()  # the lines of success checks said of the whole run (a comment above no recipe)
        self.whole = whole_file(src.text, found.first, found.last)
        # the file each recipe writes (`> out/loans.json`): who a piped `jq` reads (`spec.justfile35`)
        self.writer = {**found.feeds, **{f: r.name for r in found.recipes for _, b in r.body if (f := written_file(b))}}
        self.item: tuple[str, str] | None = None  # the loop item's name and field, while a loop's step is read

    def _input(self, var: str, line: int) -> str:
        # a Makefile that is the whole spec is run as `make FEED_DATE=...`: its variable keeps its name (`spec.make_targets`)
        name = var if self.whole and var.isupper() else var.lower().replace("-", "_")
        declared = self.found.variables.get(var)
        where = self.src.where(declared[0] if declared else line)
        default = declared[1].strip("\"'") if declared and var in self.found.defaults else ""
        default = "" if default.startswith(("$(shell", "$(")) or _FROM_ENV.match(default) else default  # computed
        if name not in self.inputs:  # `DAY ?= 2024-01-01`: optional, with that default
            value = (just_default(declared[1]) if self.found.just and declared else _literal(default)) if default else None
            self.inputs[name] = InputSpec(name=name, where=where, required=not default, default=value)
        return f"inputs.{name}"

    def _value(self, key: str, value: str, line: int) -> tuple[str | None, object]:
        """(a source, a literal): what `key=value` gives the skill."""
        refs = list(_REF.finditer(value))
        if len(refs) != 1 or refs[0].group(0) != value.strip():
            if refs:
                self.src.warn(line, f"the argument {key}={value[:40]} mixes text and references; it is passed as "
                                    f"written: write {key}=\"{{{{name}}}}\" (one reference) to pass a value",
                              "spec.unread")
            return None, _literal(value)
        m = refs[0]
        a = m.group("a") or m.group("c") or m.group("e") or m.group("g")
        b = m.group("b") or m.group("d") or m.group("f")
        if self.item is not None and a == self.item[0]:  # a go-task loop's `{{.ITEM}}`: the item (its field)
            field = b or self.item[1]  # a Rakefile's `b['code']`: the item's own field (`spec.rakefile42`)
            return None, "{{ item" + (f".{field}" if field else "") + " }}"
        if a in self.step_of:
            return f"steps.{self.step_of[a]}.output" + (f".{b}" if b else ""), None
        if a in self.by_name:
            self.src.warn(line, f"`{a}` is a recipe that calls no skill, so it has no output; {key} gets nothing "
                                "from it", "spec.unread")
            return None, None
        declared = self.found.variables.get(a)
        if declared is not None and a not in self.found.defaults and not _FROM_ENV.match(declared[1]):
            return None, _literal(declared[1].strip("\"'"))
        return self._input(a, line), None

    def _piped(self, recipe: Recipe, command: str, at: int, inputs: list[FieldSpec], values: dict[str, object]) -> None:
        """The inputs a `jq` object filter piped into the skill gives it (`spec.justfile35`)."""
        for arg in piped_arguments(command):
            if arg.key in values or any(f.name == arg.key for f in inputs):
                continue
            producer = self.writer.get(arg.file or "")
            if arg.file is not None and producer in self.step_of and producer != recipe.name:
                field = f".{arg.field}" if arg.field else ""  # `{rows: .}` of a slurped file: all of it
                inputs.append(FieldSpec(name=arg.key, source=f"steps.{self.step_of[producer]}.output{field}",
                                        where=self.src.where(at)))
            elif arg.value is not None:
                value = arg.value.strip("\"") if _REF.fullmatch(arg.value.strip("\"")) else arg.value
                source, literal = self._value(arg.key, value, at)
                if source is not None:
                    inputs.append(FieldSpec(name=arg.key, source=source, where=self.src.where(at)))
                elif literal is not None:
                    values[arg.key] = literal
            else:
                what = f"`{arg.unread}`" if arg.unread else f"the file {arg.file}, which no recipe that calls a skill writes"
                self.src.warn(at, f"recipe '{recipe.name}': the key `{arg.key}` of the jq filter piped into its skill "
                                  f"reads {what}; it is not read: write `{arg.key}: .field` of a file another recipe "
                                  "writes, a `{{variable}}` or a value", "spec.unread")

    def _deps(self, recipe: Recipe, seen: frozenset[str] = frozenset()) -> list[str]:
        out: list[str] = []
        for dep in recipe.deps:
            if dep in self.step_of:
                out.append(self.step_of[dep])
            elif dep in self.by_name and dep not in seen:
                out += self._deps(self.by_name[dep], seen | {recipe.name})
            elif dep not in self.by_name:
                self.src.warn(recipe.line, f"recipe '{recipe.name}' depends on '{dep}', which is no recipe of the file; "
                                           "that dependency is not read", "spec.unread")
        return list(dict.fromkeys(out))

    def steps(self) -> list[StepSpec]:
        calls = [(r, [(at, b, s) for at, b in r.body if (s := _skill_of(b))]) for r in self.found.recipes]
        for n, (recipe, f) in enumerate([(r, f) for r, f in calls if f], start=1):
            self.step_of[recipe.name] = f"step-{n}"
            self.skill_of.setdefault(f[0][2], f"step-{n}")  # "it worked if pick-notice ...": the first step running it
        steps: list[StepSpec] = []
        for recipe, found in calls:
            if not found:
                self._not_a_step(recipe)
                continue
            steps.append(self._step(recipe, found))
        return steps

    def _not_a_step(self, recipe: Recipe) -> None:
        commands = [(at, b) for at, b in recipe.body if not _ECHO.match(b.lstrip("@-+ "))]
        if commands:
            at, body = commands[0]
            self.src.warn(at, f"recipe '{recipe.name}' runs '{body[:50]}', which calls no skill: it is not a step; "
                              "to make it one, write its body as `skill <name> key=value`", "spec.recipe-not-step")
        for at, body in recipe.body:
            echo = _ECHO.match(body.lstrip("@-+ ").removeprefix("@"))
            if echo:
                self._success(recipe, echo.group("text").strip().strip("\"'"), at)

    def _success(self, recipe: Recipe | None, text: str, line: int) -> bool:
        """A success check said in `text` on the step it names (its recipe or its skill), else the one
        `recipe` depends on (a free comment's: the last step); False when `text` says none."""
        said = _SUCCESS_SAID.search(text)
        if said is None:
            return False
        rest = said.group("rest")
        named = [self.step_of.get(w) or self.skill_of[w] for w in re.findall(r"[\w-]+", rest)
                 if w in self.step_of or w in self.skill_of]
        deps = self._deps(recipe) if recipe is not None else list(self.step_of.values())[-1:]
        producer = named[0] if named else (deps[-1] if deps else None)
        checks = [f"{m.group('field')} == {m.group('value')}" for m in _COMPARED.finditer(rest)]
        if producer is None or not checks:
            who = f"recipe '{recipe.name}' echoes" if recipe is not None else "the comment says"
            self.src.warn(line, f"{who} a success criterion, '{text[:60]}', that is not read: "
                                "write it as `<recipe> printed field=value`", "spec.success")
            return True
        self.success.append((producer, SpecText(text="; ".join(checks), line=line, kind="success")))
        return True

    def aggregates(self) -> list[Recipe]:
        """The recipes that call no skill, run no command and run after other recipes (`all: publish`,
        Gradle's `tasks.register("all") { dependsOn(...) }`): each stands for the run of what it names."""
        return [r for r in self.found.recipes if r.name not in self.step_of and r.deps
                and all(_ECHO.match(b.lstrip("@-+ ").removeprefix("@")) for _, b in r.body)]

    def said_success(self, text: str, line: int, recipe: Recipe | None = None) -> bool:
        """A comment above no recipe (or in a recipe that only runs others, `recipe`) saying when the run
        is good: a success check (`_success`) on the step it names, else the last (the one `recipe` runs after)."""
        said = self._success(recipe, text.strip(), line)
        if said and self.success and self.success[-1][1].line == line:
            self.run_success.add(line)
        return said

    def _step(self, recipe: Recipe, found: list[tuple[int, str, str]]) -> StepSpec:
        at, command, skill = found[0]
        loop = self.found.loops.get(recipe.name)
        over = self.writer.get(loop[0]) if loop else None
        self.item = (loop[3], loop[2]) if loop and over in self.step_of else None
        for extra_at, _, other in found[1:]:
            self.src.warn(extra_at, f"recipe '{recipe.name}' calls a second skill, `{other}`; only the first "
                                    f"(`{skill}`) is its step: give each skill a recipe of its own", "spec.unread")
        inputs: list[FieldSpec] = []
        values: dict[str, object] = {}
        segment = skill_segment(command) if pipeline_skill(command) is None else None  # "jq ... | skill x k=v"
        for key, value in call_arguments(segment or skill_command(command)):  # not a `jq --arg d` before the pipe
            source, literal = self._value(key, value, at)
            if source is not None:
                inputs.append(FieldSpec(name=key, source=source, where=self.src.where(at)))
            elif literal is not None:
                values[key] = literal
        for arg in jq_arguments(command, recipe.deps):  # "jq '{squeezed: .below_floor}' $< | ... skills/x/" (`spec.make_targets`)
            if arg.key in values or any(f.name == arg.key for f in inputs):
                continue
            if arg.target is not None and arg.target in self.step_of:
                inputs.append(FieldSpec(name=arg.key, source=f"steps.{self.step_of[arg.target]}.output.{arg.field}",
                                        where=self.src.where(at)))
            elif arg.value is not None:
                source, literal = self._value(arg.key, arg.value, at)
                if source is not None:
                    inputs.append(FieldSpec(name=arg.key, source=source, where=self.src.where(at)))
                elif literal is not None:
                    values[arg.key] = literal
        self._piped(recipe, command, at, inputs, values)
        deps = self._deps(recipe)
        sid = self.step_of[recipe.name]
        texts: list[SpecText] = []
        for line, text in recipe.comments:  # a comment whose line ends on "," or "and": the next line goes on
            if texts and line == texts[-1].line + texts[-1].text.count("\n") + 1 and _GOES_ON.search(texts[-1].text):
                texts[-1] = texts[-1].model_copy(update={"text": f"{texts[-1].text}\n{text}"})
            else:
                texts.append(SpecText(text=text, line=line))
        where = self.src.where(recipe.line)
        self.item = None
        each = f"item in steps.{self.step_of[over]}.output" + (f".{loop[1]}" if loop[1] else "") \
            if loop and over in self.step_of else None
        if loop and each is None:
            self.src.warn(at, f"recipe '{recipe.name}' loops over {loop[0]}, which no recipe that calls a skill "
                              "writes: the loop is not read, the step runs once", "spec.unread")
        return StepSpec(
            for_each=each,
            id=sid, number=int(sid.rsplit("-", 1)[1]), name=recipe.name, where=where, form="recipe",
            description=" ".join(t for _, t in recipe.comments), skill=skill, skill_where=self.src.where(at),
            inputs=tuple(inputs), input_values=values, depends_on=tuple(d for d in deps if d != sid),
            depends_where=where if not deps else None, texts=tuple(texts),
            mentions=(Mention(text=skill, where=self.src.where(at)),),
            readings=(Reading(what="step", where=where, text=f"{recipe.name}: {' '.join(recipe.deps)}".strip(),
                              note=f"a recipe whose body calls `{skill}`: a step, after the recipes it names"),),
        )


def _clause_before(text: str) -> str:
    """`text` without the joining words it ends on ("gets 15 min - it's" -> "gets 15 min")."""
    words = text.rstrip(" \t,;:(-").split()
    while words and words[-1].lower() in ("it's", "it", "is", "and", "but", "-", "so"):
        words = words[:-1]
    return " ".join(words).rstrip(" \t,;:(-")


def _whole_run(said: str, text: str, line: int, src: Source) -> None:
    """A comment said of the whole run (above no recipe, or in a recipe that only runs others): its whole-run
    policy or limit is read; another policy is a warning saying where to put it."""
    phrase = read_phrase(said)
    if phrase.read and phrase.statement.whole_run:
        read_sentence(said, line, src, section="convergence", steps=(), who="recipe file")
    elif (seconds := whole_limit(text, outside=True)) is not None:  # "whole `make nightly` gets 40 minutes tops"
        record_limit(text, line, src, seconds)
    elif phrase.read or phrase.signal:
        src.warn(line, f"the comment '{text[:60]}' states a policy but is right above no recipe, so it is not "
                       "read: put it in the comment right above the recipe it is for", "spec.unread")


def read_recipe_file(found: RecipeFile, src: Source) -> tuple[list[StepSpec], tuple[InputSpec, ...]]:
    """The steps and the workflow inputs of a recipe file (module docstring); the whole-run limit in
    a comment above no recipe is read into `src`, another policy there is a warning."""
    reader = _Reader(found, src)
    for line, why in found.notes:
        src.warn(line, why, "spec.unread")
    steps = reader.steps()
    for line, text in found.free:
        said = re.sub(r"`[^`]*`", "", text)  # a command quoted in the comment is code, not what the author says
        if reader.whole and reader.said_success(text, line):
            continue  # "it worked if pick-notice comes back posted: true": the check on the step running pick-notice
        _whole_run(said, text, line, src)
    for recipe in reader.aggregates():  # "all: publish" with "# the whole thing gets 15 min, done when ...": the run's
        for line, text in recipe.comments:
            said = re.sub(r"`[^`]*`", "", text)
            if reader.said_success(text, line, recipe):  # "gets 15 min - done when rota says posted = true"
                cut = _SUCCESS_SAID.search(said)
                said = said[:cut.start()] if cut is not None else ""  # what comes before the check
                said = _clause_before(said)
            phrase = read_phrase(said) if said.strip() else None
            seconds = phrase.statement.timeout_s if phrase is not None and phrase.read else whole_limit(said, outside=True)
            if seconds is not None and has_limit(src) == seconds:
                continue  # "timeout.set(Duration.ofMinutes(15))" below a comment saying the same (`spec.gradle49`)
            if said.strip():
                _whole_run(said, said, line, src)
    free = {**dict(found.free), **{at: t for r in reader.aggregates() for at, t in r.comments}}
    for sid, check in reader.success:
        run = check.line in reader.run_success  # the run's check, judged after the run (`plan.run_checks37`)
        if run:  # said in words above no recipe: read, and said to be read, as every run check in words is
            name = next((s.name for s in steps if s.id == sid), sid)
            src.warn(check.line, f"{sid} ({name}): '{free.get(check.line, check.text).strip()[:60]}' is read as the "
                                 f"run's success check ({check.text}), on this step's output (the step it names, else "
                                 f"the last): check the plan, or write `- Success criteria: {check.text}` under the "
                                 "step", "spec.success")
        seen = (Reading(what="success", where=src.where(check.line), text=check.text,
                        note=f"the run's success check, checked on {sid}'s output (the step it names, else the last)"),) if run else ()
        steps = [s.model_copy(update={"texts": (*s.texts, check), "readings": (*s.readings, *seen)}) if s.id == sid else s
                 for s in steps]
    return steps, tuple(reader.inputs.values())


_rx.save()
