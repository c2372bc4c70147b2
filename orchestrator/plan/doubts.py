"""The warnings that doubt the plan's structure, not a detail of it.

Each says the spec may describe steps, branches or loops the plan does not have (a skill named
that no step runs, a condition or a `for each` in words that no step took): the model's
structure reading takes them as its doubts (`plan.structure_reading_lock`), and a run's summary
names them before the plan's other warnings (`cli.run_view`).
"""

from __future__ import annotations

NO_STEPS_CODE = "spec.no-steps"
DOUBT_CODES = frozenset({
    "spec.condition-not-read", "spec.each-not-read", "spec.gather-not-read", "spec.join-not-read",
    "spec.own-fallback", "spec.skill-not-run", "spec.step-lost", "spec.value-not-kept", "spec.unread-work", NO_STEPS_CODE,
})
