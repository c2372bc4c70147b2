"""One step of a markdown spec (its heading, list item, table row or paragraph) into a StepSpec.

Labelled bullets are read by label (`LABELS` lists the spellings). The bullets of
`- Failure modes:` may be nested under it or, as in the seed, written at the same
level right after it: such a following bullet without a known label is a
failure mode. Unknown labels are kept in `StepSpec.extra`; blocks that are not
understood become warnings.

What no reader here takes goes to `StepSpec.texts` for the policy reader
(`spec.prose`), which reads each piece once as a policy or reports it with its
line: the sentences kept as description, unlabelled bullets (the sentences not
read whole as structure), unknown-label bullets, failure modes, the Success line,
description bullets, and a steps table's extra cells. Nothing is warned here that
the policy reader reports.

Paragraphs are read sentence by sentence (`prose`): a sentence that starts with a
label ("Depends on: none.", "Input: a, b.") is read as that bullet; a routing
sentence, a dependency ("Runs after 1–2.", "whichever resolver ran (Stage 3, 4 or
5)") or a root ("Independent of step 1") is read as such, each kept as a `Reading`
with its line; `(a -> b)` names the step's inputs and outputs. The other sentences
are the step's description, where the policy reader and the skill binder look.
Backticked names anywhere in the step's prose are kept, in order, as `mentions`.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.policy import ApprovalPolicy, RetryPolicy
from orchestrator.spec import condition as cond
from orchestrator.spec import policy_text as pt
from orchestrator.spec import step_prose as prose
from orchestrator.spec.approval_lead import condition_unread
from orchestrator.spec.approval_ok import value_condition
from orchestrator.spec.approval_scope54 import scope_condition, scope_said, without_wait
from orchestrator.spec.approval_words25 import gate_said, said_value
from orchestrator.spec.approve37 import said_there
from orchestrator.spec.approve39 import compared
from orchestrator.spec.blocks import Block, Bullet, Fence, Para, split_label
from orchestrator.spec.branch_condition import (
    aside_condition,
    own_skill_condition,
    unread_own_condition,
)
from orchestrator.spec.condition_opening import plain as plain_sentence
from orchestrator.spec.condition_said import without_aside
from orchestrator.spec.condition_words import CONDITION_LABELS, said_of_output
from orchestrator.spec.count_tail26 import trim_count_tail
from orchestrator.spec.field_list import field_lines
from orchestrator.spec.fields import (
    NUMBER,
    STEP_WORD,
    assigned_source,
    number_of,
    parse_fields,
    spell_step_refs,
    split_top,
    step_id,
)
from orchestrator.spec.for_each_arrow import arrow_for_each
from orchestrator.spec.gate_skipped import condition_label, skipped
from orchestrator.spec.if_not_run40 import value_if_not_run
from orchestrator.spec.input_prose import assignments
from orchestrator.spec.io_arrow import doer_outputs
from orchestrator.spec.lead_condition import complement_said
from orchestrator.spec.list35 import not_yes_skips, person_has
from orchestrator.spec.model import FieldSpec, Mention, Reading, SpecText, StepForm, StepSpec
from orchestrator.spec.own_fields import read_own_field
from orchestrator.spec.policy_approval_wait24 import approval_wait_again
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.shape_labels import label_lines, own_label
from orchestrator.spec.silence_words30 import silence_skips, without_person_wait
from orchestrator.spec.source import Source
from orchestrator.spec.spoken43 import unspoken
from orchestrator.spec.start_together import starts_with
from orchestrator.spec.steps34a import INPUT_WORDS
from orchestrator.spec.steps34c import opens_otherwise
from orchestrator.spec.table35 import flagged_condition
from orchestrator.spec.time_words29 import person_wait as plain_person_wait
from orchestrator.spec.time_words29 import silence_outcome
from orchestrator.spec.where_clause import where_condition, where_unread
from orchestrator.spec.whole_approval import APPROVAL_LABELS

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

LABELS: dict[str, str] = {
    **dict.fromkeys(("skill", "skill used", "skills", "uses", "agent", "uses skill", "tool",
                     "mcp tool", "uses tool", "skill name"), "skill"),
    **dict.fromkeys(("input", "inputs", "in", "takes", "reads", "consumes", "reads from"), "input"),
    **dict.fromkeys(("output", "outputs", "out", "returns", "produces", "gives", "yields", "writes",
                     "emits"), "output"),
    **dict.fromkeys(("success", "success criteria", "success criterion"), "success"),
    **dict.fromkeys(("failure modes", "failure mode", "failures"), "failures"),
    **dict.fromkeys(("depends on", "depends", "dependencies", "after", "needs", "runs after",
                     "waits for", "prerequisites", "depends-on", "wait for", "waits on", "wait on", "blocked by",
                     "starts after", "start after", "predecessors", "upstream", "requires"), "depends"),
    **dict.fromkeys(("for each", "foreach", "for-each", "fan out", "fan-out"), "for_each"),
    **dict.fromkeys(("when", "condition", "if", "only if", "run if", *CONDITION_LABELS), "when"),
    **dict.fromkeys(("approval", "requires approval", "approve", *APPROVAL_LABELS), "approval"),
    **dict.fromkeys(("compensation", "compensate", "compensate with", "undo"), "compensation"),
    **dict.fromkeys(("timeout", "time limit"), "timeout"),
    **dict.fromkeys(("retries", "retry"), "retries"),
    **dict.fromkeys(("on error", "on failure", "on-error"), "on_error"),
    **dict.fromkeys(("route", "routes", "routing", "branch", "branches"), "route"),
    **dict.fromkeys(("description", "purpose", "notes", "note"), "description"),
}
STEP_HEADING = _rx(rf"(?i)^\s*{STEP_WORD}\s*({NUMBER})\s*(?:[:.)\-–—]\s*(.*))?$")
NUMBERED_HEADING = _rx(r"^\s*(\d+)\s*(?:[.):]|\s[-–—])\s+(\S.*)$")  # "2. Classify", "1) Pull", "3 — Ship"
_IO = _rx(r"\(\s*+([^()]*?)(?:(?<!\s)\s+)?(?:->|→|=>)\s*+([^()]*?)(?:(?<!\s)\s+)?\)")
_IO_LEAD = _rx(r"^\s*+((?:[`\w][\w`]*(?:\s*+(?:,|\+|and)\s*+[`\w][\w`]*)*)?)\s*+(?:->|→|=>)\s*(.+)$")
_RETURNS = _rx(r"(?i)\b(?:returns?|gives? back|get back|gets back|comes? back with|produces?|outputs?|"
               r"emits?|yields?|hands? back|what comes back is)\b")
# where what a step returns stops being said: a new clause, a dash, or what it takes ("gives back X — it takes Y"); a table cell ends it too
_RETURNS_END = _rx(r"[;:|]|\.\s|, (?:so|but|which|then)\b|\s[—–-]\s|—|(?<!\w)(?:takes|needs|reads|uses|from)(?!\w)")
_EMPHASISED = _rx(r"(?<![\w*])(?:\*\*|\*|__|_)([a-z0-9]+(?:-[a-z0-9]+)+)(?:\*\*|\*|__|_)(?![\w*])")
_SUCCESS_SAID = _rx(r"(?i)^\s*(success(?:\s+criteri(?:a|on))?)\s*(?:==?|:=|means|is when|is)\s+(.+)$", re.S)
_ELSEWHERE = _rx(r"(?i)\b(?:if|unless|otherwise|instead|fall(?:s|ing)?\s+back|fallback|undo|compensat\w*|"
                 r"roll\w*\s+back|escalat\w*)\b")
_INSTEAD = _rx(r"(?i)\b(?:instead|fall(?:s|ing)?\s+back\s+(?:to|on)|plan\s+b)\b")
_SKILL_LABEL = _rx(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
_PLAIN_NAME = _rx(r"(?<![\w`/.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w`/-])")
_GENERIC = {"everything", "all", "nothing", "none", "it", "them", "input", "inputs", "output", "outputs"}
_ASIDE = _rx(r"(?i)^\W*(?:notes?|remarks?|comments?|todo|open questions?|misc|references?|faq)\W*$")
_FOR_EACH = _rx(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+?)\s*$")
_REF = _rx(r"^(?:(step[\s_-]*\d+)|steps\.([\w-]+)\.output)\.([\w.]+)$", re.I)
_ROUTE = _rx(r"^\s*`?([\w *-]+?)`?\s*(?:→|->|=>|:)\s*`?([\w -]+?)`?\s*$")
_ROUTE_MAX = 240  # characters of one `branch → Step N`; a longer part is not matched (`_ROUTE` reads a
# blank run again from each of its blanks): it is read as a sentence, or reported
_ID = _rx(r"[A-Za-z_][\w-]*")
_SAYS_IF = _rx(r"(?i)\b(?:if|when|only|over|above|under|below|more\s+than|less\s+than|exceeds?)\b|[<>≥≤]")
# an approval sentence led by its condition ("If 1 says there's a controlled drug, it waits for ... to approve")
_LEADING_IF = _rx(r"(?i)^\W{0,8}(?:if|when|whenever|in\s+case)\b")


def label_key(label: str | None, value: str) -> str | None:
    """What a bullet's label means (`LABELS`); "Requires: Step 2" is a dependency too."""
    key = LABELS.get(label or "") or own_label(label, value)  # "Op:", "Gives back:" (`shape_labels`)
    if key is None and label in ("requires", "required", "prerequisite", "waits on") and (
        prose.read_step_list(value, bare_digits=False).ids
    ):
        return "depends"
    if key is None and label and cond.otherwise_sentence(label) is not None:
        return "otherwise"
    if key is None and condition_label(label):  # "Only do this if: ...": a When line in the author's words
        return "when"
    return key


