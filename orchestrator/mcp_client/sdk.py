"""The parts of the `mcp` SDK a stdio session uses, imported without the rest of it.

The `mcp` package's `__init__` (and `mcp.client`'s) import the whole SDK: both
sides, the HTTP stacks (starlette, uvicorn, httpx) and every protocol model;
`mcp.Client` itself imports the server, for in-process sessions. A stdio session
needs the protocol models, `ClientSession`, the stdio transport and the version
negotiation: about half the time (0.4 s less on a loaded 2-core VM).

`import_lean(...)` imports such submodules with the two packages' `__init__`
deferred: each package is registered unexecuted and runs its `__init__` on the
first attribute that is not a submodule already imported (`mcp.Client`, `from
mcp import types`), so code that wants the whole SDK later still gets it, the
same objects. Where `mcp` is imported already, nothing is deferred.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from typing import Any

DEFERRED = ("mcp", "mcp.client")
_lock = threading.RLock()


class _Deferred(types.ModuleType):
    """A package whose `__init__` has not run yet: it runs on the first unknown attribute."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or not _complete(self):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        return getattr(self, name)


def _complete(module: types.ModuleType) -> bool:
    """Run `module`'s own `__init__` now (once). False when it is already running."""
    with _lock:
        if type(module) is not _Deferred:
            return False
        module.__class__ = types.ModuleType  # type: ignore[assignment]  # from here on, plain lookups
        spec = module.__spec__
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(module)
        return True


def _defer(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not a package we can defer: import it the ordinary way
    module = importlib.util.module_from_spec(spec)
    module.__class__ = _Deferred
    sys.modules[name] = module
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)


def import_lean(*names: str) -> list[types.ModuleType]:
    """Import the SDK submodules `names` with the `mcp` and `mcp.client` `__init__` deferred."""
    with _lock:
        for package in DEFERRED:
            _defer(package)
        return [importlib.import_module(name) for name in names]


def complete() -> None:
    """Run the deferred `__init__`s now (for code that reads the packages' names directly)."""
    for name in DEFERRED:
        module = sys.modules.get(name)
        if module is not None:
            _complete(module)
