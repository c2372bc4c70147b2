"""A runbook written as a script: a bash/sh, PowerShell or Python script, or a Makefile, whose
steps are said in its comments and whose code calls the skills.

A file is one by its name (`.sh`, `.bash`, `.zsh`, `.ps1`, `.py`, `Makefile`, `.mk`, `.R`, `.bas`) or a `#!`
first line (an R script's and a VBA module's statements are put in Python's words: `spec.rscript47`,
`spec.vba49`). Its comments are the prose people read; its code says what runs:

    # Step 2: fee. Needs intake's cost.           a comment naming a step ("STEP 2", "# 2)", "## step: x")
    #   retry up to 3 times, 10 s apart           the comments up to the next step: its text, read by
    skill fee-calc cost=intake.cost > fee.json    the policy reader; the first call of a skill under
                                                  it: the step's skill (`spec.script_code`), each
                                                  `key=value` an input (`intake.cost`: the output
                                                  `cost` of the step whose output is intake.json or
                                                  named intake; `$VAR` a variable; else a literal)
    if [ "$(jq .cost intake.json)" -gt 500 ]; then   the steps under an `if`/`elif` run when its
    else ... fi                                      condition holds, those under `else` otherwise;
                                                     the first step after it runs after whichever ran

A call with no step comment above it since the last call is a step of its own, named after its
skill. `APP="$1"` (an argument) or `$DAY` never set (the environment) is a workflow input, named
as the first call passes it. `jq -e '.sent == true' letter.json` is a success check on the step
that wrote letter.json (the comment right above it says the same). Comments before the first
step are the title and intent, read by the whole-run readers. A code line that calls no skill and
is not setup (`set -e`, `echo`, `import`) is a warning at its line; a condition that cannot be
read is one warning at its `if`, and the steps under it then always run. What the later readers
see of the file is its comments only, each at its line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec.approval_hold import approval_in_run
from orchestrator.spec.check import SpecParts
from orchestrator.spec.model import FieldSpec, Mention, Reading, SpecText, StepSpec
from orchestrator.spec.powershell45 import (
    hashtable,
    help_parameters,
    is_param,
    param_block,
    splatted,
)
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.run_limit import read_run_limit
from orchestrator.spec.script_branch import branch_steps
from orchestrator.spec.script_code import (
    arguments,
    assigned,
    boilerplate,
    call_part,
    file_check,
    output_file,
    skill_called,
)
from orchestrator.spec.script_flow import Arm, Block, Flow, code_lines
from orchestrator.spec.script_names import Names
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_HEADER = _rx(r"(?i)^[-=*#~\s]*+(?:step|stage|phase)\s*+#?\s*+(?P<n>\d{1,5}+)?\s*+(?P<sep>[:.)\]\-–—])\s*+(?P<rest>.*+)$"
              r"|^[-=*#~\s]*+(?:\[(?P<n2>\d{1,5}+)\]|\((?P<n4>\d{1,5}+)\)|(?P<n3>\d{1,5}+)[.)])\s++(?P<rest2>\S.*+)$")
_NAME_END = _rx(r"\.\s|\.$|;|\s--\s|\s[-–—]\s|:\s")
_CALL_INSIDE = _rx(r"(?i)(?<![\w-])(?:skill|run-skill|invoke-skill|run_skill)\s*+\(?\s*+[\"']?(?P<name>[a-z0-9]++(?:-[a-z0-9]++)++)")
_EACH = _rx(r"^for\s++(?P<item>[A-Za-z_.]\w{0,60}+)\s++in\s++(?P<list>[A-Za-z_.][\w.]{0,120}+):$")
_VARIABLE_HEAD = _rx(r"\s*+([A-Za-z_]\w{0,60}+)[$.]")  # `rep$filed`, `traps.n`: a variable's field
_TWO_NAMED = _rx(r"(?i)^(?:and|&|\+)\s++(?:step\s++)?\d{1,3}+[.)]")
# the comment line before goes on with this one: it ends on a comma, a dash, an arrow, "and", "the", ...
_BLOCKS = ("vba", "perl")  # a loop's end is said (`Next`, `}`): its calls all run per item (`spec.vba49`, `spec.perl50`)
GOES_ON = _rx(r"(?i)(?:[,(:/+&-]|->|→|\b(?:and|or|then|but|so|with|to|of|the|a|after|before))\s*+$")


@dataclass
class _Step:
    number: int
    name: str
    line: int  # the line of its step comment, or of its call
    texts: list[SpecText] = field(default_factory=list)
    call: tuple[int, str, str] | None = None  # (line, call as written, skill)
    arms: tuple[tuple[int, int], ...] = ()  # (block, arm) it is under, outermost first
    readings: list[Reading] = field(default_factory=list)
    each: tuple[str, str] | None = None  # an R `lapply(list, function(item) ...)`: (item, list) (`spec.rscript47`)
    looped: int = 0  # VBA: the line of the `For Each` its call is in, where its text starts (`spec.vba49`)


class _Reader:
    def __init__(self, src: Source, language: str) -> None:
        self.src, self.language = src, language
        self.steps: list[_Step] = []
        self.preamble: list[tuple[int, str]] = []
        self.prose = [""] * len(src.lines)
        self.names = Names(src, language)
        self.checks: list[tuple[int, str, int]] = []  # (step number, check, line)
        self.blocks: list[Block] = []
        self.tried = 0  # PowerShell: the number of steps when the last `try` opened
        self.catch: tuple[_Step | None, int, list[str]] | None = None  # the open `catch`: (its step, line, done)
        self.each: tuple[str, str] | None = None  # R: the item and list of the `lapply` whose call comes next
        self.looped = 0  # VBA: the line of the open `For Each`

    def where(self, line: int) -> str:
        return self.src.where(line)

    def read(self) -> None:
        lines = code_lines(self.src.lines, self.language)
        pending: list[tuple[int, str]] = []  # comments since the last call, not under a step comment
        open_: list[tuple[int, int]] = []  # (block, arm) open now
        flow = Flow(self.language)
        for kind, line, text in lines:
            if kind == "comment":
                self._comment(line, text, pending)
                continue
            if kind == "blank":
                if pending and (not self.steps or self.steps[-1].call is not None):
                    self._trail(pending)
                continue
            for piece in flow.pieces(text):
                self._code(line, piece, pending, open_)
        self._trail(pending)
        if self.steps and self.steps[-1].call is None:
            self._no_call(self.steps.pop())
        if self.steps:
            self._closing(self.steps[-1])

    def _closing(self, last: _Step) -> None:
        """A success sentence in the comments after the script's last call ("# OK = job-log says logged=true",
        "## success = up$uploaded is TRUE") says when the whole run succeeded: it is no text of the last step,
        so the whole-run reader reads it at its line (`spec.whole_success`), as the same sentence in prose; one
        comparing a step's field by its skill ("finished when send-reply says sent = true") `_success_said` places."""
        from orchestrator.spec.elsewhere import success_said
        from orchestrator.spec.whole_success import comparison, success_cue

        def by_skill(text: str) -> bool:  # a comparison naming no variable of the script (`rep$filed`, `traps.n`)
            clause = success_said(text) or ""
            head = _VARIABLE_HEAD.match(clause)
            return bool(comparison(clause)) and (head is None or head.group(1) not in self.names.variables)

        called = last.call[0] if last.call is not None else 0
        last.texts = [t for t in last.texts
                      if t.line <= called or "\n" in t.text or success_cue(t.text) is None or by_skill(t.text)]

    def _comment(self, line: int, text: str, pending: list[tuple[int, str]]) -> None:
        self.prose[line - 1] = text
        header = _HEADER.match(text)
        if header and _TWO_NAMED.match(header.group("rest") or header.group("rest2") or ""):
            header = None  # "--- 1) and 2) go off together": a note on two steps, no step of its own (round 49)
        if header:
            rest = header.group("rest") if header.group("rest") is not None else header.group("rest2")
            self._trail(pending)
            if self.steps and self.steps[-1].call is None:
                self._no_call(self.steps.pop())
            rest = _rule_off(rest.lstrip("-–—:.) "))
            cut = _NAME_END.search(rest)
            name, tail = (rest[:cut.start()], rest[cut.end():]) if cut else (rest, "")
            step = _Step(len(self.steps) + 1, name.strip().rstrip(".") or f"step {len(self.steps) + 1}", line)
            if tail.strip():
                step.texts.append(SpecText(text=tail.strip(), line=line))
            self.steps.append(step)
            return
        pending.append((line, text))

    def _trail(self, pending: list[tuple[int, str]]) -> None:
        """Comments read so far: the text of the step they are in, or the preamble."""
        for line, text in pending:
            if self.steps:
                self._add_text(self.steps[-1], line, text)
            else:
                self.preamble.append((line, text))
        pending.clear()

    def _no_call(self, step: _Step) -> None:
        lines = [t.line for t in step.texts]
        unread = f"; its text (line {lines[0]}{f'-{lines[-1]}' if lines[-1] != lines[0] else ''}) is not read" \
            if lines else ""
        self.src.warn(step.line, f"the step comment '{step.name[:60]}' has no call of a skill under it before the next "
                                 f"step, so it is no step{unread}: call the skill on a line right below it "
                                 "(`skill <name> key=value`)", "spec.script-unread")
        for text in step.texts:  # said once, here: no later reader takes it for another step's
            for n in range(text.line, text.line + text.text.count("\n") + 1):
                self.prose[n - 1] = ""

    @staticmethod
    def _add_text(step: _Step, line: int, text: str) -> None:
        last = step.texts[-1] if step.texts else None
        if last is not None and line == last.line + last.text.count("\n") + 1 and GOES_ON.search(last.text):
            step.texts[-1] = last.model_copy(update={"text": f"{last.text}\n{text.strip()}"})
        elif text.strip():
            step.texts.append(SpecText(text=text.strip(), line=line))

    def _code(self, line: int, piece: tuple[str, str], pending: list[tuple[int, str]],
              open_: list[tuple[int, int]]) -> None:
        kind, text = piece
        if kind in ("elif", "else", "end", "next") and self.language in _BLOCKS and pending and self.steps \
                and self.steps[-1].call is not None:  # comments under a call, up to its arm's end: that step's
            self._trail(pending)
        if kind in ("if", "elif", "else"):
            if kind == "if":
                self.blocks.append(Block(arms=[Arm(text, line)]))
                open_.append((len(self.blocks) - 1, 0))
            elif open_:
                block = self.blocks[open_[-1][0]]
                block.arms.append(Arm(text if kind == "elif" else None, line))
                open_[-1] = (open_[-1][0], len(block.arms) - 1)
            return
        if kind == "end":
            if open_:
                self.blocks[open_.pop()[0]].end = line
            return
        if kind == "jump":  # a batch file's `:label` / `goto label` (`spec.batch47`)
            what, _, name = text.partition(" ")
            self.src.warn(line, f"the {'label' if what == 'label' else 'jump'} `{':' if what == 'label' else 'goto '}"
                                f"{name}` is not read: the steps run in the order they are written (say a step that "
                                "runs only sometimes with `if ... ( ... )` around its call)", "spec.script-unread")
            return
        if kind in ("try", "catch", "end-catch"):
            self._catch(kind, line)
            return
        if self.catch is not None and self.catch[0] is not None:
            self._in_catch(line, text, self.catch[0], self.catch[1], self.catch[2])
            return
        if kind == "loop" and text.startswith(("case ", "switch ")):
            self.src.warn(line, f"the '{text[:60]}' is not read as branches: write it as "
                                "`if [ \"$x\" = a ]; then ... elif ...; else ... fi`", "spec.condition-not-read")
            return
        if kind == "loop" and self.language in ("r", *_BLOCKS) and (each := _EACH.match(text)) is not None:
            self.each = (each.group("item"), each.group("list"))  # `lapply(xs, function(x) run(...))`, `For Each`
            self.looped = line
            return
        if kind == "next":  # a VBA loop's `Next`: the calls after it run once (`spec.vba49`)
            self.each = None
            return
        if kind == "loop":
            self.src.warn(line, f"the loop '{text[:60]}' is not read: a step under it runs once (write the list it "
                                "goes over in the step's comment: 'for each item in <step>.<field>')", "spec.script-unread")
            return
        skill = skill_called(call_part(text), self.src.vocabulary)
        if skill is not None:
            self._call(line, text, skill, pending, tuple(open_))
            more = [m.group("name") for m in _CALL_INSIDE.finditer(text) if m.group("name") != skill]
            if more:  # `skill a || skill b`: the second is no step, and no fallback either
                self.src.warn(line, f"this line calls `{skill}` and then `{more[0]}`; only `{skill}` is read (the step's "
                                    f"skill): to make `{more[0]}` a fallback, say so in the step's comment ('if it "
                                    f"fails, run {more[0]} instead')", "spec.script-unread")
            return
        if self.language == "ps" and is_param(text):  # `param(...)`: the run's inputs (`spec.powershell45`)
            self.names.params(line, param_block(text))
            return
        said = assigned(text)
        if said is not None:
            self.names.variable(line, *said)
            return
        check = file_check(text)
        if check is not None and check[0] in self.names.refs:
            number = self.names.refs[check[0]][-1]
            self.checks.append((number, check[1], line))
            comment = " ".join(t.strip() for _, t in pending).strip() or text.strip()
            self.src.warn(pending[0][0] if pending else line,
                          f"'{comment[:60]}' is read as the run's success check: line {line}'s `jq -e` checks "
                          f"`{check[1]}` on the output of step {number} ({check[0]}), and the run fails when it does "
                          "not hold", "spec.success")
            for at, _ in pending:  # the comment right above says what it checks
                self.prose[at - 1] = ""
            if pending:
                self.steps[number - 1].readings.append(Reading(
                    what="success", where=self.where(pending[0][0]), text=" ".join(t for _, t in pending)[:160],
                    note=f"says what line {line} checks: {check[1]}"))
            pending.clear()
            return
        inner = _CALL_INSIDE.search(text)
        if inner is not None:
            self.src.warn(line, f"the code '{text.strip()[:60]}' calls `{inner.group('name')}` in a way that is not read "
                                "(inside a pipe, after `||`, in a function), so it is no step: call it on a line of its "
                                "own (`skill <name> key=value`)", "spec.script-unread")
        elif not boilerplate(text):
            self.src.warn(line, f"the code '{text.strip()[:60]}' calls no skill, so it is not read (a step's code "
                                "calls its skill: `skill <name> key=value`)", "spec.script-unread")

    def _catch(self, kind: str, line: int) -> None:
        """PowerShell's `try { } catch { }` (`spec.powershell45`): what the catch block does is the policy of the
        step called in the try."""
        if kind == "try":
            self.tried = sum(1 for s in self.steps if s.call is not None)  # a step comment above may wait for its call
        elif kind == "catch":
            called = [s for s in self.steps if s.call is not None]
            step = called[-1] if len(called) > self.tried else None
            self.catch = (step, line, [])
        elif self.catch is not None:
            step, at, did = self.catch
            self.catch = None
            if step is not None and not did:  # the error is swallowed: the script goes on
                step.texts.append(SpecText(text="if it fails, carry on", line=at))
                self.src.warn(at, f"the `catch` block (line {at}) calls no skill and does not `throw`, so a failure of "
                                  f"step {step.number} (`{step.call[2] if step.call else ''}`) is swallowed: read as "
                                  "'if it fails, carry on' (the steps after it run without its output)", "spec.reading")

    def _in_catch(self, line: int, text: str, step: _Step, at: int, did: list[str]) -> None:
        """A line of the `catch` block (from line `at`) of `step`'s `try`; `did` what the block was read to do."""
        skill = skill_called(call_part(text), self.src.vocabulary)
        if skill is not None and not did and step.call is not None:
            step.texts.append(SpecText(text=f"if it fails, run `{skill}` instead", line=line))
            step.readings.append(Reading(what="fallback", where=self.where(line), text=text.strip()[:160],
                                         note=f"called in the `catch` block of step {step.number}'s `try`: its fallback"))
            self.src.warn(line, f"`{skill}`, called in the `catch` block (line {at}), is read as step {step.number}'s "
                                f"fallback (run when `{step.call[2]}` fails), not a step of its own", "spec.reading")
            did.append("fallback")
        elif re.match(r"(?i)^throw\b", text.strip()):
            did.append("throw")
        elif not boilerplate(text):
            self.src.warn(line, f"the code '{text.strip()[:60]}' in the `catch` block is not read (a `catch` is read "
                                "for the skill it calls instead, or its `throw`)", "spec.script-unread")

    def _call(self, line: int, text: str, skill: str, pending: list[tuple[int, str]], arms: tuple[tuple[int, int], ...]
              ) -> None:
        step = self.steps[-1] if self.steps and self.steps[-1].call is None else None
        if step is None:  # a call with no step comment of its own: a step named after its skill
            step = _Step(len(self.steps) + 1, skill, line)
            step.readings.append(Reading(what="step", where=self.where(line), text=text.strip()[:160],
                                         note=f"a call of `{skill}` with no step comment above it: a step of its own"))
            self.steps.append(step)
            for at, comment in pending:
                self._add_text(step, at, comment)
            pending.clear()
        else:
            self._trail(pending)
        step.call, step.arms = (line, text, skill), arms
        step.each = self.each
        step.looped = self.looped if self.each is not None and self.language in _BLOCKS else 0
        self.each = self.each if self.language in _BLOCKS else None  # VBA, Perl: every call up to the loop's end
        said = assigned(text)
        for name in {output_file(text), said[0] if said else "", step.name.split()[0].lower() if step.name else "",
                     skill}:
            self.names.step_named(name or "", step.number)
        if said is not None:
            self.names.variables[said[0]] = ("step", self._either(said[0], step), line)
            step.readings.append(Reading(what="variable", where=self.where(line), text=said[0],
                                         note=f"`{said[0]}` holds the step's output (a success check may name it)"))
        if self.language == "bat":  # `%field%` after it: its skill's output (`spec.batch47`)
            self.names.outputs(skill, step.number)

    def _either(self, var: str, step: _Step) -> int | tuple[int, ...]:
        """Step `step`'s number, or the numbers of the steps in the other arms of its `if` that set `var` too (their
        result is whichever ran's, `spec.either_input`)."""
        was = self.names.variables.get(var)
        if was is None or was[0] != "step" or not step.arms:
            return step.number
        before = was[1] if isinstance(was[1], tuple) else (was[1],)
        block, arm = step.arms[-1]
        siblings = tuple(n for n in before if isinstance(n, int) and n <= len(self.steps)
                         and self.steps[n - 1].arms[:-1] == step.arms[:-1]
                         and self.steps[n - 1].arms[-1:] and self.steps[n - 1].arms[-1][0] == block
                         and self.steps[n - 1].arms[-1][1] != arm)
        return (*siblings, step.number) if siblings else step.number