def step_heading(title: str) -> tuple[int, str] | None:
    """`Step 2: Name`, `Stage 2 — Name`, `Step three: Name` → (number, name); else None."""
    t = title.strip().strip("*_").replace("**", "").replace("__", "")
    m = STEP_HEADING.match(t)
    if m is None:
        return None
    n = number_of(m.group(1))
    return (n, (m.group(2) or "").strip().strip("*_ ")) if n is not None else None


def numbered_heading(title: str) -> tuple[int, str] | None:
    """`2. Classify`, `1) Pull out the action items` → (number, name); else None."""
    m = NUMBERED_HEADING.match(title.strip().replace("**", ""))
    return (int(m.group(1)), m.group(2).strip().strip("*_ ")) if m else None


_CODE_SPAN = _rx(r"`([^`\n]{0,200}+)`")


def _strip_code(text: str) -> str:
    """The text without its code marks: one span around the whole, or each name's (`a` >= `b`)."""
    t = text.strip()
    inner = t[1:-1] if len(t) > 1 and t[0] == t[-1] == "`" else None
    t = inner.strip() if inner is not None and "`" not in inner else _CODE_SPAN.sub(r"\1", t).strip().strip("`").strip()
    m = re.fullmatch(r"(?:\{\{|\$\{)\s*+(.*?)(?:(?<!\s)\s+)?\}\}?", t, re.S)
    return m.group(1) if m else t


def canonical_ref(text: str) -> str:
    """`step-2.items` / `Step 2.items` → `steps.step-2.output.items`; other names unchanged."""
    t = _strip_code(text)
    m = _REF.match(t)
    if not m:
        return t
    sid = step_id(m.group(1)) if m.group(1) else m.group(2)
    return f"steps.{sid}.output.{m.group(3)}"


# a list named alone, no item: `screen.valid`, `step-2.rows`, `members`
_LIST_ONLY = _rx(r"[A-Za-z_][\w-]{0,60}+(?:\.[A-Za-z_]\w{0,60}+){0,3}+")


def read_for_each(text: str, src: Source, line: int) -> str | None:
    """`item in list_field` → `item in list_field`; `x in step-2.files` → `x in steps.step-2.output.files`."""
    m = _FOR_EACH.match(_strip_code(text))
    if not m and ("->" in text or "→" in text or "=>" in text):  # `pull orders -> stops`: the author's own
        if (arrow := arrow_for_each(text, src, line)) is not None:  # `spec.for_each_arrow`
            return arrow
        src.warn(line, f"for each '{text.strip()[:60]}' is not read, so the step runs once, not per item: write "
                       "`item in step-2.field` (e.g. `stop in step-1.stops`)", "spec.for-each")
        return None
    listed = _strip_code(text)
    if not m and _LIST_ONLY.fullmatch(listed):  # `repeat_for: screen.valid`: the list, its item unnamed
        src.warn(line, f"for each '{listed}' names the list but not its item: read as `item in {listed}`; write "
                       f"`x in {listed}` to name each item", "spec.for-each")
        m = _FOR_EACH.match(f"item in {listed}")
    if not m:
        src.error(line, f"for each '{text.strip()}' must read `item in list_field` "
                        "or `item in step-2.field`", "spec.for-each")
        return None
    source = canonical_ref(m.group(2))
    if not re.fullmatch(r"[\w.-]+|steps\.[\w-]+\.output(?:\.[\w.]+)?", source):
        src.error(line, f"for each source '{m.group(2)}' is not a field name or step reference",
                  "spec.for-each")
        return None
    return f"{m.group(1)} in {source}"


