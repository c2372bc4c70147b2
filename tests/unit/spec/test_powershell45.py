"""A PowerShell runbook read field by field (`spec.powershell45`, round 45): its `param(...)` block is
the run's inputs with their defaults, a call's `@{ key = value }` hashtable (over several lines, or
splatted from a variable) its inputs, `$true` a literal, a banner comment's rule no part of the
step's name; and the policy sentences such scripts carry in their comments ("the API is slow. give
it ...", "use the standard ones: k = [[..]]"). None of the scripts is a blind set's."""

from __future__ import annotations

from orchestrator.policy import ErrorClass
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.powershell45 import hashtable, param_block, still_open

_LIBRARY = """\
<#
.SYNOPSIS
    Overdue loans sweep for the branch libraries.
.PARAMETER Branch
    Branch code as on the catalogue, e.g. NORTH.
.PARAMETER DaysLate
    How late a loan has to be.
#>
[CmdletBinding()]
param(
    [Parameter(Mandatory)][string]$Branch,
    [int]$DaysLate = 14,
    [switch]$DryRun
)

# ==== 1. overdue loans ===========================================
$loans = Invoke-Skill 'list-overdue' @{
    branch = $Branch
    days   = $DaysLate
    include_renewed = $false
}

# ==== 2. letters ==================================================
$letterArgs = @{ loans = $loans.items; template = 'polite-v2'; dry_run = $DryRun }
$letters = Invoke-Skill 'print-letters' @letterArgs
"""

_BREWERY = """\
param([Parameter(Mandatory = $true)][string]$BatchId, [string]$Vessel = 'FV3')

## Step 1: read gravity
$g = Invoke-Skill "read-gravity" @{ batch = $BatchId; vessel = $Vessel;
    samples = 3 }

## Step 2: log it
Invoke-Skill "log-gravity" @{ og = $g.og; batch = $BatchId }
if ($g.og -gt 1.06) {
    ## Step 3: tell the brewer
    Invoke-Skill "page-brewer" @{ og = $g.og }
}
"""


def _steps(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "markdown")
    return spec, {s.id: s for s in spec.steps}


def test_a_param_block_is_the_runs_inputs_with_their_defaults_types_and_help_descriptions() -> None:
    spec, _ = _steps(_LIBRARY, "Sweep-Loans.ps1")
    got = {i.name: (i.required, i.default, i.type) for i in spec.inputs}
    assert got == {"Branch": (True, None, "string"), "DaysLate": (False, 14, "integer"),
                   "DryRun": (False, False, "boolean")}
    assert {i.name: i.description for i in spec.inputs}["Branch"] == "Branch code as on the catalogue, e.g. NORTH."
    assert spec.title == "Overdue loans sweep for the branch libraries."
    spec, _ = _steps(_BREWERY, "brew.ps1")
    assert {i.name: (i.required, i.default) for i in spec.inputs} == {"BatchId": (True, None), "Vessel": (False, "FV3")}


def test_a_hashtable_over_several_lines_and_a_splatted_one_are_the_calls_inputs() -> None:
    spec, steps = _steps(_LIBRARY, "Sweep-Loans.ps1")
    assert [s.skill for s in spec.steps] == ["list-overdue", "print-letters"]
    assert [(f.name, f.source) for f in steps["step-1"].inputs] == [("branch", "inputs.Branch"),
                                                                    ("days", "inputs.DaysLate")]
    assert steps["step-1"].input_values == {"include_renewed": False}
    assert [(f.name, f.source) for f in steps["step-2"].inputs] == [("loans", "steps.step-1.output.items"),
                                                                    ("dry_run", "inputs.DryRun")]
    assert steps["step-2"].input_values == {"template": "polite-v2"}
    assert [s.name for s in spec.steps] == ["overdue loans", "letters"]  # the banner's `====` is no name
    assert not [w for w in spec.warnings if "calls no skill" in w.message or "no workflow inputs" in w.message]


def test_a_hashtable_going_on_after_a_semicolon_and_an_if_block_still_read() -> None:
    spec, steps = _steps(_BREWERY, "brew.ps1")
    assert [s.skill for s in spec.steps] == ["read-gravity", "log-gravity", "page-brewer"]
    assert steps["step-1"].input_values == {"samples": 3}
    assert [(f.name, f.source) for f in steps["step-1"].inputs] == [("batch", "inputs.BatchId"),
                                                                    ("vessel", "inputs.Vessel")]
    assert [(f.name, f.source) for f in steps["step-3"].inputs] == [("og", "steps.step-1.output.og")]
    assert steps["step-3"].when == "og > 1.06"  # near-miss: an `if (...) {` block's brace is not joined on


