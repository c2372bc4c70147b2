"""Reading 1 MB specs made to be slow (issue 25: parsing stays linear), beside compile_bench's
generated 1 MB spec: CPU seconds of `parse_spec_text` in process, each under a CPU-time cap.

Usage: .venv/bin/python bench/long_line_bench.py [--tree DIR] [--cap S]
  --tree DIR  read with the `orchestrator` of another checkout (e.g. `git archive main`
              unpacked in /tmp), for a before/after in one sitting
  --cap S     CPU seconds one spec may take (default 120); past it: "> S"
Prints one JSON document: spec -> seconds.

The specs: one prose line of 1 MB (policy sentences), one table cell of 1 MB, 1 MB of
policy sentences of 2 000 digits (durations read from every digit of a run before), and
1 MB of YAML `retry:` texts holding a 2 000-blank run.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
MB = 1 << 20
HEAD = ("# Big\n\n## Inputs\n- module_name (string): m\n\n## Workflow Steps\n\n### Step 1: Fetch\n"
        "- Skill: `fetch-docs`\n- Input: module_name\n- Output: existing_docs\n\n")


def _paragraphs(line: str) -> str:
    return HEAD + (line + "\n\n") * ((MB - len(HEAD) - 300) // (len(line) + 2))


def specs(generated: Any) -> dict[str, tuple[str, str]]:
    yaml_steps = "".join(f"  - id: s{i}\n    skill: fetch-docs\n    retry: \"escalate it to (a){' ' * 1980}x\"\n"
                         for i in range(480))
    return {
        "generated 1 MB (compile_bench)": (generated(1.0), "markdown"),
        "one 1 MB prose line": (HEAD + ("Retry it if it fails, then wait 2s. " * 30_000)[:MB - 400] + "\n", "markdown"),
        "one 1 MB table cell": (HEAD + "## Error Recovery\n\n| Step | Failure | Action |\n| --- | --- | --- |\n"
                                "| 1 | timeout | retry " + "if " * 330_000 + " |\n", "markdown"),
        "1 MB of 2 000-digit policy sentences": (_paragraphs("Retry " + "1" * 1990 + "!"), "markdown"),
        "1 MB of YAML retry texts, 2 000 blanks each": (
            "name: b\ninputs: {module_name: {type: string}}\nsteps:\n" + yaml_steps, "yaml"),
    }


class _Cap(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent)
    parser.add_argument("--cap", type=int, default=120)
    args = parser.parse_args()
    sys.path[:0] = [str(args.tree.resolve()), str(HERE)]
    from compile_bench import generated

    from orchestrator.errors import SpecError
    from orchestrator.spec import parse_spec_text

    def stop(signum: int, frame: object) -> None:
        raise _Cap

    signal.signal(signal.SIGVTALRM, stop)
    out: dict[str, float | str] = {}
    for name, (text, fmt) in specs(generated).items():
        start = time.process_time()
        signal.setitimer(signal.ITIMER_VIRTUAL, args.cap)
        try:
            parse_spec_text(text, "big.md" if fmt == "markdown" else "big.yaml", fmt)
            out[name] = round(time.process_time() - start, 2)
        except SpecError:
            out[name] = round(time.process_time() - start, 2)
        except _Cap:
            out[name] = f"> {args.cap}"
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
    print(json.dumps({"tree": str(args.tree), "cpu_s": out}, indent=2))


if __name__ == "__main__":
    main()