def read_when(text: str, src: Source, line: int) -> str | None:
    """A condition: a Jinja2 expression or a comparison in words (`spec.condition`), kept as
    written for the planner to compile; what is neither is an error with its line."""
    expr = _strip_code(text)
    if not expr:
        src.error(line, "when: the condition is empty", "spec.when")
        return None
    if cond.read_condition(expr) is None and (bare := without_aside(expr)) != expr and cond.read_condition(bare):
        expr = bare  # "top_grade is 4 or worse (grade 4/5 = erosion)": the aside explains it
    if cond.read_condition(expr) is None and (cut := trim_count_tail(expr)) and cond.read_condition(cut):
        src.warn(line, f"when: the condition '{expr}' is read as '{cut}', the count it says (the words after it "
                       "say what the counted ones do); check the plan", "spec.when")
        expr = cut  # "more than 20 kids going": the count of kids (`spec.count_tail26`)
    if cond.read_condition(expr) is None:
        src.error(line, f"when: the condition '{expr}' cannot be read: write a comparison such as "
                        "`confidence < 0.7`, `Step 4 reported valid = true`, `amount is over 1000` "
                        "or an expression", "spec.when")
        return None
    return expr


def read_depends(text: str) -> prose.StepList:
    """`Step 1, Step 2` / `step-1 and extract` / `Steps 2, 4, 6 and 8` / `after 2–4` → the steps
    (numbers as `step-N`, other names kept to resolve); `none`, `-` → a root; "or",
    "whichever ran" → a join over whichever ran."""
    return prose.read_step_list(text, bare_digits=True)


_ROUTE_DEFAULT = _rx(r"(?i)^(?:\*|default|otherwise|else|anything else|everything else|any other\b.*|"
                     r"the rest)$")


def _route_part(part: str) -> re.Match[str] | None:
    return _ROUTE.match(part) if len(part) <= _ROUTE_MAX else None


def read_routes(text: str, src: Source, line: int) -> tuple[dict[str, str], str | None]:
    """`billing → Step 2, technical → Step 3, anything else → Step 4` (or the same as a
    sentence) → (branches, default)."""
    routes: dict[str, str] = {}
    default: str | None = None
    parts = split_top(text, ",;")
    if any(_route_part(p) is None for p in parts):
        sentence = prose.route_sentence(text)
        if sentence is not None:
            return sentence.branches, sentence.default
    for part in parts:
        m = _route_part(part)
        if not m:
            src.error(line, f"route '{part}' must read `branch-name → Step N`", "spec.route")
            continue
        target = m.group(2).strip()
        branch = m.group(1).strip()
        if _ROUTE_DEFAULT.match(branch):
            default = step_id(target) or target
        else:
            routes[branch] = step_id(target) or target
    return routes, default


def _nested_after(blocks: list[Block]) -> list[Block]:
    """The blocks, with what is nested under a bullet no label takes ("- Some note" then "   - retry 3
    times") following it as the step's own blocks: no reader took nested blocks there, so they were
    dropped without a word. A labelled bullet keeps its nested ones (its reader reads or warns them)."""
    if not any(isinstance(b, Bullet) and b.children for b in blocks):
        return blocks
    out: list[Block] = []
    for block in blocks:
        if isinstance(block, Bullet) and block.children and label_key(block.label, block.value) is None:
            out.append(block.model_copy(update={"children": ()}))
            out += _nested_after(list(block.children))
        else:
            out.append(block)
    return out


def _child_texts(bullet: Bullet) -> list[tuple[str, int]]:
    return [(b.text, b.line) for b in bullet.children if isinstance(b, Bullet)]


def _read_retries(value: str, src: Source, line: int) -> tuple[int | None, RetryPolicy | None]:
    return pt.read_retries_value(value, src, line)


# Bullets whose line the planner cites as the source of a policy decision.
LOCATED = ("timeout", "retries", "on_error", "approval", "compensation", "when", "for_each")


