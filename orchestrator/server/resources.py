"""The MCP resources: skills' SKILL.md, specs, and each run's report and summary.

    skill://{name}{?spec}          a skill's SKILL.md (catalog name; `spec`: the spec whose
                                   skills/ folder holds it, as list_skills hands it out)
    spec://bundled/{+name}         a spec shipped with skillweave (specs/)
    spec://project/{+path}         a spec under the working directory (.md, .yaml, .yml)
    run://{run_id}/report          a run's report (Markdown)
    run://{run_id}/summary         a run's full summary (JSON), outputs included

Listing is dynamic (`listed`): the skills of the catalog, the specs under
`specs/` (bundled and the project's), and the most recent runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError
from mcp.server.mcpserver.resources import ResourceSecurity
from mcp_types import InputRequiredResult
from mcp_types import Resource as MCPResource

from orchestrator.errors import NotFoundError, SkillweaveError
from orchestrator.resources import specs_dir
from orchestrator.server.roots import PathRefusedError
from orchestrator.server.runs import RunRegistry
from orchestrator.server.workspace import Workspace

SPEC_SUFFIXES = (".md", ".yaml", ".yml")
LISTED_RUNS = 20
MAX_SPEC_FILES = 200


def _is_spec(path: Path, folder: Path) -> bool:
    """A spec file: not inside a skill folder, not a README or a SKILL.md, not hidden."""
    parts = path.relative_to(folder).parts
    if "skills" in parts[:-1] or any(p.startswith((".", "_")) for p in parts):
        return False
    return path.is_file() and path.suffix in SPEC_SUFFIXES and path.name not in ("SKILL.md", "README.md")


def _spec_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if _is_spec(p, folder))[:MAX_SPEC_FILES]


class ResourceSet:
    def __init__(self, workspace: Workspace, registry: RunRegistry) -> None:
        self.ws = workspace
        self.registry = registry

    def register(self, server: MCPServer[Any]) -> None:
        server.resource(
            "skill://{name}{?spec}",
            name="skill",
            description="A skill's SKILL.md: its frontmatter and its instructions (`spec`: for a skill "
            "in the skills/ folder beside that spec)",
            mime_type="text/markdown",
            # `spec` is a path like a tool's (maybe absolute, in a client root): the roots check confines it.
            security=ResourceSecurity(exempt_params=frozenset({"spec"})),
        )(self.read_skill)
        server.resource(
            "spec://bundled/{+name}",
            name="bundled-spec",
            description="A workflow spec shipped with skillweave (the template and worked examples)",
            mime_type="text/markdown",
        )(self.read_bundled_spec)
        server.resource(
            "spec://project/{+path}",
            name="project-spec",
            description="A workflow spec under the server's working directory",
            mime_type="text/markdown",
            # `path` may hold folders; traversal is refused by the roots check in read_project_spec.
            security=ResourceSecurity(reject_path_traversal=True, reject_absolute_paths=True),
        )(self.read_project_spec)
        server.resource(
            "run://{run_id}/report",
            name="run-report",
            description="A run's report: status, steps, attempts, retries, regenerations, handoffs, tokens",
            mime_type="text/markdown",
        )(self.read_report)
        server.resource(
            "run://{run_id}/summary",
            name="run-summary",
            description="A run's full summary as JSON, every step's output included",
            mime_type="application/json",
        )(self.read_summary)

    # Reading -------------------------------------------------------------------------

    async def read_skill(
        self, name: str, ctx: Context[Any, Any], spec: str | None = None
    ) -> str | InputRequiredResult:
        path: Path | None = None
        if spec is not None:
            try:
                confined = await self.ws.confine(ctx, spec=spec)
            except SkillweaveError as exc:
                raise ResourceError(exc.render()) from exc
            if isinstance(confined, InputRequiredResult):
                return confined
            path = confined.paths["spec"]

        def read() -> str:
            from orchestrator.skills import load_catalog

            try:
                skill = load_catalog(self.ws.settings, path).get(name)
            except SkillweaveError as exc:
                raise ResourceNotFoundError(exc.render()) from exc
            return skill.skill_md.read_text(encoding="utf-8")

        return await self.ws.blocking(read)

    async def read_bundled_spec(self, name: str) -> str:
        folder = specs_dir().resolve()
        path = (folder / name).resolve()
        if not path.is_relative_to(folder) or path.suffix not in SPEC_SUFFIXES or not path.is_file():
            raise ResourceNotFoundError(f"no bundled spec {name!r}")
        return path.read_text(encoding="utf-8")

    async def read_project_spec(self, path: str) -> str:
        try:
            real = self.ws.server_roots().confine(path)
        except PathRefusedError as exc:
            raise ResourceError(exc.render()) from exc
        if real.suffix not in SPEC_SUFFIXES or not real.is_file():
            raise ResourceNotFoundError(f"no spec at {path!r}")
        return real.read_text(encoding="utf-8")

    async def read_report(self, run_id: str) -> str:
        return await self.ws.blocking(self._report, run_id)

    def _report(self, run_id: str) -> str:
        from orchestrator.report import build_report, render_report
        from orchestrator.server.wording import say

        try:
            return render_report(build_report(run_id, self.ws.settings), "md", say=say)
        except NotFoundError as exc:
            raise ResourceNotFoundError(exc.render()) from exc

    async def read_summary(self, run_id: str) -> str:
        def read() -> str:
            from orchestrator.engine import get_run

            try:
                return str(get_run(run_id, self.ws.settings).model_dump_json(indent=2))
            except NotFoundError as exc:
                raise ResourceNotFoundError(exc.render()) from exc

        return await self.ws.blocking(read)

    # Listing -------------------------------------------------------------------------

    async def listed(self) -> list[MCPResource]:
        return await self.ws.blocking(self._listed)

    def _listed(self) -> list[MCPResource]:
        from orchestrator.skills import load_catalog

        listed = [
            MCPResource(
                uri=f"skill://{s.name}",
                name=s.name,
                title=f"Skill {s.name}",
                description=s.description[:300],
                mime_type="text/markdown",
            )
            for s in load_catalog(self.ws.settings)
        ]
        bundled = specs_dir()
        listed += [
            MCPResource(
                uri=f"spec://bundled/{p.relative_to(bundled).as_posix()}",
                name=p.name,
                title=f"Bundled spec {p.name}",
                mime_type="text/markdown" if p.suffix == ".md" else "application/yaml",
            )
            for p in _spec_files(bundled)
        ]
        base = self.ws.config.root
        listed += [
            MCPResource(
                uri=f"spec://project/{p.relative_to(base).as_posix()}",
                name=p.name,
                title=f"Spec {p.relative_to(base).as_posix()}",
                mime_type="text/markdown" if p.suffix == ".md" else "application/yaml",
            )
            for p in _spec_files(base / "specs")
            if p.resolve().is_relative_to(base)
        ]
        return listed + self._listed_runs()

    def _listed_runs(self) -> list[MCPResource]:
        from orchestrator.engine import list_runs

        try:
            summaries = sorted(list_runs(self.ws.settings, limit=LISTED_RUNS), key=lambda s: s.created_at, reverse=True)
        except SkillweaveError:
            return []
        return [
            MCPResource(
                uri=f"run://{s.run_id}/report",
                name=f"{s.run_id} report",
                title=f"Run {s.run_id} ({s.plan_name}, {s.status.value})",
                mime_type="text/markdown",
            )
            for s in summaries[:LISTED_RUNS]
        ]
