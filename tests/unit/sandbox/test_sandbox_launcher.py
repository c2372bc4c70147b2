"""The command lines that put a script into bwrap, unshare or nothing."""

from __future__ import annotations

import itertools
import marshal
import sys
import tempfile
from pathlib import Path

import pytest

from orchestrator.sandbox.bootstrap import (
    BOOTSTRAP,
    BOOTSTRAP_CODE,
    LOADER,
    PYTHON_FLAGS,
    bootstrap_command,
    precompile,
)
from orchestrator.sandbox.host import HostTools, Runtime
from orchestrator.sandbox.launcher import (
    DEVICES,
    SANDBOX_UID,
    BareLauncher,
    BwrapLauncher,
    Layout,
    UnshareLauncher,
    hidden_on_the_way,
    prepare_argv,
)
from orchestrator.sandbox.model import ResourceLimits
from orchestrator.sandbox.network import NET_FD, resolv_conf

RUNTIME = Runtime(executable=Path("/opt/py/3.11/bin/python3.11"), roots=(Path("/opt/py/3.11"),))
TOOLS = HostTools(
    bwrap=Path("/x/bwrap"),
    unshare=Path("/usr/bin/unshare"),
    setpriv=Path("/usr/bin/setpriv"),
    kill=Path("/usr/bin/kill"),
)


def _layout(tmp_path: Path, **kw: object) -> Layout:
    skill = tmp_path / "skill"
    (skill / "scripts").mkdir(parents=True, exist_ok=True)
    (skill / "scripts" / "main.py").write_text("print('{}')")
    values: dict[str, object] = {
        "skill_dir": skill,
        "entry": "scripts/main.py",
        "script": skill / "scripts" / "main.py",
        "workdir": tmp_path / "a" / "work",
        "tmpdir": tmp_path / "a" / "tmp",
    }
    values.update(kw)
    return Layout.model_validate(values)


def _pairs(argv: list[str], flag: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a == flag]


def test_bwrap_unshares_every_namespace_and_has_no_network_by_default(tmp_path: Path) -> None:
    argv = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=False).argv(_layout(tmp_path), ["py"])
    for flag in ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
                 "--unshare-net", "--die-with-parent", "--new-session", "--disable-userns"):  # fmt: skip
        assert flag in argv
    assert argv[argv.index("--uid") + 1] == str(SANDBOX_UID)
    assert argv[argv.index("--cap-drop") + 1] == "ALL"
    assert argv[-1] == "py"


def test_bwrap_mounts_the_runtime_and_skill_read_only_and_the_work_directory_writable(
    tmp_path: Path,
) -> None:
    layout = _layout(tmp_path)
    argv = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=False).argv(layout, ["py"])
    ro = _pairs(argv, "--ro-bind")
    assert ("/usr", "/usr") in ro
    assert ("/opt/py/3.11", "/opt/py/3.11") in ro
    assert (str(layout.skill_dir), "/skill") in ro
    assert _pairs(argv, "--bind") == [(str(layout.workdir), "/work")]
    assert "--tmpfs" not in argv and ("--dir", "/tmp") in itertools.pairwise(argv)
    # parents of the runtime are made traversable for a dropped uid
    assert argv[argv.index("/opt") - 2 : argv.index("/opt") + 1] == ["0755", "--dir", "/opt"]


def test_a_cold_start_binds_only_the_usual_devices_and_leaves_tmp_and_shm_to_the_bootstrap(
    tmp_path: Path,
) -> None:
    layout = _layout(tmp_path, tmpfs="mode=1777,size=3145728,nr_inodes=99")
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=True)
    argv = launcher.argv(layout, ["py"])
    assert "--dev" not in argv  # six device binds and a devpts: ~0.15 ms each bind
    assert _pairs(argv, "--dev-bind") == [(f"/dev/{name}", f"/dev/{name}") for name in DEVICES]
    assert ("urandom", "/dev/random") in _pairs(argv, "--symlink")
    # bwrap's --tmpfs has a size but no inode cap: the bootstrap mounts both itself
    assert "--tmpfs" not in argv and ("--dir", "/dev/shm") in itertools.pairwise(argv)
    assert launcher.inside(layout).tmpfs == "mode=1777,size=3145728,nr_inodes=99"