class _StepBuilder:
    """Collects one step's values while its bullets and sentences are read."""

    def __init__(self, src: Source, sid: str) -> None:
        self.src = src
        self.sid = sid
        self.values: dict[str, Any] = {}
        self.beside = ""  # what an approval sentence says besides the approval (`condition.approval_rest`)
        self.inputs: list[FieldSpec] = []
        self.outputs: list[FieldSpec] = []
        self.failures: list[str] = []
        self.description: list[str] = []
        self.extra: dict[str, str] = {}
        self.routes: dict[str, str] = {}
        self.field_where: dict[str, str] = {}
        self.seen: set[str] = set()
        self.texts: list[SpecText] = []  # what no structural reader took, for the policy reader (spec.prose)
        self.readings: list[Reading] = []
        self.mentions: list[Mention] = []
        self.bold: list[Mention] = []
        self.later: list[Mention] = []  # backticked names in a sentence about a fallback
        self.plain: list[Mention] = []
        self.prose_depends: tuple[prose.StepList, int, str] | None = None
        self.structure_read = 0  # sentences read as a dependency, a root (+1) or a route (+2)
        self.block_index = 0  # which of the step's blocks is being read
        self.foreign_routes: list[tuple[str, prose.RouteReading, int]] = []

    def read(self, what: str, line: int, text: str, note: str) -> None:
        self.readings.append(Reading(what=what, where=self.src.where(line), text=_clip(text), note=note))

    def mention(self, text: str, line: int) -> None:
        for sentence in re.split(r"(?<=[.;!?])\s+", text):
            # "use `basic-stats` instead": named as the fallback, tried after every other name
            into = self.later if _INSTEAD.search(sentence) else self.mentions
            for name in re.findall(r"`([^`]+)`", sentence):
                if name.strip():
                    into.append(Mention(text=name.strip(), where=self.src.where(line)))
        for sentence in re.split(r"(?<=[.;!?])\s+", text):  # **fetch-docs**, *fetch-docs*, _fetch-docs_
            into = self.later if _INSTEAD.search(sentence) else self.bold  # "use **x** instead": after a bare name
            for name in _EMPHASISED.findall(sentence):
                into.append(Mention(text=name, where=self.src.where(line), marked="bold"))
        if _ELSEWHERE.search(text):
            return  # "if it fails fall back to archive-summary": a bare name there is not the step's skill
        from orchestrator.spec.gather_object32 import gathered_names

        gathered = gathered_names(text)  # "collect every dock-fill answer": that skill's results, not this step's
        for name in _PLAIN_NAME.findall(re.sub(r"`[^`]*`", " ", text)):  # list-deploys, unmarked
            if name in gathered:
                continue
            self.plain.append(Mention(text=name, where=self.src.where(line), marked="plain"))

    def labelled(self, key: str, bullet: Bullet, sid: str) -> None:
        src, line, value = self.src, bullet.line, bullet.value
        if key in self.seen and key in {"skill", "for_each", "when", "approval", "compensation",
                                        "timeout", "retries", "on_error", "depends", "success"}:
            if key == "skill":
                src.error(line, f"{sid} has a second Skill line", "spec.duplicate-skill")
                return
            src.warn(line, f"{sid}: a second '{bullet.label}' line; it replaces the first",
                     "spec.duplicate-label")
        self.seen.add(key)
        children = _child_texts(bullet)
        if key in {"input", "output"}:
            target = self.inputs if key == "input" else self.outputs
            for text, at in [(value, line), *children]:
                if key == "input":  # `left` = the orders rows from step 2, `key` = "customer_id"
                    fields, literals, rest = assignments(text, src.where(at))
                    self.inputs.extend(fields)
                    self.values.setdefault("input_values", {}).update(literals)
                    if fields or literals:
                        self.read("input", at, text, "inputs " + ", ".join([*(f.name for f in fields), *literals]))
                        text = ", ".join(rest)
                target.extend(parse_fields(text, src, at, output=key == "output"))
                if key == "input" and text.strip():  # its words, for a gather said there (`plan.steps34a`)
                    self.extra[INPUT_WORDS] = f"{self.extra.get(INPUT_WORDS, '')} {text.strip()}".strip()
            return
        if key == "otherwise":
            self.otherwise(bullet.label or "", value, line)
            return
        if key == "failures":
            parts = [p for p in split_top(value, ";")] + [t for t, _ in children]
            self.failures.extend(parts)
            self.texts += [SpecText(text=p, line=line, kind="failure_mode") for p in split_top(value, ";")]
            self.texts += [SpecText(text=t, line=at, kind="failure_mode") for t, at in children]
            return
        if key == "route":
            for text, at in [(value, line), *children]:
                if text.strip():
                    branches, default = read_routes(text, src, at)
                    self.routes.update(branches)
                    if default is not None:
                        self.values["route_default"] = default
                    self.values.setdefault("routes_where", src.where(at))
            return
        if children:
            src.warn(children[0][1], f"{sid}: nested bullets under '{bullet.label}' not read",
                     "spec.unread")
        self._scalar(key, value, bullet, sid)

    def _scalar(self, key: str, value: str, bullet: Bullet, sid: str) -> None:
        src, line = self.src, bullet.line
        v = self.values
        if key in LOCATED:
            self.field_where[key] = src.where(line)
        if key == "skill":
            v["skill_where"] = src.where(line)
            if not value.strip():
                src.error(line, f"{sid}: the Skill line is empty", "spec.no-skill")
                return
            name, _, more = value.strip().partition("\n")
            v["skill"] = name.strip() if more.strip() else value.strip()  # a TODO placeholder: the planner's error
            if more.strip():  # "- Skill: restock\nOnly when nothing was damaged.": a line run on, the step's text
                self.paragraph(more.strip(), line + 1)
        elif key == "success":
            v["success"] = value.strip()
            self.texts.append(SpecText(text=value.strip(), line=line, kind="success"))
        elif key == "description":
            self.description.append(value.strip())
            self.texts.append(SpecText(text=value.strip(), line=line))  # "- Notes: retry twice" is read too
        elif key == "depends":
            found = read_depends(value)
            v["depends_on"], v["depends_where"] = (*found.ids, *found.names), src.where(line)
            if found.any:
                v["join"] = "any"
                self.read("join", line, value, f"runs once after whichever of {_ids(found)} ran")
            elif found.root:
                self.read("depends_on", line, value, "no dependencies: the step is a root")
        elif key == "for_each":
            v["for_each"] = read_for_each(value, src, line)
        elif key == "when":
            compared = cond.read_condition(_strip_code(value)) is not None
            said = complement_said(value) if not compared else None
            gone = skipped(_strip_code(value), compared) if said is None else None
            if gone is not None and (gone[2] or not compared):  # "Only when: D didn't happen": the other branch of D
                self.unhappened(gone, value, line)
            elif said is None:
                v["when"] = read_when(value, src, line)
                if gone is not None:  # "no delays": `delays` is empty, or the other branch (`plan.dataflow`)
                    self.field_where["when_or_otherwise"] = src.where(line)
            else:  # "Only if: the gate above didn't pass": the other branch of the condition before
                v["otherwise_where"] = self.field_where["when"] = src.where(line)
                src.warn(line, f"{sid}: the condition '{value.strip()}' is no comparison; '{said}' reads as the "
                               "other case of the step before's condition, so the step runs exactly when that one was "
                               "false: if that is not meant, write a comparison", "spec.lead-condition")
                self.read("otherwise", line, value, "runs exactly when the condition of the step before it was false")
        elif key == "approval":
            v["approval"] = cond.read_approval_text(value, src, line)
        elif key == "compensation":
            name = value.strip().strip("`").strip()
            if not _ID.fullmatch(name):
                src.warn(line, f"{sid}: compensation '{value.strip()}' is not a skill name; ignored",
                         "spec.unread")
            else:
                v["compensation"] = name
        elif key == "timeout":
            seconds = pt.parse_duration(value)
            if seconds is None or seconds <= 0:
                src.warn(line, f"{sid}: timeout '{value.strip()}' is not a duration (30s, 2 min); "
                               "ignored", "spec.unread")
            else:
                v["timeout_s"] = seconds
        elif key == "retries":
            v["retries"], v["retry"] = _read_retries(value, src, line)
        elif key == "on_error":
            word = value.strip().strip("`").lower().split(" ")[0].rstrip(".;,")
            if word in ("continue", "fail"):
                v["on_error"] = word
            else:  # "On error: re-run once after 40 s": a policy in words, for the policy reader (which says what it can't read)
                self.texts.append(SpecText(text=f"On error, {value.strip()}", line=line, kind="bullet"))

    def unlabelled(self, bullet: Bullet) -> None:
        """A bullet without a label: its structure here, the rest to the policy reader, which
        reads it or reports it (as not read, or read only in part when some was structure)."""
        how, rest = _bullet_prose(self, bullet)
        if rest:
            self.texts.append(SpecText(text=" ".join(rest), line=bullet.line, kind="bullet", partly=how == "part"))

    # -- prose ---------------------------------------------------------------------

    def paragraph(self, text: str, line: int) -> None:
        """A paragraph, sentence by sentence (module docstring)."""
        kept: list[str] = []
        lines = label_lines(text, label_key) or field_lines(text, label_key)  # `Tool: x`, `:only if: x` a line
        for index, (offset, sentence) in enumerate(lines or prose.sentences(text)):
            at = line + offset
            if not index and opens_otherwise(sentence, self.block_index, self.values):
                self.otherwise("", sentence, at)  # "**Mark clean** – otherwise (nothing left), `mark-clean`"
                self.mention(sentence, at)
                continue
            taken = self.sentence(sentence, at)
            if taken and self.beside:  # an approval said in a sentence that says more: the rest is read on
                sentence, taken, self.beside = self.beside, False, ""
            if not taken:
                kept.append(sentence)
                self.mention(sentence, at)
                self.texts.append(SpecText(text=sentence, line=at, kind="sentence"))
        if kept:
            self.description.append(" ".join(kept))

    def sentence(self, sentence: str, line: int) -> bool:
        """Read one sentence structurally; True when it was taken (not description)."""
        number = int(self.sid.rpartition("-")[2]) if self.sid.rpartition("-")[2].isdigit() else 0
        previous = f"step-{number - 1}" if number > 1 else None  # "every PR that came out of it": the step before
        loop = prose.for_each_phrase(sentence, previous) if "for_each" not in self.values else None
        if loop is not None:  # "for each doc in documents, run ...": the rest is read on
            item, source, rest = loop
            value = f"{item} in {source}"
            self.labelled("for_each", Bullet(line=line, text=sentence, label="for each", value=value), self.sid)
            self.read("for_each", line, sentence, f"read as For each: {value}")
            self._item_fields(item, rest, line)
            if not rest.strip():
                return True
            sentence = rest
        label, value = split_label(sentence)
        said = _SUCCESS_SAID.match(sentence) if label is None else None
        if said is not None:  # "Success = valid is true", "Success means the file exists"
            label, value = said.group(1).lower(), said.group(2)
        key = label_key(label, value)
        if key is not None and key != "description":
            value = value.rstrip(".").strip()
            if key == "for_each":
                head = re.match(r"\s*`?(\w+\s+in\s+[\w.-]+)`?\s*[,;]?\s*(.*)$", value)
                if head:
                    value, rest = head.group(1), head.group(2)
                    if rest:
                        self.description.append(rest[:1].upper() + rest[1:])
                        self.mention(rest, line)
                        self.texts.append(SpecText(text=rest, line=line, kind="sentence"))
            self.labelled(key, Bullet(line=line, text=sentence, label=label, value=value), self.sid)
            if key != "depends":
                self.read(key, line, sentence, f"read as a `{label}:` line")
            elif self.values.get("depends_on") and self.values.get("join") != "any":
                self.read("depends_on", line, sentence,
                          f"depends on {', '.join(self.values['depends_on'])}")
            return True
        route = prose.route_sentence(sentence)
        if route is not None:
            self.structure_read += 2  # a route says nothing else: the bullet is read whole
            self._route(route, sentence, line)
            return True
        if self._condition(sentence, line):
            return True
        found = prose.dependency_phrase(sentence)
        if found is not None:
            self.structure_read += 1
            if self.prose_depends is None or self.prose_depends[0].root:
                self.prose_depends = (found, line, sentence)
            else:  # a second sentence naming more steps to wait for: both count
                first, at, text = self.prose_depends
                ids = tuple(dict.fromkeys([*first.ids, *found.ids]))
                self.prose_depends = (first.model_copy(update={"ids": ids, "any": first.any or found.any}), at, text)
            return False  # the sentence may also carry a policy: it stays in the description
        if self.together(sentence, line):
            return False  # the sentence may also carry a policy ("same time as #1, retry 2x")
        if prose.root_phrase(sentence):
            self.structure_read += 1
            if self.prose_depends is None:
                self.prose_depends = (prose.StepList(root=True), line, sentence)
        self._io(sentence, line)
        self._returns(sentence, line)
        return False

    def _item_fields(self, item: str, text: str, line: int) -> None:
        """"on that line's sku, qty, price and reason", "with the item's `sku` and `min`": inputs
        that are fields of each item of the For each."""
        m = re.search(rf"(?i)\b(?:the|that|this|each|every)\s+(?:{re.escape(item)}|item)['’]s\s+(.+?)(?:[.;:(]|\s[—–-]\s|$)", text)
        if m is None:
            return
        names = [n.strip("` ") for n in re.split(r"(?:(?<!\s)\s+)?,\s*|(?<!\s)\s+and\s+|(?:(?<!\s)\s+)?,\s*and\s+", m.group(1))]
        names = [n for n in names if re.fullmatch(r"[A-Za-z_]\w*", n)]
        have = {f.name for f in self.inputs}
        self.inputs += [FieldSpec(name=n, required=False, source=f"item.{n}", where=self.src.where(line))
                        for n in names if n not in have]
        if names:
            self.read("input", line, m.group(0), "inputs " + ", ".join(names) + " (each item's fields)")

    def otherwise(self, label: str, rest: str, line: int) -> None:
        """"Otherwise (valid is false): roll back": the step runs when the condition before it was false."""
        found = cond.otherwise_sentence(label if label else rest)
        paren = found[0] if found else None
        if not label and found is not None:
            rest = found[1]
        named = cond.otherwise_of(paren or found[1]) if found is not None else None
        if named is not None and not paren and not label:  # "Otherwise of Step 4: roll back"
            rest = named[1]
        if self.block_index > 1:  # "otherwise, page the on-call" among the failure lines is not a branch
            self.src.warn(line, f"{self.sid}: '{(label + ': ' + rest) if label else rest}' is not read as an "
                                "Otherwise: it must open the step (its first or second line)", "spec.unread")
            self.description.append(rest.strip())
            return
        self.values["otherwise_where"] = self.src.where(line)
        self.field_where["when"] = self.src.where(line)
        if named is not None:
            self.values["otherwise_of"] = named[0]
        elif paren and cond.read_condition(paren) is not None:
            self.values["otherwise_text"] = paren
        self.read("otherwise", line, f"{label}: {rest}" if label else rest,
                  f"runs exactly when the condition of {named[0]} was false" if named is not None
                  else "runs exactly when the condition of the step before it was false")
        if rest.strip():
            self.description.append(rest.strip())

    def unhappened(self, gone: tuple[str | None, str, bool], value: str, line: int) -> None:
        """A condition line that says an earlier step did not run: the step is that step's other branch."""
        ref, said, _ = gone
        where = self.src.where(line)
        self.values["otherwise_where"] = self.field_where["when"] = where
        if ref is not None:
            self.values["otherwise_of"] = ref
            self.field_where["otherwise_said"] = where
        whose = f"'{ref}'" if ref is not None else "the nearest step before it with a condition"
        self.src.warn(line, f"{self.sid}: the condition '{value.strip()[:80]}' is no comparison; '{said[:60]}' is read "
                            f"as the other branch of {whose}: the step runs exactly when that step's condition was "
                            "false. If that is not meant, write a comparison; to say so plainly write "
                            "`Otherwise (of Step N):`", "spec.lead-condition")
        self.read("otherwise", line, value, f"runs exactly when the condition of {whose} was false")

    def _own_skill(self, sentence: str) -> str | None:
        """The step's skill as far as read: the first name it mentions, else the first in `sentence`."""
        if self.mentions:
            return self.mentions[0].text
        m = re.search(r"`([\w-]+)`", sentence)
        return m.group(1) if m else None

    def _condition(self, sentence: str, line: int) -> bool:
        """A sentence that makes the step conditional, says it needs an approval, or how long
        its approval waits; True when taken."""
        sentence = unspoken(sentence)  # "has to [01:50] okay it", "give her, uh, six hours" (`spec.spoken43`)
        said = cond.condition_sentence(sentence)
        guess = said is None and (said := own_skill_condition(sentence, self._own_skill(sentence))
                                  or where_condition(sentence, self._own_skill(sentence))) is not None  # "Where ..."
        if said is not None and "when" not in self.values and not said[1] and (gone := skipped(
                _strip_code(said[0]), cond.read_condition(_strip_code(said[0])) is not None)) is not None and gone[2]:
            self.unhappened(gone, said[0], line)  # "Only if step 2 wasn't needed": the other branch of step 2
            self.structure_read += 2
            return True
        if said is not None and "when" not in self.values:
            text, negated = said
            bare = re.sub(r"(?:(?<!\s)\s+)?\([^()]*\)\s*$", "", text)  # "the total is over 1000 (EUR)": the aside off
            if (aside := aside_condition(text)) is not None:  # "the candidate is remote (`remote` is true)"
                text = aside
            elif bare != text and cond.read_condition(text) is None and cond.read_condition(bare) is not None:
                text = bare
            if cond.read_condition(text) is None and (flagged := flagged_condition(text, self.src.vocabulary)):
                self.src.warn(line, f"{self.sid}: the condition '{text[:80]}' is read as `{flagged[0]}`, the output of "
                                    f"that name `{flagged[1]}` gives; check the plan", "spec.when")
                text = flagged[0]  # "`med-rec` flags high risk": its `high_risk` output (`spec.table35`)
            if cond.read_condition(text) is None:
                message = (f"{self.sid}: the condition '{text}' cannot be read: write a comparison such as "
                           "`confidence < 0.7`, `Step 4 reported valid = true` or `amount is over 1000`")
                if re.match(r"(?i)^\W*only\s+(?:if|when)\b", sentence):  # "Only if ..., use the backup": maybe not
                    self.src.warn(line, f"{message}; the step runs without it", "spec.when")
                    self.field_where["when_unread"] = self.src.where(line)  # an Otherwise after it: both run
                    return False
                self.src.error(line, message, "spec.when")
                return True
            self.values["when"] = f"not ({text})" if negated and cond.is_expression(text) else (
                f"unless {text}" if negated else text)
            self.field_where["when"] = self.src.where(line)
            if guess:  # "Run `book-desk` if not remote": dropped with a warning if it names no value
                self.field_where["when_title"] = self.src.where(line)
                if not self.mentions:
                    self.mention(sentence, line)  # the sentence names the step's skill
                self.src.warn(line, f"{self.sid}: '{sentence.strip()[:80]}' is read as the step's condition: it runs "
                                    f"only when {text}" + (" is false" if negated else "") + "; if that is not meant,"
                                    " write the condition on its own line (`- When: ...`)", "spec.lead-condition")
            elif (cut := plain_sentence(sentence).find(said[0])) >= 0 and "`" in (rest := plain_sentence(
                    sentence)[cut + len(said[0]):]):
                self.mention(rest, line)  # "Only if ... capacity, run `trim-list`": the step's skill after it
            self.read("when", line, sentence, f"runs only when {text}" if not negated else f"skipped when {text}")
            self.structure_read += 2  # the sentence is read whole
            return True
        if said is None and "when" not in self.values and (after := unread_own_condition(
                sentence, self._own_skill(sentence)) or where_unread(sentence, self._own_skill(sentence))) is not None \
                and not (said_value(sentence) and cond.approval_sentence(sentence)) \
                and not value_if_not_run(sentence):  # the approval's (`approval_words25`); "put 0 if (c) did not happen"  # "`x`, but only when the moon is full"
            self.src.warn(line, f"{self.sid}: the condition '{after[:80]}' after its skill is not read: the step runs "
                                "on every run; write it as a comparison of a named value (`- When: NAME > NUMBER`)",
                          "spec.condition-not-read")
        if isinstance(approval := self.values.get("approval"), ApprovalPolicy) and (
                silence_skips(sentence) or not_yes_skips(sentence)):  # "hasn't said yes by then, DON'T print"
            seconds, _ = cond.approval_timeout(sentence)  # `spec.silence_words30`: "No answer = skip it"
            self.values["approval"] = approval.model_copy(update={"on_timeout": "skip", "timeout_s": approval.timeout_s
                                                                  if approval.timeout_s is not None else seconds})
            self.read("approval", line, sentence, "what the approval's silence means: skip the step, the run goes on")
            return True
        if (taken := gate_said(self, sentence, line)) is not None:  # `spec.approval_words25`
            return taken
        if cond.approval_sentence(sentence) and "approval" not in self.values:
            when, _ = cond.approval_condition(spell_step_refs(sentence))
            if when is None and (scope := scope_said(sentence)) is not None:  # "RED band only: ..."
                when = scope_condition(scope)  # `spec.approval_scope54`
            if when is None and (by_value := value_condition(sentence)) is not None:
                when = by_value[0]  # "RED means a callout, so Bev has to OK it first": a guess, said at the line
                self.src.warn(line, f"{self.sid}: {by_value[1]}", "spec.approval-condition")
            if when is None and _SAYS_IF.search(sentence) and (read_as := said_of_output(sentence, self.src.vocabulary)):
                when = read_as[0]  # "If the flour check says we're short at all, ...": a guess, said at the line
                self.src.warn(line, f"{self.sid}: the approval's condition '{read_as[1][:80]}' is read as `{when}`, "
                                    "the output of that name a step before it gives (a guess): check the plan, or "
                                    f"write `Approval: required if {when}`", "spec.approval-condition")
            if when is None and (there := said_there(sentence, self.src.vocabulary) or compared(
                    sentence, self.src.vocabulary)) is not None:
                when = there[0]  # "If 1 says there's a controlled drug", "If more kids than seats" (`spec.approve37/39`)
                self.src.warn(line, f"{self.sid}: the approval's condition '{there[1][:80]}' is read as `{when}`, "
                                    "the outputs of those words the skills give (a guess): check the plan, or "
                                    f"write `Approval: required if {when}`", "spec.approval-condition")
            unread = when is None and (_SAYS_IF.search(cond.without_approval_wait(sentence)) is not None
                                       or condition_unread(sentence))  # "Anything that looks off needs ..."
            if unread and not _LEADING_IF.match(sentence) and not condition_unread(sentence):
                return False  # "anything above 5,000 needs ...": a condition not placed; the policy reader's
            seconds, then = cond.approval_timeout(sentence)
            if unread:  # "If 1 says there's a controlled drug, it waits for the pharmacist to approve"
                self.src.warn(line, f"{self.sid}: '{sentence.strip()[:80]}' asks for a person's approval under a "
                                    "condition that cannot be read: the step waits for the approval on every run, "
                                    "never on none; to say when, write `Approval: required if <field> > <value>`",
                              "spec.approval-condition")
            self.values["approval"] = ApprovalPolicy(timeout_s=seconds, on_timeout=then or "reject", when=when)
            self.field_where["approval"] = self.src.where(line)
            self.beside = cond.approval_rest(sentence)
            if seconds is not None:  # "ring him, wait up to 2 hrs for answer": the approval's wait, no retry
                self.beside = without_wait(without_person_wait(self.beside, seconds))  # `spec.silence_words30`, `54`
            self.read("approval", line, sentence, "needs a person's approval" + (f" only when {when}" if when else ""))
            return True
        approval = self.values.get("approval")
        if isinstance(approval, ApprovalPolicy) and (again := approval_wait_again(approval, sentence)) is not None:
            self.values["approval"] = again  # "No answer in 2 hrs = we do not sail" (`spec.policy_approval_wait24`)
            self.read("approval", line, sentence, f"the approval's wait said again: {again.timeout_s:g}s, then {again.on_timeout}s")
            return True
        if isinstance(approval, ApprovalPolicy) and approval.timeout_s is None:
            seconds, then = cond.approval_timeout(sentence)
            if seconds is not None and then is not None:
                self.values["approval"] = approval.model_copy(update={"timeout_s": seconds, "on_timeout": then})
                self.read("approval", line, sentence, f"the approval waits {seconds:g}s, then {then}s")
                return True
            from orchestrator.spec.approval_hold import person_wait  # "Give her 3 hours."

            if (has := person_has(sentence)) is not None:  # "Message her, she has till ... (20 min)" (`spec.list35`)
                self.values["approval"] = approval.model_copy(update={"timeout_s": has, "on_timeout": "reject"})
                self.read("approval", line, sentence, f"the approval waits {has:g}s, then rejects (no answer is a no "
                          "unless said)")
                return True

            if (waited := person_wait(sentence)) is not None:
                self.values["approval"] = approval.model_copy(update={"timeout_s": waited[0], "on_timeout": waited[1]})
                self.read("approval", line, sentence, f"the approval waits {waited[0]:g}s, then {waited[1]}s"
                          + ("" if waited[2] else " (no answer read as a no: the run does not go on without the yes)"))
                return True
            if (seconds := plain_person_wait(sentence)) is not None:  # "Send her the list and wait up to 2 days."
                self.values["approval"] = approval.model_copy(update={"timeout_s": seconds, "on_timeout": "reject"})
                self.read("approval", line, sentence, f"the approval waits {seconds:g}s, then rejects (no answer is a no"
                          " unless said)")
                return True
        if isinstance(approval, ApprovalPolicy) and approval.timeout_s is not None \
                and (then := silence_outcome(sentence)) is not None:  # "No answer = no withdrawal, we stop there."
            self.values["approval"] = approval.model_copy(update={"on_timeout": then})
            self.read("approval", line, sentence, f"what the approval's silence means: {then}")
            return True
        return False

    def _returns(self, sentence: str, line: int) -> None:
        """"It returns `published` and the `url`": the step's outputs, when none are declared."""
        m = _RETURNS.search(sentence)
        if m is None or self.outputs:
            return
        clause = _RETURNS_END.split(sentence[m.end():])[0]
        names = [n for n in re.findall(r"`([A-Za-z_]\w*)`", clause)]
        if not names:
            return
        self.outputs += [FieldSpec(name=n, where=self.src.where(line)) for n in dict.fromkeys(names)]
        self.read("output", line, sentence, f"outputs {', '.join(dict.fromkeys(names))}")

    def _route(self, route: prose.RouteReading, sentence: str, line: int) -> None:
        branches = ", ".join(f"{b} -> {t}" for b, t in route.branches.items())
        default = f", anything else -> {route.default}" if route.default else ""
        on = f" on `{route.on}`" if route.on else ""
        if route.router is not None and route.router != self.sid:
            self.foreign_routes.append((route.router, route, line))
            self.read("route", line, sentence, f"routes of {route.router}{on}: {branches}{default}")
            return
        self.routes.update(route.branches)
        self.values["route_default"] = route.default
        self.values["route_on"] = route.on
        self.values["routes_where"] = self.src.where(line)
        self.read("route", line, sentence, f"routes{on}: {branches}{default}")

    def _io(self, sentence: str, line: int) -> None:
        """`(table -> rows)` or `bundle -> modules`: the step's inputs and outputs."""
        m = _IO.search(sentence) or _IO_LEAD.match(sentence)
        if m is None or self.inputs or self.outputs:
            return
        given = [assigned_source(part) for part in split_top(m.group(1))]
        sources = {g[0]: g[1] for g in given if g is not None}
        ins = [g[0] if g is not None else "" for g in given] if sources else _names(m.group(1))
        yields = doer_outputs(m.group(2), self.src.vocabulary.skills)  # "Rank → `rank-x` with ... → `top`"
        if yields is not None:  # the title, the skill that does it, and what it yields
            sources, ins = {}, []
        outs = _names(re.split(r"[.;]\s", m.group(2) if yields is None else yields)[0])
        if not outs or (sources and "" in ins):
            return
        at = self.src.where(line)
        # names in prose are loose ("index + totals"): an input with no source is a warning, not an error;
        # `translations = all step 2 results` takes that step's output (a For each step's, gathered)
        self.inputs += [FieldSpec(name=n, required=n in sources, source=sources.get(n), where=at) for n in ins]
        # what the doer yields, said after its arrow, is checked against its skill (`plan.dataflow`), not required
        self.outputs += [FieldSpec(name=n, where=at, required=yields is None) for n in outs]
        said = f"inputs {', '.join(ins) or '(none named)'}" if yields is None else "a title, then its skill"
        self.read("input", line, m.group(0), f"{said}; outputs {', '.join(outs)}")

    def together(self, text: str, line: int) -> bool:
        """"Same time as #1": the step starts together with step-1 (`spec.start_together`)."""
        beside = starts_with(text)
        if beside is None or beside == self.sid or "starts_with" in self.values:
            return False
        self.values["starts_with"] = beside
        self.values["unordered_where"] = self.src.where(line)
        self.structure_read += 1
        self.read("depends_on", line, text, f"starts together with {beside}: waits for what {beside} waits for "
                                            "(and the steps whose outputs it reads), not for the step before it")
        return True

    def finish_depends(self) -> None:
        """A dependency read from a sentence counts when no Depends line says otherwise."""
        if self.prose_depends is None or "depends_where" in self.values:
            return
        found, line, sentence = self.prose_depends
        if found.root:
            self.values["unordered_where"] = self.src.where(line)
            self.read("depends_on", line, sentence, "does not wait for the step before it (only for the "
                                                    "steps whose outputs it reads)")
            return
        self.values["depends_on"] = found.ids
        self.values["depends_where"] = self.src.where(line)
        if found.any:
            self.values["join"] = "any"
            self.read("join", line, sentence, f"runs once after whichever of {_ids(found)} ran")
        else:
            self.read("depends_on", line, sentence, f"depends on {_ids(found)}")


