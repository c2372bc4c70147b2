"""One `### Step N: Name` block of a markdown spec into a StepSpec.

Labelled bullets are read by label (`LABELS` lists the spellings). The bullets of
`- Failure modes:` may be nested under it or, as in the seed, written at the same
level right after it: such a following bullet without a known label is a
failure mode. Bullets, paragraphs and blocks that are not understood become
warnings, and unknown labels are also kept in `StepSpec.extra`.
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.policy import RetryPolicy
from orchestrator.spec import policy_text as pt
from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.fields import parse_fields, split_top, step_id
from orchestrator.spec.model import FieldSpec, SpecText, StepSpec
from orchestrator.spec.source import Source

LABELS: dict[str, str] = {
    **dict.fromkeys(("skill", "skill used", "skills", "uses", "agent", "uses skill"), "skill"),
    **dict.fromkeys(("input", "inputs"), "input"),
    **dict.fromkeys(("output", "outputs"), "output"),
    **dict.fromkeys(("success", "success criteria", "success criterion"), "success"),
    **dict.fromkeys(("failure modes", "failure mode", "failures"), "failures"),
    **dict.fromkeys(("depends on", "depends", "dependencies", "after", "needs"), "depends"),
    **dict.fromkeys(("for each", "foreach", "for-each", "fan out", "fan-out"), "for_each"),
    **dict.fromkeys(("when", "condition", "if", "only if", "run if"), "when"),
    **dict.fromkeys(("approval", "requires approval", "approve"), "approval"),
    **dict.fromkeys(("compensation", "compensate", "compensate with", "undo"), "compensation"),
    **dict.fromkeys(("timeout", "time limit"), "timeout"),
    **dict.fromkeys(("retries", "retry"), "retries"),
    **dict.fromkeys(("on error", "on failure", "on-error"), "on_error"),
    **dict.fromkeys(("route", "routes", "routing", "branch", "branches"), "route"),
    **dict.fromkeys(("description", "purpose", "notes", "note"), "description"),
}
STEP_HEADING = re.compile(r"(?i)^\s*step\s*(\d+)\s*(?:[:.)\-–—]\s*(.*))?$")
_FOR_EACH = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+?)\s*$")
_REF = re.compile(r"^(?:(step[\s_-]*\d+)|steps\.([\w-]+)\.output)\.([\w.]+)$", re.I)
_ROUTE = re.compile(r"^\s*`?([\w -]+?)`?\s*(?:→|->|=>|:)\s*`?([\w -]+?)`?\s*$")
_ID = re.compile(r"[A-Za-z_][\w-]*")


def _strip_code(text: str) -> str:
    t = text.strip().strip("`").strip()
    m = re.fullmatch(r"(?:\{\{|\$\{)\s*(.*?)\s*\}\}?", t, re.S)
    return m.group(1) if m else t


def canonical_ref(text: str) -> str:
    """`step-2.items` / `Step 2.items` → `steps.step-2.output.items`; other names unchanged."""
    t = _strip_code(text)
    m = _REF.match(t)
    if not m:
        return t
    sid = step_id(m.group(1)) if m.group(1) else m.group(2)
    return f"steps.{sid}.output.{m.group(3)}"


def read_for_each(text: str, src: Source, line: int) -> str | None:
    """`item in list_field` → `item in list_field`; `x in step-2.files` → `x in steps.step-2.output.files`."""
    m = _FOR_EACH.match(_strip_code(text))
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
    """A Jinja2 expression, checked for syntax."""
    expr = _strip_code(text)
    if not expr:
        src.error(line, "when: the condition is empty", "spec.when")
        return None
    from jinja2 import TemplateSyntaxError
    from jinja2.sandbox import SandboxedEnvironment

    try:
        SandboxedEnvironment().compile_expression(expr)
    except TemplateSyntaxError as exc:
        src.error(line, f"when: '{expr}' is not a valid expression: {exc.message}", "spec.when")
        return None
    return expr


def read_depends(text: str) -> tuple[str, ...]:
    """`Step 1, Step 2` / `step-1 and extract` → ids; `none` → ()."""
    if text.strip().lower() in {"none", "nothing", "-", "—", "n/a", ""}:
        return ()
    out: list[str] = []
    for part in split_top(text.replace(" and ", ","), ",;"):
        token = part.strip().strip("`")
        out.append(step_id(token) or token)
    return tuple(out)


def read_routes(text: str, src: Source, line: int) -> dict[str, str]:
    routes: dict[str, str] = {}
    for part in split_top(text, ",;"):
        m = _ROUTE.match(part)
        if not m:
            src.error(line, f"route '{part}' must read `branch-name → Step N`", "spec.route")
            continue
        target = m.group(2).strip()
        routes[m.group(1).strip()] = step_id(target) or target
    return routes


def _child_texts(bullet: Bullet) -> list[tuple[str, int]]:
    return [(b.text, b.line) for b in bullet.children if isinstance(b, Bullet)]


def _read_retries(value: str, src: Source, line: int) -> tuple[int | None, RetryPolicy | None]:
    return pt.read_retries_value(value, src, line)


# Bullets whose line the planner cites as the source of a policy decision.
LOCATED = ("timeout", "retries", "on_error", "approval", "compensation", "when", "for_each")


class _StepBuilder:
    """Collects one step's values while its bullets are read."""

    def __init__(self, src: Source) -> None:
        self.src = src
        self.values: dict[str, Any] = {}
        self.inputs: list[FieldSpec] = []
        self.outputs: list[FieldSpec] = []
        self.failures: list[str] = []
        self.description: list[str] = []
        self.extra: dict[str, str] = {}
        self.routes: dict[str, str] = {}
        self.field_where: dict[str, str] = {}
        self.seen: set[str] = set()
        self.texts: list[SpecText] = []  # for the policy reader (spec.prose)

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
                target.extend(parse_fields(text, src, at, output=key == "output"))
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
                    self.routes.update(read_routes(text, src, at))
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
            v["skill"] = value.strip()  # a TODO placeholder is the planner's error ("no skill chosen yet")
        elif key == "success":
            v["success"] = value.strip()
            self.texts.append(SpecText(text=value.strip(), line=line, kind="success"))
        elif key == "description":
            self.description.append(value.strip())
        elif key == "depends":
            v["depends_on"], v["depends_where"] = read_depends(value), src.where(line)
        elif key == "for_each":
            v["for_each"] = read_for_each(value, src, line)
        elif key == "when":
            v["when"] = read_when(value, src, line)
        elif key == "approval":
            v["approval"] = pt.read_approval(value, src, line)
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
            else:
                src.warn(line, f"{sid}: on error '{value.strip()}' must be continue or fail; "
                               "ignored", "spec.unread")


