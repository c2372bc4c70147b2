"""What every command shares: common options, settings, error mapping, JSON output.

Besides the exit codes of DESIGN.md (0 success, 1 run failed, 2 usage or spec
error, 3 awaiting approval), `handle_errors` gives two of the shell's: 130 when
interrupted (Ctrl-C; a started run is named with its `skillweave resume`
command), and 141 (128 + SIGPIPE) when standard output was closed early
(`| head`), quietly, as a process killed by SIGPIPE; `run` and `resume` keep the
run's own code there (`quiet_broken_pipe`).
"""

from __future__ import annotations

import errno
import functools
import json
import os
import shlex
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click
from pydantic import BaseModel

from orchestrator.config import Settings, load_settings
from orchestrator.errors import ConfigError, JournalError, SkillweaveError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PAUSED = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, the shell's convention
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE

_RUN_ID = "skillweave.run_id"  # click.Context.meta key: the run this command started or resumed
_STATE_DIR = "skillweave.state_dir"
_DISK_FULL = frozenset({errno.ENOSPC, errno.EDQUOT})
# what the state directory's disk can do to a run: said in one line, not reported as a bug
_ENVIRONMENT_ERRNOS = _DISK_FULL | {errno.EROFS, errno.EIO, errno.EACCES, errno.EPERM}


def skills_dir_option(f: F) -> F:
    return click.option(
        "--skills-dir",
        "skills_dirs",
        multiple=True,
        type=click.Path(path_type=Path),
        help="Another folder of skills (repeatable); searched after the bundled ones and the spec's.",
    )(f)


def state_dir_option(f: F) -> F:
    return click.option(
        "--state-dir",
        type=click.Path(path_type=Path),
        default=None,
        help="Where runs are kept (default .skillweave/, or $SKILLWEAVE_STATE_DIR).",
    )(f)


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")(f)


def debug_option(f: F) -> F:
    return click.option("--debug", is_flag=True, hidden=False, help="Show tracebacks on errors.")(f)


def policy_options(f: F) -> F:
    """`--strict` and `--interpret` (with `--llm-replay`, `--llm-record`, `--model`) of `validate` and `plan`."""
    f = click.option("--model", default=None, help="The model `--interpret` asks.")(f)
    f = click.option("--llm-record", type=click.Path(path_type=Path), default=None,
                     help="Record the model's calls to this file.")(f)
    f = click.option("--llm-replay", type=click.Path(path_type=Path), default=None,
                     help="Answer the model's calls from this recording (no key, no network).")(f)
    f = click.option("--interpret", is_flag=True,
                     help="Have the model read the policy sentences the grammar could not; its readings are "
                          "kept in <spec>.lock.json beside the spec (needs ANTHROPIC_API_KEY or --llm-replay).")(f)
    f = click.option("--strict", is_flag=True,
                     help="Every warning is an error (exit 2): for CI.")(f)
    return f


def settings_from(**flags: Any) -> Settings:
    settings = load_settings(**flags)
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_STATE_DIR] = settings.state_dir
    return settings


def note_run(run_id: str) -> None:
    """Remember the run this command is executing, for the messages of `handle_errors`."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_RUN_ID] = run_id


def check_sandbox_choice() -> None:
    """A SKILLWEAVE_SANDBOX that names no mechanism is a usage error now (exit 2), not a
    step failing once the run reaches its first script."""
    from orchestrator.sandbox.detect import forced_isolation

    forced_isolation()


def check_mcp_config(path: Path | None) -> None:
    """Read and check `--mcp-config FILE` now, so that a missing or broken file is a usage
    error (exit 2, `FILE[:LINE]: message`) rather than a step failing later, when the MCP
    runner first reads it. Servers with an unset `${VAR}` still fail only when used."""
    if path is None:
        return
    from orchestrator.mcp_client.config import load_mcp_config

    if not path.exists():
        raise ConfigError("no such file (--mcp-config)", where=str(path))
    if not path.is_file():
        raise ConfigError("not a file (--mcp-config)", where=str(path))
    load_mcp_config(path, bundled=False)


def quiet_broken_pipe() -> None:
    """Standard output was closed early (`| head`): send the rest to /dev/null, so that
    neither later writes nor the interpreter's flush at exit raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real descriptor (a test runner's stream)
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - lives until exit


def _meta() -> dict[str, Any]:
    ctx = click.get_current_context(silent=True)
    return ctx.meta if ctx is not None else {}