def test_the_warm_server_keeps_a_full_dev_for_its_jobs_to_narrow(tmp_path: Path) -> None:
    argv = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=True).server_argv(["py"])
    assert argv[argv.index("--dev") + 1] == "/dev"
    assert "--dev-bind" not in argv


def test_bwrap_gives_a_network_run_its_own_namespace_and_holds_it_at_the_barrier(
    tmp_path: Path,
) -> None:
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=False)
    argv = launcher.argv(_layout(tmp_path, network=True), ["py"])
    assert "--unshare-net" in argv
    assert argv[argv.index("--block-fd") + 1] == str(NET_FD)
    assert (str(resolv_conf()), "/etc/resolv.conf") in _pairs(argv, "--ro-bind")
    assert ("/etc/hosts", "/etc/hosts") in _pairs(argv, "--ro-bind-try")
    forced = launcher.argv(_layout(tmp_path, network=True, host_network=True), ["py"])
    assert "--unshare-net" not in forced and "--block-fd" not in forced
    assert ("/etc/resolv.conf", "/etc/resolv.conf") in _pairs(forced, "--ro-bind-try")
    alone = launcher.argv(_layout(tmp_path), ["py"])
    assert "--unshare-net" in alone and "--block-fd" not in alone


def test_bwrap_as_root_skips_the_user_namespace_and_lets_the_bootstrap_drop_to_the_run_uid(
    tmp_path: Path,
) -> None:
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=True)
    layout = _layout(tmp_path, uid=1_100_000_000)
    argv = launcher.argv(layout, ["py"])
    assert "--unshare-user" not in argv
    assert argv[1:9] == ["--cap-drop", "ALL", "--cap-add", "CAP_SYS_ADMIN",
                         "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]  # fmt: skip
    assert launcher.needs_run_uid
    assert launcher.inside(layout).bootstrap_uid == 1_100_000_000


def test_bwrap_shows_the_script_at_its_entry_path_even_when_regenerated(tmp_path: Path) -> None:
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=False)
    regenerated = tmp_path / "v2.py"
    regenerated.write_text("")
    layout = _layout(tmp_path, script=regenerated)
    inside = launcher.inside(layout)
    assert inside.script == "/skill/scripts/main.py"
    assert inside.import_paths == ("/skill/scripts", "/skill")
    assert (str(regenerated), "/skill/scripts/main.py") in _pairs(
        launcher.argv(layout, ["py"]), "--ro-bind"
    )


def test_a_regenerated_script_for_a_skill_without_an_entry_file_gets_its_own_mount(
    tmp_path: Path,
) -> None:
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=False)
    regenerated = tmp_path / "main.py"
    regenerated.write_text("")
    layout = _layout(tmp_path, entry="scripts/new.py", script=regenerated)
    assert launcher.inside(layout).script == "/script/main.py"


def test_unshare_uses_user_pid_mount_and_net_namespaces_for_a_normal_user(tmp_path: Path) -> None:
    launcher = UnshareLauncher(
        Path("/usr/bin/unshare"), Path("/usr/bin/setpriv"), as_root=False, runtime=RUNTIME
    )
    argv = launcher.argv(_layout(tmp_path), ["py"])
    assert argv[:4] == ["/usr/bin/setpriv", "--pdeathsig", "KILL", "/usr/bin/unshare"]
    for flag in ("--user", "--map-root-user", "--pid", "--fork", "--mount-proc", "--net"):
        assert flag in argv
    assert not launcher.needs_run_uid


def test_unshare_as_root_drops_to_the_run_uid_instead_of_mapping_root(tmp_path: Path) -> None:
    launcher = UnshareLauncher(
        Path("/usr/bin/unshare"), Path("/usr/bin/setpriv"), as_root=True, runtime=RUNTIME
    )
    argv = launcher.argv(_layout(tmp_path, uid=1_100_000_001), ["py"])
    assert "--map-root-user" not in argv
    assert argv[argv.index("--reuid") + 1] == "1100000001"
    assert launcher.needs_run_uid