def _rule_off(name: str) -> str:
    """A banner comment's name without the rule after it (`# --- 2. fees -----------`: `fees`)."""
    text = name.rstrip()
    bare = text.rstrip("-=~*#–—")
    return bare.rstrip() if len(text) - len(bare) >= 3 else name


def read_script(src: Source, language: str) -> SpecParts | None:
    """The parts of a script runbook (module docstring); `src.text` becomes its comments only. None
    when no line of its code calls a skill: then `src.text` is its comments, to be read as markdown
    text (a warning at line 1 says so), so a script is never refused for its shape."""
    said = len(src.warnings)
    reader = _Reader(src, language)
    reader.read()
    if not reader.steps and not any(w.code == "spec.script-unread" and "calls `" in w.message for w in src.warnings):
        del src.warnings[said:]
        src.warn(1, "no line of the script's code calls a skill (`skill <name> key=value`), so its comments are read "
                    "as markdown text and its code is not read", "spec.script-unread")
        src.code = list(src.lines)  # its variables may still be the run's inputs (`spec.input_blocks24`)
        src.text = "\n".join(reader.prose)
        src.lines = list(reader.prose)
        return None
    steps = [_spec(reader, step) for step in reader.steps]
    steps = branch_steps(steps, [s.arms for s in reader.steps], reader.blocks, src)
    last_call = reader.steps[-1].call if reader.steps else None
    steps = _success_said(steps, src, last_call[0] if last_call is not None else 0)
    for number, check, line in reader.checks:
        steps[number - 1] = steps[number - 1].model_copy(update={"texts": (*steps[number - 1].texts, SpecText(
            text=check, line=line, kind="success"))})
    if not steps:
        src.error(1, "the script calls no skill, so it has no steps: call each step's skill on a line of its own "
                     "(`skill fetch-rows day=$DAY`), with a comment above it saying what the step is", "spec.no-steps")
    for line, text in reader.preamble:  # "the whole thing gets 10 minutes": the run's limit, said before the steps
        read_run_limit(text, line, src, who="whole run")
    steps = _success_before(steps, reader, src)
    if language == "ps":  # comment-based help: `.PARAMETER Name` describes an input, `.SYNOPSIS` is no title
        reader.names.describe(help_parameters(reader.preamble))
        reader.preamble = [(n, t) for n, t in reader.preamble if not re.fullmatch(r"\.[A-Za-z]++", t.strip())]
    title = next((t for _, t in reader.preamble if t.strip()), "")
    src.text = "\n".join(reader.prose)
    src.lines = list(reader.prose)
    return SpecParts(
        name=re.sub(r"[^a-z0-9]+", "-", PurePath(src.path).name.split(".")[0].lower()).strip("-") or "workflow",
        title=title.strip(), intent="\n".join(t for _, t in reader.preamble if t.strip() and t != title),
        inputs=tuple(reader.names.inputs.values()) or None, steps=tuple(steps), steps_line=1)


