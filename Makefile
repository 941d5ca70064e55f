# The verbs students and instructors type. A thin layer over CMake and the `workbook` command
# (build/grader/cli/workbook); every target configures and builds what it needs first.
#
#   make grade-04 [SUBMISSION=dir] [BACKEND=auto|gpu|emu|static] [EX=name] [SOLUTIONS=1] [SEED=n] [SANITIZE=1|memcheck,racecheck,…]
#   make test
#   make hint-04 EX=name [BLANK=id] [LEVEL=n]   make status   make reset-04 EX=name   make restore-04 EX=name [BACKUP=stamp]
#   make report-04
#   make watch-04 [EX=name]   make grade-class SUBMISSIONS=dir   make gradescope-04
#   make solutions-branch   make student-edition
#   make check [LESSON=NN]   make sync   make format   make format-check
#
# NN is any lesson present: lessons/NN-<name>/lesson.json. Nothing here names a lesson.

BUILD    ?= build
JOBS     ?= 2
WORKBOOK := $(BUILD)/grader/cli/workbook
# The lessons present (lessons/<NN-name>/lesson.json) and their numbers; grade-class grades the last by default.
LESSONS  := $(patsubst lessons/%/lesson.json,%,$(sort $(wildcard lessons/*/lesson.json)))
NUMBERS  := $(foreach l,$(LESSONS),$(firstword $(subst -, ,$(l))))
LESSON   ?= $(lastword $(NUMBERS))

.DEFAULT_GOAL := help
.PHONY: help test configure grader cli status grade-class solutions-branch student-edition check sync format format-check figures-04

help:
	@echo "Lessons:    $(NUMBERS)    (NN below is one of them)"
	@echo "Student:    make grade-NN    make watch-NN    make hint-NN EX=exercise    make status    make reset-NN EX=exercise    make restore-NN EX=exercise    make report-NN    make bench-NN    make profile-NN EX=exercise"
	@echo "Options:    SUBMISSION=dir  BACKEND=auto|gpu|emu|static  EX=exercise  SEED=n  SANITIZE=1 (gpu: compute-sanitizer too; or SANITIZE=racecheck,… for some tools)"
	$(if $(wildcard solutions),@echo "Instructor: make grade-NN SOLUTIONS=1    make grade-class SUBMISSIONS=dir [LESSON=NN]    make gradescope-NN    make solutions-branch    make student-edition")
	$(if $(wildcard solutions),@echo "Authors:    make check [LESSON=NN]    make sync    make figures-04")
	@echo "Project:    make test    make format-check    make format"

# --- prerequisites and configuration ------------------------------------------------------------------------------

# A grade that does not pass exits 1 without make's "make: *** [...] Error 1" trailer, which reads like a build
# failure. GNU make has one silent non-zero exit: question mode (-q), where a target with a recipe line make did
# not run is "not up to date" (status 1), while lines that start with '+' still run. So a command line of grade-NN
# goals alone runs in question mode: every recipe on the way starts with '+', and the last step's recipe is empty
# when the grade passed and one line (never run) when it did not. Children get none of make's flags (the scripts
# unset them; $(NO_MAKE_ENV) for the workbook), since cmake --build runs make itself.
GRADE_GOALS := $(filter-out grade-class,$(filter grade-%,$(MAKECMDGOALS)))
ifneq ($(GRADE_GOALS),)
ifeq ($(filter-out $(GRADE_GOALS),$(MAKECMDGOALS)),)
MAKEFLAGS += -q
endif
endif
NO_MAKE_ENV := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL

# Every run checks that build/ is configured for this checkout (milliseconds); a missing, failed or interrupted
# configuration is redone, after the Debian packages are checked (scripts/setup/configure.sh says how).
configure:
	+@scripts/setup/configure.sh "$(BUILD)"

# What `workbook grade` needs: the CLI, the emulator (runtime + rewriter), the harness and hidden-test objects.
# Without a GPU (or with BACKEND=emu/static) the gpu objects are never linked, so they are not built.
# Progress while something compiles (the first build), nothing when all is up to date (scripts/setup/build.sh).
GRADER_TARGET = $(if $(filter emu static,$(BACKEND)),workbook-grader-emu,$(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && echo workbook-grader || echo workbook-grader-emu))

grader: configure
	+@JOBS=$(JOBS) scripts/setup/build.sh "$(BUILD)" "the grader" $(GRADER_TARGET)

# --- grading ------------------------------------------------------------------------------------------------------

GRADE_ARGS = $(if $(SUBMISSION),--submission "$(SUBMISSION)") $(if $(BACKEND),--backend $(BACKEND)) \
             $(if $(EX),--ex "$(EX)") $(if $(filter 1 yes true,$(SOLUTIONS)),--solutions) $(if $(SEED),--seed $(SEED)) \
             $(if $(filter 1 yes true,$(SANITIZE)),--sanitize,$(if $(SANITIZE),--sanitize-tools $(SANITIZE)))

# The grade itself; its exit status (0 passed, 1 not passed, 2/3 a problem the workbook has named) goes to a file
# for the step below. A problem (2, 3, 130) stops make here, with its trailer.
run-grade-%: grader
	+@rm -f "$(BUILD)/.grade-status-$*"; $(NO_MAKE_ENV) $(WORKBOOK) grade $* $(GRADE_ARGS); rc=$$?; \
	  echo $$rc > "$(BUILD)/.grade-status-$*"; [ $$rc -le 1 ] || exit $$rc

# Read when this recipe is expanded, i.e. after the grade ran: empty when it passed, else the line question mode
# counts as "not up to date" (exit 1, silently). Outside question mode (other goals on the line) it runs: exit 1.
grade-%: run-grade-%
	$(if $(filter 0,$(strip $(file <$(BUILD)/.grade-status-$*))),,@exit 1)

watch-%: grader
	+@$(NO_MAKE_ENV) $(WORKBOOK) watch $* $(if $(EX),--ex "$(EX)") $(if $(BACKEND),--backend $(BACKEND)) \
	  $(if $(SUBMISSION),--submission "$(SUBMISSION)")

# The tools below need no compiled tests, only the CLI.
cli: configure
	+@JOBS=$(JOBS) scripts/setup/build.sh "$(BUILD)" "the workbook command" workbook

hint-%: cli
	@test -n "$(EX)" || { echo "workbook: say which exercise, e.g. make hint-$* EX=rmsnorm" >&2; exit 2; }
	@$(WORKBOOK) hint $* --ex "$(EX)" $(if $(BLANK),--blank $(BLANK)) $(if $(LEVEL),--level $(LEVEL))

status: cli
	@$(WORKBOOK) status

reset-%: cli
	@test -n "$(EX)" || { echo "workbook: say which exercise to reset, e.g. make reset-$* EX=rmsnorm" >&2; exit 2; }
	@$(WORKBOOK) reset $* --ex "$(EX)"

restore-%: cli
	@test -n "$(EX)" || { echo "workbook: say which exercise to restore, e.g. make restore-$* EX=rmsnorm" >&2; exit 2; }
	@$(WORKBOOK) restore $* --ex "$(EX)" $(if $(BACKUP),--backup "$(BACKUP)")

report-%: cli
	@$(WORKBOOK) report $* $(if $(SUBMISSION),--submission "$(SUBMISSION)")

# The emulator's profiler on one exercise (docs/emulator.md, "Profiler"): counts, a picture, a predicted H200 time.
profile-%: configure
	@test -n "$(EX)" || { echo "workbook: say which exercise, e.g. make profile-$* EX=rmsnorm" >&2; exit 2; }
	+@JOBS=$(JOBS) scripts/setup/build.sh "$(BUILD)" "the profiler" workbook emu_runtime emu-rewrite emu-nvcc
	@$(NO_MAKE_ENV) $(WORKBOOK) profile $* --ex "$(EX)" $(if $(SUBMISSION),--submission "$(SUBMISSION)") \
	  $(if $(filter 1 yes true,$(SOLUTIONS)),--solutions)

# The profiler's pictures in lesson 04's text (lessons/04-rmsnorm/figures/profile-*.svg), redrawn; the tests
# emu.profile.figure.* fail when the committed ones drift from what the profiler draws.
# A student edition has neither the solutions nor the emulator's tests that draw them: one sentence, not make's error.
figures-04: configure
	@test -d grader/emulator/tests/profile || { echo "workbook: make figures-04 is an author's command: it draws the lesson's pictures from the solutions, which this student edition leaves out." >&2; exit 2; }
	+@JOBS=$(JOBS) scripts/setup/build.sh "$(BUILD)" "the profiler's figures" profile-figures-04

grade-class: grader
	@test -n "$(SUBMISSIONS)" || { echo "workbook: say where the submissions are, e.g. make grade-class SUBMISSIONS=handins/" >&2; exit 2; }
	@$(WORKBOOK) grade-class $(LESSON) --submissions "$(SUBMISSIONS)" $(if $(BACKEND),--backend $(BACKEND))

gradescope-%: grader
	@$(WORKBOOK) gradescope $*

solutions-branch: cli
	@$(WORKBOOK) solutions-branch

student-edition: cli
	@$(WORKBOOK) student-edition $(if $(OUT),--out "$(OUT)")

# --- performance ------------------------------------------------------------------------------------------------

# make bench-NN [EX=name]: on a GPU, checks and times the student's kernels (only EX's with EX), every solution and
# the lesson's reference kernels against a device-to-device copy; writes $(BUILD)/bench-NN/. Needs no CMake build.
# Without a GPU it says so and exits 0. A lesson's benchmarks/<NN-name>/bench.sh names what it times; the driver they
# share, benchmarks/common/bench.sh, has the options.
bench-%:
	@slug=$(filter $*-%,$(LESSONS)); \
	  if [ -z "$$slug" ]; then echo "workbook: no lesson $* here (lessons: $(NUMBERS))" >&2; exit 2; fi; \
	  if [ ! -d benchmarks ] && [ ! -d solutions ]; then echo "bench-$*: the benchmarks time your kernels beside the lesson's reference kernels, which are complete solutions, so they stay with your instructor and this student edition has none (docs/performance.md has their H200 figures).$(if $(wildcard grader/emulator/profile/lesson$*_driver.cu), make profile-$* EX=<exercise> shows your kernel's memory traffic on the emulator and a predicted (not measured) H200 time.)"; exit 0; fi; \
	  if [ ! -x "benchmarks/$$slug/bench.sh" ]; then echo "bench-$*: lesson $$slug has no benchmark (benchmarks/$$slug/bench.sh)"; exit 0; fi; \
	  BUILD=$(BUILD) benchmarks/$$slug/bench.sh $(if $(EX),--ex "$(EX)")

# --- lesson authors (docs/adding-a-lesson.md) -----------------------------------------------------------------------

# Every lesson (or LESSON=NN) against its files: manifest, solutions, starters, hidden tests, known answers, the build.
check: cli
	@$(WORKBOOK) check $(if $(filter command line,$(origin LESSON)),$(LESSON))

# The starters (and pristine copies) written from the marked solutions.
sync: cli
	@$(WORKBOOK) sync

# --- the project's own tests (what CI runs) -------------------------------------------------------------------------

test: configure
	+@JOBS=$(JOBS) scripts/setup/build.sh "$(BUILD)" "the project and its tests" all
	@ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

# Every C++ and CUDA source of the project in one style, .clang-format's: format-check lists what differs, format
# rewrites. Left as they are, each for its reason:
#   grader/emulator/tests/programs/   the emulator's corpus: programs that stand for other people's CUDA code, kept in
#                                     their authors' layouts (the emulator must take any); its unit test is formatted
#   solutions/*/wrong/, solutions/*/alt/  whole-file known answers: students' submissions as handed in (a fill of
#                                     18 KB on one line, a line splice), whose layout is part of what they test
#   docs/gpu-runs/                    programs as they ran on the GPU on the day recorded: a record, not code to keep
#   exercises/                        the starters, derived from the solutions: format writes them again (sync), and
#                                     the lessons' code blocks from them (scripts/lesson/lesson-code)
FORMAT_EXT     = '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh'
FORMAT_EXCLUDE = ':(exclude)grader/emulator/tests/programs/*' ':(exclude)solutions/*/wrong/*' \
                 ':(exclude)solutions/*/alt/*' ':(exclude)exercises/*' ':(exclude)docs/gpu-runs/*'
FORMAT_FILES   = $(shell git ls-files -- $(FORMAT_EXT) $(FORMAT_EXCLUDE) 2>/dev/null) \
                 $(shell git ls-files -- grader/emulator/tests/programs/driver/driver_unit_test.cpp 2>/dev/null)
format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES)

# Formats, then derives again what is made from the formatted sources: the starters (sync) and the lessons' code
# blocks and tables (lesson-code), so that `make check` and the ctest lesson.code still pass.
format: cli
	@clang-format -i $(FORMAT_FILES)
	@$(WORKBOOK) sync
	@BUILD_DIR=$(BUILD) scripts/lesson/lesson-code --write
