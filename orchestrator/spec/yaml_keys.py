"""The words of the YAML form as people bring them from other tools: keys and references.

    key_name("continue-on-error") → "continue_on_error"   (camelCase, kebab, spaces, case)
    step_key("foreach") → "for_each";  step_key("needs") → "depends_on";  top_key("jobs") → "steps"
    reference("$input.receipts") → "inputs.receipts"
    reference("${{ needs.build.outputs.tag }}") → "steps.build.output.tag"
    reference("{{ tasks.a.outputs.parameters.n }}") → "steps.a.output.n"
    reference("$(params.limit)") → "inputs.limit"
    unwrap("((scrub.rows))") → "scrub.rows"   (Concourse's `((var))`, read as `{{ }}`)
    gathered("all 2_convert results") → "2_convert"

The tables below are the whole vocabulary: GitHub Actions (`needs`, `with`, `if`,
`continue-on-error`, `timeout-minutes`, `${{ }}`), Argo Workflows (`dependencies`,
`arguments`, `withItems`/`withParam`, `retryStrategy`, `{{tasks.a.outputs.result}}`),
Airflow and Prefect (`upstream`, `op_kwargs`, `retries`, `retry_delay`,
`execution_timeout`, `{{ params.x }}`, `xcom_pull`), AWS Step Functions (`Retry`,
`Catch`, `TimeoutSeconds`, `IntervalSeconds`, `MaxAttempts`, `BackoffRate`), Tekton
(`runAfter`, `$(params.x)`, `$(tasks.a.results.x)`) and plain English keys. A key
that is in none of them is not guessed: the form reports it at its line.
"""

from __future__ import annotations

import re