def _success_said(steps: list[StepSpec], src: Source, closing: int) -> list[StepSpec]:
    """A comment that says when the whole run is done ("finished when send-reply says sent = true",
    `spec.elsewhere.run_success`) is the run's success check, placed on the step it names (or the last) and
    warned at its line, not the text of the step it is under (round 49). One after the last call (line >
    `closing`) not read so is left to the whole-run reader (`_Reader._closing`), never put back on the step."""
    from orchestrator.spec.elsewhere import run_success, success_said

    said = [(i, t) for i, step in enumerate(steps) for t in step.texts if success_said(t.text) is not None]
    for i, text in said:
        steps[i] = steps[i].model_copy(update={"texts": tuple(t for t in steps[i].texts if t is not text)})
        if not run_success(text.text, text.line, steps, src) and not (closing and text.line > closing):
            steps[i] = steps[i].model_copy(update={"texts": (*steps[i].texts, text)})
    return steps


def _success_before(steps: list[StepSpec], reader: _Reader, src: Source) -> list[StepSpec]:
    """A comment before the first step that says when the whole run is done ("it's only done when the register
    step comes back with updated true") is the run's success check, placed as `_success_said` places one under a
    step (round 50); the preamble loses it."""
    from orchestrator.spec.elsewhere import run_success, success_said

    if not steps:
        return steps
    kept: list[tuple[int, str]] = []
    for line, text in reader.preamble:
        said = next((part for part in re.split(r"(?<=[.!?])\s++", text) if success_said(part) is not None), None)
        if said is not None and run_success(said, line, steps, src):
            reader.prose[line - 1] = ""
        else:
            kept.append((line, text))
    reader.preamble = kept
    return steps


