"""How well the readers read specs written by others: the foreign corpora scored by a script.

Usage: .venv/bin/python bench/reader_score.py [CORPUS_DIR ...] [--skillweave PATH ...] [--json]

A corpus is a folder of spec folders, each with an `expect.yaml` saying what its author meant
(`tests/e2e/foreign_kit.py` explains the format). With no CORPUS_DIR every
`tests/fixtures/foreign-specs*` folder is scored. Each `--skillweave` executable (this tree's by
default; another checkout's `.venv/bin/skillweave` to compare in one sitting) plans and runs each
spec, and the script counts, against expect.yaml:

- specs that plan at all;
- steps fully right: the author's step has a plan step with its skill (matched in order), with
  the dependencies meant (both sides reduced), a for-each, a condition and an approval exactly
  where meant, and every input from the source meant (`meant_binding`); plan steps the author
  did not write are counted apart;
- policy lines read as meant (`policy_misses` on the matched step's policy);
- runs (the main one and `more_runs`) that end with the author's final output, `succeeded` or `degraded`
  (a fallback used, as `skillweave` says it), their inputs as the holdout tests read them ("same", "same
  plus {..}", "same, but ..", "same as above"); a run whose author answers an approval (`approvals`,
  `approval_response`, `final_output_after_approval`, or the holdout book's ANSWERED where only the notes say
  so) is approved when it pauses and resumed (rejected, `skillweave approve --reject`, where the author
  rejects: right when it paused there and ends with the author's output, or without succeeding where the
  author's output is null), and one met by silence is right when it holds at that approval;
- the worst failure: a run that says `succeeded` with another output, or without the pause for an
  approval its author asked for.

It is a cross-check of the blind evaluators' by-hand figures, not a substitute: it does not see
warnings, so it cannot tell a silent misreading from a warned one.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from tests.e2e.foreign_kit import (  # noqa: E402  (the kit lives with the tests)
    expectation,
    folders_of,
    meant_binding,
    policy_misses,
    reduce_dependencies,
    run_inputs,
)

DEFAULT = str(REPO / ".venv" / "bin" / "skillweave")
# the sources in words `meant_binding` reads; others are not scored
_SAID = re.compile(r"workflow input \w+|each item's field \w+|all results of step \d+, gathered|step \d+ output \w+")


@dataclass
class Score:
    spec: str
    planned: bool = False
    steps: int = 0
    steps_right: int = 0
    invented_steps: int = 0
    policies: int = 0
    policies_meant: int = 0
    runs: int = 0
    runs_right: int = 0
    succeeded_wrong: int = 0
    wrong: list[str] = field(default_factory=list)


def _cli(exe: str, *args: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False)


def _json(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _match(steps: list[dict[str, Any]], meant: list[dict[str, Any]]) -> dict[int, str]:
    """The author's step numbers -> plan step ids: each meant step takes the first unused plan
    step with its skill, in order."""
    used: set[str] = set()
    ids: dict[int, str] = {}
    for m in meant:
        hit = next((s["id"] for s in steps if s["skill"] == m["skill"] and s["id"] not in used), None)
        if hit is not None:
            used.add(hit)
            ids[m["number"]] = hit
    return ids


def _step_wrong(step: dict[str, Any], m: dict[str, Any], ids: dict[int, str],
                deps: dict[str, set[str]], meant_deps: dict[int, set[int]]) -> list[str]:
    back = {sid: n for n, sid in ids.items()}
    wrong = []
    got = {back.get(d, -1) for d in deps[step["id"]]}
    if got != meant_deps[m["number"]]:
        wrong.append(f"depends on {sorted(got)}, meant {sorted(meant_deps[m['number']])}")
    if bool(step.get("for_each")) != bool(m.get("for_each")):
        wrong.append("for-each " + ("missing" if m.get("for_each") else "not meant"))
    conditional = bool(m.get("condition") or m.get("runs_when_other_condition_false"))
    if bool(step.get("when")) != conditional:
        wrong.append("condition " + ("missing" if conditional else "not meant"))
    if bool((step.get("policy") or {}).get("approval")) != bool(m.get("approval")):
        wrong.append("approval " + ("missing" if m.get("approval") else "not meant"))
    for name, said in (m.get("inputs") or {}).items():
        said = str(said)
        if said.strip() in ("each item", "the item", "each item itself"):
            wanted = {"source": "item", "pointer": ""}
        elif not _SAID.fullmatch(said.strip()):
            continue  # another wording ("step 3 output x, or step 4 output x (whichever ran)"): not scored here
        elif any(int(n) not in ids for n in re.findall(r"step (\d+)", said)):
            wrong.append(f"input {name}: its source step is not in the plan")
            continue
        else:
            wanted = meant_binding(said.strip(), ids)
        bound = (step.get("inputs") or {}).get(name)
        if bound is None or any(bound.get(k) != v for k, v in wanted.items()):
            wrong.append(f"input {name} not from {said}")
    return wrong


_SAME = ("same as above", "same as the main run", "same as the first run")


def _inputs(expected: dict[str, Any], n: int) -> Any:
    """Run `n`'s inputs as the holdout tests read them (`run_inputs`), "same as above" as "same"."""
    said = expected["inputs"] if n == 0 else expected["more_runs"][n - 1]["inputs"]
    if not isinstance(said, dict) or not isinstance(expected.get("inputs"), dict):
        return said
    words = {k: "same" if isinstance(v, str) and v.lower().rstrip(".") in _SAME else v for k, v in said.items()}
    if n == 0:
        return words
    more = [dict(r) for r in expected["more_runs"]]
    more[n - 1] = {**more[n - 1], "inputs": words}
    try:
        return run_inputs({**expected, "more_runs": more}, n)
    except AssertionError:  # words the holdout tests do not read either: given as written
        return said


