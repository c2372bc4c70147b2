"""What every command shares: common options, settings, error mapping, JSON output."""

from __future__ import annotations

import functools
import json
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from pydantic import BaseModel

from orchestrator.config import Settings, load_settings
from orchestrator.errors import SkillweaveError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_PAUSED = 3


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


def settings_from(**flags: Any) -> Settings:
    return load_settings(**flags)


def handle_errors(f: F) -> F:
    """Map our errors to `where: message` and their exit code; never show a traceback
    unless --debug was given."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        debug = bool(kwargs.get("debug"))
        try:
            return f(*args, **kwargs)
        except SkillweaveError as exc:
            if debug:
                traceback.print_exc()
            click.echo(exc.render(), err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except Exception as exc:  # the one broad catch, at the edge
            if debug:
                traceback.print_exc()
            click.echo(
                f"internal error: {type(exc).__name__}: {exc} (this is a skillweave bug; "
                "run with --debug for the traceback)",
                err=True,
            )
            sys.exit(EXIT_FAILED)

    return wrapper  # type: ignore[return-value]


def echo_json(value: Any) -> None:
    """Print a model or plain JSON value, stable key order, one document."""
    if isinstance(value, BaseModel):
        click.echo(value.model_dump_json(indent=2, by_alias=True))
    else:
        click.echo(json.dumps(value, indent=2, sort_keys=False, default=str))