def _clip(text: str, width: int = 160) -> str:
    one = " ".join(text.split())
    return one if len(one) <= width else one[: width - 1] + "…"


def _ids(found: prose.StepList) -> str:
    return ", ".join([*found.ids, *found.names])


def _names(text: str) -> list[str]:
    """`a, b + c` / `` `modules`, a list of {...} `` / `verdict (pass/fail), reasons` → the names;
    [] when a part is not a name or only a word such as "everything"."""
    ticked = re.findall(r"`([A-Za-z_][\w-]*)`", text)
    if ticked:
        return ticked
    bare = re.sub(r"\([^()]*\)|\[[^\]]*\]|\{[^{}]*\}", " ", text).strip().rstrip(".;:")
    parts = [p.strip() for p in re.split(r",|\+|\band\b", bare) if p.strip()]
    if not parts or not all(re.fullmatch(r"[A-Za-z_]\w*", p) for p in parts):
        return []
    return [p for p in parts if p.lower() not in _GENERIC]


# a call whose first argument is a skill-shaped name in quotes: `run_skill("write-report", ...)`
CODE_CALL = _rx(r"""\b[A-Za-z_][\w.]*\(\s*["']([a-z0-9]+(?:-[a-z0-9]+)+)["']""")


def read_step(
    number: int,
    name: str,
    line: int,
    blocks: list[Block],
    src: Source,
    *,
    form: StepForm = "heading",
    readings: tuple[Reading, ...] = (),
    routes_sink: list[tuple[str, prose.RouteReading, int]] | None = None,
    cells: tuple[SpecText, ...] = (),
) -> StepSpec:
    """A step (its number, name and line already read) and the blocks that belong to it.

    `routes_sink` receives routing sentences whose lead-in names another step as the router
    ("depends on the category from Stage 1"): the caller gives them to that step. `cells`
    are a steps table's cells no reader here takes, for the policy reader."""
    sid = f"step-{number}"
    b = _StepBuilder(src, sid)
    b.readings.extend(readings)
    from orchestrator.spec.kv_table import (
        expand_kv_tables,  # it names fields by `table_columns`, which reads LABELS
    )

    blocks, table_readings = expand_kv_tables(blocks, src, sid)  # `| Tool | x |` under the step's heading
    b.readings.extend(table_readings)
    b.mention(name, line)
    if b.together(name, line):  # "2 · Lift status (same time as #1)": said in its title
        pass
    elif prose.root_phrase(name):  # "Grab the refunds, kick it off together with #1": said in its title
        b.prose_depends = (prose.StepList(root=True), line, name)
    flattened = False  # reading failure modes written at the bullets' own level
    aside = False  # after a "notes:" paragraph nothing more belongs to the step
    blocks = _nested_after(blocks)
    for index, block in enumerate(blocks):
        b.block_index = index
        if aside:
            text = str(getattr(block, "text", "")).strip()
            src.warn(block.line, f"{sid}: '{text[:60]}' (after a notes line) not read", "spec.unread")
            continue
        if isinstance(block, Bullet):
            key = label_key(block.label, block.value)
            if flattened and (key is None or _looks_like_mode(key, block.value)):
                b.failures.append(block.text.strip())
                b.texts.append(SpecText(text=block.text.strip(), line=block.line, kind="failure_mode"))
                continue
            flattened = False
            if key is None and block.label and _SKILL_LABEL.match(block.label) and "skill" not in b.seen:
                # "- archive-summary: service, window -> archived, key": the skill, then what it takes
                b.labelled("skill", Bullet(line=block.line, text=block.text, label="skill",
                                           value=f"`{block.label}`"), sid)
                b.read("skill", block.line, block.text, f"'{block.label}:' read as the step's skill")
                b.sentence(f"({block.value})" if re.search(r"->|→|=>", block.value) else block.value, block.line)
                continue
            if key is None and block.label and read_own_field(b, block):  # "Desk: `x`", "Kicks off: after C"
                continue
            if key is None:  # the policy reader reads it or reports it (spec.prose)
                if block.label:
                    b.extra[block.label] = block.value
                    b.texts.append(SpecText(text=block.value, line=block.line, label=block.label, kind="bullet"))
                else:
                    b.unlabelled(block)
                continue
            b.labelled(key, block, sid)
            flattened = key == "failures" and not block.value.strip() and not block.children
        elif isinstance(block, Para):
            flattened = False
            if _ASIDE.match(block.text):
                aside = True
                src.warn(block.line, f"{sid}: '{block.text.strip()[:60]}' and what follows it are "
                                     "not read as part of the step", "spec.unread")
                continue
            b.paragraph(block.text.strip(), block.line)
        elif isinstance(block, Fence) and (called := CODE_CALL.findall(block.content)):
            flattened = False  # a notebook cell: `run_skill("write-report", ...)` names the step's skill
            for name in dict.fromkeys(called):
                b.mentions.append(Mention(text=name, where=src.where(block.line)))
                b.read("skill", block.line, f'("{name}", ...)', "a skill named as a call's first argument in a "
                                                               "code block (the rest of the code is not read)")
            src.warn(block.line, f"{sid}: code block read only for the skill it calls "
                                 f"({', '.join(dict.fromkeys(called))}); its comments and other code are not read",
                     "spec.unread")
        else:
            flattened = False
            src.warn(block.line, f"{sid}: block not read", "spec.unread")
    b.finish_depends()
    if routes_sink is not None:
        routes_sink.extend(b.foreign_routes)
    return StepSpec(
        id=sid,
        number=number,
        name=name.strip() or f"Step {number}",
        where=src.where(line),
        description="\n\n".join(d for d in b.description if d),
        inputs=tuple(b.inputs),
        outputs=tuple(b.outputs),
        failure_modes=tuple(f for f in b.failures if f),
        routes=b.routes,
        extra=b.extra,
        field_where=b.field_where,
        form=form,
        readings=tuple(b.readings),
        mentions=(*b.mentions, *b.bold, *b.plain, *b.later),
        texts=(*b.texts, *cells),
        **{k: val for k, val in b.values.items() if val is not None},
    )


