"""The bundled docs server: documentation for Python modules, over MCP (stdio).

Run it alone with `python -m mcp_servers.docs [--docs-dir D]` (stdio), or with
`--transport http --port N` as a streamable HTTP server at `/mcp`. Tools:

- `get_docs(module_name)` → `{existing_docs, docs_found}`: the markdown file
  `<module_name>.md` from the docs folder when there is one; otherwise docs
  assembled from the module's docstrings, read from its source with `ast`
  (never imported, so no module code runs in the server); otherwise `""` and
  `false`. `--sources folder` (or SKILLWEAVE_DOCS_SOURCES=folder) turns the
  docstring source off, so a module without a docs file answers `""`/`false`.
- `search_docs(query)` → `{results: [{module, title, snippet}]}` over the docs folder.

Environment: SKILLWEAVE_DOCS_DIR (docs folders, os.pathsep-separated),
SKILLWEAVE_DOCS_SOURCES, SKILLWEAVE_DOCS_FAULT and SKILLWEAVE_DOCS_FAULT_STATE
(fault injection for tests, see `fault`). Nothing here imports `mcp`; only
`server` does.
"""
