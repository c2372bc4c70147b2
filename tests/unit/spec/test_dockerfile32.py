"""Dockerfile-like build files as specs (`spec.dockerfile32`): a lab's Containerfile, an Earthfile-like file of a
newsletter, and files that only look like one (a real image build: refused with a clear reason; prose that begins
"FROM the desk"; Docker's own flags and signals, never policies)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec, parse_spec_text
from orchestrator.spec.dockerfile32 import is_dockerfile
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a sequencing lab's Containerfile: ARG with a default, the old `ENV NAME value` form, a for-each over an input,
# a condition, a gather, a wait list said as one start and a factor, a success check and a deadline
_CONTAINERFILE = """\
# nightly plate run -- lab automation
FROM lab-runner:3

ARG RUN_ID
ARG PLATES
ARG MIN_READS=50000
ENV QC_PROFILE strict

# pull the run; the sequencer share drops out now and then
RUN --retries=3 --backoff=10s*3 fetch-run run_id=$RUN_ID

RUN --each=$PLATES --timeout=5m demux-plate plate=@item run=@1.bcl_path profile=$QC_PROFILE min_reads=$MIN_READS

RUN --when="@1.lanes > 1" --fallback=merge-slow merge-lanes parts=@all(2)

STOPSIGNAL deadline=2h
HEALTHCHECK --interval=30s CMD [ "$(merge-lanes.ok)" = "true" ] && test "$(fetch-run.lanes)" -gt 0
"""

# an Earthfile-like file of a newsletter: a target holding indented instructions, steps named by their skill,
# a comment with no flag under it saying the step's policy
_EARTHFILE = """\
VERSION 0.8

digest:
    ARG WEEK
    RUN list-issues week=$WEEK
    # the summariser is flaky on long issues: give it 3 more goes, 20s apart
    RUN --each=@list-issues.items summarise-issue issue=@item
    RUN --no-retry send-digest parts=@summarise-issue[*] sender="Desk Weekly"
    SAVE ARTIFACT digest.html