# canonical step key -> the other names people give it (compared after `key_name`)
STEP_SYNONYMS: dict[str, tuple[str, ...]] = {
    "depends_on": ("needs", "after", "depends", "requires", "dependencies", "upstream", "upstream_tasks",
                   "wait_for", "waits_for", "run_after", "runs_after", "prerequisites", "follows"),
    "skill": ("uses", "tool", "action", "call", "calls", "template", "function", "task_ref", "skill_name",
              "template_ref", "resource", "task", "run_skill", "skill_ref", "does", "performs", "handled_by"),
    "name": ("label", "title", "step_name", "stage_name", "display_name", "called"),
    "id": ("job", "task_id", "step_id", "key"),
    "input": ("with", "inputs", "params", "parameters", "args", "arguments", "op_kwargs", "kwargs", "variables",
              "env", "takes", "feed_in", "gets", "given", "give", "give_it", "pass_in", "hand_it",
              # own-schema keys that list where each input comes from (`reads: <job>.<field>`, `$input`, a literal)
              "feed", "feeds", "fed", "fed_with", "feed_with", "inputs_from", "input_from", "input_sources",
              "wiring", "wired", "wire", "wire_up", "wired_from", "hook_up", "hookup", "plug_in", "plugs",
              "takes_from", "reads_from", "pulls_from", "pull_from", "sourced_from", "source_map", "inputs_map"),
    "when": ("condition", "if", "only_if", "run_if", "only_when", "run_when", "when_expressions", "runs_if",
             "runs_when", "run_only_if", "only_run_if", "only_run_when", "skip_unless"),
    # the step whose condition, when false, runs this one: `else_of: truck` (`yaml_one_key`)
    "otherwise": ("else", "unless_step", "else_of", "otherwise_of", "else_for", "opposite_of", "alternative_to",
                  "else_branch_of"),
    "for_each": ("foreach", "each", "loop", "loop_over", "iterate", "iterate_over", "over", "matrix", "expand",
                 "with_items", "with_param", "map_over", "fan_out", "parallel_for", "items_from", "repeat_for",
                 "repeat_over", "repeat_for_each", "for_every", "once_per", "once_for_each", "one_per", "run_per",
                 "run_for_each", "go_through", "fan", "fan_over", "fans_out_over", "scatter", "scatter_over"),
    "approval": ("approve", "approvals", "requires_approval", "require_approval", "approval_required",
                 "manual_approval", "needs_approval", "human_approval", "sign_off", "signoff"),
    "on_error": ("on_fail", "on_failure", "on_failed", "on_fails", "if_fails", "if_failed", "when_failed",
                 "on_exception", "catch", "failure", "on_errors", "rescue", "on_rescue", "except", "on_except",
                 "if_it_fails", "when_it_fails", "if_this_fails", "when_this_fails", "plan_b", "failover",
                 "on_failover", "or_else", "recover_with", "on_crash", "if_broken", "error_handler", "on_error_do",
                 "catch_error", "catch_errors", "handle_failure", "when_failing", "if_failing", "on_failure_do",
                 "if_it_breaks", "when_it_breaks", "if_breaks", "on_break", "if_it_goes_wrong", "when_it_goes_wrong"),
    "if_still_failing": ("if_still_fails", "still_failing", "on_exhausted", "when_exhausted", "after_retries",
                         "on_retries_exhausted", "if_retries_fail", "when_retries_run_out", "finally_fail"),
    "retry": ("retry_policy", "retry_strategy", "retrying", "again", "try_again", "retry_again", "rerun", "redo"),
    "retries": ("max_retries", "retry_count", "num_retries", "retry_times"),
    "attempts": ("max_attempts", "tries", "max_tries", "total_attempts"),
    "timeout": ("timeout_s", "timeout_seconds", "timeout_secs", "timeout_minutes", "timeout_mins", "timeout_hours",
                "timeout_ms", "time_limit", "execution_timeout", "active_deadline_seconds", "deadline",
                "time_box", "timebox", "max_duration", "task_timeout", "step_timeout", "attempt_timeout",
                "per_attempt_timeout", "try_timeout", "call_timeout", "request_timeout", "max_runtime",
                "max_run_time", "run_timeout", "task_deadline", "step_deadline", "per_try_timeout", "time_cap",
                "timecap", "patience", "max_time", "time_allowed", "allowed_time", "give_it_up_to", "cutoff",
                "cut_off", "cutoff_after", "cut_off_after", "cut_it_off_after", "cutoff_at"),
    # how long to keep retrying, whatever the count ("keep trying for 3 minutes")
    "retry_for": ("keep_trying_for", "keep_retrying_for", "keep_trying", "try_for", "retry_for_up_to",
                  "poll_for", "keep_polling_for", "give_up_after", "stop_retrying_after", "retry_budget",
                  "retry_window", "retry_deadline", "retry_until", "max_retry_duration", "max_retry_time",
                  "retry_max_duration", "retry_max_time", "retry_duration", "for_up_to", "max_elapsed_time"),
    "backoff": ("retry_exponential_backoff", "exponential_backoff", "exponential_retry", "retry_exponential",
                "exponential_retries", "use_exponential_backoff", "backoff_exponential"),
    "max_delay": ("max_retry_delay", "retry_max_delay", "max_retry_wait", "max_backoff", "retry_max_wait",
                  "max_delay_seconds", "retry_delay_max", "max_retry_interval"),
    "retry_delay": ("retry_delay_seconds", "retry_delay_sec", "retry_delay_secs", "retry_delay_s", "retry_interval",
                    "retry_wait", "retry_backoff", "interval_seconds", "pause_between", "wait_between",
                    "sleep_between", "pause_between_tries", "wait_between_tries", "between_tries",
                    "between_attempts", "retry_pause", "retry_sleep", "poll_interval", "poll_every", "retry_every",
                    "retry_after", "pause_between_attempts", "wait_between_attempts", "delay_between_retries",
                    "delay_between_attempts"),
    "notes": ("note", "comment", "comments", "remarks", "remark", "why", "details", "explanation", "doc",
              "docs", "about"),
    "description": ("summary", "purpose"),
    "success": ("success_when", "succeeds_when", "success_if", "succeeds_if", "done_when", "done_if", "passes_when",
                "passes_if", "ok_when", "ok_if", "success_condition", "success_criteria", "success_criterion",
                "succeed_when", "succeed_if", "counts_as_done_when", "done_means", "finished_if", "finished_when",
                "success_means", "pass_if", "pass_when", "green_if", "green_when"),
    "compensation": ("compensate", "undo", "rollback", "on_rollback", "revert", "compensate_with"),
    "continue_on_error": ("ignore_errors", "ignore_failure", "allow_failure", "soft_fail"),
}

