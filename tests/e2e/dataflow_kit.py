"""Tiny script skills and specs for the data- and control-flow e2e tests, and a CLI runner.

Each test writes a spec and the skills it needs into its own folder (`skills/` beside
the spec, so the catalog finds them) and runs the real `skillweave` on it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))

SCRIPTS: dict[str, tuple[str, str]] = {
    # name: (description and instructions, script)
    "bump": (
        "Test skill. Adds one to the integer n.",
        """
        import json, sys
        json.dump({"n": json.load(sys.stdin)["n"] + 1}, sys.stdout)
        """,
    ),
    "list-people": (
        "Test skill. Turns a roster `Ada:36,Linus:28` into people with a name and an age.",
        """
        import json, sys
        data = json.load(sys.stdin)
        people = []
        for part in str(data["roster"]).split(","):
            name, age = part.split(":")
            people.append({"name": name.strip(), "age": int(age)})
        json.dump({"people": people}, sys.stdout)
        """,
    ),
    "greet": (
        "Test skill. Greets one person by name and says their age next year.",
        """
        import json, sys
        data = json.load(sys.stdin)
        if not isinstance(data.get("name"), str) or not isinstance(data.get("age"), int):
            print("name (text) and age (integer) are required", file=sys.stderr)
            sys.exit(2)
        json.dump({"greeting": f"Hello {data['name']}", "next_age": data["age"] + 1}, sys.stdout)
        """,
    ),
    "summarize": (
        "Test skill. Joins greetings and sums ages; echoes the item count of the whole list.",
        """
        import json, sys
        data = json.load(sys.stdin)
        json.dump({"text": "; ".join(data["greeting"]), "ages": sum(data["next_age"]),
                   "count": len(data["items"])}, sys.stdout)
        """,
    ),
    "wait-for-go": (
        "Test skill. Waits (up to 60 s) for a file named go in its gate folder, then says which step it is.",
        """
        import json, os, sys, time
        gate = json.load(sys.stdin)["gate"]
        deadline = time.monotonic() + 60
        while not os.path.exists(os.path.join(gate, "go")):
            if time.monotonic() > deadline:
                print("no go: the test never saw both steps start", file=sys.stderr)
                sys.exit(1)
            time.sleep(0.05)
        json.dump({"step": os.environ["SKILLWEAVE_STEP_ID"]}, sys.stdout)
        """,
    ),
    "both-went": (
        "Test skill. Says which steps went.",
        """
        import json, sys
        json.dump({"steps": sorted(v["step"] for v in json.load(sys.stdin).values())}, sys.stdout)
        """,
    ),
    "score": (
        "Test skill. Gives back the score it is given.",
        """
        import json, sys
        json.dump({"score": json.load(sys.stdin)["points"]}, sys.stdout)
        """,
    ),
    "say-pass": (
        "Test skill. Says the verdict is pass.",
        """
        import json, sys
        json.load(sys.stdin)
        json.dump({"verdict": "pass"}, sys.stdout)
        """,
    ),
    "say-fail": (
        "Test skill. Says the verdict is fail.",
        """
        import json, sys
        json.load(sys.stdin)
        json.dump({"verdict": "fail"}, sys.stdout)
        """,
    ),
    "announce": (
        "Test skill. Announces a verdict.",
        """
        import json, sys
        json.dump({"line": "verdict: " + json.load(sys.stdin)["verdict"]}, sys.stdout)
        """,
    ),
    "book": (
        "Test skill. Books an amount and returns a booking id.",
        """
        import json, sys
        amount = json.load(sys.stdin)["amount"]
        json.dump({"booking_id": f"B-{amount}", "amount": amount}, sys.stdout)
        """,
    ),
    "classify": (
        "Test skill. A classifier that is down: it always fails.",
        """
        import sys
        print("the classifier is down", file=sys.stderr)
        sys.exit(1)
        """,
    ),
    "label": (
        "Test skill. Labels a thing by its type.",
        """
        import json, sys
        json.dump({"label": "type: " + json.load(sys.stdin)["type"]}, sys.stdout)
        """,
    ),
    "peek": (
        "Test skill. Lists what it can see of its input folder, of /inputs and beside the folder.",
        """
        import json, os, sys
        folder = json.load(sys.stdin)["folder"]
        beside = os.path.join(os.path.dirname(folder), "secret.txt")
        try:
            with open(beside) as handle:
                secret = handle.read()
        except OSError as exc:
            secret = type(exc).__name__
        try:
            with open(os.path.join(folder, "new.csv"), "w") as handle:
                handle.write("x")
            wrote = "wrote"
        except OSError as exc:
            wrote = type(exc).__name__
        json.dump({"folder": folder, "files": sorted(os.listdir(folder)), "inputs": sorted(os.listdir("/inputs")),
                   "beside": secret, "write": wrote}, sys.stdout)
        """,
    ),
}


def make_skill(root: Path, name: str, *, input_schema: dict[str, Any] | None = None,
               output_schema: dict[str, Any] | None = None, instructions: str = "") -> Path:
    """A script skill `name` of SCRIPTS under `root/skills/`, readable by the sandbox's uid."""
    description, script = SCRIPTS[name]
    folder = root / "skills" / name
    (folder / "scripts").mkdir(parents=True, exist_ok=True)
    meta = ["  skillweave.kind: script", "  skillweave.entry: scripts/main.py", '  skillweave.timeout: "90"']
    for kind, schema in (("input", input_schema), ("output", output_schema)):
        if schema is not None:
            (folder / "schemas").mkdir(exist_ok=True)
            (folder / "schemas" / f"{kind}.json").write_text(json.dumps(schema), encoding="utf-8")
            meta.append(f"  skillweave.{kind}-schema: schemas/{kind}.json")
    (folder / "SKILL.md").write_text(
        "---\n" + f"name: {name}\ndescription: {json.dumps(description)}\nmetadata:\n" + "\n".join(meta) + "\n---\n\n"
        + (instructions or description) + "\n", encoding="utf-8")
    (folder / "scripts" / "main.py").write_text(textwrap.dedent(script).lstrip(), encoding="utf-8")
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    (root / "skills").chmod(0o755)
    return folder


def write_spec(root: Path, text: str, name: str = "spec.md") -> Path:
    path = root / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def skillweave(*args: str | Path, env: dict[str, str] | None = None, timeout: float = 180,
               ) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_STATE")}
    environ.update(env or {})
    return subprocess.run([SKILLWEAVE, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                          env=environ, check=False)


def run_json(spec: Path, state: Path, *inputs: str, env: dict[str, str] | None = None,
             ) -> tuple[int, dict[str, Any], str]:
    """(exit code, the --json summary, stderr) of `skillweave run spec -i ... --json`."""
    args: list[str | Path] = ["run", spec, "--json", "--state-dir", state]
    for item in inputs:
        args += ["--input", item]
    done = skillweave(*args, env=env)
    try:
        summary = json.loads(done.stdout)
    except ValueError:
        summary = {}
    return done.returncode, summary, done.stderr


def statuses(summary: dict[str, Any]) -> dict[str, str]:
    return {s["step_id"]: s["status"] for s in summary["steps"]}
