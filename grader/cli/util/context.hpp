// Where things are: the repository root, the build directory and build/workbook-config.json (written by CMake; the
// only place that knows build paths).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace workbook::util {

struct Context {
    std::filesystem::path root;       // repository root (holds lessons/, exercises/, solutions/, grader/)
    std::filesystem::path build_dir;  // CMake build directory (holds workbook-config.json, grade/, results/)
    std::filesystem::path config_path;
    nlohmann::json config;  // null when not loaded
};

// The config is found at $WORKBOOK_CONFIG, else next to the build tree this executable belongs to
// (<build>/grader/cli/workbook → <build>/workbook-config.json). The root is $WORKBOOK_ROOT, else the config's
// repo_root, else the nearest parent of the working directory that holds lessons/ and grader/.
// need_config=false lets tools that only read lessons/ and .workbook/ work without a build.
// On failure returns nullopt and sets *error to one sentence.
std::optional<Context> find_context(bool need_config, std::string* error);

// A string from the config at a JSON pointer ("/emu/rewrite"), or empty.
std::string config_string(const Context& ctx, const std::string& pointer);
std::vector<std::string> config_list(const Context& ctx, const std::string& pointer);

}  // namespace workbook::util
