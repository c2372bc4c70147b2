"""Conditions said in words, through `skillweave plan --format json`: a lab protocol whose approval is over
an amount with a currency suffix, and an HR onboarding checklist whose condition names no value (warned,
the step runs on every run, never a refusal of the whole spec)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from foreign_kit import output_schema_skill

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


_skill = output_schema_skill


def _plan(root: Path, text: str) -> tuple[int, dict, str]:
    spec = root / "spec.md"
    spec.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    done = subprocess.run([SKILLWEAVE, "plan", str(spec), "--format", "json"], capture_output=True, text=True,
                          timeout=60, check=False)
    return done.returncode, json.loads(done.stdout) if done.returncode == 0 else {}, done.stderr


def test_a_lab_protocol_approval_over_an_amount_with_a_suffix_is_read(tmp_path: Path) -> None:
    _skill(tmp_path, "price-reagents", {"reagent_cost": "number"})
    _skill(tmp_path, "order-reagents", {"order_no": "string"})
    code, plan, err = _plan(tmp_path, """
        # Protein prep, week 12

        ### Step 1: Price it
        - Skill: `price-reagents`

        ### Step 2: Order
        - Skill: `order-reagents`
        - Approval: if reagent_cost is over €2.5k Dr Wu signs off first, no answer in 4h = stop
        """)
    assert code == 0, err
    gate = plan["steps"][1]["policy"]["approval"]
    assert gate["when"] == "steps['step-1'].output.reagent_cost > 2500"
    assert gate["timeout_s"] == 14400 and gate["on_timeout"] == "reject"


def test_an_onboarding_condition_that_names_no_value_is_warned_and_the_step_always_runs(tmp_path: Path) -> None:
    _skill(tmp_path, "create-accounts", {"account_id": "string"})
    _skill(tmp_path, "order-laptop", {"ticket": "string"})
    _skill(tmp_path, "book-desk", {"desk": "string"})
    code, plan, err = _plan(tmp_path, """
        # New starter checklist

        ### Step 1: Accounts
        - Skill: `create-accounts`

        ### Step 2: Laptop
        - Skill: `order-laptop`
        - When: the weather is stormy

        ### Step 3: Desk
        - Skill: `book-desk`
        - Otherwise: book a hot desk
        """)
    assert code == 0, err
    assert [s["when"] for s in plan["steps"]] == [None, None, None]
    warned = [w for w in plan["warnings"] if w["code"] == "spec.condition-not-read"]
    assert [w["line"] for w in warned] == [8, 12]
    assert "`weather` names no workflow input" in warned[0]["message"] and "both run" in warned[1]["message"]
