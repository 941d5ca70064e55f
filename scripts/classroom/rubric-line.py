#!/usr/bin/env python3
"""One line of a lesson's rubric, read from the results.json of `make grade-NN`, for GitHub Classroom's command
grader (.github/workflows/classroom.yml): prints the line's points and exits 0 only when the line earned all of them.

  rubric-line.py RESULTS LINE     LINE: code-normal | code-edge | explanation | Q1 | Q2 | Q3 | …
  rubric-line.py RESULTS --list   every line with its maximum, one per line (what the workflow must list)

Lines are those of the core rubric: the core exercise's hidden-test groups (code-<group>) and its written items. A
missing or unreadable results.json (the grade could not run) fails every line, saying so."""
import json
import sys


def lines(results):
    core = None
    for name, ex in results.get("extra_data", {}).get("exercises", {}).items():
        if ex.get("core"):
            core = name
    out = {}
    # The code lines from the grader's own group totals (summing rounded per-test points would lose a little).
    groups = results.get("extra_data", {}).get("exercises", {}).get(core, {}).get("groups", {})
    for group in ("normal", "edge"):
        if group in groups:
            out["code-" + group] = (float(groups[group].get("score", 0)), float(groups[group].get("max_score", 0)))
    for t in results.get("tests", []):
        tags = t.get("tags", [])
        if "provisional" not in tags or len(tags) < 2 or (core is not None and tags[0] != core):
            continue
        key = "explanation" if tags[1] == "explanation" else t.get("name", "").split(" ")[0]
        out[key] = (float(t.get("score", 0)), float(t.get("max_score", 0)))
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        print(f"no results to read ({e}): the grade did not run; see the Grade step's log")
        return 1
    table = lines(results)
    if argv[2] == "--list":
        for key, (_, top) in table.items():
            print(f"{key} {top:g}")
        return 0
    if argv[2] not in table:
        print(f"the rubric has no line '{argv[2]}'; its lines: {', '.join(table)}")
        return 1
    got, top = table[argv[2]]
    print(f"{argv[2]}: {got:.2f} / {top:.2f}" + ("" if got + 1e-9 >= top else " (not all points)"))
    print(f"Backend: {results.get('extra_data', {}).get('ran_on', '?')}. Replay: {results.get('extra_data', {}).get('replay', '')}")
    return 0 if got + 1e-9 >= top else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
