"""The run metrics as OpenTelemetry instruments: what the seed's four metrics are made of.

The definitions are those of `orchestrator.report.metrics`; the ratios are left
to the metrics backend, from counters that add up across runs and processes:

    workflow success rate   skillweave.run.count{status=succeeded} / skillweave.run.count
    retry burden            skillweave.attempt.retries / skillweave.attempt.count
    queue delay             skillweave.step.queue_delay (histogram, s): first step_ready → first attempt_started
    handoff accuracy        skillweave.handoff.checks{outcome=passed} / skillweave.handoff.checks

    skillweave.run.count            {run}           finished runs, by skillweave.run.status
    skillweave.run.duration         s               first start → end, over every execution
    skillweave.step.duration        s               first attempt_started → step_finished, by status
    skillweave.step.queue_delay     s
    skillweave.attempt.count        {attempt}       by outcome (succeeded | failed) and error.type
    skillweave.attempt.retries      {retry}         retry waits scheduled, by error.type
    skillweave.step.regenerations   {regeneration}  by outcome (new_version | rejected | unavailable)
    skillweave.handoff.checks       {check}         by direction (input | output) and outcome (passed | failed)
    gen_ai.client.token.usage       {token}         per model call, by gen_ai.token.type (GenAI conventions)
    gen_ai.client.operation.duration s              per model call

Every run instrument carries `skillweave.plan.name`, every step one
`skillweave.step.id` too. Counted as the events are recorded, so a resumed run
adds only what its new execution did.
"""

from __future__ import annotations

from opentelemetry.metrics import Meter

# seconds: from a contained script's few milliseconds to an hour-long step
DURATION_BUCKETS_S = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600)
# the GenAI conventions' advice for token counts
TOKEN_BUCKETS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864)
MODEL_DURATION_BUCKETS_S = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)


class Instruments:
    """The instruments of one meter (see the module docstring)."""

    def __init__(self, meter: Meter) -> None:
        self.runs = meter.create_counter(
            "skillweave.run.count", unit="{run}", description="Runs that finished, by status"
        )
        self.run_duration = meter.create_histogram(
            "skillweave.run.duration", unit="s", description="How long a finished run took, first start to end",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS_S,
        )
        self.step_duration = meter.create_histogram(
            "skillweave.step.duration", unit="s", description="A finished step's first attempt to its end",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS_S,
        )
        self.queue_delay = meter.create_histogram(
            "skillweave.step.queue_delay", unit="s", description="A step's first step_ready to its first attempt",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS_S,
        )
        self.attempts = meter.create_counter(
            "skillweave.attempt.count", unit="{attempt}", description="Attempts that ended, by outcome"
        )
        self.retries = meter.create_counter(
            "skillweave.attempt.retries", unit="{retry}", description="Retry waits scheduled after a failed attempt"
        )
        self.regenerations = meter.create_counter(
            "skillweave.step.regenerations", unit="{regeneration}", description="New code versions asked of the model"
        )
        self.handoffs = meter.create_counter(
            "skillweave.handoff.checks", unit="{check}", description="Contract checks of step inputs and outputs"
        )
        self.tokens = meter.create_histogram(
            "gen_ai.client.token.usage", unit="{token}", description="Tokens used by one model call",
            explicit_bucket_boundaries_advisory=TOKEN_BUCKETS,
        )
        self.model_duration = meter.create_histogram(
            "gen_ai.client.operation.duration", unit="s", description="How long one model call took",
            explicit_bucket_boundaries_advisory=MODEL_DURATION_BUCKETS_S,
        )

