"""Carry-over: the code-like specs of the foreign corpora read with their own format's reader turned off.

Usage: PYTHONPATH=TREE .venv/bin/python bench/carry_over.py [--json] [--only NAME ...]

Each spec below has a reader written for its format (its detector: `is_jcl`, the Perl `#!` line, ...).
The spec is planned in-process with that detector turned off (patched to say "not this format"), so it
falls where a stranger's file in a format nobody wrote a reader for falls, and the plan is scored against
its expect.yaml with `bench/reader_score.py`'s own comparison (`_match`, `_step_wrong`, `policy_misses`):
steps fully right, policy lines read as meant, and inputs right (each input the author said where it comes
from, bound from there). Run it with PYTHONPATH at the tree to measure (a checkout of main for "before",
this branch for "after"); bench/RESULTS-carry-over.md keeps the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import orchestrator.spec  # noqa: F401  (imported first: the tree PYTHONPATH names is the one measured)

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "tests" / "fixtures"
sys.path.insert(1, str(REPO / "bench"))


def _never(*_: object, **__: object) -> bool:
    return False


def _no_script(language: str) -> Callable[[], contextlib.AbstractContextManager[object]]:
    """`script_language` as if it had no reader for `language` (the file falls to text)."""
    def patch() -> contextlib.AbstractContextManager[object]:
        from orchestrator.spec import script_flow

        real = script_flow.script_language

        def without(path: str, text: str) -> str | None:
            found = real(path, text)
            return None if found == language else found
        return mock.patch.object(script_flow, "script_language", without)
    return patch


def _off(module: str, name: str) -> Callable[[], contextlib.AbstractContextManager[object]]:
    def patch() -> contextlib.AbstractContextManager[object]:
        return mock.patch(f"orchestrator.spec.{module}.{name}", _never)
    return patch


def _no_code() -> contextlib.AbstractContextManager[object]:
    return mock.patch("orchestrator.spec.code_calls.code_language", lambda *_: None)


# spec folder -> (format, its detector turned off)
SPECS: dict[str, tuple[str, Callable[[], contextlib.AbstractContextManager[object]]]] = {
    "foreign-specs-holdout33/206-dormant-account-letters": ("JCL", _off("jcl50", "is_jcl")),
    "foreign-specs-holdout33/204-flood-warning-overnight": ("Fortran namelist", _off("namelist50", "is_namelist")),
    "foreign-specs-holdout33/201-escape-room-nightly-reset": ("GraphQL SDL", _off("graphql50", "is_graphql")),
    "foreign-specs-holdout33/202-postal-vote-returns": ("Perl", _no_script("perl")),
    "foreign-specs-holdout33/203-climbing-wall-reset": ("Node config (JS)", _no_code),
    "foreign-specs-holdout32/199-escape-room-gradle": ("Gradle (Kotlin)", _off("gradle49", "is_gradle")),
    "foreign-specs-holdout32/196-auction-valuation-mail": ("Sieve", _no_script("sieve")),
    "foreign-specs-holdout32/197-scaffold-offhire-macro": ("VBA", _no_script("vba")),
    "foreign-specs-holdout32/195-climbing-wall-reset": ("nginx-style conf", _off("nginx49", "is_nginx")),
    "foreign-specs-holdout32/198-driving-school-readiness": ("protobuf", _off("proto49", "is_proto")),
    "foreign-specs-holdout30/184-taxi-dispatch-lua": ("Lua", _off("lua46", "is_lua")),
    "foreign-specs-holdout29/180-exams-mock-results": ("PowerShell", _no_script("ps")),
    "foreign-specs-holdout31/190-stakeout-prep-bat": ("Windows batch", _no_script("bat")),
    "foreign-specs-holdout31/192-catch-qc-rscript": ("R", _no_script("r")),
    "foreign-specs-holdout29/177-observatory-night-plan": ("Nix", _off("nix45", "is_nix")),
    "foreign-specs-holdout24/148-rooftop-yield": ("HCL", _off("hcl30", "is_hcl")),
    "foreign-specs-holdout31/191-night-audit-properties": ("Java properties", _off("properties47", "is_properties")),
    "foreign-specs-holdout28/175-rent-arrears-env": (".env", _off("dotenv42", "is_dotenv")),
    "foreign-specs-holdout28/176-pick-call-rakefile": ("Rakefile", _off("rakefile42", "is_rakefile")),
    "foreign-specs-holdout22/140-release-cut-jenkins": ("Jenkinsfile", _off("ci_jenkins26", "is_jenkinsfile")),
    "foreign-specs-holdout21/130-pavilion-permits": ("Python module", _no_code),
    "foreign-specs-holdout12/80-permit-triage": ("shell script", _no_script("sh")),
    "foreign-specs-holdout20/123-nightly-reprice": ("Makefile", _no_script("make")),
    "foreign-specs-holdout25/154-dock-rebalance-skillfile": ("Dockerfile-like", _off("dockerfile32", "is_dockerfile")),
}


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        yield


def plan_json(spec: Path) -> dict[str, Any]:
    """The plan `skillweave plan SPEC --format json` prints, in-process; {} when it is refused."""
    from orchestrator.compile import compile_spec
    from orchestrator.config import load_settings
    from orchestrator.errors import SkillweaveError
    from orchestrator.plan import render_plan

    try:
        with _quiet():
            plan = compile_spec(spec, load_settings(), tool_schemas=lambda server, tool: (None, None))
    except SkillweaveError as exc:
        return {"refused": str(exc).splitlines()[:3]}
    data = json.loads(render_plan(plan, "json"))
    return data if isinstance(data, dict) else {}


def score(folder: Path, plan: dict[str, Any]) -> dict[str, Any]:
    """Steps fully right, policies meant and inputs right of `plan` against `folder`'s expect.yaml."""
    from reader_score import _match, _step_wrong  # the scorer's own comparison

    from tests.e2e.foreign_kit import expectation, policy_misses, reduce_dependencies

    expected = expectation(folder)
    meant = expected.get("steps") or []
    out = {"steps": len(meant), "steps_right": 0, "policies": sum(len(m.get("policies") or []) for m in meant),
           "policies_meant": 0, "inputs": 0, "inputs_right": 0, "planned": bool(plan.get("steps")), "wrong": []}
    out["inputs"] = sum(len(m.get("inputs") or {}) for m in meant)
    if not plan.get("steps"):
        out["wrong"].append(f"not planned: {plan.get('refused')}")
        return out
    steps = plan["steps"]
    ids = _match(steps, meant)
    deps = reduce_dependencies({s["id"]: set(s.get("depends_on") or []) for s in steps})
    meant_deps = reduce_dependencies({str(m["number"]): {str(n) for n in m.get("depends_on") or []} for m in meant})
    by_number = {int(k): {int(n) for n in v} for k, v in meant_deps.items()}
    by_id = {s["id"]: s for s in steps}
    for m in meant:
        sid = ids.get(m["number"])
        if sid is None:
            out["wrong"].append(f"step {m['number']} ({m['skill']}): no plan step runs its skill")
            continue
        wrong = _step_wrong(by_id[sid], m, ids, deps, by_number)
        out["steps_right"] += not wrong
        out["wrong"] += [f"step {m['number']} ({m['skill']}): {w}" for w in wrong]
        bad_inputs = {w.split()[1] for w in wrong if w.startswith("input ")}
        out["inputs_right"] += sum(1 for name in (m.get("inputs") or {}) if name not in bad_inputs)
        for p in m.get("policies") or []:
            out["policies_meant"] += not policy_misses(by_id[sid].get("policy") or {"rules": []}, p.get("meaning") or {})
    return out


