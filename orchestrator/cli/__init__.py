"""The `skillweave` command: a thin layer that parses, calls one function, maps errors.

Commands live one module each under `orchestrator.cli` and are imported only
when invoked, so `--help` and `validate` never pay for the MCP or LLM stacks.
Exit codes (DESIGN.md): 0 success, 1 run failed or escalated, 2 usage or spec
error, 3 run paused awaiting approval; and the shell's 130 (Ctrl-C) and 141 (stdout
closed early), see `orchestrator.cli._common`.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from typing import Any, NoReturn

from orchestrator import profiling  # noqa: F401 - first: its clock starts before the CLI's imports

# isort: split
import click

from orchestrator import __version__

# name -> (module, attribute, one-line help). The help is here so that listing
# commands does not import them.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "run": ("orchestrator.cli.run_cmd", "run", "Compile if needed, execute, print the report."),
    "validate": ("orchestrator.cli.validate_cmd", "validate", "Parse and statically check a spec."),
    "plan": ("orchestrator.cli.plan_cmd", "plan", "Write the reviewable plan of a spec."),
    "resume": ("orchestrator.cli.run_cmd", "resume", "Continue a paused or interrupted run."),
    "approve": ("orchestrator.cli.run_cmd", "approve", "Approve (or --reject) a step awaiting approval."),
    "runs": ("orchestrator.cli.runs_cmd", "runs", "Run history, reports and metrics."),
    "skills": ("orchestrator.cli.skills_cmd", "skills", "The skill catalog and Agent Skills conformance."),
    "serve": ("orchestrator.cli.serve_cmd", "serve", "Serve skillweave as an MCP server."),
    "test": ("orchestrator.cli.test_cmd", "test", "Run a spec's Testing Plan scenarios with injected faults."),
    "new": ("orchestrator.cli.new_cmd", "new", "Scaffold a spec or a skill from templates."),
    "install": ("orchestrator.cli.install_cmd", "install", "Register skills and the MCP server with a host."),
    "worker": ("orchestrator.cli.worker_cmd", "worker", "Host runs on Temporal (run --backend temporal)."),
    "trust": ("orchestrator.cli.trust_cmd", "trust", "Let the MCP server start the commands of an mcp.json."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module_name, attr, _ = entry
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            return _not_yet(cmd_name)
        command: click.Command = getattr(module, attr)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        """The command; a Ctrl-C before it handles its own (its import, its options) exits
        130 as the command's would, not with click's `Aborted!` and 1."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _interrupted()

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _not_yet(name: str) -> click.Command:
    @click.command(name=name, help=COMMANDS[name][2], context_settings={"ignore_unknown_options": True})
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    def command(args: tuple[str, ...]) -> None:
        click.echo(f"skillweave {name}: not available in this build", err=True)
        sys.exit(2)

    return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="skillweave")
@click.option("--no-color", is_flag=True, help="No colour in any output (as NO_COLOR=1; see also FORCE_COLOR).")
def cli(no_color: bool) -> None:
    """skillweave: run Agent Skills workflows you can trust.

    Markdown specs and SKILL.md skills in, a reviewable plan, a durable run.
    Exit codes: 0 success, 1 run failed, 2 usage or spec error, 3 awaiting approval;
    130 interrupted (Ctrl-C), 141 stdout closed early (run and resume keep the run's code).
    """
    if no_color:
        os.environ["NO_COLOR"] = "1"  # rich, click and child processes all honour it


def _prepare(args: list[str]) -> None:
    if args[:1] in (["run"], ["resume"], ["serve"]):
        from orchestrator.preload import pause_gc

        pause_gc()  # until the work starts (run_cmd, serve_cmd): imports make no garbage worth a walk
    if args[:1] in (["serve"], ["run"]):  # from a warm host, when wanted (see `warm`)
        from orchestrator.cli.warm import launch_if_wanted

        launch_if_wanted(args)
    if args[:1] in (["run"], ["resume"]) and not _asks_help(args[1:]):
        from orchestrator.mcp_client import process

        process.spawn()  # the MCP SDK imported on the other core while we import and plan


def _interrupted() -> NoReturn:
    click.echo("interrupted", err=True)
    sys.exit(130)  # _common.EXIT_INTERRUPTED (not imported here: `--help` stays light)


def _asks_help(args: list[str]) -> bool:
    return any(a in ("-h", "--help") for a in args)


def main() -> None:
    try:
        _prepare(sys.argv[1:])
        cli(prog_name="skillweave")
    except KeyboardInterrupt:  # a Ctrl-C before a command handles its own (LazyGroup.invoke)
        _interrupted()
    finally:
        if "orchestrator.mcp_client.process" in sys.modules:
            sys.modules["orchestrator.mcp_client.process"].discard()
        # The interpreter's teardown would walk every object the imports made with the
        # cyclic GC (0.3-1 s once `mcp` is loaded); frozen, they are left to the exit.
        gc.freeze()