def _book(folder: Path) -> Any:
    """The holdout book (tests/e2e/holdout_bookNN.py) of a spec's folder, or None."""
    book = REPO / "tests" / "e2e" / f"holdout_book{folder.parent.name.removeprefix('foreign-specs-holdout')}.py"
    if not book.is_file():
        return None
    if str(book.parent) not in sys.path:
        sys.path.insert(0, str(book.parent))
    return importlib.import_module(book.stem)


# an answer that is no answer: "silence", "none (2 hours of silence)", "no answer within 2h", "no reply"
_SILENT = re.compile(r"silen|\bno(?:ne|body)?\b(?: (?:answer|reply|response))?|\btime[sd]? ?out", re.IGNORECASE)
# an answer that says no: "rejected", "Kev refuses", "declined by the chief", "denied", "turned down"
_REJECTED = re.compile(r"\b(?:reject|refus|declin|den(?:y|ies|ied)\b|turn(?:s|ed)? (?:it )?down)", re.IGNORECASE)


def _answer(said: Any) -> str:
    """An author's answer to an approval in words: "rejected", "silence" or "approved"."""
    text = str(said)
    if _REJECTED.search(text):
        return "rejected"
    return "silence" if _SILENT.search(text) else "approved"


def _answers(folder: Path, expected: dict[str, Any], n: int) -> dict[int, str]:
    """How run `n`'s approvals are answered, author's step -> "approved", "rejected" or "silence" (holdout_kit's
    `Holdout.answers`, and the holdout book's ANSWERED where only expect.yaml's notes say so)."""
    data = _book(folder)
    if (folder.name, n) in getattr(data, "ANSWERED", {}):
        return dict(data.ANSWERED[(folder.name, n)][0])
    if (folder.name, n) in getattr(data, "PAUSED_AT", {}):  # "the author's final output assumes an approval given"
        return {data.PAUSED_AT[(folder.name, n)][0]: "approved"}
    said = expected if n == 0 else expected["more_runs"][n - 1]
    answer = said.get("approval_response") or said.get("approval_answer") or said.get("approval")
    if answer is None and ("final_output_after_approval" in said or "final_output_if_approved" in said):
        answer = "approved"
    if answer is not None:
        asking = [m["number"] for m in expected.get("steps") or [] if m.get("approval")]
        if len(asking) != 1:
            return {}
        said = {"approvals": {asking[0]: answer}}
    return {int(k): _answer(v) for k, v in (said.get("approvals") or {}).items()}


