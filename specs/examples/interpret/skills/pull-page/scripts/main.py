"""pull-page: a short markdown page for a topic (a local stand-in for a mirror)."""

import json
import sys


def main():
    topic = str(json.load(sys.stdin).get("topic") or "nothing")
    json.dump({"page": f"# {topic}\n\nA page about {topic}.\n"}, sys.stdout)


if __name__ == "__main__":
    main()