@pytest.mark.parametrize("as_root", [True, False])
def test_dropping_to_the_run_uid_keeps_no_capability(tmp_path: Path, as_root: bool) -> None:
    layout = _layout(tmp_path, uid=1_100_000_004)
    unshare = UnshareLauncher(TOOLS.unshare, TOOLS.setpriv, as_root=True, runtime=RUNTIME)
    bare = BareLauncher(TOOLS.setpriv, TOOLS.kill, as_root=True)
    for argv in (unshare.argv(layout, ["py"]), bare.argv(layout, ["py"])):
        assert "--ambient-caps" not in argv
        assert not any("dac_read_search" in arg for arg in argv)
        assert argv[argv.index("--inh-caps") + 1] == "-all"
        assert argv[argv.index("--bounding-set") + 1] == "-all"
        assert "--no-new-privs" in argv


def test_reveal_covers_the_first_hidden_folder_and_binds_back_only_what_is_needed() -> None:
    # not under /tmp, which each run gets afresh (pytest's own tmp_path is under a 0700 folder)
    with tempfile.TemporaryDirectory(prefix="skillweave-reveal-", dir="/var/tmp") as tmp:
        _check_reveal(Path(tmp))


def _check_reveal(tmp_path: Path) -> None:
    hidden = tmp_path / "hidden"
    (hidden / "runtime" / "bin").mkdir(parents=True)
    (hidden / "skill" / "scripts").mkdir(parents=True)
    hidden.chmod(0o700)
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    tmp_path.chmod(0o755)
    needed = [
        hidden / "skill" / "scripts",  # inside the skill folder: comes back with it
        hidden / "skill",
        hidden / "runtime",
        open_dir,
    ]
    assert hidden_on_the_way(hidden / "skill") == hidden
    assert hidden_on_the_way(open_dir) is None
    argv = prepare_argv(Path("/py"), needed, "size=1", reveal=True)
    assert argv[:5] == ["/py", "-I", "-S", "-B", "-c"]
    private = ["options", "size=1", "tmpfs", "/tmp", "options", "size=1", "tmpfs", "/dev/shm"]
    assert argv[6:] == [
        *private,
        "cover", str(hidden),
        "bind", str(hidden / "skill"),
        "bind", str(hidden / "runtime"),
        "--",
    ]  # fmt: skip
    assert prepare_argv(Path("/py"), [open_dir], "size=1", reveal=True)[6:] == [*private, "--"]
    assert prepare_argv(Path("/py"), needed, "size=1", reveal=False)[6:] == [*private, "--"]


def test_unshare_gives_each_run_its_own_tmp_and_binds_back_what_it_needs_below(
    tmp_path: Path,
) -> None:
    needed = [Path("/tmp/a/work"), Path("/tmp/a/work/sub"), Path("/tmp/b"), Path("/opt/x")]
    argv = prepare_argv(Path("/py"), needed, "mode=1777,size=9,nr_inodes=7", reveal=False)
    assert argv[6:] == [
        "options", "mode=1777,size=9,nr_inodes=7", "tmpfs", "/tmp",
        "options", "mode=1777,size=9,nr_inodes=7", "tmpfs", "/dev/shm",
        "bind", "/tmp/b", "bind", "/tmp/a/work",
        "--",
    ]  # fmt: skip


def test_unshare_gives_a_network_run_its_own_namespace_and_waits_for_it(tmp_path: Path) -> None:
    launcher = UnshareLauncher(Path("/usr/bin/unshare"), None, as_root=False, runtime=RUNTIME)
    argv = launcher.argv(_layout(tmp_path, network=True), ["py"])
    assert "--net" in argv
    assert argv[argv.index("wait") + 1] == str(NET_FD)
    assert argv[argv.index("resolv") + 1] == str(resolv_conf())
    forced = launcher.argv(_layout(tmp_path, network=True, host_network=True), ["py"])
    assert "--net" not in forced and "wait" not in forced