TOP_SYNONYMS: dict[str, tuple[str, ...]] = {
    "name": ("workflow", "workflow_name", "dag_id", "pipeline_name", "flow", "flow_name", "id"),
    "description": ("summary", "about", "purpose", "doc", "docs"),
    "inputs": ("input", "params", "parameters", "arguments", "args", "vars_prompt", "prompt_vars", "extra_vars",
               "required_vars", "input_vars", "workflow_inputs", "run_inputs", "input_parameters", "prompts",
               "knobs", "tunables"),
    "steps": ("tasks", "jobs", "stages", "states", "nodes"),
    "timeout": ("active_deadline_seconds", "dagrun_timeout", "timeout_seconds", "timeout_s", "wall_time", "deadline",
                "play_deadline", "run_deadline", "workflow_deadline", "pipeline_deadline", "job_deadline",
                "max_runtime", "max_run_time", "run_timeout", "overall_timeout", "global_timeout", "workflow_timeout",
                "pipeline_timeout", "job_timeout", "play_timeout", "total_timeout", "whole_run_timeout", "walltime",
                "max_wall_time", "wall_clock_limit", "run_time_limit", "runtime_limit", "time_limit", "max_duration",
                "overall_deadline", "total_deadline", "whole_run", "run_limit", "hard_stop", "hard_limit",
                "hard_deadline", "kill_after", "abort_after", "stop_after", "timebox", "time_box", "wrap_by",
                "wrap_up_by", "finish_within", "finish_by", "done_within", "complete_within", "time_cap",
                "all_done_within", "whole_thing_within"),
    "retry": ("retry_strategy", "retry_policy"),
    "success": ("success_condition", "success_criteria", "success_criterion", "succeeds_when", "done_when", "done_if",
                "done_means", "finished_if", "finished_when", "complete_if", "complete_when", "completed_when",
                "completed_if", "success_if", "success_when", "success_means", "ok_if", "ok_when", "passes_if",
                "passes_when", "definition_of_done", "it_worked_if", "good_if", "good_when", "counts_as_done_when",
                "pass_if", "pass_when", "green_if", "green_when"),
    "limits": ("budget", "budgets", "caps", "quotas", "guardrails", "cap", "quota", "limit"),
}




def key_name(raw: str) -> str:
    """`continueOnError`, `continue-on-error`, `Continue on error` → `continue_on_error`."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", raw.strip())
    return re.sub(r"[\s\-.]+", "_", spaced).lower().strip("_")


def _lookup(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    out = {canonical: canonical for canonical in table}
    for canonical, names in table.items():
        out.update({name: canonical for name in names})
    return out


_STEP = _lookup(STEP_SYNONYMS)
_TOP = _lookup(TOP_SYNONYMS)


def step_key(raw: str) -> str:
    """The step key a key of a step means: its canonical name, or its own name made plain."""
    name = key_name(raw)
    return _STEP.get(name, name)


def is_step_word(raw: str) -> bool:
    """Whether the form's own tables know this step key (its name or one of its synonyms)."""
    return key_name(raw) in _STEP


def top_key(raw: str) -> str:
    name = key_name(raw)
    return _TOP.get(name, name)


# -- references --------------------------------------------------------------------------

# the wrappers people put around a reference; group 1 is the path
_WRAPPED = re.compile(r"""^\s*(?:\$\{\{(.*?)\}\}|\{\{(.*?)\}\}|\$\[\[(.*?)\]\]|\$\{(.*?)\}|\$\((.*?)\)|<<(.*?)>>|%\{(.*?)\}|\(\((.*?)\)\)|
                          \$(?!\d)([A-Za-z_][\w.\[\]'"-]*))\s*$""", re.S | re.X)
# an inner path, after the wrapper: one dotted name with optional ['x'] parts
_PATH = re.compile(r"""^[A-Za-z_][\w-]*(?:\.[\w-]+|\[\s*['"][\w -]+['"]\s*\]|\[\d+\])*$""")
# the heads that name the workflow's inputs, and the steps
_INPUT_HEADS = (("github", "event", "inputs"), ("inputs", "parameters"), ("workflow", "parameters"),
                ("workflow", "inputs"), ("dag_run", "conf"), ("inputs",), ("input",), ("params",),
                ("parameters",), ("args",), ("arguments",), ("vars",), ("env",), ("flow_input",), ("knobs",),
                ("tunables",))
