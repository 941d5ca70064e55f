// The lesson-independent half of a bench run (see run.h).
#include "run.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cuda_check.h"
#include "sweep.h"
#include "timing.h"

namespace bench {

RunOptions parse_run_options(int argc, char** argv, const std::string& me, const ExtraOption& extra) {
    RunOptions o;
    o.csv = me + ".csv";
    o.svg = me + ".svg";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s: %s needs a value\n", me.c_str(), a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--csv") o.csv = value();
        else if (a == "--svg") o.svg = value();
        else if (a == "--peers") o.peers = value();
        else if (a == "--crash-file") o.crash_file = value();
        else if (a == "--date") o.date = value();
        else if (a == "--replays") o.replays = std::max(3, std::atoi(value().c_str()));
        else if (a == "--exclude") o.exclude.push_back(value());
        else if (a == "--not-built") o.not_built.push_back(value());
        else if (a == "--tune") o.tune = true;
        else if (a == "--quick") o.quick = true;
        else if (!extra || !extra(a, value)) {
            std::fprintf(stderr, "%s: unknown option %s\n", me.c_str(), a.c_str());
            std::exit(2);
        }
    }
    return o;
}

RunInfo start_run(const RunOptions& opt, const std::string& me, int* l2) {
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    RunInfo info;
    info.date = opt.date;
    info.device = prop.name;
    // Every copy twice (the first pass also wakes the clocks up); each copy's faster measurement counts.
    info.copies = time_copies(opt.replays);
    const std::vector<CopyFigure> again = time_copies(opt.replays);
    for (size_t i = 0; i < info.copies.size(); ++i) info.copies[i].tbs = std::max(info.copies[i].tbs, again[i].tbs);
    const CopyFigure roofline = fastest_copy(info.copies);
    info.copy_tbs = roofline.tbs;
    info.copy_name = roofline.name;
    *l2 = l2_bytes();
    std::printf("%s: %s, %d SMs, L2 %d MiB; device-to-device copies (2 GiB):", me.c_str(), prop.name,
                prop.multiProcessorCount, *l2 >> 20);
    for (const CopyFigure& c : info.copies) std::printf(" %s %.2f TB/s;", c.name.c_str(), c.tbs);
    std::printf(" roofline: %s, %.2f TB/s\n", info.copy_name.c_str(), info.copy_tbs);
    std::fflush(stdout);
    return info;
}

void add_not_built_rows(std::vector<Row>& rows, const RunOptions& opt, const std::string& op) {
    for (const std::string& name : opt.not_built) {
        Row r;
        r.op = op;
        r.dtype = "-";
        r.kernel = name;
        r.source = "student";
        r.status = "not-built (compile error: see the build log)";
        rows.push_back(r);
    }
}

bool add_if_excluded(std::vector<Row>& rows, const RunOptions& opt, const std::string& op, const std::string& dtype,
                     const std::string& kernel, const std::string& source, int M, int N) {
    if (source != "student" || std::find(opt.exclude.begin(), opt.exclude.end(), kernel) == opt.exclude.end())
        return false;
    Row r{op, dtype, kernel, source, "", "crashed (broke the CUDA context)"};
    r.M = M;
    r.N = N;
    rows.push_back(r);
    return true;
}

void after_launch(const Row& row, const RunOptions& opt, const std::string& me) {
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err == cudaSuccess) return;
    std::fprintf(stderr, "%s: %s %s (%s, %s) ended with %s\n", me.c_str(), row.source.c_str(), row.kernel.c_str(),
                 row.op.c_str(), row.dtype.c_str(), cudaGetErrorString(err));
    if (row.source == "student" && !opt.crash_file.empty()) {
        std::ofstream(opt.crash_file) << row.kernel << "\n";
        std::exit(3);
    }
    std::exit(1);
}

void time_row(Row& row, int sets, const std::function<bool(int, cudaStream_t)>& launch, const RunOptions& opt,
              const std::string& me) {
    const int launches = std::max(sets, 8);
    const int replays = row.source == "tune" ? std::max(5, opt.replays / 2) : opt.replays;
    row.us = median_launch_us([&](int i, cudaStream_t st) { return launch(i % sets, st); }, launches, replays);
    after_launch(row, opt, me);
    row.status = row.us > 0 ? "ok" : "cannot-run";
    row.tbs = row.us > 0 ? row.bytes / (row.us * 1e-6) / 1e12 : 0;
}

int finish_run(const RunOptions& opt, const RunInfo& info, std::vector<Row>& rows, int failures,
               const std::string& me) {
    if (!opt.peers.empty() && !read_csv(opt.peers, rows))
        std::printf("%s: could not read the peers' file %s; the table has no torch/Triton columns\n", me.c_str(),
                    opt.peers.c_str());
    derive_ratios(rows, info.copy_tbs);
    write_csv(opt.csv, info, rows);
    write_svg(opt.svg, info, rows, kSweepM);
    print_tables(info, rows);
    std::printf("\nCSV: %s   plot: %s\n", opt.csv.c_str(), opt.svg.c_str());
    if (failures) std::printf("%s: %d reference or solution checks FAILED\n", me.c_str(), failures);
    return failures ? 1 : 0;
}

}  // namespace bench
