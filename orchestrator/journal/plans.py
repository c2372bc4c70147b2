"""How a run's plan is stored in the journal: JSON with its contracts interned.

Read a run's plan with `Journal.plan(run_id)`; `Journal.plan_json(run_id)` gives
the plain plan document (expanded again, so slower for big plans).

Plans repeat their JSON Schemas: every edge of a 10 000-step fan-out may carry
the same 50-field contract. Stored verbatim that is hundreds of megabytes of
JSON; stored here, each distinct schema is written once (under its content
hash) and every step points at it. Decoding links the steps to one shared
schema object each, so a resumed run also holds each schema once in memory.

    {"format": "skillweave.stored-plan/1",
     "schemas": {"<hash>": {...}, ...},
     "plan": {... "input_schema": {"$interned": "<hash>"} ...}}

A document without the envelope is read as a plain plan.
"""

from __future__ import annotations

import json
from typing import Any

from orchestrator.contracts import schema_hash
from orchestrator.plan.model import Plan, PlanStep

ENVELOPE = "skillweave.stored-plan/1"
REF = "$interned"
_FIELDS = ("input_schema", "output_schema")


def encode_plan(plan: Plan) -> str:
    schemas: dict[str, Any] = {}
    keys: dict[int, str] = {}  # id(schema) -> hash, so a shared schema is hashed once

    def intern(schema: dict[str, Any]) -> dict[str, Any]:
        if not schema:
            return schema
        key = keys.get(id(schema))
        if key is None:
            key = keys[id(schema)] = schema_hash(schema)
            schemas.setdefault(key, schema)
        return {REF: key}

    steps = tuple(
        step.model_copy(update={name: intern(getattr(step, name)) for name in _FIELDS}) for step in plan.steps
    )
    body = plan.model_copy(update={"steps": steps}).model_dump_json(by_alias=True)
    return f'{{"format":{json.dumps(ENVELOPE)},"schemas":{json.dumps(schemas, separators=(",", ":"))},"plan":{body}}}'


def decode_plan(text: str) -> Plan:
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("format") != ENVELOPE:
        return Plan.model_validate(data)
    schemas: dict[str, Any] = data["schemas"]
    plan = Plan.model_validate(data["plan"])

    def link(step: PlanStep) -> PlanStep:
        update = {}
        for name in _FIELDS:
            value = getattr(step, name)
            if len(value) == 1 and REF in value:
                update[name] = schemas[value[REF]]
        return step.model_copy(update=update) if update else step

    return plan.model_copy(update={"steps": tuple(link(s) for s in plan.steps)})