_STEP_HEADS = ("steps", "step", "tasks", "task", "needs", "jobs", "states", "outputs", "results")
_OUTPUT_WORDS = ("outputs", "output", "results", "result")
_XCOM = re.compile(r"""^ti\.xcom_pull\(\s*task_ids\s*=\s*['"]([\w-]+)['"]\s*(?:,\s*key\s*=\s*['"](\w+)['"]\s*)?\)$""")


def _parts(path: str) -> list[str]:
    """`steps['a-b'].outputs.x` → ['steps', 'a-b', 'outputs', 'x']; `a.rows[0]` → ['a', 'rows', '0']."""
    flat = re.sub(r"""\[\s*['"]([\w -]+)['"]\s*\]|\[(\d+)\]""", lambda m: f".{m.group(1) or m.group(2)}",
                  path.strip())
    return [p for p in flat.split(".") if p]


_FUNCTION = re.compile(r"^(?:from_?json|to_?json|json|fromjson|tojson)\((.*)\)$", re.I | re.S)


# what people write after a fan-out step's name to mean "all its results, as one list":
# Jinja-like filters (`{{ a | collect }}`) and attributes (`{{ a.all }}`, `a[*]`)
GATHER_FILTERS = ("collect", "list", "gather", "gathered", "all", "results", "to_list", "as_list", "join_all",
                  "flatten_results", "aggregate")
GATHER_ATTRS = ("all", "collect", "gathered", "results_all")
# starts only where a blank run starts, and its runs do not give back: linear on a long run of blanks
_GATHER_SUFFIX = re.compile(r"(?<!\s)\s*+\|\s*+(" + "|".join(GATHER_FILTERS) + r")\s*+(?:\(\s*+\))?\s*+$", re.I)
_GATHER_ATTR = re.compile(r"^([A-Za-z_][\w-]*)\s*(?:\.(?:" + "|".join(GATHER_ATTRS) + r")(?:\(\s*\))?|\[\*\])$", re.I)
_ANY_FILTER = re.compile(r"\|\s*([A-Za-z_]\w*)")


def gather_form(inner: str) -> str | None:
    """`write | collect`, `write.all`, `write[*]` (inside the braces) → `write`, the step whose
    results are gathered; None when the text is not written that way."""
    text = inner.strip()
    m = _GATHER_SUFFIX.search(text)
    if m:
        text = text[: m.start()].strip()
        if text.endswith(".output") or text.endswith(".outputs"):  # `{{ write.output | list }}`
            text = text.rpartition(".")[0]
        return text if re.fullmatch(r"[A-Za-z_][\w-]*", text) else None
    a = _GATHER_ATTR.match(text)
    return a.group(1) if a else None


def filters_in(inner: str) -> list[str]:
    """The filter names written in a template's inside: `x | lower | collect` → ['lower', 'collect']."""
    return _ANY_FILTER.findall(inner)


def canonical_path(path: str) -> str:
    """A reference path as another tool writes it → the form's own: `inputs.x`,
    `steps.<id>.output[.field]`, `item[.field]`; anything else is returned as written.
    `fromJSON(x)` (GitHub) is `x`; `matrix.page.slug` is the loop variable `page`'s field;
    `x[*]` (Tekton's whole array) is `x`."""
    text = path.strip()
    while (f := _FUNCTION.match(text)) is not None:
        text = f.group(1).strip()
    if (step := gather_form(text)) is not None:  # `a | collect`: step a's results, gathered
        text = step
    if "." in text:  # `params.pages[*]`; a bare `a[*]` is step a's results, gathered (`gathered`)
        text = re.sub(r"\[\*\]$", "", text)
    m = _XCOM.match(text)
    if m:
        return f"steps.{m.group(1)}.output" + (f".{m.group(2)}" if m.group(2) else "")
    parts = _parts(text)
    if not parts:
        return text
    if parts[0] == "matrix" and len(parts) > 1:  # GitHub: `matrix.page.slug` is the variable `page`
        parts = parts[1:]
    for head in _INPUT_HEADS:
        if tuple(parts[: len(head)]) == head and len(parts) > len(head):
            return ".".join(["inputs", *parts[len(head):]])
    if parts[0] in _STEP_HEADS and len(parts) >= 2:
        rest = parts[2:]
        if rest and rest[0] in _OUTPUT_WORDS:
            rest = rest[1:]
            if rest and rest[0] == "parameters":  # Argo: outputs.parameters.<name>
                rest = rest[1:]
            if rest in (["result"], ["results"]) and parts[2] == "outputs":  # Argo: outputs.result
                rest = []
        return ".".join(["steps", parts[1], "output", *rest])
    return ".".join(parts)


