"""Shared fixtures: where the repository and the shared design material are."""

from __future__ import annotations

import contextlib
import http.server
import itertools
import os
import shutil
import signal
import sys
import tempfile
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


@pytest.fixture(scope="session")
def trust_stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The folder of this session's (this xdist worker's) trust stores, one sub-folder a test."""
    yield tmp_path_factory.mktemp("trust")


_TRUST_STORES = itertools.count()


@pytest.fixture(autouse=True)
def own_trust_store(trust_stores: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test (and every process it starts) gets a trust store of its own, never the user's: a private
    folder of its own under the session's. Numbered here, not by `tmp_path_factory.mktemp`, which lists the
    whole base folder to number each one (quadratic: 21 s of CPU over a worker's 7000 tests)."""
    folder = trust_stores / str(next(_TRUST_STORES))
    folder.mkdir(mode=0o700)
    path = folder / "trust.json"
    monkeypatch.setenv("SKILLWEAVE_TRUST_FILE", str(path))
    return path


@pytest.fixture
def short_tmp() -> Iterator[Path]:
    """A private folder (0700) with a short path, for what holds unix sockets: a socket's path is at
    most 107 bytes, and tmp_path under xdist (…/popen-gwN/<test name>/) leaves too few for a warm
    host's socket name; removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="sw-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def own_warm_hosts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The warm hosts this session's processes start (the docs server's, `serve`'s) live in
    a folder of the session's (XDG_RUNTIME_DIR, which tests that drop SKILLWEAVE_* keep),
    never the user's, and are stopped when the session ends. Under xdist each worker is a
    session with a folder of its own (its own basetemp), so no worker stops another's hosts."""
    runtime = tmp_path_factory.mktemp("xdg-runtime")
    runtime.chmod(0o700)
    before = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    try:
        yield runtime / "skillweave"
    finally:
        warmhost.stop_hosts(runtime / "skillweave")
        if before is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = before


@pytest.fixture(scope="session", autouse=True)
def own_cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The plans this session's runs cache (`orchestrator.compile_cache`) go to a folder of the
    session's (XDG_CACHE_HOME), never the user's."""
    cache = tmp_path_factory.mktemp("xdg-cache")
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(cache)
    try:
        yield cache
    finally:
        if before is None:
            os.environ.pop("XDG_CACHE_HOME", None)
        else:
            os.environ["XDG_CACHE_HOME"] = before


_EARLIER_HOSTS = pytest.StashKey[set[int]]()


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _users_folders() -> set[Path]:
    """The user's own warm-host folders (where a process started without XDG_RUNTIME_DIR puts its host)."""
    given = os.environ.get("XDG_RUNTIME_DIR")
    return {Path(f"/tmp/skillweave-{os.getuid()}"), *([Path(given) / "skillweave"] if given else [])}


def pytest_configure(config: pytest.Config) -> None:
    """A suite started in the background (`cmd &`, nohup, a CI step) inherits SIGINT ignored, and
    so would every run a test starts: the Ctrl-C tests would wait out their calls. The suite takes
    SIGINT back (its xdist workers and the processes tests start then get the default)."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session: pytest.Session) -> None:
    if not _is_xdist_worker(session.config):
        session.config.stash[_EARLIER_HOSTS] = _warm_hosts(_users_folders())


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A process a test starts with an environment of its own (no XDG_RUNTIME_DIR) puts its host
    in the user's folder: those that appeared during the run are stopped (SIGTERM: their sessions,
    if any, end first) once the whole run is over. The controller does it, not each xdist worker,
    so a worker that finishes first never stops a host another worker's test is still using;
    hosts elsewhere (a bench's) are not this run's."""
    if _is_xdist_worker(session.config) or _EARLIER_HOSTS not in session.config.stash:
        return
    for pid in _warm_hosts(_users_folders()) - session.config.stash[_EARLIER_HOSTS]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)


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


TEMPORAL = REPO / "tests" / "e2e" / "temporal"
SHARED_SCOPES = {"package", "module", "class"}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups into the node ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Groups for xdist (`--dist loadgroup`): what a group's tests share is made once, on one worker.

    - the Temporal tests: one dev server (a session fixture of that worker) instead of one a worker;
    - the tests of a module that share a module-scoped fixture (a run, a built wheel, a browser):
      split over two workers, each would make it.
    """
    for item in items:
        if item.path.is_relative_to(TEMPORAL):
            _group(item, "temporal")
        elif _shares_a_fixture(item):
            _group(item, item.nodeid.split("::", 1)[0])


def _group(item: pytest.Item, name: str) -> None:
    """Mark `item` as of xdist group `name` and give its node id the `@name` that the loadgroup
    scheduler splits on. xdist 3.8 writes that suffix to `item._nodeid`, which pytest 9 no longer
    reads (a node's id is `item._id`): without this every group was scattered over the workers,
    each making the group's module fixtures and Temporal dev server again."""
    item.add_marker(pytest.mark.xdist_group(name))
    if getattr(item.config.option, "loadgroup", False) and hasattr(item, "_id") and "@" not in item.nodeid:
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(f"{item.nodeid}@{name}")


def _shares_a_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)  # pytest's record of the fixtures an item uses
    if info is None:
        return False
    return any(fixture.scope in SHARED_SCOPES for defs in info.name2fixturedefs.values() for fixture in defs)
