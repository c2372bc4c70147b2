"""Render a plan for review: JSON (the plan itself), a Mermaid flowchart, or text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from orchestrator.plan.model import InputBinding, Plan, PlanStep, Provenance
from orchestrator.policy import Fallback, FallbackAction, RecoveryRule, RetryPolicy

Format = Literal["json", "mermaid", "text"]
FORMATS: tuple[Format, ...] = ("json", "mermaid", "text")


def render_plan(plan: Plan, fmt: Format) -> str:
    if fmt == "json":
        return plan.to_json() + "\n"
    if fmt == "mermaid":
        return render_mermaid(plan)
    if fmt == "text":
        return render_text(plan)
    raise ValueError(f"unknown plan format {fmt!r}; choose one of {', '.join(FORMATS)}")


# --- mermaid ---------------------------------------------------------------------------


def mermaid_ids(step_ids: Iterable[str], *extra: str) -> dict[str, str]:
    """A Mermaid node id for each step id (and each `extra` key), unique and ASCII:
    `s_` + the id with other characters as `_`, numbered when two ids come out alike
    (`fetch-docs` and `fetch_docs`, or ids that differ only in non-ASCII letters)."""
    ids: dict[str, str] = {}
    used: set[str] = set()
    for key in (*step_ids, *extra):
        base = candidate = "s_" + re.sub(r"[^A-Za-z0-9_]", "_", key)
        n = 1
        while candidate in used:
            n += 1
            candidate = f"{base}_{n}"
        used.add(candidate)
        ids[key] = candidate
    return ids


# `#` first: Mermaid reads `#name;` and `#123;` as entities; `&` because labels are drawn as HTML
_ENTITIES = {"#": "#35;", "&": "#38;", '"': "#quot;", "<": "#lt;", ">": "#gt;"}
_EDGE_ENTITIES = {**_ENTITIES, "|": "#124;"}
_BREAKS = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")


def mermaid_label(text: str, *, edge: bool = False) -> str:
    """`text` safe inside a quoted node label (or, `edge`, between an edge label's `|`s), on
    one line: every character Mermaid (or the HTML it draws) would read as syntax becomes one
    of Mermaid's entity codes, line breaks become spaces, and Mermaid shows it as written."""
    table = _EDGE_ENTITIES if edge else _ENTITIES
    return "".join(table.get(c, c) for c in _BREAKS.sub(" ", text))


def render_mermaid(plan: Plan) -> str:
    lines = ["flowchart TD"]
    undo = [f"undo {s.id}" for s in plan.steps if s.policy.compensation]  # not a step id: it has a space
    node = mermaid_ids((s.id for s in plan.steps), *undo)
    for step in plan.steps:
        skill = plan.skills.get(step.skill)
        kind = f" ({skill.kind})" if skill else ""
        extra = []
        if step.for_each is not None:
            extra.append(f"for each {step.for_each.item}")
        if step.when:
            extra.append(f"when {step.when}")
        if step.policy.approval is not None:
            extra.append("approval")
        text = "<br/>".join(mermaid_label(t) for t in [f"{step.id}: {step.name}", f"{step.skill or '?'}{kind}", *extra])
        lines.append(f'    {node[step.id]}["{text}"]')
    for edge in plan.edges:
        label = ", ".join(edge.fields)
        arrow = f"-->|{mermaid_label(label, edge=True)}|" if label else "-->"
        lines.append(f"    {node[edge.producer]} {arrow} {node[edge.consumer]}")
    for step in plan.steps:
        for branch, target in step.routes.items():
            lines.append(f"    {node[step.id]} -.->|route {mermaid_label(branch, edge=True)}| {node[target]}")
        if step.route_default and step.route_default in node:
            lines.append(f"    {node[step.id]} -.->|route anything else| {node[step.route_default]}")
        feedback = step.policy.feedback
        if feedback is not None:
            lines.append(f"    {node[step.id]} -.->|feedback, {feedback.max_attempts} attempts max| "
                         f"{node[feedback.target_step]}")
        if step.policy.compensation:
            comp = node[f"undo {step.id}"]
            lines.append(f'    {comp}(["compensate: {mermaid_label(step.policy.compensation)}"])')
            lines.append(f"    {node[step.id]} -.- {comp}")
    return "\n".join(lines) + "\n"


# --- text ------------------------------------------------------------------------------


def _prov(prov: Provenance | None) -> str:
    if prov is None:
        return ""
    where = f" {prov.where}" if prov.where else ""
    note = f": {prov.note}" if prov.note else ""
    return f"[{prov.source}{where}{note}]"


def _retry(retry: RetryPolicy) -> str:
    if retry.max_retries == 0:
        return "no retry"
    if retry.delays_s:
        waits = ", ".join(f"{d:g}s" for d in retry.delays_s)
        return f"{retry.max_retries} retries (waits {waits})"
    jitter = ", jitter" if retry.jitter else ""
    return (f"{retry.max_retries} retries (exponential from {retry.initial_s:g}s x{retry.multiplier:g}, "
            f"max {retry.max_delay_s:g}s{jitter})")


def _fallback(fallback: Fallback) -> str:
    if fallback.action is FallbackAction.DEFAULT:
        said = "use the empty value" if fallback.value is None else f"use {fallback.value!r}"
        if fallback.carry:  # `plan.carry_ref31`

            said += "".join(f", {c.field or 'the whole output'} carried from {c.described()}" for c in fallback.carry)
        return said
    if fallback.action is FallbackAction.SKILL:
        return f"run skill {fallback.skill}"
    return fallback.action.value


def _rule(rule: RecoveryRule) -> str:
    parts = []
    if rule.retry is not None:
        parts.append(_retry(rule.retry))
    if rule.regenerate:
        parts.append(f"{rule.regenerate} regeneration(s)")
    if rule.fallback is not None:
        parts.append(f"then {_fallback(rule.fallback)}")
    on = rule.on if isinstance(rule.on, str) else rule.on.value
    head = f"{on}" + (f" ({rule.failure})" if rule.failure else "")
    # a rule said for one kind of failure is for that kind only: the plan says what the others get
    others = "" if on == "any" else "; other failures: the retry and fallback above"
    return f"{head}: {'; '.join(parts) or 'defaults'}{others}" + (f"  [{rule.where}]" if rule.where else "")


def _source(binding: InputBinding) -> str:
    if binding.source == "input":
        return f"input {binding.name}{binding.pointer}"
    if binding.source == "step" and binding.joined:  # one list put together from several values, in order
        return "joined from " + " + ".join(_source(p) for p in binding.joined) + " (a step that did not run adds nothing)"
    if binding.source == "step" and binding.pointers:  # a join whose steps each give it under their own field
        each = " or ".join(f"{sid} output {binding.pointer_of(sid) or '(whole)'}" for sid in binding.any_of)
        return f"{each} (whichever ran)"
    if binding.source == "step":
        where = " or ".join(binding.any_of) if binding.any_of else binding.step
        each = f"{binding.pointer} of each item" if binding.pointer else "every item's output"
        what = f"{each}, as a list" if binding.gather else binding.pointer or "(whole)"
        ran = " (whichever ran)" if binding.any_of else ""
        return f"{where} output {what}{ran}"
    if binding.source == "item":
        return f"item{binding.pointer}"
    if binding.source == "literal":
        return f"literal {binding.value!r}"
    return f"template {binding.template}"


def _step_lines(plan: Plan, step: PlanStep) -> list[str]:
    p = step.provenance
    skill = plan.skills.get(step.skill)
    kind = f" ({skill.kind}, {skill.origin})" if skill else " (unbound)"
    policy = step.policy
    join = " (whichever ran)" if step.join == "any" else ""
    lines = [
        f"{step.id}: {step.name}" + (f"  [{step.where}]" if step.where else ""),
        *(f"    read         {_prov(prov)}" for key, prov in p.items() if key.startswith("read.")),
        f"    skill        {step.skill or '?'}{kind}  {_prov(p.get('skill'))}",
        f"    depends on   {', '.join(step.depends_on) or '-'}{join}  {_prov(p.get('depends_on'))}",
    ]
    for name, binding in step.inputs.items():
        optional = " (optional)" if binding.optional else ""
        if binding.if_skipped is not None:
            optional += f", or {binding.if_skipped!r} if {binding.step} did not run"
        lines.append(f"    input        {name} <- {_source(binding)}{optional}  {_prov(p.get(f'inputs.{name}'))}")
    if step.for_each is not None:
        lines.append(f"    for each     {step.for_each.item} in {_source(step.for_each.source)}  "
                     f"{_prov(p.get('for_each'))}")
    if step.when:
        lines.append(f"    when         {step.when}  {_prov(p.get('when'))}")
    on = f"  (on output `{step.route_on}`)" if step.route_on else ""
    for branch, target in step.routes.items():
        lines.append(f"    route        {branch} -> {target}{on}")
    if step.route_default:
        lines.append(f"    route        anything else -> {step.route_default}{on}")
    if (step.routes or step.route_default) and "routes" in p:
        lines.append(f"    routes from  {_prov(p['routes'])}")
    outputs = ", ".join(step.output_schema.get("properties", {})) or "(not declared)"
    lines.append(f"    outputs      {outputs}  {_prov(p.get('output_schema'))}")
    lines.append(f"    retry        {_retry(policy.retry)}  {_prov(p.get('policy.retry'))}")
    timeout = f"{policy.attempt_timeout_s:g}s" if policy.attempt_timeout_s else "none"
    lines.append(f"    timeout      {timeout} per attempt  {_prov(p.get('policy.attempt_timeout_s'))}")
    lines.append(f"    regenerate   {policy.regenerations}  {_prov(p.get('policy.regenerations'))}")
    lines.append(f"    fallback     {_fallback(policy.fallback)}; on error {policy.on_error}  "
                 f"{_prov(p.get('policy.fallback'))}")
    if policy.non_retryable:
        lines.append(f"    never retry  {', '.join(c.value for c in policy.non_retryable)}  "
                     f"{_prov(p.get('policy.non_retryable'))}")
    if policy.feedback is not None:
        lines.append(f"    feedback     failure regenerates {policy.feedback.target_step}, "
                     f"{policy.feedback.max_attempts} attempts max  {_prov(p.get('policy.feedback'))}")
    if policy.approval is not None:
        timeout_a = f", timeout {policy.approval.timeout_s:g}s -> {policy.approval.on_timeout}" \
            if policy.approval.timeout_s else ""
        only = f" only when {policy.approval.when}" if policy.approval.when else ""
        from orchestrator.plan.limit_vs_wait29 import wait_note

        lines.append(f"    approval     required{only}{timeout_a}{wait_note(policy.approval.timeout_s, plan.limits)}")
    if policy.compensation:
        lines.append(f"    compensate   {policy.compensation}")
    lines += [f"    rule         {_rule(r)}" for r in policy.rules]
    return lines


def render_text(plan: Plan) -> str:
    out = [
        f"Plan {plan.name}  (format {plan.format}, sha256 {plan.sha256[:12]})",
        f"Spec {plan.spec.path}  ({plan.spec.format}, sha256 {plan.spec.sha256[:12]})",
        "",
        "Inputs",
    ]
    for item in plan.inputs:
        kind = item.schema_.get("type", "any")
        req = "required" if item.required else f"optional, default {item.default!r}"
        out.append(f"  {item.name} ({kind}, {req})" + (f"  [{item.where}]" if item.where else ""))
    if not plan.inputs:
        out.append("  (none)")
    out += ["", "Steps"]
    for step in plan.steps:
        out += ["  " + line for line in _step_lines(plan, step)]
    out += ["", "Handoffs"]
    for edge in plan.edges:
        fields = ", ".join(edge.fields) or "(order only)"
        out.append(f"  {edge.producer} -> {edge.consumer}: {fields}  {_prov(edge.provenance)}")
    out += ["", "Skills"]
    for skill in plan.skills.values():
        out.append(f"  {skill.name} ({skill.kind}, {skill.origin}) sha256 {skill.sha256[:12]}  {skill.path}")
    out += ["", "Limits"]
    for name, value in plan.limits.model_dump().items():
        out.append(f"  {name:28} {value}  {_prov(plan.limits_provenance.get(name))}")
    if plan.compare_checks:
        out += ["", "Success checks comparing two values (after the run)"]
        out += [f"  {c.shown()}  [spec {c.where}: '{c.text}']" for c in plan.compare_checks]
    if plan.run_checks:
        out += ["", "The run's success checks (after the run)"]
        out += [f"  {c.written} on {c.step}'s output  [spec {c.where}: '{c.text}']" for c in plan.run_checks]
    if plan.scenarios:
        out += ["", "Scenarios"]
        out += [f"  {s.kind:12} {s.name}" for s in plan.scenarios]
    out += ["", f"Warnings ({len(plan.warnings)})"]
    out += [f"  {w.render()}" for w in plan.warnings]
    return "\n".join(out) + "\n"