def _bullet_prose(b: _StepBuilder, bullet: Bullet) -> tuple[str, list[str]]:
    """An unlabelled bullet that states a route, a dependency or a root: "whole" when nothing
    of it is left unread (a route, a bare "runs after Step 2", a labelled sentence), "part"
    when it was read as structure but says more ("only when Step 4 reported valid"), "" when
    not read at all; and the sentences not read whole, which the policy reader reads."""
    if cond.otherwise_sentence(bullet.text) is not None:  # "otherwise (valid is false): roll back"
        b.otherwise("", bullet.text, bullet.line)
        b.mention(bullet.text, bullet.line)
        return "whole", []
    whole, some = True, False
    rest: list[str] = []
    for offset, sentence in prose.sentences(bullet.text):
        before = b.structure_read
        taken = b.sentence(sentence, bullet.line + offset)
        gained = b.structure_read - before
        some = some or gained > 0 or taken
        done = taken or gained >= 2 or (gained == 1 and prose.is_bare_structure(sentence))
        whole = whole and done
        if not done:
            rest.append(sentence)
    b.mention(bullet.text, bullet.line)
    return ("whole" if whole else "part" if some else ""), rest


def _looks_like_mode(key: str, value: str) -> bool:
    """A flattened failure mode such as `Timeout: docs too large` is not a Timeout label."""
    if key == "timeout":
        return pt.parse_duration(value) is None
    if key == "retries":
        return pt.read_count(value) is None
    return False


_rx.save()
