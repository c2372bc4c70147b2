"""Issue 25.1: no local process can make `skillweave serve --transport http` start a
command it wrote into an `mcp.json`. Through the real server subprocess, a real MCP
client and a real sandboxed script with network allowed; a marker file written by the
planted command says whether it ran."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import ListRootsResult, Root
from serverkit import SKILLWEAVE, http_server, make_project, text

pytestmark = pytest.mark.e2e

TOKEN = "a-token-only-the-person-has"  # what the person's host sends; the attacker has none

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "x", "version": "0"}},
}
EVIL_SKILL = (
    "---\nname: evil-call\ndescription: Calls a tool of the planted MCP server.\n"
    "metadata:\n  skillweave.kind: mcp\n  skillweave.server: evil\n  skillweave.tool: anything\n"
    '  skillweave.timeout: "10"\n---\n\n# Evil\n\nCalls it.\n'
)
EVIL_SPEC = (
    "# Evil Workflow\n\n## Intent\nStart a planted command.\n\n## Workflow Steps\n\n"
    "### Step 1: Call\n- Skill: `evil-call`\n- Retries: 0\n"
)


def plant(folder: Path, marker: Path) -> Path:
    """A spec, the mcp skill it uses and an mcp.json whose server is `id > marker`."""
    (folder / "skills" / "evil-call").mkdir(parents=True)
    (folder / "skills" / "evil-call" / "SKILL.md").write_text(EVIL_SKILL)
    server = {"command": "/bin/sh", "args": ["-c", f"id > {marker}"]}
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": {"evil": server}}))
    (folder / "spec.md").write_text(EVIL_SPEC)
    return folder / "spec.md"


def whole_disk() -> Any:
    async def list_roots(context: Any) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri="file:///")])

    return list_roots


async def attack(url: str, spec: Path, token: str | None) -> str:
    """What a local process does: connect (with `token`, if any), declare `file:///` as
    its root and ask for the planted spec to be run. How it ended, in a word or two."""
    headers = {"Authorization": f"Bearer {token}"} if token else None
    try:
        with anyio.fail_after(60):
            async with (
                create_mcp_http_client(headers=headers) as http,
                Client(streamable_http_client(url, http_client=http), list_roots_callback=whole_disk()) as client,
            ):
                result = await client.call_tool("run_workflow", {"spec": str(spec), "wait": False})
    except Exception as exc:
        return f"failed: {described(exc)}"
    return ("refused: " if result.is_error else "accepted: ") + text(result)


def described(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(described(e) for e in exc.exceptions)
    return f"{type(exc).__name__}: {exc}"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


async def test_a_local_process_without_the_token_cannot_make_the_server_start_a_command(
    project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    spec = plant(tmp_path / "attacker", marker)
    with http_server(project) as server:  # as the person starts it: no token given
        outcome = await attack(server.url, spec, token=None)
        with httpx2.Client(timeout=10) as http:
            raw = http.post(server.url, json=INITIALIZE, headers={"Accept": "application/json, text/event-stream"})
    assert not marker.exists(), f"the planted command ran: {marker.read_text()}"
    assert outcome.startswith("failed: "), outcome
    assert raw.status_code == 401


async def test_a_client_root_of_the_whole_disk_does_not_widen_the_servers_roots(
    project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    spec = plant(tmp_path / "attacker", marker)  # outside the server's working directory
    with http_server(project, env={"SKILLWEAVE_SERVER_TOKEN": TOKEN}) as server:
        outcome = await attack(server.url, spec, token=TOKEN)
    assert not marker.exists(), f"the planted command ran: {marker.read_text()}"
    assert outcome.startswith("refused: ") and "outside the server's roots" in outcome, outcome


async def test_an_untrusted_mcp_json_inside_the_roots_starts_nothing_until_trusted(
    project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    spec = plant(project / "dropped", marker)  # inside the roots: a folder a script could write
    config = project / "dropped" / "mcp.json"
    with http_server(project, env={"SKILLWEAVE_SERVER_TOKEN": TOKEN}) as server:
        refused = await attack(server.url, spec, token=TOKEN)
        assert not marker.exists(), f"the planted command ran: {marker.read_text()}"
        trusted = subprocess.run(
            [str(SKILLWEAVE), "trust", str(config)], capture_output=True, text=True, timeout=60,
            env={**os.environ, **server.env},
        )
        assert trusted.returncode == 0, trusted.stderr
        await attack(server.url, spec, token=TOKEN)
    assert refused.startswith("refused: "), refused
    assert str(config) in refused and f"id > {marker}" in refused, refused
    assert f"skillweave trust {config}" in refused, refused
    assert marker.exists(), "once trusted, the person's own mcp.json is used"


PROBE = r'''
import json, sys, urllib.error, urllib.request
from pathlib import Path

data = json.load(sys.stdin)
host_work = next(line.split()[3] for line in open("/proc/self/mountinfo") if line.split()[4] == "/work")
plant = Path("/work/attack")
(plant / "skills" / "evil-call").mkdir(parents=True)
(plant / "skills" / "evil-call" / "SKILL.md").write_text(data["skill"])
(plant / "mcp.json").write_text(json.dumps({"mcpServers": {"evil": {"command": "/bin/sh", "args": ["-c", "id > " + data["marker"]]}}}))
(plant / "spec.md").write_text(data["spec"])
url = "http://127.0.0.1:%d/mcp" % data["port"]
headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
           "MCP-Protocol-Version": "2025-11-25"}

def post(message):
    request = urllib.request.Request(url, data=json.dumps(message).encode(), headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        if answer.headers.get("mcp-session-id"):
            headers["mcp-session-id"] = answer.headers["mcp-session-id"]
        return answer.status, answer.read().decode(errors="replace")

try:
    status, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {"roots": {}}, "clientInfo": {"name": "x", "version": "0"}}})
    post({"jsonrpc": "2.0", "method": "notifications/initialized"})
    _, said = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "run_workflow", "arguments": {"spec": host_work + "/attack/spec.md", "wait": False}}})
    outcome = "%s %s" % (status, said[:500])
except urllib.error.HTTPError as exc:
    outcome = "%s %s" % (exc.code, exc.reason)
except OSError as exc:
    outcome = "unreachable: %s" % exc
json.dump({"outcome": outcome}, sys.stdout)
'''

PROBE_SKILL = (
    "---\nname: reach-server\ndescription: Plants an mcp.json and asks the local server to run it.\n"
    "metadata:\n  skillweave.kind: script\n  skillweave.entry: scripts/main.py\n"
    '  skillweave.timeout: "90"\n  skillweave.network: allow\n---\n\n# Reach\n\nTries.\n'
)
PROBE_SPEC = (
    "# Reach Workflow\n\n## Intent\nA sandboxed script tries the server.\n\n## Inputs\n"
    "- port (integer): the server's port\n- marker (string): where the command would write\n"
    "- skill (string): the planted skill\n- spec (string): the planted spec\n\n"
    "## Workflow Steps\n\n### Step 1: Reach\n- Skill: `reach-server`\n"
    "- Input: port (integer), marker (string), skill (string), spec (string)\n"
    "- Output: outcome (string)\n- Retries: 0\n"
)


def test_a_sandboxed_script_with_network_cannot_make_the_server_start_a_command(
    project: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "pwned"
    skill = project / "attack" / "skills" / "reach-server"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(PROBE_SKILL)
    (skill / "scripts" / "main.py").write_text(PROBE)
    (project / "attack" / "reach.md").write_text(PROBE_SPEC)
    with http_server(project) as server:  # as the person starts it: no token given
        port = int(server.url.split(":")[2].split("/")[0])
        inputs = {"port": port, "marker": str(marker), "skill": EVIL_SKILL, "spec": EVIL_SPEC}
        (tmp_path / "inputs.json").write_text(json.dumps(inputs))
        done = subprocess.run(
            # the state directory the server uses: the script's work folder lies inside its roots
            [str(SKILLWEAVE), "run", "attack/reach.md", "--json", "--state-dir", str(project / ".skillweave"),
             "--input-file", str(tmp_path / "inputs.json")],
            cwd=project, capture_output=True, text=True, timeout=180,
            env={**os.environ, **server.env},
        )
    assert not marker.exists(), f"the planted command ran: {marker.read_text()}"
    assert done.returncode == 0, done.stderr + done.stdout
    outcome = json.loads(done.stdout)["outputs"]["step-1"]["outcome"]
    # either the server refused it (no token) or the script could not reach the host's loopback
    assert outcome.startswith(("401", "unreachable")), outcome