def unwrap(value: str) -> str | None:
    """The path inside `{{ x }}`, `${{ x }}`, `${x}`, `$(x)`, `<< x >>`, `%{x}` or `$x`, or None."""
    m = _WRAPPED.match(value)
    if not m:
        return None
    inner = next(g for g in m.groups() if g is not None).strip()
    bare = inner
    while (f := _FUNCTION.match(bare)) is not None:
        bare = f.group(1).strip()
    bare = re.sub(r"\[\*\]$", "", bare)
    bare = gather_form(bare) or bare
    return inner if _PATH.match(bare) or _XCOM.match(bare) else None


_GATHER = re.compile(
    r"""^(?:(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?(?P<a>[\w-]+?)(?:'s)?\s+(?:results?|outputs?|items?)
        |(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:results?|outputs?)\s+(?:of|from)\s+(?:(?:the\s+)?step\s+)?(?P<b>[\w-]+)
        |(?P<c>[\w-]+)(?:\[\*\]|\.\*))
        (?:\s*,?\s*(?:gathered|collected|together|as\s+a\s+list))?\s*$
        |^(?:all|every|each)\s+(?:of\s+)?(?:the\s+)?(?P<d>[\w-]+)\s+[a-z]+\s*,?\s*(?:gathered|collected)\s*$""",
    re.I | re.X)  # (d: "every quote line collected": the step, then its word for one result)


# a placeholder naming one of the things looped over: `<the one sku>`, `<each order>`, `<this row>`, `<item>`
_ONE_ITEM = re.compile(r"(?i)^\s*+<\s*+(?:(?:the\s++)?(?:one|each|this|current|single)\s++[\w -]{1,40}+|item|it|each)\s*+>\s*+$")


def one_item(value: str) -> bool:
    """`<the one sku>`, `<each order>`: in a For each step's inputs, the item (not a workflow input)."""
    return _ONE_ITEM.match(value) is not None


def gathered(value: str) -> str | None:
    """`all 2_convert results`, `results of convert`, `convert[*]` → the step written there."""
    m = _GATHER.match(value.strip())
    return next((g for g in (m.group("a"), m.group("b"), m.group("c"), m.group("d")) if g), None) if m else None


# a reference inside a longer text, which then becomes a template: `Hi $input.employee`. Inside
# braces: the text between the blanks (a blank run is taken only when more text follows it), or,
# when there are only blanks, the last of them; each blank is read once (a lazy group before a
# `\s*` would read a long blank run again from each of its characters)
_BRACED = r"(?:\s*+(?=[^}\s])|\s*(?=\s\}CLOSE))((?:[^}\s]++|\s++(?=[^}\s]))+|\s)\s*+\}CLOSE"
_INLINE = re.compile(r"\$\{\{" + _BRACED.replace("CLOSE", r"\}") + r"|\$\{" + _BRACED.replace("CLOSE", "")
                     + r"|\$\(\s*([\w.]+)\s*\)|\$((?:inputs?|params|steps|needs|tasks)\.[\w.-]*\w)")


def inline_template(value: str) -> str:
    """`${{ inputs.x }}`, `${x}`, `$(params.x)` and `$input.x` inside a text → `{{ inputs.x }}`."""
    def one(m: re.Match[str]) -> str:
        inner = next(g for g in m.groups() if g is not None)
        return "{{ " + canonical_path(inner) + " }}"
    return _INLINE.sub(one, value)


# -- the keys of a `retry:` mapping --------------------------------------------------------