def run(only: list[str]) -> list[dict[str, Any]]:
    rows = []
    for name, (kind, off) in SPECS.items():
        if only and not any(o in name for o in only):
            continue
        folder = FIXTURES / name
        from tests.e2e.foreign_kit import expectation

        spec = folder / expectation(folder)["spec"]
        with off():
            plan = plan_json(spec)
        rows.append({"spec": name.split("/", 1)[1], "format": kind, **score(folder, plan)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--why", action="store_true", help="print what each spec gets wrong")
    args = parser.parse_args()
    rows = run(args.only)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'spec':45} {'format':18} {'steps':>7} {'policies':>9} {'inputs':>7}")
    for r in rows:
        print(f"{r['spec'][:45]:45} {r['format'][:18]:18} {r['steps_right']:>3}/{r['steps']:<3} "
              f"{r['policies_meant']:>4}/{r['policies']:<4} {r['inputs_right']:>3}/{r['inputs']:<3}")
        if args.why:
            for w in r["wrong"][:12]:
                print(f"    {w}")
    total = {k: sum(int(r[k]) for r in rows) for k in ("steps_right", "steps", "policies_meant", "policies",
                                                         "inputs_right", "inputs", "planned")}
    print(f"{'total':45} {len(rows):>3} specs, {total['planned']} planned  {total['steps_right']:>3}/{total['steps']:<3} "
          f"{total['policies_meant']:>4}/{total['policies']:<4} {total['inputs_right']:>3}/{total['inputs']:<3}")


if __name__ == "__main__":
    main()
