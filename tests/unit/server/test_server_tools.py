"""The tools through an in-memory client: schemas, specs, plans, runs, roots, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, ListRootsResult, Root

from orchestrator.policy import ErrorClass
from orchestrator.runner import StepOutcome, StepRequest
from orchestrator.testing import Call, Fail, FakeRunner, Hang

ClientFactory = Any  # the `connect` fixture (conftest.py)

TOOLS = {
    "list_skills",
    "validate_spec",
    "plan_workflow",
    "run_workflow",
    "get_run",
    "list_runs",
    "resume_run",
    "approve_step",
}


def text(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text(result)
    assert result.structured_content is not None
    return result.structured_content


async def test_every_tool_is_listed_with_a_description_and_both_schemas(connect: ClientFactory) -> None:
    async with connect() as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 40, tool.name
        assert tool.input_schema["type"] == "object"
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
    assert "wait" in tools["run_workflow"].input_schema["properties"]
    assert "get_run" in (tools["run_workflow"].description or "")  # the polling pattern is described


async def test_list_skills_includes_the_skills_beside_the_spec(connect: ClientFactory) -> None:
    async with connect() as client:
        bundled = ok(await client.call_tool("list_skills", {}))
        beside = ok(await client.call_tool("list_skills", {"spec": "specs/count.md"}))
    names = {s["name"] for s in bundled["skills"]}
    assert "orchestrate-workflow" in names
    assert "count-words" not in names
    skills = {s["name"]: s for s in beside["skills"]}
    assert skills["count-words"]["kind"] == "script"
    assert skills["count-words"]["origin"] == "spec"
    assert skills["orchestrate-workflow"]["uri"] == "skill://orchestrate-workflow"


async def test_every_skill_uri_list_skills_hands_out_is_readable(connect: ClientFactory) -> None:
    async with connect() as client:
        listed = ok(await client.call_tool("list_skills", {"spec": "specs/count.md"}))
        local = next(s for s in listed["skills"] if s["name"] == "count-words")
        body = await client.read_resource(local["uri"])
        bundled = await client.read_resource(
            next(s["uri"] for s in listed["skills"] if s["name"] == "orchestrate-workflow")
        )
    assert local["uri"].startswith("skill://count-words?spec=")
    assert "name: count-words" in getattr(body.contents[0], "text", "")
    assert "name: orchestrate-workflow" in getattr(bundled.contents[0], "text", "")


async def test_validate_spec_reports_the_steps_and_inputs(connect: ClientFactory) -> None:
    async with connect() as client:
        report = ok(await client.call_tool("validate_spec", {"spec": "specs/shout-approved.md"}))
    assert report["ok"] is True
    assert [s["skill"] for s in report["steps"]] == ["count-words", "shout"]
    assert report["steps"][1]["approval"] is True
    assert report["inputs"] == ["text"]


async def test_a_broken_spec_is_a_tool_error_naming_file_and_line(connect: ClientFactory, project: Path) -> None:
    spec = project / "specs" / "broken.md"
    spec.write_text(
        (project / "specs" / "count.md").read_text().replace("`count-words`", "`count-wrods`"), encoding="utf-8"
    )
    async with connect() as client:
        result = await client.call_tool("validate_spec", {"spec": "specs/broken.md"})
    assert result.is_error
    assert "specs/broken.md:" in text(result)
    assert "count-wrods" in text(result)


async def test_a_missing_spec_is_a_tool_error_not_a_crash(connect: ClientFactory) -> None:
    async with connect() as client:
        result = await client.call_tool("validate_spec", {"spec": "specs/nope.md"})
        still = await client.call_tool("list_runs", {})
    assert result.is_error
    assert "nope.md" in text(result)
    assert not still.is_error


async def test_a_path_outside_the_roots_is_refused(connect: ClientFactory, tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("# x\n")
    async with connect() as client:
        result = await client.call_tool("validate_spec", {"spec": str(outside)})
        climbing = await client.call_tool("plan_workflow", {"spec": "specs/count.md", "output": "../plan.json"})
    assert result.is_error
    assert "outside the server's roots" in text(result)
    assert climbing.is_error
    assert "output=../plan.json" in text(climbing)
    assert not (tmp_path / "plan.json").exists()


def _roots_callback_for(folder: Path) -> Any:
    async def list_roots(context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=folder.as_uri(), name="extra")])

    return list_roots


async def test_a_client_root_does_not_admit_a_spec_outside_the_servers_roots_a_server_root_does(
    connect: ClientFactory, project: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra"
    (extra / "specs").mkdir(parents=True)
    (extra / "specs" / "count.md").write_text((project / "specs" / "count.md").read_text())
    (extra / "specs" / "skills").symlink_to(project / "specs" / "skills")
    spec = {"spec": str(extra / "specs" / "count.md")}
    for mode in ("auto", "legacy"):
        async with connect(mode=mode, list_roots_callback=_roots_callback_for(extra)) as client:
            refused = await client.call_tool("validate_spec", spec)
        assert refused.is_error, mode
        assert "outside the server's roots" in text(refused), mode
    async with connect(extra_roots=(extra,)) as client:
        report = ok(await client.call_tool("validate_spec", spec))
    assert report["ok"] is True


async def test_a_client_root_narrows_what_the_server_may_touch(connect: ClientFactory, project: Path) -> None:
    (project / "other").mkdir()
    (project / "other" / "count.md").write_text((project / "specs" / "count.md").read_text())
    for mode in ("auto", "legacy"):
        async with connect(mode=mode, list_roots_callback=_roots_callback_for(project / "specs")) as client:
            inside = ok(await client.call_tool("validate_spec", {"spec": "specs/count.md"}))
            outside = await client.call_tool("validate_spec", {"spec": "other/count.md"})
        assert inside["ok"] is True, mode
        assert outside.is_error, mode
        assert "outside the roots the client declared" in text(outside), mode


async def test_plan_workflow_renders_and_saves_the_plan_inside_the_roots(connect: ClientFactory, project: Path) -> None:
    async with connect() as client:
        doc = ok(
            await client.call_tool(
                "plan_workflow", {"spec": "specs/shout-approved.md", "format": "json", "output": "plans/shout.json"}
            )
        )
        text_doc = ok(await client.call_tool("plan_workflow", {"spec": "specs/shout-approved.md"}))
    saved = json.loads((project / "plans" / "shout.json").read_text())
    assert saved["sha256"] == doc["plan_sha256"]
    assert [s["id"] for s in saved["steps"]] == ["step-1", "step-2"]
    assert "step-2" in text_doc["rendered"] and text_doc["format"] == "text"


async def test_run_workflow_waits_and_reports_progress_per_step_event(
    connect: ClientFactory, project: Path
) -> None:
    seen: list[tuple[float, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, message))

    async with connect() as client:
        with anyio.fail_after(20):
            run = ok(
                await client.call_tool(
                    "run_workflow",
                    {"spec": "specs/count.md", "inputs": {"text": "one two three"}},
                    progress_callback=progress,
                )
            )
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-1"] == {"text": "one two three", "words": 3}
    assert run["report_uri"] == f"run://{run['run_id']}/report"
    values = [v for v, _ in seen]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert any(m and m.startswith("step-1") and "step finished" in m for _, m in seen), seen
    report = project / ".skillweave" / "runs" / run["run_id"] / "report.md"
    assert run["run_id"] in report.read_text(encoding="utf-8")


class GatedRunner:
    """A step runner that answers only once the test opens the gate."""

    kind = "script"

    def __init__(self) -> None:
        self.gate = anyio.Event()

    async def run(self, request: StepRequest) -> StepOutcome:
        await self.gate.wait()
        text = str(request.input["text"])
        return StepOutcome(output={"text": text, "words": len(text.split())})

    async def aclose(self) -> None:
        return None


async def test_a_run_started_without_waiting_is_polled_to_completion(connect: ClientFactory) -> None:
    gated = GatedRunner()
    async with connect(runner_=gated) as client:
        with anyio.fail_after(20):
            started = ok(
                await client.call_tool(
                    "run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a b"}, "wait": False}
                )
            )
            assert started["status"] in ("pending", "running")
            assert started["executing"] is True
            gated.gate.set()
            final = ok(await client.call_tool("get_run", {"run_id": started["run_id"], "wait_s": 15}))
            listed = ok(await client.call_tool("list_runs", {}))
    assert final["status"] == "succeeded"
    assert final["executing"] is False
    assert listed["runs"][0]["run_id"] == started["run_id"]


async def test_bad_inputs_are_a_tool_error(connect: ClientFactory) -> None:
    async with connect() as client:
        missing = await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {}})
        unknown = await client.call_tool("get_run", {"run_id": "no-such-run"})
    assert missing.is_error and "text" in text(missing)
    assert unknown.is_error and "no-such-run" in text(unknown)


async def test_a_background_run_cut_off_by_the_server_stopping_resumes(
    connect: ClientFactory, runner: FakeRunner
) -> None:
    in_flight = anyio.Event()

    def start_and_hang(request: StepRequest) -> Hang:
        in_flight.set()
        return Hang()

    hanging = FakeRunner({"step-1": [Call(start_and_hang)]})
    async with connect(runner_=hanging) as client:
        started = ok(
            await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "x y"}, "wait": False})
        )
        with anyio.fail_after(10):
            await in_flight.wait()
    # The server stopped with the attempt in flight: the journal says so, and resume finishes it.
    async with connect(runner_=runner) as client:
        interrupted = ok(await client.call_tool("get_run", {"run_id": started["run_id"]}))
        assert interrupted["status"] == "running" and interrupted["executing"] is False
        assert "resume_run" in interrupted["next"]
        with anyio.fail_after(20):
            resumed = ok(await client.call_tool("resume_run", {"run_id": started["run_id"]}))
    assert resumed["status"] == "succeeded"
    assert resumed["outputs"]["step-1"]["words"] == 2


async def test_resources_expose_skills_specs_and_run_reports(connect: ClientFactory) -> None:
    async with connect() as client:
        run = ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "hi"}}))
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        skill = await client.read_resource("skill://orchestrate-workflow")
        spec = await client.read_resource("spec://project/specs/count.md")
        summary = await client.read_resource(f"run://{run['run_id']}/summary")
        report = await client.read_resource(f"run://{run['run_id']}/report")
    assert "skill://orchestrate-workflow" in uris
    assert "spec://project/specs/count.md" in uris
    assert "spec://bundled/workflow-spec.template.md" in uris
    assert not [u for u in uris if u.startswith("spec://") and ("/skills/" in u or u.endswith("SKILL.md"))]
    assert f"run://{run['run_id']}/report" in uris
    assert "name: orchestrate-workflow" in getattr(skill.contents[0], "text", "")
    assert "# Count Words Workflow" in getattr(spec.contents[0], "text", "")
    assert json.loads(getattr(summary.contents[0], "text", ""))["status"] == "succeeded"
    assert run["run_id"] in getattr(report.contents[0], "text", "")
    assert "succeeded" in getattr(report.contents[0], "text", "")


async def test_the_design_workflow_prompt_carries_the_goal_and_the_catalog(connect: ClientFactory) -> None:
    async with connect() as client:
        prompts = {p.name for p in (await client.list_prompts()).prompts}
        result = await client.get_prompt("design_workflow", {"goal": "Summarise the docs of a module"})
    assert prompts == {"design_workflow"}
    body = getattr(result.messages[0].content, "text", "")
    assert "Summarise the docs of a module" in body
    assert "`fetch-docs`" in body
    assert "validate_spec" in body


async def test_a_spec_resource_outside_the_project_is_refused(connect: ClientFactory, project: Path) -> None:
    (project.parent / "secret.md").write_text("# secret\n")
    async with connect() as client:
        with pytest.raises(MCPError):
            await client.read_resource("spec://project/../secret.md")
        with pytest.raises(MCPError):
            await client.read_resource(f"spec://project/{project.parent / 'secret.md'}")


@pytest.mark.parametrize(
    ("output", "says"),
    [("specs", "is a folder"), ("specs/count.md/plan.json", "a file on the way is not a folder")],
)
async def test_plan_workflow_with_an_unusable_output_is_a_clean_error_naming_it(
    connect: ClientFactory, output: str, says: str
) -> None:
    async with connect() as client:
        result = await client.call_tool("plan_workflow", {"spec": "specs/count.md", "output": output})
    assert result.is_error
    assert f"output={output}: " in text(result) and says in text(result)
    assert "internal error" not in text(result)


async def test_tool_annotations_say_what_each_tool_does(connect: ClientFactory) -> None:
    async with connect() as client:
        hints = {t.name: t.annotations for t in (await client.list_tools()).tools}
    for name in ("list_skills", "get_run", "list_runs"):
        assert hints[name] is not None and hints[name].read_only_hint is True, name
        assert hints[name].open_world_hint is False, name
    # Compiling may start the MCP servers of the spec's mcp.json; the others run workflows or write.
    for name in ("validate_spec", "plan_workflow", "run_workflow", "resume_run", "approve_step"):
        assert hints[name] is not None and hints[name].read_only_hint is False, name
        assert hints[name].open_world_hint is True, name
    assert hints["plan_workflow"].destructive_hint is True  # `output` is overwritten


async def test_resume_run_does_not_promise_to_resume_failed_runs(connect: ClientFactory) -> None:
    failing = FakeRunner({"step-1": [Fail(ErrorClass.INVALID_INPUT, "boom")]})
    async with connect(runner_=failing) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        with anyio.fail_after(20):
            failed = ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a"}}))
            again = await client.call_tool("resume_run", {"run_id": failed["run_id"]})
    description = " ".join((tools["resume_run"].description or "").split())
    assert "interrupted, failed or paused" not in description
    assert "cannot be resumed" in description
    assert failed["status"] == "failed"
    assert "resume_run" not in failed["next"] and "run_workflow" in failed["next"]
    assert again.is_error and "nothing to resume" in text(again)


async def test_input_errors_name_the_inputs_argument_not_cli_flags(connect: ClientFactory) -> None:
    async with connect() as client:
        missing = await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {}})
        unknown = await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a", "zzz": 1}})
    assert missing.is_error and unknown.is_error
    assert "--input" not in text(missing) + text(unknown)
    assert "give it in the `inputs` argument" in text(missing)
    assert "inputs.zzz: unknown input 'zzz'" in text(unknown)


async def test_a_wrongly_typed_argument_is_one_line_naming_the_tool_and_argument(connect: ClientFactory) -> None:
    async with connect() as client:
        result = await client.call_tool("get_run", {"run_id": "x", "wait_s": "soon"})
    assert result.is_error
    assert text(result).startswith("get_run.wait_s: input should be a valid number"), text(result)
    assert "\n" not in text(result) and "pydantic.dev" not in text(result)


async def test_an_unknown_run_is_explained_in_the_servers_terms_not_the_clis(connect: ClientFactory) -> None:
    async with connect() as client:
        result = await client.call_tool("get_run", {"run_id": "20990101-000000-abcdef"})
    assert result.is_error
    assert "no run '20990101-000000-abcdef'" in text(result)
    assert "--state-dir" not in text(result) and "chosen when the server is started" in text(result)


async def test_a_run_of_a_spec_read_with_warnings_lists_them_and_tells_the_agent_to_say_so(
    connect: ClientFactory, project: Path
) -> None:
    spec = project / "specs" / "count.md"
    plain = project / "specs" / "plain-count.md"
    plain.write_text(spec.read_text(encoding="utf-8").replace("- Success criteria: words is the number of words\n", ""),
                     encoding="utf-8")
    async with connect() as client:
        with anyio.fail_after(20):
            warned = ok(await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a b"}}))
            clean = ok(await client.call_tool("run_workflow", {"spec": "specs/plain-count.md",
                                                               "inputs": {"text": "a b"}}))
            again = ok(await client.call_tool("get_run", {"run_id": warned["run_id"]}))
    assert warned["status"] == clean["status"] == "succeeded"
    assert [(w["line"], w["severity"]) for w in warned["spec_warnings"]] == [(15, "warning")]
    assert "success criterion" in warned["spec_warnings"][0]["message"]
    assert "tell the person before relying on the outputs" in warned["next"]
    assert again["spec_warnings"] == warned["spec_warnings"]
    assert clean["spec_warnings"] == [] and "tell the person" not in clean["next"]
