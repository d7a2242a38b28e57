#!/usr/bin/env python3
"""Regenerates the rule texts of Sources/ConformanceKit/Contracts/ContractCatalog.swift from the
specification's tables (CONTRACTS.md in the project's shared documents).

    Scripts/generate-catalog.py PATH/TO/CONTRACTS.md          # rewrite the catalogue in place
    Scripts/generate-catalog.py PATH/TO/CONTRACTS.md --check  # exit 1 if it is out of date

Only the `rule:` strings (and names) of P, Q and S rows change; IDs, tiers, order and the
invariants' one-line rules stay as written in the Swift file. An ID in the table that the Swift
file lacks is reported: add it by hand (IDs are public API; never renumber)."""
import re
import sys
from pathlib import Path

CATALOGUE = Path(__file__).resolve().parent.parent / "Sources/ConformanceKit/Contracts/ContractCatalog.swift"


def table_rows(markdown):
    rows = {}
    for line in markdown.splitlines():
        match = re.match(r"^\| ([PQS]\d+) \| (.*?) \| (.*) \|$", line)
        if match:
            name = re.sub(r" \(recommended\)$", "", match.group(2))
            rows[match.group(1)] = (name, match.group(3))
    return rows


def swift_string(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = table_rows(Path(sys.argv[1]).read_text())
    source = CATALOGUE.read_text()
    seen = set()

    def replace(match):
        identifier = match.group(1)
        seen.add(identifier)
        if identifier not in rows:
            return match.group(0)
        name, rule = rows[identifier]
        return f'id: "{identifier}", name: "{swift_string(name)}",\n{match.group(3)}rule: "{swift_string(rule)}",\n'

    updated = re.sub(r'id: "(\w+)", name: "((?:[^"\\]|\\.)*)",\n(\s+)rule: "(?:[^"\\]|\\.)*",\n', replace, source)
    missing = sorted(set(rows) - seen)
    if missing:
        print("IDs in the specification but not in the catalogue: " + ", ".join(missing), file=sys.stderr)
    if "--check" in sys.argv:
        if updated != source:
            print("ContractCatalog.swift is out of date with " + sys.argv[1], file=sys.stderr)
            sys.exit(1)
        return
    CATALOGUE.write_text(updated)


if __name__ == "__main__":
    main()