def read_step(number: int, name: str, line: int, blocks: list[Block], src: Source) -> StepSpec:
    """A step heading (already split into number and name) and the blocks under it."""
    sid = f"step-{number}"
    b = _StepBuilder(src)
    flattened = False  # reading failure modes written at the bullets' own level
    for block in blocks:
        if isinstance(block, Bullet):
            key = LABELS.get(block.label or "")
            if flattened and (key is None or _looks_like_mode(key, block.value)):
                b.failures.append(block.text.strip())
                b.texts.append(SpecText(text=block.text.strip(), line=block.line, kind="failure_mode"))
                continue
            flattened = False
            if key is None:  # the policy reader reads it or reports it (spec.prose)
                if block.label:
                    b.extra[block.label] = block.value
                b.texts.append(SpecText(text=block.value if block.label else block.text, line=block.line,
                                        label=block.label, kind="bullet"))
                continue
            b.labelled(key, block, sid)
            flattened = key == "failures" and not block.value.strip() and not block.children
        elif isinstance(block, Para):
            flattened = False
            b.description.append(block.text.strip())
            b.texts.append(SpecText(text=block.text, line=block.line))
        else:
            flattened = False
            src.warn(block.line, f"{sid}: block not read", "spec.unread")
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
        texts=tuple(b.texts),
        **{k: val for k, val in b.values.items() if val is not None},
    )


def _looks_like_mode(key: str, value: str) -> bool:
    """A flattened failure mode such as `Timeout: docs too large` is not a Timeout label."""
    if key == "timeout":
        return pt.parse_duration(value) is None
    if key == "retries":
        return pt.read_count(value) is None
    return False
