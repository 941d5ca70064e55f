#!/usr/bin/env python3
"""The hidden tests execute every line of every solution (issue: "hidden tests reach every path").

Builds each solution of a lesson for the emulator exactly as `workbook grade` builds a worker (the flags, objects
and libraries of build/workbook-config.json), adds gcov's instrumentation, runs every hidden test of the exercise
through its judge, and asks gcovr for the lines of the solution that no test executed. Any such line fails the test,
and is named with the hidden tests that would have to reach it.

Usage: solution_coverage.py BUILD_DIR LESSON WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys


def run(argv, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
    return r.stdout


def main():
    build, lesson, work = sys.argv[1:4]
    config = json.load(open(os.path.join(build, "workbook-config.json")))
    root = config["repo_root"]
    emu = config["emu"]
    judges = config["judges"][lesson]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    missed = []
    # Lets the solutions' kernels increment the coverage counters (host statics): coverage_reach.cpp says why.
    reach = os.path.join(work, "coverage_reach.o")
    run([config["cxx"], *emu["cxxflags"], "-I" + emu["include_dir"], "-c",
         os.path.join(root, "tests", "coverage", "coverage_reach.cpp"), "-o", reach])
    for exercise, judge in judges.items():
        source = os.path.join(root, "solutions", lesson, exercise + ".cu")
        out = os.path.join(work, exercise)
        os.makedirs(out)
        cpp, obj, worker = (os.path.join(out, n) for n in (exercise + ".emu.cpp", exercise + ".o", "worker"))
        run([emu["rewrite"], source, cpp])
        run([config["cxx"], *emu["cxxflags"], "-I" + emu["include_dir"], "--coverage", "-c", cpp, "-o", obj])
        objects = config["hidden_tests"][lesson][exercise]["emu"] + config["harness"]["emu"]
        # The linker a grade links workers with (gold where binutils has it: build/workbook-config.json).
        run([config["cxx"], obj, reach, *objects, emu["runtime_lib"], *config["link_libs"]["emu"], *emu["ldflags"],
             *config.get("link_flags", []), "--coverage", "-o", worker])
        names = [t["name"] for t in json.loads(run([judge, "--wb-list"]))]
        for name in names:
            # The sandbox is off for this measurement only: the worker must write its .gcda file beside the object.
            r = subprocess.run([judge, "--wb-run", name, "--wb-result", os.path.join(out, "result.json"),
                                "--wb-seed", "1", "--wb-worker", worker, "--wb-sandbox", "off",
                                "--wb-call-timeout", "60"], input="nonce\n", capture_output=True, text=True)
            status = json.load(open(os.path.join(out, "result.json"))).get("status")
            if status != "passed":
                sys.exit(f"the solution of {exercise} failed its hidden test '{name}' (exit {r.returncode})")
        report = json.loads(run(["gcovr", "--root", root, "--filter", source, "--json", "-", out], cwd=out))
        lines = [l for f in report["files"] for l in f["lines"] if not l.get("gcovr/noncode", False)]
        if len(lines) < 10:
            sys.exit(f"gcovr found {len(lines)} executable lines of {source}: the measurement did not work")
        for f in report["files"]:
            for line in f["lines"]:
                if line["count"] == 0 and not line.get("gcovr/noncode", False):
                    missed.append(f"{f['file']}:{line['line_number']}")
        print(f"{exercise}: {len(names)} hidden tests; all {len(lines)} executable lines of {exercise}.cu ran"
              if not any(m.startswith(f"solutions/{lesson}/{exercise}.cu:") for m in missed) else
              f"{exercise}: {len(names)} hidden tests; lines never executed: "
              + ", ".join(m for m in missed if f"/{exercise}.cu:" in m))
    if missed:
        sys.exit("lines of the solutions that no hidden test executes (add a hidden test that reaches each): "
                 + ", ".join(missed))


if __name__ == "__main__":
    main()