def _run(exe: str, spec: Path, inputs: Any, approved: set[str] | bool, work: Path,
         rejected: frozenset[str] = frozenset()) -> dict[str, Any]:
    """A run to its end, answering what waits at a step of `approved` (plan ids; True: any step): rejected
    (`approve --reject`) at a step of `rejected`, approved at any other; its last report with
    `paused_for_approval` added."""
    file = work / "inputs.json"
    file.write_text(json.dumps(inputs), encoding="utf-8")
    state = str(work / "state")
    report = _json(_cli(exe, "run", str(spec), "--input-file", str(file), "--json", "--state-dir", state,
                        cwd=spec.parent).stdout)
    paused = False
    for _ in range(3):
        awaiting = set(report.get("awaiting") or ["?"])
        if report.get("status") != "paused" or not approved or (approved is not True and not awaiting <= approved):
            break
        paused = True
        for sid in report.get("awaiting") or []:
            _cli(exe, "approve", report["run_id"], sid, *(["--reject"] if sid in rejected else []),
                 "--state-dir", state, cwd=spec.parent)
        report = _json(_cli(exe, "resume", report["run_id"], "--json", "--state-dir", state, cwd=spec.parent).stdout)
    report["paused_for_approval"] = paused
    return report


_IF_APPROVED = re.compile(r"(?i)\bif\s+(?:it\s+is\s+|it['’]s\s+)?approved\s*:\s*(\{[^{}]*\})")


def _if_approved(wants: Any) -> Any:
    """An author's output said as a sentence with the output after the approval in it ("waits up to 2 h for
    the Superintendent; if approved: {submitted: true, ...}; if no answer ..."): that mapping, the run's
    output once approved (the run is approved as the book's PAUSED_AT says); `wants` as it was otherwise."""
    m = _IF_APPROVED.search(wants) if isinstance(wants, str) else None
    if m is None:
        return wants
    try:
        got = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return wants
    return got if isinstance(got, dict) else wants


def _final(report: dict[str, Any]) -> Any:
    outputs = report.get("outputs") or {}
    done = [s["step_id"] for s in report.get("steps") or [] if s.get("step_id") in outputs]
    return outputs[done[-1]] if done else None


def _ends_as_meant(report: dict[str, Any], wants: Any, rejected: bool) -> bool:
    """A run's end is the author's: succeeded (or degraded) with the author's output; where the author
    rejects an approval and means no output (null), ended without succeeding (failed, cancelled)."""
    status = report.get("status")
    if rejected and wants is None:
        return status not in ("succeeded", "degraded", "paused", None)
    return status in ("succeeded", "degraded") and _final(report) == wants


