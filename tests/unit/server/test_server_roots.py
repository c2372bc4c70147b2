"""Path confinement: paths resolve inside the working directory or a client root."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.server.roots import PathRefusedError, RootSet, root_from_uri


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project" / "specs").mkdir(parents=True)
    (tmp_path / "project" / "specs" / "a.md").write_text("# A\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "b.md").write_text("# B\n")
    return tmp_path / "project"


def test_relative_paths_resolve_against_the_working_directory(project: Path) -> None:
    roots = RootSet.of(project)
    assert roots.confine("specs/a.md") == (project / "specs" / "a.md").resolve()


def test_a_path_climbing_out_of_the_working_directory_is_refused(project: Path) -> None:
    roots = RootSet.of(project)
    with pytest.raises(PathRefusedError) as info:
        roots.confine("../elsewhere/b.md")
    assert info.value.where == "../elsewhere/b.md"
    assert str(project.resolve()) in info.value.message


def test_an_absolute_path_outside_every_root_is_refused(project: Path) -> None:
    with pytest.raises(PathRefusedError):
        RootSet.of(project).confine("/etc/passwd")


def test_a_symlink_pointing_outside_is_refused(project: Path) -> None:
    (project / "specs" / "link.md").symlink_to(project.parent / "elsewhere" / "b.md")
    with pytest.raises(PathRefusedError):
        RootSet.of(project).confine("specs/link.md")


def test_a_client_root_outside_the_servers_roots_does_not_widen_them(project: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    for declared in ([elsewhere.as_uri()], ["file:///"], [elsewhere.as_uri(), project.as_uri()]):
        roots = RootSet.of(project).narrowed(declared)
        with pytest.raises(PathRefusedError) as info:
            roots.confine(str(elsewhere / "b.md"))
        assert "outside the server's roots" in info.value.message


def test_a_client_root_of_the_whole_disk_narrows_nothing(project: Path) -> None:
    roots = RootSet.of(project).narrowed(["file:///"])
    assert roots.confine("specs/a.md") == (project / "specs" / "a.md").resolve()


def test_a_client_root_inside_the_servers_narrows_them(project: Path) -> None:
    (project / "other").mkdir()
    (project / "other" / "c.md").write_text("# C\n")
    roots = RootSet.of(project).narrowed([(project / "specs").as_uri()])
    assert roots.confine("specs/a.md") == (project / "specs" / "a.md").resolve()
    with pytest.raises(PathRefusedError) as info:
        roots.confine("other/c.md")
    assert info.value.where == "other/c.md"
    assert "outside the roots the client declared" in info.value.message
    assert str((project / "specs").resolve()) in info.value.message


def test_what_a_spec_brings_along_is_held_to_the_narrowed_roots(project: Path) -> None:
    (project / "shared").mkdir()
    (project / "specs" / "skills").symlink_to(project / "shared")
    roots = RootSet.of(project).narrowed([(project / "specs").as_uri()])
    with pytest.raises(PathRefusedError) as info:
        roots.confine_all([project / "specs" / "skills"])
    assert f"it leads to {(project / 'shared').resolve()}" in info.value.message


def test_a_client_that_declares_no_local_folder_narrows_nothing(project: Path) -> None:
    for declared in ([], ["https://example.com/repo"], ["file://server/share"]):
        roots = RootSet.of(project).narrowed(declared)
        assert roots.client is None
        assert roots.confine("specs/a.md") == (project / "specs" / "a.md").resolve()


def test_the_servers_own_extra_roots_admit_paths_inside_them(project: Path) -> None:
    elsewhere = project.parent / "elsewhere"
    roots = RootSet.of(project, [elsewhere])
    assert roots.confine(str(elsewhere / "b.md")) == (elsewhere / "b.md").resolve()
    assert roots.confine("specs/a.md") == (project / "specs" / "a.md").resolve()  # relative: the first root


def test_a_sibling_folder_sharing_a_name_prefix_is_not_inside(project: Path) -> None:
    sibling = project.parent / "project-other"
    sibling.mkdir()
    with pytest.raises(PathRefusedError):
        RootSet.of(project).confine(str(sibling))


def test_only_local_file_uris_become_roots() -> None:
    assert root_from_uri("file:///home/me/repo") == Path("/home/me/repo")
    assert root_from_uri("file://localhost/srv/x%20y") == Path("/srv/x y")
    assert root_from_uri("file://server/share") is None
    assert root_from_uri("https://example.com/repo") is None
