"""How far a run has got, from its progress events: for progress bars and MCP notifications.

    counter = ProgressCount()
    progress, total = counter.update(event)      # for each RunEvent, in order

A unit of work is a step, plus each item of a `for each` once its list is known.
`total` comes from the events themselves: `run_started` carries how many steps are
not done yet, `fan_out` how many items a step has. `progress` counts the units done
(a step finished or skipped, an item with an output or skipped) and rises a little
with every other event, so that it strictly increases from one notification to the
next, as MCP requires, without reaching the next whole unit early; at `run_finished`
it is the total. A counter that never saw `run_started` (it joined a run under way)
knows no total: it counts events and gives `None`.
"""

from __future__ import annotations

from orchestrator.engine.model import RunEvent

_ITEM_DONE = ("output_stored", "item_skipped")
_STEP_DONE = ("step_finished", "step_skipped")


class ProgressCount:
    def __init__(self) -> None:
        self.total: int | None = None
        self.done = 0
        self._since_done = 0  # events since the last unit was done
        self._events = 0
        self._items_done: set[tuple[str, int]] = set()
        self._last = 0.0

    def update(self, event: RunEvent) -> tuple[float, float | None]:
        self._events += 1
        if event.type == "run_started" and event.total is not None and self.total is None and self._events == 1:
            self.total = event.total + 1  # the steps left, and the run's own end
        if self.total is None:
            return float(self._events), None
        if event.type == "fan_out" and event.total is not None:
            self.total += event.total
        finished = False
        if event.type in _ITEM_DONE and event.item is not None and event.step is not None:
            key = (event.step, event.item)
            finished = key not in self._items_done
            self._items_done.add(key)
        elif event.type in _STEP_DONE:
            finished = True
        if finished:
            self.done += 1
            self._since_done = 0
        else:
            self._since_done += 1
        self.total = max(self.total, self.done + 1)  # items of a resumed `for each` were not announced
        if event.type == "run_finished":
            self.done = self.total
            progress = float(self.total)
        else:
            progress = self.done + self._since_done / (self._since_done + 1)
        progress = max(progress, self._last + 1e-6)  # strictly increasing, whatever the events
        self._last = progress
        return progress, float(self.total)
