#!/usr/bin/env python3
"""Draws a seeded random sample of UI files from a corpus for a recall review.

A UI file: Swift, 40-350 lines, imports SwiftUI, UIKit or AppKit and declares or uses views
(`: View`, `some View`, UIKit views or controllers); tests, previews, packages' build folders
and vendored code left out. The reviewer reads the files without the scan's output and lists
the defects the source establishes (see docs/accuracy.md, "Recall").

    scripts/recall-sample.py --seed 15 --count 24 --corpus /tmp/fresh19 > files.txt
"""
import argparse, os, random, re

SKIP_DIRS = re.compile(r'(?i)(tests?|preview|\.build|pods|carthage|vendor|third.?party|checkouts)$')
UI = re.compile(r'(: View\b|some View|UIView|UIViewController|NSView|UITableViewCell|UIButton|UILabel)')

def ui_files(corpus):
    found = []
    for root, dirs, files in os.walk(corpus):
        dirs[:] = sorted(d for d in dirs if not SKIP_DIRS.search(d))
        for name in sorted(files):
            path = os.path.join(root, name)
            if not name.endswith('.swift') or re.search(r'(?i)test', path):
                continue
            try:
                text = open(path, errors='replace').read()
            except OSError:
                continue
            if 40 <= text.count('\n') <= 350 and re.search(r'import (SwiftUI|UIKit|AppKit)', text) and UI.search(text):
                found.append(os.path.relpath(path, corpus))
    return sorted(found)

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--seed', type=int, required=True)
    parser.add_argument('--count', type=int, default=24)
    parser.add_argument('--corpus', required=True)
    args = parser.parse_args()
    files = ui_files(args.corpus)
    for path in random.Random(args.seed).sample(files, min(args.count, len(files))):
        print(path)

if __name__ == '__main__':
    main()