RETRY_KEYS: dict[str, tuple[str, ...]] = {
    "attempts": ("attempts", "max_attempts", "tries", "max_tries", "total_attempts", "attempts_total", "max_attempt",
                 "attempt", "max_tries_total"),
    "retries": ("retries", "max_retries", "times", "count", "limit", "number", "n", "max", "retry_count",
                "num_retries", "retry", "retry_limit", "max_restarts", "restarts", "restart_limit",
                "backoff_limit"),
    "delay": ("delay", "wait", "waits", "interval", "pause", "sleep", "between", "delay_seconds", "delay_s",
              "interval_seconds", "wait_seconds", "wait_s", "initial", "initial_delay", "initial_interval",
              "duration", "base", "base_delay", "min_delay", "retry_delay", "backoff_delay", "every",
              "delay_ms", "wait_ms", "interval_ms", "delays", "spacing", "apart", "first", "start", "first_delay",
              "first_wait", "initial_wait", "start_delay", "starting_delay", "start_at", "starting_at",
              "initial_backoff", "first_backoff", "min_backoff", "min_wait", "min_interval", "floor",
              "initial_delay_seconds", "first_interval", "pause_between", "wait_between", "backoff_start",
              "gap", "gap_between", "cooldown", "cool_down", "breather"),
    "max_delay_s": ("max_delay", "max_wait", "max_interval", "cap", "max_backoff", "max_delay_seconds",
                    "maximum_backoff", "backoff_max", "max_delay_s", "max_delay_ms", "ceiling", "max_sleep",
                    "max_pause", "longest_wait", "upper_bound", "capped_at", "cap_at"),
    "budget_s": ("max_duration", "budget", "total", "within", "for_up_to", "give_up_after", "total_time",
                 "keep_trying_for", "keep_retrying_for", "retry_for", "stop_after", "stop_retrying_after",
                 "max_elapsed", "max_elapsed_time", "max_total_time", "total_duration", "window", "deadline",
                 "for", "up_to", "until"),
    "multiplier": ("multiplier", "factor", "backoff_rate", "backoff_factor", "exponential_base", "rate"),
    "jitter": ("jitter", "jitter_strategy"),
    "backoff": ("backoff", "strategy", "type", "kind", "backoff_strategy", "policy"),
    "on": ("on", "error_equals", "errors", "retry_on", "on_errors", "for_errors", "exceptions", "retry_policy",
           "when", "exit_codes_except"),
}
_RETRY = {name: kind for kind, names in RETRY_KEYS.items() for name in names}


def retry_key(raw: str) -> str | None:
    """What a key of a `retry:` mapping sets, or None. Step Functions' `MaxAttempts`
    (written so) counts retries, as its documentation says; `max_attempts` counts the first."""
    if raw == "MaxAttempts":
        return "sfn_attempts"
    return _RETRY.get(key_name(raw))


# an ISO 8601 duration (Kestra, Azure, Temporal write `PT30S`, `PT1H30M`, `P1D`); each part's digits
# are taken whole, so a long run of digits is read once
_NUM = r"(\d++(?:\.\d++)?)"
_ISO = re.compile(rf"P(?:{_NUM}W)?(?:{_NUM}D)?(?:T(?=\d)(?:{_NUM}H)?(?:{_NUM}M)?(?:{_NUM}S)?)?", re.I)
_ISO_UNITS = (604800.0, 86400.0, 3600.0, 60.0, 1.0)


def iso_duration(text: object) -> float | None:
    """`PT30S` → 30, `PT1H30M` → 5400, `P1D` → 86400; None for anything else (`P`, `PT`, `30s`)."""
    m = _ISO.fullmatch(text.strip()) if isinstance(text, str) and len(text) < 64 else None
    if m is None or not any(m.groups()):
        return None
    return sum(float(g) * unit for g, unit in zip(m.groups(), _ISO_UNITS, strict=True) if g)


def unit_of(raw: str) -> float:
    """Seconds in one unit of a key that names its unit (`delay_ms`, `timeout_minutes`); else 1."""
    name = key_name(raw)
    if name.endswith("_ms"):
        return 0.001
    if name.endswith(("_minutes", "_mins", "_min")):
        return 60.0
    if name.endswith(("_hours", "_h")):
        return 3600.0
    return 1.0