"""

# a real image build: no RUN line runs a skill
_IMAGE = """\
FROM python:3.12-slim AS base
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends curl \\
    && rm -rf /var/lib/apt/lists/*
COPY requirements.txt .
RUN pip install -r requirements.txt
CMD ["gunicorn", "app:app"]
"""

_SKILLS = [
    skill("fetch-run", input_schema=obj(("run_id",), run_id="string"),
          output_schema=obj(("bcl_path", "lanes"), bcl_path="string", lanes="integer")),
    skill("demux-plate", input_schema=obj(("plate", "run", "profile", "min_reads"), plate="string", run="string",
                                          profile="string", min_reads="integer"),
          output_schema=obj(("reads",), reads="integer")),
    skill("merge-lanes", input_schema=obj(("parts",), parts="array"), output_schema=obj(("ok",), ok="boolean")),
    skill("merge-slow", input_schema=obj(("parts",), parts="array"), output_schema=obj(("ok",), ok="boolean")),
    skill("list-issues", input_schema=obj(("week",), week="string"), output_schema=obj(("items",), items="array")),
    skill("summarise-issue", input_schema=obj(("issue",), issue="object"), output_schema=obj(("text",), text="string")),
    skill("send-digest", input_schema=obj(("parts", "sender"), parts="array", sender="string"),
          output_schema=obj(("sent",), sent="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "dockerfile", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_containerfile_s_args_envs_run_flags_healthcheck_and_deadline() -> None:
    spec, plan = _plan(_CONTAINERFILE, "Containerfile")
    assert [i.name for i in spec.inputs or ()] == ["RUN_ID", "PLATES", "MIN_READS"]
    fetch, demux, merge = plan.steps
    assert fetch.skill == "fetch-run" and fetch.inputs["run_id"].source == "input"
    assert fetch.policy.retry.max_retries == 3
    assert fetch.policy.retry.initial_s == 10.0 and fetch.policy.retry.multiplier == 3.0
    assert demux.for_each is not None and demux.inputs["plate"].source == "item"
    assert demux.inputs["run"].step == "step-1" and demux.inputs["run"].pointer == "/bcl_path"
    assert demux.inputs["profile"].source == "literal" and demux.inputs["profile"].value == "strict"  # ENV
    assert demux.inputs["min_reads"].source == "input"  # an ARG with a default is still an input
    assert demux.policy.attempt_timeout_s == 300.0
    assert merge.when is not None and merge.inputs["parts"].step == "step-2"
    assert merge.policy.fallback.skill == "merge-slow"
    assert (merge.output_schema or {})["properties"]["ok"].get("const") is True
    assert (fetch.output_schema or {})["properties"]["lanes"].get("exclusiveMinimum") == 0
    assert plan.limits.wall_time_s == 7200.0
    assert any(w.line == 2 and "FROM" in w.message for w in plan.warnings)  # the base image: said, not read


def test_an_earthfile_target_s_steps_named_by_skill_and_a_comment_as_the_step_s_policy() -> None:
    spec, plan = _plan(_EARTHFILE, "Earthfile")
    assert [i.name for i in spec.inputs or ()] == ["WEEK"]
    issues, summaries, send = plan.steps
    assert summaries.for_each is not None and summaries.depends_on == ("step-1",)
    assert summaries.policy.retry.max_retries == 3  # the comment above a RUN line with no flag
    assert send.inputs["parts"].step == "step-2" and send.inputs["sender"].value == "Desk Weekly"
    assert send.policy.retry.max_retries == 0
    assert issues.inputs["week"].source == "input"
    assert any(w.line == 9 and "SAVE" in w.message for w in plan.warnings)


def test_a_real_image_build_is_refused_saying_what_its_run_lines_run() -> None:
    with pytest.raises(SpecError) as exc:
        parse_spec_text(_IMAGE, "Dockerfile", "dockerfile", Vocabulary(skills=_NAMES))
    said = str(exc.value)
    assert "image build, not a workflow" in said and "apt-get" in said and "pip" in said
    assert said.count("spec.no-steps") <= 1


def test_docker_s_own_flags_signals_and_unknown_variables_are_said_never_policies() -> None:
    text = ("FROM runner\nARG WEEK\nRUN --mount=type=cache,target=/c list-issues week=$WEEK\n"
            "RUN echo hello\nRUN send-digest parts=@1.items sender=$WHO\nSTOPSIGNAL SIGTERM\n")
    _spec, plan = _plan(text, "ops.dockerfile")
    assert len(plan.steps) == 2
    said = {w.line: w.message for w in plan.warnings}
    assert "Docker's own flag" in said[3] and plan.steps[0].policy.retry.max_retries == 0
    assert "runs no skill" in said[4]
    assert "$WHO" in said[5]
    assert "signal" in said[6] and plan.limits_provenance["wall_time_s"].source != "spec"


def test_what_is_a_build_file_by_its_name_or_its_first_instruction() -> None:
    assert is_dockerfile("build/Dockerfile", "") and is_dockerfile("Containerfile.prod", "")
    assert is_dockerfile("x/run.dockerfile", "") and is_dockerfile("Earthfile", "")
    assert is_dockerfile("flow.txt", "# nightly\nFROM base:1\nARG X\nRUN a-skill x=$X\n")
    assert not is_dockerfile("note.txt", "FROM the ops desk: please\nRUN the report tonight\n")
    assert not is_dockerfile("readme.md", "# Build\nWe RUN it nightly.\n")
    assert not is_dockerfile("flow.txt", "ARG X\nthen call the skill\n")  # no RUN line


def test_a_dockerfile_named_file_is_read_by_parse_spec(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    path.write_text("ARG WEEK\nRUN list-issues week=$WEEK\n", encoding="utf-8")
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    assert [s.skill for s in spec.steps] == ["list-issues"] and spec.format == "yaml"
