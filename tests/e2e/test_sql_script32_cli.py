"""An SQL script whose comments carry the process, in the real `skillweave run` (`spec.sql_script32`): a
stock-count migration whose inputs are psql variables, whose step 2 has its own `name = value` literal, and
whose last step takes "whatever 3 or 4 handed back, as `lines` (both call that field `rows`)": the run
counts the branch's rows, not an empty list a user was asked for (as holdout25 155's `sends`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import prose_skills, run_report

pytestmark = pytest.mark.e2e

SCRIPT = """-- V7__stock_count.sql : the weekly stock count, written where the DBA reads it
-- run with:  psql -v depot=leeds -f V7__stock_count.sql
--   :depot = which depot's shelves

-- 1. `count-shelves` for :depot. gives `shelves` and `short` (how many are short).
-- 2. IF step 1's short is 2 or more => `reorder-lines` on those shelves, min_qty = 5.
-- 3. ELSE => `note-lines` on the same shelves. Only one of 2 / 3 ever runs.
-- 4. `file-count` with :depot and whatever 2 or 3 handed back, as `lines`
--    (both of them call that field `rows`). Runs after whichever branch ran.

SELECT 1;
"""

_SKILLS = {
    "count-shelves": ("`depot`", "`shelves` (list), `short` (count)",
                      'print(json.dumps({"shelves": ["a", "b", "c"], "short": 2 if d["depot"] == "leeds" else 0}))'),
    "reorder-lines": ("`shelves` (list), `min_qty` (int)", "`rows` (list)",
                      'print(json.dumps({"rows": [s + "x" + str(d["min_qty"]) for s in d["shelves"]]}))'),
    "note-lines": ("`shelves` (list)", "`rows` (list)", 'print(json.dumps({"rows": d["shelves"][:1]}))'),
    "file-count": ("`depot`, `lines` (list)", "`filed` (text)",
                   'print(json.dumps({"filed": d["depot"] + "-" + str(len(d["lines"]))}))'),
}


def test_the_join_counts_the_branch_s_rows_and_the_literal_is_bound(tmp_path: Path) -> None:
    prose_skills(tmp_path, _SKILLS, "stock counting")
    spec = tmp_path / "V7__stock_count.sql"
    spec.write_text(SCRIPT, encoding="utf-8")
    code, result = run_report(spec, str(tmp_path / "state"), "--input", "depot=leeds")
    assert code == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["step-2"] == {"rows": ["ax5", "bx5", "cx5"]}
    assert result["outputs"]["step-4"] == {"filed": "leeds-3"}
