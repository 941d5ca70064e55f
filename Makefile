# The verbs students and instructors type. A thin layer over CMake and the `workbook` command
# (build/grader/cli/workbook); every target configures and builds what it needs first.
#
#   make grade-04 [SUBMISSION=dir] [BACKEND=auto|gpu|emu|static] [EX=name] [SOLUTIONS=1] [SEED=n]
#   make test
#   make hint-04 EX=name [BLANK=id] [LEVEL=n]   make status   make reset-04 EX=name   make report-04
#   make watch-04 [EX=name]   make grade-class SUBMISSIONS=dir   make gradescope-04
#   make solutions-branch   make student-edition

BUILD    ?= build
JOBS     ?= 2
LESSON   ?= 04
WORKBOOK := $(BUILD)/grader/cli/workbook

.DEFAULT_GOAL := help
.PHONY: help test configure grader cli status grade-class solutions-branch student-edition

help:
	@echo "Student:    make grade-04    make watch-04    make hint-04 EX=rmsnorm    make status    make reset-04 EX=rmsnorm    make report-04"
	@echo "Options:    SUBMISSION=dir  BACKEND=auto|gpu|emu|static  EX=exercise  SOLUTIONS=1  SEED=n"
	@echo "Instructor: make grade-class SUBMISSIONS=dir    make gradescope-04    make solutions-branch    make student-edition"
	@echo "Project:    make test"

# --- prerequisites and configuration ------------------------------------------------------------------------------

# One sentence and the exact install line when a tool is missing (Debian/Ubuntu package names).
define need_tool
	@command -v $(1) >/dev/null 2>&1 || { echo "workbook: '$(1)' is not installed. Install it with:  sudo apt-get install -y $(2)" >&2; exit 2; }
endef

# Configure only when the build folder has never been configured; afterwards `cmake --build` re-runs CMake itself
# when a CMakeLists.txt changes. A failed configuration prints CMake's own sentence (it names the apt-get line for a
# missing library) and never deletes anything.
$(BUILD)/CMakeCache.txt:
	$(call need_tool,cmake,cmake)
	$(call need_tool,g++,g++)
	$(call need_tool,make,make)
	@mkdir -p $(BUILD)
	@echo "workbook: configuring the build in $(BUILD)/ (first run only)…"
	@cmake -S . -B $(BUILD) > $(BUILD)/.configure.log 2>&1 || { \
	  grep -h -E "Missing|Install it with|CMake Error|does not match|different" $(BUILD)/.configure.log | head -n 8 >&2; \
	  if grep -q -E "does not match|different" $(BUILD)/.configure.log; then \
	    echo "workbook: the build folder $(BUILD)/ belongs to another checkout or is broken; remove it (rm -rf $(BUILD)) and run make again." >&2; \
	  else \
	    echo "workbook: configuring failed; the full log is $(BUILD)/.configure.log" >&2; \
	  fi; \
	  exit 2; }

configure: $(BUILD)/CMakeCache.txt

# What `workbook grade` needs: the CLI, the emulator (runtime + rewriter), the harness and hidden-test objects.
# Quiet on success; on failure the first errors and the log's path.
# Without a GPU (or with BACKEND=emu/static) the gpu objects are never linked, so they are not built.
GRADER_TARGET = $(if $(filter emu static,$(BACKEND)),workbook-grader-emu,$(shell nvidia-smi -L 2>/dev/null | grep -q '^GPU ' && echo workbook-grader || echo workbook-grader-emu))

grader: $(BUILD)/CMakeCache.txt
	@nice cmake --build $(BUILD) --target $(GRADER_TARGET) -j$(JOBS) > $(BUILD)/.grader-build.log 2>&1 || { \
	  echo "workbook: building the grader failed. First errors:" >&2; \
	  grep -E "error|Error|undefined reference|does not match" $(BUILD)/.grader-build.log | grep -v "^gmake" | head -n 15 >&2; \
	  if grep -q "does not match the source" $(BUILD)/.grader-build.log; then \
	    echo "workbook: the build folder $(BUILD)/ belongs to another checkout; remove it (rm -rf $(BUILD)) and run make again." >&2; fi; \
	  echo "(full log: $(BUILD)/.grader-build.log)" >&2; exit 2; }

# --- grading ------------------------------------------------------------------------------------------------------

GRADE_ARGS = $(if $(SUBMISSION),--submission "$(SUBMISSION)") $(if $(BACKEND),--backend $(BACKEND)) \
             $(if $(EX),--ex $(EX)) $(if $(filter 1 yes true,$(SOLUTIONS)),--solutions) $(if $(SEED),--seed $(SEED))

grade-%: grader
	@$(WORKBOOK) grade $* $(GRADE_ARGS)

watch-%: grader
	@$(WORKBOOK) watch $* $(if $(EX),--ex $(EX)) $(if $(BACKEND),--backend $(BACKEND))

# The tools below need no compiled tests, only the CLI.
cli: $(BUILD)/CMakeCache.txt
	@nice cmake --build $(BUILD) --target workbook -j$(JOBS) > $(BUILD)/.cli-build.log 2>&1 || { \
	  echo "workbook: building the workbook command failed. First errors:" >&2; \
	  grep -E "error|Error" $(BUILD)/.cli-build.log | grep -v "^gmake" | head -n 15 >&2; \
	  echo "(full log: $(BUILD)/.cli-build.log)" >&2; exit 2; }

hint-%: cli
	@test -n "$(EX)" || { echo "workbook: say which exercise, e.g. make hint-$* EX=rmsnorm" >&2; exit 2; }
	@$(WORKBOOK) hint $* --ex $(EX) $(if $(BLANK),--blank $(BLANK)) $(if $(LEVEL),--level $(LEVEL))

status: cli
	@$(WORKBOOK) status

reset-%: cli
	@test -n "$(EX)" || { echo "workbook: say which exercise to reset, e.g. make reset-$* EX=rmsnorm" >&2; exit 2; }
	@$(WORKBOOK) reset $* --ex $(EX)

report-%: cli
	@$(WORKBOOK) report $* $(if $(SUBMISSION),--submission "$(SUBMISSION)")

grade-class: grader
	@test -n "$(SUBMISSIONS)" || { echo "workbook: say where the submissions are, e.g. make grade-class SUBMISSIONS=handins/" >&2; exit 2; }
	@$(WORKBOOK) grade-class $(LESSON) --submissions "$(SUBMISSIONS)" $(if $(BACKEND),--backend $(BACKEND))

gradescope-%: grader
	@$(WORKBOOK) gradescope $*

solutions-branch: cli
	@$(WORKBOOK) solutions-branch

student-edition: cli
	@$(WORKBOOK) student-edition $(if $(OUT),--out "$(OUT)")

# --- the project's own tests (what CI runs) -------------------------------------------------------------------------

test: $(BUILD)/CMakeCache.txt
	@nice cmake --build $(BUILD) -j$(JOBS)
	@ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)
