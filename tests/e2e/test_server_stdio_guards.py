"""`skillweave serve` over stdio keeps to its roots, and lets a client continue a changed run."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from serverkit import make_project, ok, stdio_client, text

pytestmark = pytest.mark.e2e


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


async def test_a_skills_folder_linked_outside_the_roots_is_neither_listed_nor_run(project: Path) -> None:
    outside = project.parent / "outside"
    shutil.move(project / "specs" / "skills", outside)
    marker = project.parent / "escaped"
    script = outside / "count-words" / "scripts" / "main.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('ran')\n" + script.read_text())
    (project / "specs" / "skills").symlink_to(outside)
    with anyio.fail_after(60):
        async with stdio_client(project) as client:
            listed = await client.call_tool("list_skills", {"spec": "specs/count.md"})
            ran = await client.call_tool("run_workflow", {"spec": "specs/count.md", "inputs": {"text": "a b"}})
            runs = ok(await client.call_tool("list_runs", {}))
    refused = f"{project / 'specs' / 'skills'}: refused: it leads to {outside}, which is outside the server's roots"
    assert listed.is_error and refused in text(listed)
    assert ran.is_error and refused in text(ran)
    assert runs["runs"] == []
    assert not marker.exists()


async def test_an_approval_after_a_skill_changed_is_recorded_and_the_run_continues_with_force(
    project: Path,
) -> None:
    with anyio.fail_after(90):
        async with stdio_client(project) as client:
            spec = {"spec": "specs/shout-approved.md", "inputs": {"text": "ship it"}}
            paused = ok(await client.call_tool("run_workflow", spec))
            assert paused["status"] == "paused"
            script = project / "specs" / "skills" / "shout" / "scripts" / "main.py"
            script.write_text(script.read_text() + "\n# changed while paused\n")
            approved = await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"})
            refused = await client.call_tool("resume_run", {"run_id": paused["run_id"]})
            done = ok(await client.call_tool("resume_run", {"run_id": paused["run_id"], "force": True}))
    assert approved.is_error
    assert text(approved) == (
        "Error executing tool approve_step: "  # the SDK's prefix
        f"approval recorded; the run did not resume: {paused['run_id']}: run {paused['run_id']} cannot be resumed: "
        "changed since it started: skill shout; call resume_run with force=true to continue anyway"
    )
    assert refused.is_error and "resume_run with force=true resumes anyway" in text(refused)
    assert done["status"] == "succeeded", done
    assert done["outputs"]["step-2"] == {"shouted": "SHIP IT (2 words)"}
