#!/usr/bin/env python3
"""Lists, for each defect a recall reviewer wrote down, the scan's findings within 3 lines.

Reviews are Markdown lines `- <path> : <line> : <class> : certain|needs review : <why>`, paths
relative to the corpus; scans are `a11y-audit scan FILE --format json` reports of the same
files (their paths are relative to the enclosing project, so they are matched as suffixes).
Whether a nearby finding is the same defect is then judged by a person: a different defect
on a neighbouring line is not a catch (docs/accuracy.md, "Recall").

    scripts/recall-match.py --reviews review-A.md review-B.md --scans scan/*.json
"""
import argparse, json, os, re

ENTRY = re.compile(r'- (.+?) : (\d+) : (.+?) : (certain|needs review) : (.*)')

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--reviews', nargs='+', required=True)
    parser.add_argument('--scans', nargs='+', required=True)
    parser.add_argument('--window', type=int, default=3)
    args = parser.parse_args()
    findings = []
    for path in args.scans:
        with open(path) as handle:
            for finding in json.load(handle)['findings']:
                location = finding['location']
                findings.append((location['file'], location['line'], finding['ruleID'], finding['certainty']))
    totals = {}
    for review in args.reviews:
        for line in open(review):
            match = ENTRY.match(line.strip())
            if not match:
                continue
            path, number, defect, certainty = match.group(1), int(match.group(2)), match.group(3), match.group(4)
            near = [f for f in findings if path.endswith('/' + f[0]) and abs(f[1] - number) <= args.window]
            seen = totals.setdefault(certainty, [0, 0])
            seen[0] += 1
            seen[1] += bool(near)
            listed = '; '.join(f'{f[1]} {f[2]} ({f[3]})' for f in near) or '-'
            print(f'{certainty:12} {os.path.basename(path)}:{number} {defect} | {listed}')
    for certainty, (count, near) in sorted(totals.items()):
        print(f'{certainty}: {count} listed, {near} with a finding within {args.window} lines')

if __name__ == '__main__':
    main()
