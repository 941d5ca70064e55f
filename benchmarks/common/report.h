// What the benchmark prints and writes: the rows it measured (and the Python peers' rows it read), the ratios
// derived from them, the CSV, the terminal table and the SVG plot. Host code, no CUDA.
#pragma once

#include <string>
#include <vector>

namespace bench {

struct Row {
    std::string op, dtype, kernel, source, shape;
    std::string status;  // "ok", "wrong" (failed the fp64 check: not timed), "cannot-run", "not-built"
    int M = 0, N = 0;
    double bytes = 0;  // read once + written once
    double us = 0;     // median time of one launch
    double tbs = 0;    // bytes / us
    double err = 0;    // worst |got - ref| / tolerance (<= 1 passes)
    // Derived by derive_ratios (0 where undefined):
    double of_copy = 0;           // of the large device-to-device copy of this run
    double of_shape_copy = 0;     // of the copy of the same bytes at this shape (plain norm only)
    double of_reference = 0;      // of the reference kernel at this op, dtype and shape (the leaderboard's figure)
    double of_best_solution = 0;  // of the fastest lesson solution at this op, dtype and shape
    // Of the fastest copy of the same bytes at this shape (source "copy" or "copy design", large shapes), launched
    // the same way (a row whose shape says "+pdl" against the "+pdl" copies, any other against the plain ones).
    double of_best_copy = 0;
};

// A row launched with programmatic dependent launch (its shape names "+pdl"): a launch mode, not a kernel, compared
// with copies launched the same way.
bool launched_pdl(const Row& r);

// One large device-to-device copy of the run (sweep.h: time_copies), read + write.
struct CopyFigure {
    std::string name;
    double tbs = 0;
};

struct RunInfo {
    std::string date, device, command;
    double copy_tbs = 0;                   // the roofline: the fastest large copy of the run (sweep.h: fastest_copy)
    std::string copy_name = "copy 2 GiB";  // which copy that is (older CSVs have one copy and no name)
    std::vector<CopyFigure> copies;        // every large copy measured, the roofline's among them
};

void derive_ratios(std::vector<Row>& rows, double copy_tbs);

// CSV with a header line; read_csv reads what write_csv (or peers.py) wrote, and returns false if it cannot. Each
// large copy is a row of its own (op "copy", its name as the kernel; source "roofline" for the fastest, "candidate"
// for the others, "copy" in the files of runs before session 7, which had one); read_csv fills `info` from them and
// from the date/device columns.
void write_csv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows);
bool read_csv(const std::string& path, std::vector<Row>& rows, RunInfo* info = nullptr);

// Markdown tables: the large shapes in full, the M = 512 sweep as ranges, and every kernel not timed with why.
void print_tables(const RunInfo& info, const std::vector<Row>& rows);

// Bandwidth against hidden size for the M = 512 sweep, one panel per (op, dtype), the copy as the roofline.
void write_svg(const std::string& path, const RunInfo& info, const std::vector<Row>& rows, int sweep_M);

}  // namespace bench