def test_still_open_counts_hashtables_and_parens_never_a_blocks_brace() -> None:
    assert still_open("$x = Invoke-Skill a @{") == "h"
    assert still_open("param(") == "p"
    assert still_open("if ($a.ok -eq $true) {") is None
    assert still_open("Invoke-Skill a @{ k = '@{(' }") is None  # inside quotes: nothing opened
    assert still_open("Invoke-Skill a @{ k = 1 }  # see (notes") is None


def test_hashtable_and_param_block_pieces() -> None:
    assert hashtable("Invoke-Skill x @{ 'due-date' = $d; n = @(1, 2); ok = $true }") == [
        ("due_date", "$d"), ("n", "@(1, 2)"), ("ok", "$true")]
    assert hashtable("Invoke-Skill x -Day $d") is None
    assert param_block("param([ValidateSet('a','b')][string]$Mode = 'a', $Plain)") == [
        ("Mode", False, "a", "string"), ("Plain", False, None, None)]


def test_the_standard_values_with_a_list_of_lists_are_the_value_a_failed_step_goes_on_with() -> None:
    for text, value in [
        ("if the rates feed is down don't stop, use the default figures: bands = [[1,10],[2,20]] (close enough)",
         {"bands": [[1, 10], [2, 20]]}),
        ("when the lookup fails fall back to the usual values, tiers = {\"gold\": [1, 2]} and unit = pct",
         {"tiers": {"gold": [1, 2]}, "unit": "pct"}),
    ]:
        phrase = read_phrase(text)
        assert phrase.problems == ()
        assert phrase.statement.on_failure is not None and phrase.statement.on_failure.value == value, text
    assert read_phrase("use the standard ones: bands = [[1,2]]").statement.on_failure is None  # says no failure


def test_a_sentence_that_only_says_a_service_is_slow_is_a_reason_not_the_rules_failure_class() -> None:
    for text in ("The ledger API is painfully slow. allow 2 minutes and retry twice 30s apart on error",
                 "Our print server is really slow! give it 45 seconds, if it errors try 3 more times"):
        statement = read_phrase(text).statement
        assert statement.retries and statement.timeout_s and statement.applies_to is None, text
    assert read_phrase("When the portal is slow. retry twice").statement.applies_to == ErrorClass.TIMEOUT  # a condition


_KENNEL = """\
param([string]$Dog = 'any')

# Step 1: book the run
try {
    $slot = Invoke-Skill 'book-run' @{ dog = $Dog }
}
catch [System.TimeoutException], [System.IO.IOException] {
    $slot = Invoke-Skill 'book-run-by-phone' @{ dog = $Dog }
}

# Step 2: tell the owner
Invoke-Skill 'text-owner' @{ slot = $slot.time }
"""

_GARAGE = """\
# 1) price the parts
try { $quote = Invoke-Skill "price-parts" @{ reg = $env:REG } } catch { Write-Warning "parts site down" }
# 2) write the quote
try {
    Invoke-Skill "write-quote" @{ total = $quote.total }
} catch {
    Write-Error "quote failed"
    throw
}
"""


def test_a_skill_called_in_a_catch_block_is_the_fallback_of_the_step_in_its_try() -> None:
    spec, steps = _steps(_KENNEL, "kennel.ps1")
    assert [s.skill for s in spec.steps] == ["book-run", "text-owner"]  # the catch's call is no step of its own
    assert [t.text for t in steps["step-1"].texts] == ["if it fails, run `book-run-by-phone` instead"]
    assert [(w.line, "fallback" in w.message) for w in spec.warnings if "catch" in w.message] == [(8, True)]


def test_a_catch_that_calls_nothing_goes_on_and_one_that_throws_fails() -> None:
    spec, steps = _steps(_GARAGE, "garage.ps1")
    assert [s.skill for s in spec.steps] == ["price-parts", "write-quote"]
    assert [t.text for t in steps["step-1"].texts] == ["if it fails, carry on"]  # swallowed, said at line 2
    assert [w.line for w in spec.warnings if "swallowed" in w.message] == [2]
    assert steps["step-2"].texts == ()  # near-miss: `throw` in the catch: the run fails, as by default
    assert not [w for w in spec.warnings if "not read" in w.message]


def test_a_hashtable_never_closed_joins_a_bounded_run_of_lines() -> None:
    from orchestrator.spec.script_flow import code_lines

    lines = ["$r = Invoke-Skill count-crates @{"] + [f"  k{n} = 'v'" for n in range(1000)]
    code = [c for c in code_lines(lines, "ps") if c[0] == "code"]
    assert code[0][1] == 1 and "k0 = 'v'" in code[0][2] and "k500" not in code[0][2]  # the join stopped
    assert len(code) > 1  # the lines past it are read on their own, nothing dropped
    closed = ["$r = Invoke-Skill count-crates @{", "  a = 1", "  b = 2", "}"]
    assert next(c for c in code_lines(closed, "ps") if c[0] == "code")[2].startswith("$r = Invoke-Skill count-crates @{")
