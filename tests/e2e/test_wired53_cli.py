"""A Scala script no reader knows, run for real by `skillweave run` (`spec.wired52`): its calls are the steps,
its `"field" -> value` pairs the inputs, a run object shown in a comment the run's inputs (and its items' keys,
`r.roomCode` the item's `code`), a `for (r <- input.rooms)` loop a for-each whose results `totals +=` gathers,
and the comment above a call that step's rule."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import prose_skills, run_report

pytestmark = pytest.mark.e2e

SCALA = """\
// nightly bill for the rooms, run by the night porter
// input.json = { "site": "N1", "rooms": [ {"code": "R1", "sqm": 12}, {"code": "R2", "sqm": 5} ] }
object Bill extends App {
  val pulled = call("pull-rooms", Map("site" -> input.site))
  var totals = List[Result]()
  for (r <- input.rooms) {
    // the pricing box is flaky: retry it twice, 1 second apart
    totals += call("price-room", Map("room_id" -> r.roomCode, "size" -> r.sizeSqm, "rate" -> 2))
  }
  val sent = call("send-bill", Map("totals" -> totals, "count" -> pulled("count"), "to" -> "desk@example.org"))
}
"""

_SKILLS = {
    "pull-rooms": ("`site`", "`count` (number)", 'print(json.dumps({"count": len(d["site"])}))'),
    "price-room": ("`room_id`, `size` (number), `rate` (number)", "`total` (number)",
                   'print(json.dumps({"total": d["size"] * d["rate"], "room": d["room_id"]}))'),
    "send-bill": ("`totals` (list of `{total}`), `count` (number), `to`", "`sent` (boolean), `message`",
                  'print(json.dumps({"sent": True, "message": f"{d[\'count\']}/{len(d[\'totals\'])} rooms: "'
                  ' + str(sum(t["total"] for t in d["totals"])) + " to " + d["to"]}))'),
}


def test_a_scala_script_runs_by_its_calls_to_the_output(tmp_path: Path) -> None:
    prose_skills(tmp_path, _SKILLS, "billing")
    spec = tmp_path / "Bill.scala"
    spec.write_text(SCALA, encoding="utf-8")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"site": "N1", "rooms": [{"code": "R1", "sqm": 12}, {"code": "R2", "sqm": 5}]}),
                      encoding="utf-8")
    code, result = run_report(spec, str(tmp_path / "state"), "--input-file", str(inputs))
    assert code == 0 and result["status"] == "succeeded", result
    final = result["outputs"][list(result["outputs"])[-1]]
    assert final == {"sent": True, "message": "2/2 rooms: 34 to desk@example.org"}, result["outputs"]