def score(exe: str, folder: Path) -> Score:
    expected = expectation(folder)
    spec = folder / expected["spec"]
    out = Score(f"{folder.parent.name}/{folder.name}")
    meant = expected.get("steps") or []
    out.steps = len(meant)
    ids: dict[int, str] = {}
    out.policies = sum(len(m.get("policies") or []) for m in meant)
    done = _cli(exe, "plan", str(spec), "--format", "json", cwd=folder)
    plan = _json(done.stdout)
    if done.returncode == 0 and plan.get("steps"):
        out.planned = True
        steps = plan["steps"]
        ids = _match(steps, meant)
        out.invented_steps = len(steps) - len(ids)
        deps = reduce_dependencies({s["id"]: set(s.get("depends_on") or []) for s in steps})
        meant_deps = reduce_dependencies({str(m["number"]): {str(n) for n in m.get("depends_on") or []}
                                          for m in meant})
        by_number = {int(k): {int(n) for n in v} for k, v in meant_deps.items()}
        by_id = {s["id"]: s for s in steps}
        for m in meant:
            sid = ids.get(m["number"])
            if sid is None:
                out.wrong.append(f"step {m['number']} ({m['skill']}): no plan step runs its skill")
                continue
            wrong = _step_wrong(by_id[sid], m, ids, deps, by_number)
            out.steps_right += not wrong
            out.wrong += [f"step {m['number']} ({m['skill']}): {w}" for w in wrong]
            for p in m.get("policies") or []:
                missed = policy_misses(by_id[sid].get("policy") or {"rules": []}, p.get("meaning") or {})
                out.policies_meant += not missed
    if expected.get("runnable") is False:
        return out
    runs = [{"inputs": expected.get("inputs"), **{k: v for k, v in expected.items() if k.startswith("final_output")}},
            *(expected.get("more_runs") or [])]
    for n, said in enumerate(runs):
        if said.get("inputs") is None or not any(k.startswith("final_output") for k in said):
            continue
        out.runs += 1
        wants = said.get("final_output_after_approval", said.get("final_output_if_approved", said.get("final_output")))
        if wants is True or (isinstance(wants, str) and wants.lower().rstrip(".") in _SAME):
            wants = said.get("final_output") if wants is True else runs[0].get("final_output")
        wants = _if_approved(wants)
        answers = _answers(folder, expected, n)
        yes = {ids.get(k, "?") for k, v in answers.items() if v == "approved"}
        silence = [ids.get(k, "?") for k, v in answers.items() if v == "silence"]
        no = {ids.get(k, "?") for k, v in answers.items() if v == "rejected"}
        if isinstance(wants, str) and wants.startswith("approval asked") and yes:
            silence, yes = sorted(yes), set()  # the author's output a sentence saying it asks: right when it holds
        with tempfile.TemporaryDirectory() as work:
            report = _run(exe, spec, _inputs(expected, n), (yes | no) if ids else bool(yes | no), Path(work),
                          frozenset(no))
        if silence:  # met by silence: right when it holds at that approval (never waited out)
            out.runs_right += report.get("status") == "paused" and report.get("awaiting") == silence
            if report.get("status") in ("succeeded", "degraded"):
                out.succeeded_wrong += 1
                out.wrong.append(f"run {n} said {report['status']} where its author meant silence at an approval")
            continue
        succeeded = report.get("status") in ("succeeded", "degraded")
        right = _ends_as_meant(report, wants, bool(no))
        skipped = bool(yes | no) and not report.get("paused_for_approval")
        out.runs_right += right and not skipped
        if succeeded and (not right or skipped):
            out.succeeded_wrong += 1
            out.wrong.append(f"run {n} said {report['status']} " + ("without the approval meant" if right else "with another output"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--skillweave", action="append", help="a skillweave executable (repeatable)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    corpora = args.corpora or sorted(p for p in (REPO / "tests" / "fixtures").glob("foreign-specs*") if p.is_dir())
    folders = [c.resolve() / f for c in corpora for f in folders_of(c)]
    result: dict[str, list[dict[str, Any]]] = {}
    for exe in args.skillweave or [DEFAULT]:
        with ThreadPoolExecutor(args.workers) as pool:
            result[exe] = [asdict(s) for s in pool.map(lambda f, e=exe: score(e, f), folders)]
    if args.json:
        print(json.dumps(result, indent=1))
        return
    keys = ("planned", "steps_right", "steps", "invented_steps", "policies_meant", "policies", "runs_right", "runs",
            "succeeded_wrong")
    for exe, scores in result.items():
        print(f"# {exe}")
        for corpus in dict.fromkeys(s["spec"].split("/")[0] for s in scores):
            rows = [s for s in scores if s["spec"].startswith(corpus + "/")]
            total = {k: sum(int(r[k]) for r in rows) for k in keys}
            print(f"{corpus}: planned {total['planned']}/{len(rows)}, steps right {total['steps_right']}/"
                  f"{total['steps']} (+{total['invented_steps']} not meant), policies {total['policies_meant']}/"
                  f"{total['policies']}, runs {total['runs_right']}/{total['runs']}, "
                  f"succeeded but wrong {total['succeeded_wrong']}")


if __name__ == "__main__":
    main()
