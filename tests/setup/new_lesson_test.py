#!/usr/bin/env python3
"""A lesson scaffolded by `workbook new-lesson` is a lesson like any other, with no edit outside its own folders.

On a clone of the repository: `workbook new-lesson NN-scale` (NN the first number after the lessons present), then
  - git lists new files only under lessons/, solutions/, exercises/ and grader/hidden-tests/ NN-scale/;
  - CMake, configured afresh, discovers the lesson: its judge and worker entry table build (only those targets, so
    the test stays quick), and `ctest -N` lists its known-answer tests, so `make test` covers it;
  - `workbook grade NN` passes the solution and fails the untouched starter, on the emulator. The grade uses the
    clone's judge and entry table with this build's command and emulator (composed into one workbook-config.json),
    which a fresh build of the clone would make the same; `workbook check` then finds no problem in any lesson.
usage: new_lesson_test.py SOURCE_ROOT WORKBOOK BUILD_CONFIG WORK [CMAKE_ARG...]"""
import json
import os
import shutil
import subprocess
import sys

SLUG = ""  # NN-scale, set from the clone's lessons
OWN = []


def run(cmd, cwd=None, env=None, ok=(0,)):
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode not in ok:
        sys.exit(f"FAILED: {' '.join(cmd)} exited {r.returncode}:\n{r.stdout}")
    return r


def depfile_inputs(depfile):
    """The files a compile read, from its make-style depfile (after the object's own name), as written."""
    text = open(depfile).read().replace("\\\n", " ")
    return text.split(":", 1)[1].split() if ":" in text else []


def seed_shared_objects(seed_root, seed_build, repo, build):
    """Gives the clone's build this build's objects of the targets every judge and worker shares (grader/harness and
    the hidden tests' testkit), where the clone would compile them the same: the same flags, paths aside, and the
    same bytes in every file of the checkout or build folder the compile read (its depfile). The clone then compiles
    only what differs, which for a new lesson is its own judge's test file and worker table; what this test checks
    (the lesson is discovered, its judge and table build and link, its grade) runs on the clone as before. Returns
    how many objects were given."""
    def normalized(path, root, bld):
        return open(path, errors="replace").read().replace(bld, "@BUILD@").replace(root, "@ROOT@")

    given = 0
    for top in ("grader/harness", "grader/hidden-tests"):
        for target_dir, _, files in os.walk(os.path.join(seed_build, top, "CMakeFiles")):
            if not target_dir.endswith(".dir") and ".dir/" not in target_dir + "/":
                continue
            name = target_dir.split("CMakeFiles/", 1)[1].split("/", 1)[0]
            if top == "grader/hidden-tests" and name != "hidden_testkit.dir":
                continue  # the lessons' own judges: not shared
            rel_dir = os.path.relpath(target_dir, seed_build)
            flags_rel = os.path.join(top, "CMakeFiles", name, "flags.make")
            mine, theirs = os.path.join(seed_build, flags_rel), os.path.join(build, flags_rel)
            if not (os.path.isfile(mine) and os.path.isfile(theirs)) or \
                    normalized(mine, seed_root, seed_build) != normalized(theirs, repo, build):
                continue
            for f in files:
                if not f.endswith(".o") or not os.path.isfile(os.path.join(target_dir, f + ".d")):
                    continue
                obj = os.path.join(target_dir, f)
                cwd = os.path.join(seed_build, top)  # where the compile ran: the directory of the target
                same = True
                for dep in depfile_inputs(obj + ".d"):
                    path = os.path.normpath(os.path.join(cwd, dep))
                    if path.startswith(seed_build + "/"):
                        other = os.path.join(build, os.path.relpath(path, seed_build))
                        same = os.path.isfile(other) and \
                            normalized(path, seed_root, seed_build) == normalized(other, repo, build)
                    elif path.startswith(seed_root + "/"):
                        other = os.path.join(repo, os.path.relpath(path, seed_root))
                        same = os.path.isfile(other) and open(path, "rb").read() == open(other, "rb").read()
                    if not same:
                        break
                if not same:
                    continue
                dest = os.path.join(build, rel_dir, f)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                shutil.copyfile(obj, dest)
                deps = open(obj + ".d").read().replace(seed_build, build).replace(seed_root, repo)
                open(dest + ".d", "w").write(deps)
                os.utime(dest)  # newer than the clone's sources and flags: up to date for make
                given += 1
    return given


