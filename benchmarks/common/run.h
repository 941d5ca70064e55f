// What every lesson's bench main() does apart from its kernels: the command line the lesson's bench.sh passes
// (../common/bench.sh), the start of a run (the device and the roofline copy), the rows of what was not timed, and
// the end (the peers' rows, the ratios, CSV, plot and tables, and the exit status). Host code. `me` is the
// benchmark's name in what it prints ("bench-04").
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

#include "report.h"

namespace bench {

struct RunOptions {
    std::string csv, svg;  // default: <me>.csv, <me>.svg
    std::string peers, crash_file, date = "undated";
    bool tune = false, quick = false;
    int replays = 20;
    std::vector<std::string> exclude;    // student kernels that broke the CUDA context in an earlier attempt
    std::vector<std::string> not_built;  // exercises whose file did not compile
};

// An option of the lesson's own, asked for one that is not common: true when it took it (`value()` takes its
// argument).
using ExtraOption = std::function<bool(const std::string& option, const std::function<std::string()>& value)>;

//   bench --csv out.csv --svg out.svg [--peers peers.csv] [--tune] [--quick] [--replays N]
//         [--exclude NAME]... [--not-built NAME]... [--crash-file F] [--date YYYY-MM-DD]   (and the lesson's own)
// An unknown option, or one without its value, ends the run with status 2.
RunOptions parse_run_options(int argc, char** argv, const std::string& me, const ExtraOption& extra = {});

// The device and the roofline: every large copy (sweep.h) measured twice (the first measurement also wakes the clocks
// up: run 1 of lesson 04 started at 345 MHz), each copy's faster one counts, the fastest copy is the roofline; one
// line printed with each copy's TB/s and which is the roofline. `l2` receives the L2's size in bytes.
RunInfo start_run(const RunOptions& opt, const std::string& me, int* l2);

// One "not-built" row per exercise that did not compile, under `op` (the lesson's plain norm).
void add_not_built_rows(std::vector<Row>& rows, const RunOptions& opt, const std::string& op);

// True, with its row added, for a student kernel that bench.sh excluded because it broke the CUDA context.
bool add_if_excluded(std::vector<Row>& rows, const RunOptions& opt, const std::string& op, const std::string& dtype,
                     const std::string& kernel, const std::string& source, int M, int N);

// A CUDA error after a launch of the kernel of `row` (its source, name, op and dtype): a student's kernel is named in
// the crash file and the run ends with status 3 (bench.sh runs it again without that kernel); any other error ends
// the run with status 1.
void after_launch(const Row& row, const RunOptions& opt, const std::string& me);

// Times the kernel of `row` once its check passed: `launch(set, stream)` on input set 0, 1, … sets-1 in turn, the
// median over opt.replays graph replays (half as many, at least 5, for a tuning row); then status "ok" with its
// TB/s, or "cannot-run" when a launch returned false.
void time_row(Row& row, int sets, const std::function<bool(int, cudaStream_t)>& launch, const RunOptions& opt,
              const std::string& me);

// Reads the peers' rows (if any), derives the ratios, writes the CSV and the plot, prints the tables; the exit status:
// 1 when a reference or solution kernel failed its check (`failures`), else 0.
int finish_run(const RunOptions& opt, const RunInfo& info, std::vector<Row>& rows, int failures, const std::string& me);

}  // namespace bench
