#include "tools/gradescope.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include "review/errors.hpp"
#include "review/files.hpp"
#include "tools/repo_files.hpp"
#include "tools/zip.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

const std::vector<std::string>& grader_packages() {
    static const std::vector<std::string> p = {"build-essential", "cmake",        "make",      "catch2",
                                               "libcli11-dev",    "nlohmann-json3-dev", "libfmt-dev", "git"};
    return p;
}

std::string gradescope_setup_sh() {
    std::string pkgs;
    for (const auto& p : grader_packages()) pkgs += " " + p;
    return "#!/usr/bin/env bash\n"
           "# Gradescope runs this once while it builds the autograder image (the bundle is unpacked in\n"
           "# /autograder/source). Building here keeps each student's grading run short.\n"
           "set -euo pipefail\n"
           "export DEBIAN_FRONTEND=noninteractive\n"
           "apt-get update\n"
           "apt-get install -y --no-install-recommends" + pkgs + "\n"
           "cd /autograder/source/workbook\n"
           "cmake -S . -B build -DCMAKE_BUILD_TYPE=Release\n"
           "cmake --build build -j\"$(nproc)\"\n";
}

std::string gradescope_run_autograder(const review::LessonPaths& lesson) {
    return "#!/usr/bin/env bash\n"
           "# Gradescope runs this for every submission. Only the submission's exercise files and answers are used:\n"
           "# the grader, its tests and tolerances come from this bundle, whatever else the student uploaded.\n"
           "set -uo pipefail\n"
           "WB=/autograder/source/workbook\n"
           "SUB=/autograder/submission\n"
           "# A student may upload the files alone or the whole repository.\n"
           "if [ -d \"$SUB/exercises/" + lesson.id + "\" ]; then SUB=\"$SUB/exercises/" + lesson.id + "\"; fi\n"
           "DEST=\"$WB/submission\"\n"
           "rm -rf \"$DEST\"\n"
           "mkdir -p \"$DEST\"\n"
           "cp -R \"$SUB\"/. \"$DEST\"/\n"
           "cd \"$WB\"\n"
           "rm -f build/results/" + lesson.number + "/results.json\n"
           "make grade-" + lesson.number + " SUBMISSION=\"$DEST\"\n"
           "mkdir -p /autograder/results\n"
           "if [ -f build/results/" + lesson.number + "/results.json ]; then\n"
           "  cp build/results/" + lesson.number + "/results.json /autograder/results/results.json\n"
           "else\n"
           "  echo '{\"score\": 0, \"output\": \"The grader did not produce results; the log above says why.\", "
           "\"tests\": []}' > /autograder/results/results.json\n"
           "fi\n";
}

BundleResult write_gradescope_bundle(const review::LessonPaths& lesson, const fs::path& out_zip) {
    std::error_code ec;
    if (!fs::is_directory(lesson.exercises_dir(), ec))
        throw review::UserError("The exercises folder " + review::display_path(lesson.exercises_dir(), lesson.root) +
                                " does not exist.");
    std::vector<ZipEntry> entries;
    entries.push_back({"setup.sh", gradescope_setup_sh(), 0755});
    entries.push_back({"run_autograder", gradescope_run_autograder(lesson), 0755});
    BundleResult r;
    for (const auto& rel : distributable_files(lesson.root)) {
        const fs::path abs = lesson.root / rel;
        // The bundle copies files as bytes: an image or a binary fixture is fine, but nothing huge.
        if (fs::file_size(abs, ec) > 64u * 1024 * 1024)
            throw review::UserError(rel.string() + " is over 64 MiB; leave it out of the repository before bundling.");
        std::ifstream in(abs, std::ios::binary);
        std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const auto perms = fs::status(abs, ec).permissions();
        const bool exec = (perms & fs::perms::owner_exec) != fs::perms::none;
        entries.push_back({"workbook/" + rel.generic_string(), std::move(data), exec ? 0755u : 0644u});
        ++r.files;
    }
    r.zip = out_zip;
    if (fs::exists(out_zip, ec)) {
        r.backup = review::backup_file(lesson.root, review::new_backup_dir(lesson.root), out_zip);
    }
    if (out_zip.has_parent_path()) fs::create_directories(out_zip.parent_path(), ec);
    std::ofstream out(out_zip, std::ios::binary | std::ios::trunc);
    if (!out) throw review::UserError("Cannot write " + out_zip.string() + ".");
    out << make_zip(entries);
    if (!out.flush()) throw review::UserError("Cannot write " + out_zip.string() + ".");
    return r;
}

}  // namespace workbook::tools
