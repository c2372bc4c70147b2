"""skillweave: Agent Skills and workflow specs in, a reviewable plan, a durable run.

The import package is `orchestrator`; the command is `skillweave`. Heavy stacks
(`mcp`, `anthropic`) are imported only by the modules that use them.
"""

__version__ = "0.1.0"
