#!/usr/bin/env python3
"""Draws a seeded random sample of warnings and errors from `a11y-audit scan --format json`
reports, for the precision review described in docs/accuracy.md.

    scripts/accuracy-sample.py --seed 13 --count 160 --corpus /tmp/corpus REPORT.json... > sample.md

Each report must be named after its checkout folder under --corpus (`<folder>.json`). The
sample is drawn from all warnings and errors of all reports together, so a rule's share of the
sample follows its share of the findings; each entry quotes the code around the finding.
"""
import argparse
import json
import os
import random


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, default=160)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--context", type=int, default=12)
    parser.add_argument("--include-review", action="store_true",
                        help="also draw findings that need review (default: violations only)")
    parser.add_argument("reports", nargs="+")
    arguments = parser.parse_args()

    population = []
    for report in sorted(arguments.reports):
        folder = os.path.basename(report)[: -len(".json")]
        with open(report) as handle:
            findings = json.load(handle)["findings"]
        for finding in findings:
            # Findings that need review are reported at note severity: --include-review draws
            # them; advisory notes that are violations are never drawn.
            review = finding.get("certainty", "violation") != "violation"
            if review and not arguments.include_review:
                continue
            if finding["severity"] == "note" and not review:
                continue
            population.append((folder, finding))
    population.sort(key=lambda item: (item[0], item[1]["location"]["file"], item[1]["location"]["line"],
                                      item[1]["location"]["column"], item[1]["ruleID"]))
    sample = random.Random(arguments.seed).sample(population, min(arguments.count, len(population)))
    drawn = "findings" if arguments.include_review else "warnings and errors"
    print(f"# Sample: seed {arguments.seed}, {len(sample)} of {len(population)} {drawn}\n")
    for number, (folder, finding) in enumerate(sample, 1):
        location = finding["location"]
        path = os.path.join(arguments.corpus, folder, location["file"])
        print(f"## {number}. {finding['ruleID']} ({finding['severity']})")
        print(f"- app: {folder}\n- file: {path}:{location['line']}:{location['column']}")
        print(f"- message: {finding['message']}")
        print(f"- citation: {finding['citation']['source']}: {finding['citation']['quote'][:300]}\n")
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().split("\n")
        except OSError as error:
            print(f"(cannot read: {error})\n")
            continue
        first = max(0, location["line"] - 1 - arguments.context)
        last = min(len(lines), location["line"] + arguments.context)
        print("```")
        for index in range(first, last):
            marker = ">" if index == location["line"] - 1 else " "
            print(f"{marker}{index + 1:5} {lines[index][:220]}")
        print("```\n")


if __name__ == "__main__":
    main()