# -- the keys of an `approval:` mapping ----------------------------------------------------

APPROVAL_KEYS: dict[str, tuple[str, ...]] = {
    "required": ("required", "enabled", "needed"),
    "timeout": ("timeout", "wait", "wait_for", "within", "expires_after", "expires", "expiry", "timeout_after",
                "deadline", "max_wait", "time_limit", "timeout_s", "timeout_seconds"),
    "on_timeout": ("on_timeout", "then", "after_timeout", "if_no_answer", "if_no_response", "on_expiry",
                   "on_expire", "otherwise", "default", "on_no_response", "outcome", "timeout_action",
                   "when_expired", "else"),
    "when": ("when", "if", "condition", "only_if", "only_when", "required_if", "above", "for"),
    "by": ("by", "approver", "approvers", "who", "role", "assignee", "assignees", "reviewer", "reviewers",
           "approved_by", "owner", "owners", "signed_off_by", "sign_off_by", "from"),
}
_APPROVAL = {name: kind for kind, names in APPROVAL_KEYS.items() for name in names}
_OUTCOMES = {"approve": ("approve", "approved", "accept", "accepted", "allow", "continue", "proceed", "go on",
                         "pass", "yes", "auto-approve", "auto approve"),
             "reject": ("reject", "rejected", "deny", "denied", "decline", "declined", "fail", "abort", "stop",
                        "cancel", "no", "auto-reject", "auto reject"),
             "skip": ("skip", "skipped", "skip step", "skip the step", "skip it")}


def approval_key(raw: str) -> str | None:
    return _APPROVAL.get(key_name(raw))


def approval_outcome(value: object) -> str | None:
    """`then: reject` / `deny` / `fail` → reject; `approve` / `continue` → approve; `skip` → skip (the
    step is skipped, as by its own condition; `engine.approval`); else None."""
    if isinstance(value, bool):
        return "approve" if value else "reject"
    word = " ".join(str(value).lower().replace("_", " ").split()).strip(".!")
    for outcome, words in _OUTCOMES.items():
        if word in words or any(word.startswith(w + " ") for w in words):
            return outcome
    return None


# -- references inside a condition -------------------------------------------------------

_COND_WRAP = re.compile(r"^\s*(?:\$\{\{(.*)\}\}|\{\{(.*)\}\}|\$\((.*)\))\s*$", re.S)
_COND_INLINE = re.compile(r"""['"]?(?:\{\{\s*([\w.\-\[\]'"]+?)\s*\}\}|\$\(\s*([\w.\-\[\]*]+?)\s*\))['"]?""")
_COND_VAR = re.compile(r"(?<![\w.])\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))(?![\w.(\[])")
_COND_FUNCTION = re.compile(r"\b(?:fromJSON|fromJson|toJSON|toJson)\(\s*+([^()]*?)(?:(?<!\s)\s+)?\)")
_COND_REF = re.compile(r"""(?<![\w.'"\]])\$?[A-Za-z_][\w-]*(?:\.[\w-]+|\[\s*['"][\w -]+['"]\s*\])+""")


# Azure Pipelines' (and GitHub's) function-call conditions -> an operator ("{0}", "{1}": the arguments)
CONDITION_FUNCTIONS: dict[str, str] = {
    "eq": "{0} == {1}", "ne": "{0} != {1}", "gt": "{0} > {1}", "lt": "{0} < {1}", "ge": "{0} >= {1}",
    "le": "{0} <= {1}", "and": "({0}) and ({1})", "or": "({0}) or ({1})", "not": "not ({0})",
    "in": "{0} in [{rest}]", "notin": "{0} not in [{rest}]", "contains": "{1} in {0}",
    "succeeded": "true",
}
_CALL = re.compile(r"^\s*([A-Za-z]+)\s*\((.*)\)\s*$", re.S)


def _arguments(text: str) -> list[str]:
    out, depth, start, quote = [], 0, 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    return [*out, text[start:].strip()] if text.strip() else out


