"""skillweave as an MCP server (`skillweave serve`).

    app        build_server(config) -> MCPServer; run_stdio(config)
    http       run_http(config, HttpOptions): streamable HTTP, Host/Origin checks, bearer token
    workspace  ServerConfig; the settings, roots and worker threads every tool uses
    tools      list_skills, validate_spec, plan_workflow, run_workflow, get_run, list_runs,
               resume_run, approve_step
    resources  skill://{name}, spec://bundled/{+name}, spec://project/{+path},
               run://{id}/report, run://{id}/summary
    prompts    design_workflow(goal), rendered from prompts/mcp_design_workflow.md.j2
    runs       background executions that outlive the calls that watch them
    dialogue   roots and approvals asked of the client, in both protocol eras
    roots      path confinement (no mcp import)
    trusted    no command from an mcp.json the person has not trusted: refusals and warnings

This package imports `mcp`; nothing outside `orchestrator.cli.serve_cmd` imports it.
"""

from orchestrator.server.app import build_server, run_stdio
from orchestrator.server.http import HttpOptions, run_http
from orchestrator.server.workspace import ServerConfig

__all__ = ["HttpOptions", "ServerConfig", "build_server", "run_http", "run_stdio"]
