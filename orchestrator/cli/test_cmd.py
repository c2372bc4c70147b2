"""`skillweave test SPEC`: run the spec's Testing Plan scenarios with injected faults.

    skillweave test SPEC [--scenario NAME]... [--json] [--keep DIR]

Each scenario with a structured form (`Inputs:`, `Fault:`, `Expect:`; see
`orchestrator.scenario` and docs/testing.md) runs as a real run in a fresh state
directory; the others are skipped with the reason. Exit codes: 0 every run
scenario passed, 1 one failed, 2 a spec error, an unreadable scenario form or an
unknown --scenario.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from orchestrator.cli._common import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    check_mcp_config,
    check_sandbox_choice,
    debug_option,
    echo_json,
    handle_errors,
    json_option,
    settings_from,
    skills_dir_option,
)

if TYPE_CHECKING:  # `skillweave test --help` imports no engine
    from orchestrator.scenario import ScenarioReport

_MARK = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP", "invalid": "INVALID"}


def _count(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def render_text(report: ScenarioReport) -> str:
    lines = [f"{report.spec}: {_count(len(report.scenarios), 'scenario')} ({report.plan_name})"]
    width = max((len(r.name) for r in report.scenarios), default=0)
    for r in report.scenarios:
        head = f"  {_MARK[r.outcome]:<7} {r.name:<{width}}"
        if r.outcome == "passed":
            timing = f" in {r.duration_s:.2f}s" if r.duration_s is not None else ""
            lines.append(
                f"{head}  run {r.run_status}{timing}: {_count(r.attempts, 'attempt')}, {_count(r.retries, 'retry', 'retries')}"
            )
        elif r.outcome == "failed":
            lines.append(f"{head}  run {r.run_status or '-'}")
            for c in r.checks:
                lines.append(f"      {'ok  ' if c.ok else 'FAIL'} {c.expectation}" + ("" if c.ok else f" (got {c.actual})"))
            if not r.checks and r.reason:
                lines.append(f"      {r.reason}")
        elif r.outcome == "invalid":
            where = f"{r.where}: " if r.where else ""
            lines.append(f"{head}  {where}{r.reason}")
        else:
            lines.append(f"{head}  {r.reason}")
        if r.state_dir:
            lines.append(f"      kept: skillweave runs show {r.run_id} --state-dir {r.state_dir}")
    lines.append(
        f"{report.passed} passed, {report.failed} failed, {report.skipped} skipped, {report.invalid} invalid"
    )
    return "\n".join(lines)


def exit_code(report: ScenarioReport) -> int:
    if report.invalid:
        return EXIT_USAGE
    return EXIT_FAILED if report.failed else EXIT_OK


@click.command(name="test")
@click.argument("spec", type=click.Path(path_type=Path))
@click.option("--scenario", "-s", "names", multiple=True, metavar="NAME",
              help="Run only this scenario (repeatable; its name in the Testing Plan).")
@click.option("--keep", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Keep each scenario's state directory under DIR (for `skillweave runs`).")
@click.option("--mcp-config", type=click.Path(path_type=Path), default=None, help="The mcp.json to use.")
@json_option
@skills_dir_option
@debug_option
@handle_errors
def test(
    spec: Path,
    names: tuple[str, ...],
    keep: Path | None,
    mcp_config: Path | None,
    as_json: bool,
    skills_dirs: tuple[Path, ...],
    debug: bool,
) -> None:
    """Run the Testing Plan scenarios of SPEC (a spec, or a saved plan) with injected faults.

    A scenario runs when its line carries `Expect:` (and usually `Inputs:` and
    `Fault:`), e.g. `Inputs: module_name=json; Fault: step-1 timeout once;
    Expect: succeeded; step-1 retries=1`. The others are skipped. See docs/testing.md.
    """
    from orchestrator.compile import load_spec_or_plan
    from orchestrator.scenario import run_scenarios

    settings = settings_from(skills_dirs=skills_dirs or None, mcp_config=mcp_config, debug=debug or None)
    check_sandbox_choice()
    check_mcp_config(mcp_config)
    plan = load_spec_or_plan(spec, settings)
    report = asyncio.run(run_scenarios(plan, settings, names=names, keep_dir=keep))
    if as_json:
        echo_json(report)
    else:
        click.echo(render_text(report))
    sys.exit(exit_code(report))