def main():
    source, workbook, build_config, work = sys.argv[1:5]
    cmake_args = sys.argv[5:]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    repo = os.path.join(work, "repo")
    run(["git", "clone", "-q", "--no-hardlinks", source, repo])
    env = dict(os.environ, WORKBOOK_ROOT=repo, WORKBOOK_CONFIG=build_config)
    env.pop("MAKEFLAGS", None)

    global SLUG, OWN
    numbers = [int(d[:2]) for d in os.listdir(os.path.join(repo, "lessons")) if d[:2].isdigit()]
    SLUG = f"{max(numbers, default=0) + 1:02d}-scale"
    OWN = [f"{top}/{SLUG}/" for top in ("lessons", "solutions", "exercises", "grader/hidden-tests")]
    print(run([workbook, "new-lesson", SLUG], env=env).stdout, end="")
    status = run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"]).stdout.splitlines()
    outside = [line for line in status if not any(line[3:].startswith(p) for p in OWN)]
    if outside or not status:
        sys.exit(f"FAILED: new-lesson touched files outside the lesson's folders: {outside or 'none written'}")
    print(f"new-lesson wrote {len(status)} files, all in the lesson's own folders")

    build = os.path.join(repo, "build")
    # This build's manifest reader, used by the configure only if the clone's copies of its sources are the same
    # (seed_lesson_cmake.sh): its compile is this build's, not the new lesson's.
    if os.environ.get("WORKBOOK_SEED_BUILD"):
        run([os.path.join(source, "tests/setup/seed_lesson_cmake.sh"), os.environ["WORKBOOK_SEED_BUILD"], build])
    run(["cmake", "-S", repo, "-B", build] + cmake_args)
    config = json.load(open(os.path.join(build, "workbook-config.json")))
    if set(config["judges"].get(SLUG, {})) != {"scale"}:
        sys.exit(f"FAILED: the clone's build has no judge for {SLUG}: {config['judges']}")
    if os.environ.get("WORKBOOK_SEED_BUILD"):
        given = seed_shared_objects(os.path.realpath(source), os.path.realpath(os.environ["WORKBOOK_SEED_BUILD"]),
                                    os.path.realpath(repo), os.path.realpath(build))
        print(f"{given} objects shared by every judge and worker taken from this build (compiled the same)")
    ident = "_" + SLUG.replace("-", "_")  # string(MAKE_C_IDENTIFIER) of the slug: a leading digit gets a '_'
    run(["cmake", "--build", build, "-j2", "--target", f"judge_{SLUG.replace('-', '_')}_scale",
         f"hidden_{ident}_entries_emu"])
    listed = run(["ctest", "--test-dir", build, "-N"]).stdout
    for test in (f"grading.{SLUG}.solutions", f"grading.{SLUG}.starters"):
        if test not in listed:
            sys.exit(f"FAILED: ctest does not list {test}, so make test would not cover the new lesson")
    print(f"the clone's build has the judge and worker table of {SLUG}; ctest lists its known-answer tests")

    # This build's command and emulator, the clone's judge and worker entry table of the new lesson.
    grading = json.load(open(build_config))
    grading["repo_root"] = repo
    grading["judges"][SLUG] = config["judges"][SLUG]
    grading["hidden_tests"][SLUG] = config["hidden_tests"][SLUG]
    composed = os.path.join(work, "workbook-config.json")
    json.dump(grading, open(composed, "w"), indent=2)
    genv = dict(env, WORKBOOK_CONFIG=composed)
    print(run([workbook, "check"], env=genv).stdout, end="")
    passed = run([workbook, "grade", SLUG[:2], "--solutions", "--backend", "emu"], env=genv).stdout
    if "PASSED" not in passed:
        sys.exit(f"FAILED: the scaffolded solution did not pass:\n{passed}")
    starter = run([workbook, "grade", SLUG[:2], "--backend", "emu"], env=genv, ok=(1,)).stdout
    if "fill the blanks" not in starter:
        sys.exit(f"FAILED: the untouched starter was not asked to fill its blank:\n{starter}")
    print(f"{SLUG}: the solution passes, the starter is asked to fill its blank")


if __name__ == "__main__":
    main()
