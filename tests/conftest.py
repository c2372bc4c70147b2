"""Shared fixtures: where the repository and the shared design material are."""

from __future__ import annotations

import contextlib
import http.server
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from orchestrator import warmhost

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the clone: CI always has it; a user's clone does not."""
    if not (SHARED / "fixtures").is_dir():
        pytest.skip("../shared is absent (a user's clone has no shared design folder; CI has it)")
    return SHARED


@pytest.fixture(scope="session")
def seed_spec(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "specs" / "fetch-analyze-document.seed.md"


@pytest.fixture(scope="session")
def yaml_spec(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "specs" / "data-pipeline.paracle.yaml"


@pytest.fixture(scope="session")
def external_skills(shared_dir: Path) -> Path:
    return shared_dir / "fixtures" / "external-skills"


@pytest.fixture(autouse=True)
def own_trust_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test (and every process it starts) gets a trust store of its own, never the user's."""
    path = tmp_path_factory.mktemp("trust") / "trust.json"
    monkeypatch.setenv("SKILLWEAVE_TRUST_FILE", str(path))
    return path


@pytest.fixture(scope="session", autouse=True)
def own_warm_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The warm hosts this session's processes start (the docs server's, `serve`'s) live in
    a folder of the session's (XDG_RUNTIME_DIR, which tests that drop SKILLWEAVE_* keep),
    never the user's, and are stopped when the session ends: none is left behind."""
    runtime = tmp_path_factory.mktemp("xdg-runtime")
    runtime.chmod(0o700)
    before = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    # a process a test starts with an environment of its own (no XDG_RUNTIME_DIR) puts its
    # host in the user's folder: those that appear meanwhile are stopped too (SIGTERM: their
    # sessions, if any, end first); hosts elsewhere (a bench's) are not this session's
    users = {Path(f"/tmp/skillweave-{os.getuid()}"), *([Path(before) / "skillweave"] if before else [])}
    earlier = _warm_hosts(users)
    try:
        yield runtime / "skillweave"
    finally:
        warmhost.stop_hosts(runtime / "skillweave")
        for pid in _warm_hosts(users) - earlier:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        if before is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = before


def _warm_hosts(folders: set[Path]) -> set[int]:
    """The live warm hosts running this interpreter (this checkout's venv) in `folders`."""
    found: set[int] = set()
    flag = warmhost.HOST_FLAG.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError):
            args = (entry / "cmdline").read_bytes().split(b"\0")
            if args[0] != os.fsencode(sys.executable) or flag not in args:
                continue
            if Path(os.fsdecode(args[args.index(flag) + 1])).parent in folders:
                found.add(int(entry.name))
    return found


class _SchemaHits(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _SchemaHits.hits.append(self.path)
        body = b'{"type": "string"}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def schema_server() -> Iterator[tuple[str, list[str]]]:
    """A loopback HTTP server that serves a schema and records every request: (base URL, paths asked)."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SchemaHits)
    _SchemaHits.hits = []
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", _SchemaHits.hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)
