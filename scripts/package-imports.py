#!/usr/bin/env python3
"""Package.swift against the code: every module a target imports from this package is in its
dependencies, and every dependency it declares is imported somewhere in its folder.
Usage: scripts/package-imports.py [ROOT]; prints one problem per line, nothing when they agree."""
import glob, os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else "."
text = open(os.path.join(root, "Package.swift")).read()
problems = []
targets = {}
for m in re.finditer(r'\.(target|executableTarget|testTarget|systemLibrary)\(', text):
    depth, i = 0, m.end() - 1
    while True:
        c = text[i]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                break
        i += 1
    body = text[m.end():i]
    name = re.search(r'name:\s*"([^"]+)"', body).group(1)
    deps = re.search(r'dependencies:\s*\[(.*?)\]', body, re.S)
    path = re.search(r'path:\s*"([^"]+)"', body)
    kind = m.group(1)
    folder = path.group(1) if path else ("Tests/" if kind == "testTarget" else "Sources/") + name
    targets[name] = (kind, set(re.findall(r'"([^"]+)"', deps.group(1))) if deps else set(), folder)
for name, (kind, deps, folder) in sorted(targets.items()):
    if kind == "systemLibrary":
        continue
    imports = set()
    for f in glob.glob(os.path.join(root, folder, "**", "*.swift"), recursive=True):
        for line in open(f, encoding="utf-8"):
            m = re.match(r'\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*import\s+(?:struct |class |enum |func |protocol )?([A-Za-z_]\w*)', line)
            if m:
                imports.add(m.group(1))
    local = imports & set(targets)
    for missing in sorted(local - deps - {name}):
        problems.append(f"{name} imports {missing} without declaring it")
    for unused in sorted(deps - imports):
        problems.append(f"{name} declares {unused} but imports it nowhere")
print("\n".join(problems))
print(f"checked {len([t for t in targets.values() if t[0] != 'systemLibrary'])} targets", file=sys.stderr)
