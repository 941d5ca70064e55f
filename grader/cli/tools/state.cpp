#include "tools/state.hpp"

#include <system_error>

#include "util/errors.hpp"
#include "util/files.hpp"
#include "lesson/lesson.hpp"

namespace fs = std::filesystem;

namespace workbook::tools {

fs::path state_path(const fs::path& repo_root) { return repo_root / ".workbook" / "state.json"; }

nlohmann::json load_state(const fs::path& repo_root, std::string* note) {
    const fs::path p = state_path(repo_root);
    std::error_code ec;
    if (!fs::exists(p, ec)) return nlohmann::json::object();
    try {
        nlohmann::json j = nlohmann::json::parse(util::read_text(p));
        if (j.is_object()) return j;
    } catch (const nlohmann::json::exception&) {
    } catch (const util::UserError&) {}
    const fs::path dir = util::new_backup_dir(repo_root);
    const fs::path saved = dir / "state.json";
    fs::rename(p, saved, ec);
    if (ec) fs::copy_file(p, saved, fs::copy_options::overwrite_existing, ec);
    if (note)
        *note = ".workbook/state.json was unreadable; it was moved to " + util::display_path(saved, repo_root) +
                " and a fresh state started.";
    return nlohmann::json::object();
}

void save_state(const fs::path& repo_root, const nlohmann::json& state) {
    util::write_text(state_path(repo_root), state.dump(2) + "\n");
}

nlohmann::json hints_used(const fs::path& repo_root, const std::string& lesson_id, std::string* problem) {
    const std::string id = lesson::load_lesson(repo_root, lesson_id).id;
    nlohmann::json state;
    const fs::path p = state_path(repo_root);
    std::error_code ec;
    if (!fs::exists(p, ec)) return nlohmann::json::object();
    try {
        state = util::load_json(p);
    } catch (const util::UserError& e) {
        // Reading never moves files (the next `make hint-NN` repairs the state); the caller says the count is unknown.
        if (problem) *problem = std::string("the hints used could not be read: ") + e.what();
        return nlohmann::json::object();
    }
    const nlohmann::json::json_pointer ptr("/lessons/" + id + "/hints");
    if (state.is_object() && state.contains(ptr) && state[ptr].is_object()) return state[ptr];
    return nlohmann::json::object();
}

}  // namespace workbook::tools