def _calls(text: str) -> str:
    """`and(succeeded(), eq(variables['x'], 'prod'))` → `(true) and (inputs.x == 'prod')`."""
    m = _CALL.match(text)
    if m is None or m.group(1).lower() not in CONDITION_FUNCTIONS:
        return re.sub(r"^variables(?:\[\s*'([\w-]+)'\s*\]|\.([\w-]+))$",
                      lambda v: f"inputs.{v.group(1) or v.group(2)}", text.strip())
    args = [_calls(a) for a in _arguments(m.group(2))]
    form = CONDITION_FUNCTIONS[m.group(1).lower()]
    try:
        return form.format(*args, rest=", ".join(args[1:]))
    except IndexError:
        return text


def condition_text(text: str) -> str:
    """A condition as other tools write it → the form's: the `${{ }}` / `{{ }}` wrapper off,
    `$input.x` / `params.x` / `github.event.inputs.x` → `inputs.x`, `needs.a.outputs.n` /
    `tasks.a.outputs.parameters.n` → `steps['a'].output.n`; other words unchanged."""
    m = _COND_WRAP.match(text)
    inner = next((g for g in m.groups() if g is not None), text) if m else text
    if (call := _CALL.match(inner)) is not None and call.group(1).lower() in CONDITION_FUNCTIONS:
        inner = _calls(inner)
        inner = re.sub(r"\(true\) and \((.*)\)$|^\((.*)\) and \(true\)$", lambda t: t.group(1) or t.group(2), inner)
    # Argo substitutes before it compares: `'{{workflow.parameters.x}}' == 'prod'` compares x
    inner = _COND_INLINE.sub(lambda r: canonical_path(r.group(1) or r.group(2)), inner)
    inner = _COND_VAR.sub(lambda r: f"inputs.{r.group(1) or r.group(2)}", inner)  # GitLab `$TARGET`
    inner = _COND_FUNCTION.sub(r"\1", inner)
    inner = re.sub(r"(?:(?<!\s)\s+)?&&\s*", " and ", re.sub(r"(?:(?<!\s)\s+)?\|\|\s*", " or ", inner))  # GitHub's && || !
    inner = re.sub(r"!(?!=)\s*", "not ", inner)

    def one(ref: re.Match[str]) -> str:
        said = ref.group(0)
        path = canonical_path(said.lstrip("$"))
        parts = path.split(".")
        if path.startswith("steps.") and len(parts) >= 3 and parts[2] == "output":
            return ".".join([f"steps['{parts[1]}'].output", *parts[3:]])
        return path if path.startswith("inputs.") or said.startswith("$") else said
    return _COND_REF.sub(one, inner).strip()


_CATCH_ALL = {"all", "any", "always", "everything", "states_all", "task_failed", "states_task_failed", "on_failure",
              "on_error", "error", "errors", "exception", "exceptions"}


# error names of other tools that the grammar's words do not say: GitLab's failure reasons
ERROR_NAMES: dict[str, str] = {
    "stuck_or_timeout_failure": "timeout", "job_execution_timeout": "timeout",
    "runner_system_failure": "transient", "api_failure": "transient", "scheduler_failure": "transient",
    "runner_unsupported": "transient", "data_integrity_failure": "transient", "archived_failure": "transient",
    "unmet_prerequisites": "transient", "stale_schedule": "transient",
    "script_failure": "any", "unknown_failure": "any",
}


def error_words(value: object) -> str:
    """`[States.Timeout, OnTransientError]` → "states timeout, on transient error": the words of
    error names as another tool spells them, for the grammar's class rows."""
    items = value if isinstance(value, list) else [value]
    return ", ".join(ERROR_NAMES.get(key_name(str(v)), key_name(str(v)).replace("_", " ")) for v in items)


def error_groups(value: object) -> list[object]:
    """The values of a retry's `on` split by the class their table word names, so that
    `[runner_system_failure, stuck_or_timeout_failure]` is a rule per class."""
    items = value if isinstance(value, list) else [value]
    groups: dict[str, list[object]] = {}
    for v in items:
        groups.setdefault(ERROR_NAMES.get(key_name(str(v)), "?"), []).append(v)
    return [v[0] if len(v) == 1 else v for v in groups.values()]


def is_catch_all(value: object) -> bool:
    items = value if isinstance(value, list) else [value]
    return all(key_name(str(v)) in _CATCH_ALL or ERROR_NAMES.get(key_name(str(v))) == "any" for v in items)
