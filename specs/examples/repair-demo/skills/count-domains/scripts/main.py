"""count-domains: contacts per email domain, and those without an email."""

import json
import sys


def main():
    contacts = json.load(sys.stdin)["contacts"]
    domains = {}
    without = 0
    for contact in contacts:
        if contact.get("domain"):
            domains[contact["domain"]] = domains.get(contact["domain"], 0) + 1
        else:
            without += 1
    json.dump({"domains": dict(sorted(domains.items())), "without_email": without}, sys.stdout)


if __name__ == "__main__":
    main()