def _arguments(reader: _Reader, call: str) -> list[tuple[str, str]]:
    """A call's keyword arguments; in PowerShell also its hashtable `@{ k = v }` or the one it splats."""
    pairs = arguments(call, reader.language)
    if reader.language != "ps":
        return pairs
    table = hashtable(call)
    splat = splatted(call) if table is None else None
    if splat is not None and splat in reader.names.tables:
        table = reader.names.tables[splat]
    return [*pairs, *(table or [])]


def _for_each(reader: _Reader, step: _Step, line: int) -> str | None:
    """`item in <source>` of a step an R `lapply` runs once per item of its list (`spec.rscript47`), or None."""
    if step.each is None:
        return None
    source, _, _ = reader.names.source_of(step.each[1], step.each[1], line)
    if source is None:
        reader.src.warn(line, f"the list `{step.each[1]}` the call goes over is no workflow input or step output: the "
                              "loop is not read, the step runs once", "spec.script-unread")
        return None
    return f"item in {source}"


def _spec(reader: _Reader, step: _Step) -> StepSpec:
    assert step.call is not None
    line, text, skill = step.call
    inputs: list[FieldSpec] = []
    values: dict[str, object] = {}
    each = _for_each(reader, step, line)
    for key, value in _arguments(reader, call_part(text)):
        item = value.strip().split(".", 1)
        if each is not None and step.each is not None and item[0] == step.each[0]:  # the loop's item (its field)
            values[key] = "{{ item" + (f".{item[1]}" if len(item) > 1 else "") + " }}"
            continue
        source, literal, either = reader.names.source_of(key, value, line)
        if source is not None:
            inputs.append(FieldSpec(name=key, source=source, where=reader.where(line)))
        elif either:
            inputs.append(FieldSpec(name=key, description=either, where=reader.where(line)))
        elif literal is not None:
            values[key] = literal
    # VBA: the step's text starts at its step comment or its `For Each`, whichever is first (`spec.vba49`)
    where = reader.where(min(step.line, step.looped or line) if reader.language in _BLOCKS else line)
    approval, asked = _approval(reader, step)
    kept = [t for t in step.texts if all(t is not a for a in asked)]
    return StepSpec(
        id=f"step-{step.number}", number=step.number, name=step.name, where=where, form="recipe", for_each=each,
        approval=approval, field_where={"approval": reader.where(asked[0].line)} if asked else {},
        description=" ".join(t.text for t in kept), skill=skill, skill_where=where,
        inputs=tuple(inputs), input_values=values, texts=tuple(kept),
        mentions=(Mention(text=skill, where=where),),
        readings=(*step.readings, Reading(what="skill", where=where, text=text.strip()[:160],
                                          note=f"the step's code calls `{skill}`")),
    )