def test_no_isolation_says_so_and_as_root_still_drops_privileges(tmp_path: Path) -> None:
    launcher = BareLauncher(TOOLS.setpriv, TOOLS.kill, as_root=True)
    layout = _layout(tmp_path, uid=1_100_000_002)
    assert launcher.argv(layout, ["py"])[:3] == ["/usr/bin/setpriv", "--reuid", "1100000002"]
    assert launcher.sweep_argv(layout) == [
        "/usr/bin/setpriv", "--reuid", "1100000002", "--regid", "1100000002",
        "--clear-groups", "/usr/bin/kill", "-9", "-1",
    ]  # fmt: skip
    assert any("isolation none" in note for note in launcher.notes)


def test_no_isolation_for_a_normal_user_sweeps_nothing(tmp_path: Path) -> None:
    launcher = BareLauncher(None, TOOLS.kill, as_root=False)
    layout = _layout(tmp_path)
    assert launcher.argv(layout, ["py"]) == ["py"]
    assert launcher.sweep_argv(layout) is None


@pytest.mark.parametrize("uid", [None, 1_100_000_003])
def test_the_bootstrap_command_carries_limits_paths_and_uid(uid: int | None) -> None:
    limits = ResourceLimits(cpu_s=5, memory_mb=100, file_size_mb=2, max_procs=9, max_open_files=40)
    argv = bootstrap_command(
        "/py",
        limits=limits,
        workdir="/work",
        script="/skill/m.py",
        import_paths=("/a", "/b"),
        uid=uid,
    )
    assert argv[: len(PYTHON_FLAGS) + 4] == ["/py", *PYTHON_FLAGS, "-c", LOADER, BOOTSTRAP_CODE]
    rest = argv[len(PYTHON_FLAGS) + 4 :]
    assert rest == [
        str(-1 if uid is None else uid), "5", str(100 << 20), str(2 << 20), "9", "40",
        "/work", "/skill/m.py", "-", "-", "/a", "/b",
    ]  # fmt: skip
    compile(BOOTSTRAP, "<bootstrap>", "exec")


def test_the_loader_runs_the_marshalled_bootstrap_with_the_argv_of_dash_c() -> None:
    assert marshal.loads(bytes.fromhex(BOOTSTRAP_CODE)) == compile(
        BOOTSTRAP, "<string>", "exec", dont_inherit=True
    )
    assert BOOTSTRAP.endswith("_run(_boot())\n")  # the one ending, cold and warm
    seen: dict[str, object] = {}
    probe = marshal.dumps(compile("seen['argv'] = list(sys.argv)", "<string>", "exec")).hex()
    argv = ["-c", probe, "5", "/work"]
    namespace: dict[str, object] = {"seen": seen, "sys": sys}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "argv", argv)
        exec(LOADER, namespace)
    assert seen["argv"] == ["-c", "5", "/work"]
    assert set(namespace) == {"seen", "sys", "__builtins__"}  # the loader binds no name


def test_a_precompiled_script_travels_marshalled_with_its_sandbox_file_name() -> None:
    code = precompile(b"x = 1\n", "/skill/m.py")
    assert code is not None
    loaded = marshal.loads(code)
    assert loaded.co_filename == "/skill/m.py"
    argv = bootstrap_command(
        "/py",
        limits=ResourceLimits(),
        workdir="/w",
        script="/skill/m.py",
        import_paths=(),
        code=code,
    )
    assert argv[-2:] == [code.hex(), "-"]  # the code, then no tmpfs mounts


def test_scripts_that_do_not_compile_or_are_huge_are_left_to_the_bootstrap() -> None:
    assert precompile(b"def broken(:\n", "/skill/m.py") is None
    assert precompile(b"x = 1\0", "/skill/m.py") is None
    huge = "".join(f"v{i} = {i}\n" for i in range(20_000)).encode()
    assert precompile(huge, "/skill/m.py") is None
