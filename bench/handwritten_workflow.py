"""The hand-written Temporal workflow `bench/temporal_bench.py` measures skillweave's against.

It schedules the same activities a skillweave run of the bench's plans does
(`skillweave.attempt`, the same inputs, timeouts, retry policy and activity
ids) and nothing else: a chain one after the other, a fan-out under a
semaphore of the plan's concurrency. A module of its own so that the workflow
sandbox can import it.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from pydantic import BaseModel
from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from orchestrator.ids import idempotency_key
    from orchestrator.plan.model import BoundSkill
    from orchestrator.runner import StepOutcome, StepRequest
    from orchestrator.temporal.backend import ACTIVITY_SLACK_S, INFRA_RETRY
    from orchestrator.temporal.messages import ATTEMPT, AttemptTask, RunOptions


class Work(BaseModel):
    run_id: str
    shape: str
    n: int
    skill: BoundSkill
    options: RunOptions
    concurrency: int


@workflow.defn(name="bench.handwritten")
class Handwritten:
    @workflow.run
    async def run(self, work: Work) -> list[Any]:
        async def one(step: str, data: Any) -> Any:
            request = StepRequest(run_id=work.run_id, step_id=step, attempt=1,
                                  idempotency_key=idempotency_key(work.run_id, step, 1), skill=work.skill,
                                  input={"data": data} if data is not None else {})
            task = AttemptTask(plan_name="handwritten", options=work.options, request=request)
            outcome: StepOutcome = await workflow.execute_activity(
                ATTEMPT, task, result_type=StepOutcome, activity_id=request.idempotency_key,
                start_to_close_timeout=timedelta(seconds=3600 + ACTIVITY_SLACK_S),
                heartbeat_timeout=timedelta(seconds=work.options.heartbeat_timeout_s), retry_policy=INFRA_RETRY,
            )
            return outcome.output

        if work.shape == "chain":
            out: Any = None
            outputs = []
            for i in range(work.n):
                out = await one(f"s{i}", out)
                outputs.append(out)
            return outputs
        root = await one("root", None)
        gate = asyncio.Semaphore(work.concurrency)

        async def limited(i: int) -> Any:
            async with gate:
                return await one(f"s{i}", root)

        return [root, *await asyncio.gather(*(limited(i) for i in range(work.n)))]
