#include "util/subprocess.hpp"

#include "util/process.hpp"

namespace fs = std::filesystem;

namespace workbook::util {

RunResult run_program(const std::vector<std::string>& argv, const fs::path& cwd, int timeout_s) {
    RunResult r;
    if (argv.empty()) return r;
    ProcessSpec spec;
    spec.argv = argv;
    spec.argv[0] = which(argv[0]);
    if (spec.argv[0].empty()) return r;
    spec.cwd = cwd;
    spec.timeout_s = timeout_s > 0 ? timeout_s : 0;
    spec.fsize_limit_mb = 0;         // a trusted tool writes what it must (a bundle, an archive)
    spec.capture_limit = 64u << 20;  // and its whole output is wanted
    spec.raw_output = true;
    const ProcessResult p = run_process(spec);
    r.started = p.started;
    r.timed_out = p.timed_out;
    r.exit_code = p.started && !p.timed_out && p.signal == 0 ? p.exit_code : -1;
    r.output = p.out + p.err;
    return r;
}

}  // namespace workbook::util