def resume_command(run_id: str) -> str:
    """`skillweave resume RUN_ID`, with the command's --state-dir when it was given one."""
    ctx = click.get_current_context(silent=True)
    state_dir = ctx.params.get("state_dir") if ctx is not None else None
    where = f" --state-dir {shlex.quote(str(state_dir))}" if state_dir is not None else ""
    return f"skillweave resume {shlex.quote(run_id)}{where}"


def _journal_file() -> str:
    from orchestrator.journal.store import DB_NAME

    state_dir = _meta().get(_STATE_DIR) or load_settings().state_dir
    return str(Path(state_dir) / DB_NAME)


def _journal_problem(exc: JournalError) -> tuple[str, int]:
    """The one line to print for a journal error, and the exit code."""
    from orchestrator.cli.wording import say
    from orchestrator.hints import attach

    message = attach(f"{exc.where or _journal_file()}: {exc.message}", exc.hint, say)
    return _stopped(message, "free space" if exc.reason == "full" else None)


def _disk_problem(exc: OSError) -> tuple[str, int]:
    """The one line for a file of the state directory that cannot be written."""
    where = exc.filename or _journal_file()
    return _stopped(f"{where}: {exc.strerror or exc}", "free space" if exc.errno in _DISK_FULL else "fix it")


def _stopped(message: str, remedy: str | None = None) -> tuple[str, int]:
    """`message`, with how to go on: resume the run it stopped, or try again."""
    run_id = _meta().get(_RUN_ID)
    if run_id is None:
        advice = f"{remedy}, then try again" if remedy else "try again when it is free"
        return f"{message}; {advice}", EXIT_USAGE
    then = f"{remedy}, then continue with" if remedy else "continue with"
    return f"{message}; run {run_id} stopped: {then}: {resume_command(run_id)}", EXIT_FAILED


def handle_errors(f: F) -> F:
    """Map our errors to `where: message` and their exit code; never show a traceback
    unless --debug was given."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        debug = bool(kwargs.get("debug"))
        try:
            return f(*args, **kwargs)
        except JournalError as exc:
            _stop(*_journal_problem(exc), debug=debug, as_json=bool(kwargs.get("as_json")))
        except SkillweaveError as exc:
            from orchestrator.cli.wording import render_error

            if debug:
                traceback.print_exc()
            click.echo(render_error(exc), err=True)
            if kwargs.get("as_json"):
                echo_json(_error_document(exc))
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            run_id = _meta().get(_RUN_ID)
            if run_id is None:
                click.echo("interrupted", err=True)
            else:
                click.echo(f"interrupted: run {run_id} stopped; continue with: {resume_command(run_id)}",
                           err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            quiet_broken_pipe()
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as exc:
            if exc.errno not in _ENVIRONMENT_ERRNOS:
                _internal_error(exc, debug)
            _stop(*_disk_problem(exc), debug=debug, as_json=bool(kwargs.get("as_json")))
        except Exception as exc:  # the one broad catch, at the edge
            _internal_error(exc, debug)

    return wrapper  # type: ignore[return-value]


def _stop(message: str, code: int, *, debug: bool, as_json: bool) -> NoReturn:
    """Print the one line of a journal or disk problem (and the error document) and exit."""
    if debug:
        traceback.print_exc()
    click.echo(message, err=True)
    if as_json:
        echo_json({"ok": False, "error": {"message": message, "where": None, "exit_code": code}, "errors": []})
    sys.exit(code)


def _internal_error(exc: BaseException, debug: bool) -> NoReturn:
    if debug:
        traceback.print_exception(exc)
    click.echo(
        f"internal error: {type(exc).__name__}: {exc} (this is a skillweave bug; "
        "run with --debug for the traceback)",
        err=True,
    )
    sys.exit(EXIT_FAILED)


def _error_document(exc: SkillweaveError) -> dict[str, Any]:
    """What `--json` prints on stdout when a command fails before it has a result."""
    diagnostics = getattr(exc, "diagnostics", None)
    hint = exc.hint.model_dump(mode="json", exclude_none=True) if exc.hint is not None else None
    return {
        "ok": False,
        "error": {"message": exc.message, "where": exc.where, "exit_code": exc.exit_code, "code": exc.code,
                  "hint": hint},
        "errors": [d.model_dump(mode="json") for d in diagnostics] if diagnostics else [],
    }


def echo_json(value: Any) -> None:
    """Print a model or plain JSON value, stable key order, one document."""
    if isinstance(value, BaseModel):
        click.echo(value.model_dump_json(indent=2, by_alias=True))
    else:
        click.echo(json.dumps(value, indent=2, sort_keys=False, default=str))
