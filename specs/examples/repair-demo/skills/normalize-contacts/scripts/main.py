"""normalize-contacts: trim names, lower-case emails, add the domain."""

import json
import sys


def normalize(record):
    email = record["email"].strip().lower()
    return {
        "name": record["name"].strip(),
        "email": email,
        "domain": email.split("@", 1)[1],
    }


def main():
    data = json.load(sys.stdin)
    contacts = [normalize(record) for record in data["contacts"]]
    json.dump({"contacts": contacts, "count": len(contacts)}, sys.stdout)


if __name__ == "__main__":
    main()
