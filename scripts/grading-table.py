#!/usr/bin/env python3
"""Prints the known-answers tables of docs/grading.md from the lists and two result files.

  scripts/grading-table.py CTEST_LOG GPU_RESULTS [LESSON_SLUG] > table.md

CTEST_LOG: the output of `ctest` (lines "grading.<slug>.<wrong|alt>.<exercise>.<name> ... Passed").
GPU_RESULTS: known-results.txt written by scripts/gpu-verify.sh ("ok|FAILED|SKIPPED <wrong|alt> <name> [(N s)]" per
line; several files may be concatenated, the last line of an entry wins). SKIPPED entries read as "not run".
LESSON_SLUG: the lesson whose known answers are tabled (default: the last lesson under lessons/).
"""
import json
import re
import sys
from pathlib import Path

repo = Path(__file__).resolve().parent.parent
slug = sys.argv[3] if len(sys.argv) > 3 else sorted(p.parent.name for p in (repo / "lessons").glob("*/lesson.json"))[-1]
root = repo / "solutions" / slug
wrong = json.loads((root / "wrong" / "wrong.json").read_text())
alt = json.loads((root / "alt" / "alt.json").read_text())

emu = {}
for line in open(sys.argv[1]):
    m = re.search(r"grading\." + re.escape(slug) + r"\.(wrong|alt)\.([a-z_0-9]+)\.(\S+) \.+\s*(\*\*\*Failed|Passed|\*\*\*Timeout)",
                  line)
    if m:
        kind, name, ok = m.group(1), m.group(3), m.group(4) == "Passed"
        emu[(kind, name)] = ("rejected as expected" if kind == "wrong" else "passes every test") if ok else "UNEXPECTED"
gpu = {}
for line in open(sys.argv[2]):
    if not line.strip():
        continue
    status, kind, name = line.split()[:3]
    if status == "SKIPPED":
        continue
    if status == "ok":
        gpu[(kind, name)] = "rejected as expected" if kind == "wrong" else "passes every test"
    else:
        gpu[(kind, name)] = "passes on the GPU (see above)" if kind == "wrong" else "FAILS on the GPU"


def cell(text):
    return text.replace("|", "\\|")


def kind_of(entry):
    return "blank fill" if "fills" in entry else "edit outside the blanks" if "patch" in entry else "whole file"


print("| exercise | wrong answer | kind | why it is wrong | must fail | emu | H200 |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for e in wrong:
    x = e["expect"]
    groups = ", ".join(x.get("fails_groups", [])) + (f" + veto ({x['veto']})" if x.get("veto") else "")
    on_gpu = gpu.get(('wrong', e['name']), 'not run')
    # known_answers reports an emu_only entry's gpu grade without judging it ("ok" either way): never "rejected".
    if "emu_only" in x and on_gpu != "not run":
        on_gpu = "reported, not judged (emu only: see above)"
    print(f"| {e['exercise']} | `{e['name']}` | {kind_of(e)} | {cell(x.get('reason', ''))} | {groups} | "
          f"{emu.get(('wrong', e['name']), 'not run')} | {on_gpu} |")
print()
print("| exercise | correct alternative | why it is correct | emu | H200 |")
print("| --- | --- | --- | --- | --- |")
for e in alt:
    print(f"| {e['exercise']} | `{e['name']}` | {cell(e.get('why', ''))} | "
          f"{emu.get(('alt', e['name']), 'not run')} | {gpu.get(('alt', e['name']), 'not run')} |")
