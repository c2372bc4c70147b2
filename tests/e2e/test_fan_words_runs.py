"""A fan-out and a gather said in other words, through the real `skillweave run` with real script
skills: a grant proposal's methods ("Each respondent row will be scored independently", "The resulting
scores are then consolidated") and a tweet thread ("on each PR, one by one, or in parallel", "takes all
the blurbs") run each item once and hand every result to the step after, to the author's output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import final_output, run, write_script_skills

pytestmark = pytest.mark.e2e

_SKILLS = {
    "split-rows": ("Splits a CSV text into rows.", "`csv_text` (string, lines of `name,n`)",
                   "`rows` (array of objects {name, n}), `row_count` (integer)",
                   "rows = [dict(name=l.split(',')[0], n=int(l.split(',')[1])) for l in d['csv_text'].splitlines() if l]\n"
                   "out = {'rows': rows, 'row_count': len(rows)}"),
    "score-row": ("Scores one survey row.", "`row` (object {name, n})", "`score` (number)",
                  "out = {'score': d['row']['n'] * 10}"),
    "summarise-scores": ("Sums a list of scores.", "`scores` (array of numbers)", "`total` (number)",
                         "assert all(isinstance(s, (int, float)) for s in d['scores']), d\n"
                         "out = {'total': sum(d['scores'])}"),
    "list-prs": ("Lists the open pull requests of a repo.", "`repo` (string)", "`prs` (array of objects {id, title})",
                 "out = {'prs': [{'id': i, 'title': t} for i, t in enumerate(['fix login', 'add export'], 1)]}"),
    "write-blurb": ("Writes a blurb for one pull request.", "`pr` (object {id, title})", "`blurb` (string)",
                    "out = {'blurb': '#%d %s' % (d['pr']['id'], d['pr']['title'])}"),
    "compile-digest": ("Compiles blurbs into a digest.", "`blurbs` (array of strings)", "`digest` (string)",
                       "out = {'digest': '; '.join(d['blurbs'])}"),
}


def _catalog(root: Path) -> None:
    write_script_skills(root, _SKILLS)


def _run(tmp_path: Path, text: str, **inputs: str) -> dict[str, Any]:
    _catalog(tmp_path)
    spec = tmp_path / "spec.md"
    spec.write_text(text, encoding="utf-8")
    args = [a for k, v in inputs.items() for a in ("--input", f"{k}={v}")]
    done = run("run", str(spec), *args, "--json", "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


_GRANT_METHODS = """\
# 3. Methods

## 3.1 Data preparation
The raw survey export (`csv_text`) is first split into respondent rows with `split-rows`.

## 3.2 Scoring
Each respondent row will be scored independently with `score-row`.

## 3.3 Analysis
The resulting scores are then consolidated with `summarise-scores` into a single total.
"""


def test_a_grant_proposals_methods_score_each_row_and_consolidate_the_scores(tmp_path: Path) -> None:
    result = _run(tmp_path, _GRANT_METHODS, csv_text="a,3\nb,4\nc,5")
    assert result["status"] == "succeeded"
    assert final_output(result) == {"total": 120}


_TWEET_THREAD = """\
1/ how we do the PR digest for the `repo` every friday, a thread

2/ first `list-prs` grabs everything open

3/ then `write-blurb` on each PR, one by one, or in parallel, doesn't matter

4/ last, `compile-digest` takes all the blurbs and spits out the digest
"""


def test_a_tweet_threads_blurb_per_pr_is_written_for_each_pr_and_all_go_in_the_digest(tmp_path: Path) -> None:
    result = _run(tmp_path, _TWEET_THREAD, repo="acme/shop")
    assert result["status"] == "succeeded"
    assert final_output(result) == {"digest": "#1 fix login; #2 add export"}
