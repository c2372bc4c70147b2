"""A model for synchronous callers (the planner): calls run on an event loop of its own,
in a thread, so they work with or without a running loop.

    model = SyncModel(make_llm, name)   the client is made at the first call
    model.run(lambda llm: coro)         the coroutine's result (or its exception)
    model.close()                       closes the client on its loop, then the thread
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from orchestrator.llm.client import LanguageModel

T = TypeVar("T")


class SyncModel:
    def __init__(self, make_llm: Callable[[], LanguageModel], name: str) -> None:
        self._make_llm = make_llm
        self._llm: LanguageModel | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def run(self, call: Callable[[LanguageModel], Coroutine[Any, Any, T]]) -> T:
        if self._llm is None:
            self._llm = self._make_llm()
        return asyncio.run_coroutine_threadsafe(call(self._llm), self._loop).result()

    def close(self) -> None:
        if self._loop.is_closed():
            return
        close = getattr(self._llm, "aclose", None)
        if close is not None:
            asyncio.run_coroutine_threadsafe(close(), self._loop).result()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
