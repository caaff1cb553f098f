#!/usr/bin/env python3
"""Prints the modules that building one target compiles, read from SwiftPM's build plan.

Usage: module-closure.py MANIFEST TARGET

MANIFEST is the llbuild manifest `swift build` wrote (`<scratch>/debug.yaml`). The target's node
`<TARGET-<triple>-debug.module>` is walked back through the commands that produce each input, as
llbuild does for `swift build --target TARGET`; every "Compiling Swift Module 'X'" and C
compilation met is printed, one module a line. So the answer is what that build compiles, cold or
warm, whatever else the package's other targets need.
"""
import json
import re
import sys

manifest, target = sys.argv[1], sys.argv[2]
producers = {}  # output node -> (inputs, description)
name = None
record = {}


def flush():
    if name is not None:
        for output in record.get("outputs", []):
            producers.setdefault(output, []).append((record.get("inputs", []), record.get("description", "")))


with open(manifest, encoding="utf-8") as text:
    in_commands = False
    for line in text:
        if line.startswith("commands:"):
            in_commands = True
            continue
        if not in_commands:
            continue
        if line.startswith('  "') and line.rstrip().endswith(":"):
            flush()
            name, record = line.strip()[:-1], {}
        elif line.startswith("    ") and ": " in line:
            key, value = line.strip().split(": ", 1)
            if key in ("inputs", "outputs"):
                record[key] = json.loads(value)
            elif key == "description":
                record[key] = json.loads(value)
    flush()

roots = [node for node in producers if re.fullmatch(r"<%s-[^>]*-debug\.module>" % re.escape(target), node)]
if not roots:
    sys.exit(f"module-closure: no node for target {target} in {manifest}")
seen, queue, modules = set(), list(roots), set()
while queue:
    node = queue.pop()
    if node in seen:
        continue
    seen.add(node)
    for inputs, description in producers.get(node, []):
        match = re.match(r"Compiling Swift Module '([^']+)'", description)
        if match:
            modules.add(match.group(1))
        match = re.match(r"Compiling (\S+) ", description)
        if match and not description.startswith("Compiling Swift Module"):
            modules.add(match.group(1))
        queue.extend(inputs)
for module in sorted(modules):
    print(module)