def _approval(reader: _Reader, step: _Step) -> tuple[ApprovalPolicy | None, list[SpecText]]:
    """The person's approval a comment block of the step asks for (`spec.approval_hold.approval_in_run`: its condition,
    wait and what silence means), warned at its line, and the comments of that block (read whole, with the lines
    right under it: no policy of the step's own)."""
    runs: list[list[SpecText]] = []
    for said in step.texts:
        if runs and said.line == runs[-1][-1].line + runs[-1][-1].text.count("\n") + 1:
            runs[-1].append(said)
        else:
            runs.append([said])
    for run in runs:
        found = approval_in_run([t.text for t in run], reader.src)
        if found is None:
            continue
        start, (policy, sentence, when) = found
        block = run[start:]
        said = block[0]
        wait = (f"; it waits {policy.timeout_s:g}s, then {'approves' if policy.on_timeout == 'approve' else 'rejects'}"
                if policy.timeout_s is not None else "; it waits with no time limit")
        step.readings.append(Reading(what="approval", where=reader.where(said.line), text=sentence[:120],
                                     note="needs a person's approval" + (f" only when {when}" if when else "")))
        reader.src.warn(said.line, f"step-{step.number} ({step.name}): '{sentence[:80]}' is read as a person's approval "
                                   f"of step-{step.number}, the step whose comment it is: the step waits for it "
                                   f"{f'only when {when}' if when else 'on every run'}{wait}; if that is not meant, "
                                   "write `Approval: required if <field> > <value>; wait up to <time>, then reject` "
                                   "in its comment", "spec.approval")
        return policy, block
    return None, []


_rx.save()
