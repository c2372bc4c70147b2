"""The server's side of trust: no tool starts a command from an mcp.json the person has
not trusted (`orchestrator.security.trust`). A run that would is refused before it is
recorded, or before a recorded one goes on; a spec that would is validated and planned
with a warning saying so. The runner enforces the same rule when it loads the file
(`Settings.require_trust`); these checks make the refusal come first, as a tool error."""

from __future__ import annotations

from typing import TYPE_CHECKING

from orchestrator.config import Settings
from orchestrator.errors import Severity
from orchestrator.server.models import Finding

if TYPE_CHECKING:
    from orchestrator.plan.model import Plan


def plan_warnings(plan: Plan, settings: Settings) -> list[Finding]:
    """The plan's warnings, and the refusal a run would meet from an untrusted mcp.json."""
    from orchestrator.mcp_client.runner import untrusted_use

    found = [Finding.of(w) for w in plan.warnings]
    refused = untrusted_use(plan, settings)
    if refused is not None:
        found.append(Finding.of(refused.model_copy(update={"severity": Severity.WARNING})))
    return found


def refuse_untrusted_plan(plan: Plan, settings: Settings) -> None:
    """UntrustedConfigError when a run of `plan` would start a server from an untrusted mcp.json."""
    from orchestrator.mcp_client.runner import refuse_untrusted

    refuse_untrusted(plan, settings)


def refuse_untrusted_run(run_id: str, settings: Settings) -> None:
    """As `refuse_untrusted_plan`, for a recorded run about to go on (a run started from a
    shell needs no trust; going on through the server does), with the mcp.json it recorded."""
    from orchestrator.engine import replay_run
    from orchestrator.mcp_client.runner import refuse_untrusted

    state = replay_run(run_id, settings)
    refuse_untrusted(state.plan, settings, state.mcp_config)
