"""Total the `amount` column of every CSV file in the input folder (read-only), write totals.csv."""

import csv
import json
import sys
from pathlib import Path

folder = Path(json.load(sys.stdin)["folder"])
files = sorted(p for p in folder.glob("*.csv") if p.is_file())
if not files:
    print(f"no .csv file in {folder}", file=sys.stderr)
    sys.exit(2)
totals = []
for path in files:
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if "amount" not in (reader.fieldnames or []):
            print(f"{path.name} has no amount column", file=sys.stderr)
            sys.exit(2)
        totals.append({"file": path.name, "total": round(sum(float(row["amount"]) for row in reader), 2)})

with open("totals.csv", "w", newline="", encoding="utf-8") as out:  # the working directory: an artifact
    writer = csv.DictWriter(out, fieldnames=["file", "total"])
    writer.writeheader()
    writer.writerows(totals)

grand = round(sum(t["total"] for t in totals), 2)
json.dump({"files": len(totals), "totals": totals, "grand_total": grand}, sys.stdout)
