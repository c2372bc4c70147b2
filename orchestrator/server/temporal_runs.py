"""`run_workflow` with `backend: "temporal"`: the run starts on Temporal, executed by `skillweave worker`s.

The plan is compiled and checked by the tool, as for a local run (same checks,
same plan hash, the same refusal of an untrusted mcp.json), and started as a Temporal workflow whose id is the run id; with `wait` the tool
follows it up to the server's wait limit. Where Temporal is comes from the
server's environment (SKILLWEAVE_TEMPORAL_ADDRESS, ..._NAMESPACE, ..._TASK_QUEUE,
SKILLWEAVE_BLOB_DIR). The run is then read and decided with the CLI's
`--backend temporal` commands (`skillweave runs show`, `approve`, `resume`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from orchestrator.config import Settings
from orchestrator.plan.model import Plan
from orchestrator.server.models import RunView
from orchestrator.server.views import run_view


async def run_on_temporal(settings: Settings, plan: Plan, inputs: dict[str, Any], *, wait_s: float) -> RunView:
    from orchestrator.engine.state import RunState
    from orchestrator.temporal import client as tc
    from orchestrator.temporal.config import temporal_settings

    ts = temporal_settings(settings.state_dir)
    client = await tc.connect(ts)
    run_id = await tc.start_run(client, ts, plan, inputs, settings)
    summary = RunState(run_id, plan).summary()
    if wait_s > 0:
        try:
            async with asyncio.timeout(wait_s):
                summary = (await tc.follow(client, run_id, plan)).summary()
        except TimeoutError:
            summary = (await tc.read_run(client, run_id)).summary()
    view = run_view(summary, executing=False, warnings=plan.warnings)
    where = f"Temporal ({ts.address}, task queue {ts.task_queue})"
    return view.model_copy(update={"next": f"The run executes on {where}; follow it with "
                                           f"`skillweave resume {run_id} --backend temporal`. {view.next}"})
