#include "review/blanks.hpp"

#include "review/edit_check.hpp"
#include "util/files.hpp"
#include "review/tokens.hpp"

namespace workbook::review {

std::vector<UnfilledBlank> find_unfilled(const std::string& student, const std::vector<std::string>& blank_ids,
                                         const std::optional<std::string>& pristine) {
    std::vector<UnfilledBlank> out;
    if (pristine) {
        EditCheck ec = edit_check_text(*pristine, student, "", blank_ids);
        if (ec.ok) {
            for (const auto& f : ec.fills)
                if (f.unfilled) out.push_back({f.id, f.line});
            return out;
        }
    }
    std::vector<int> lines;
    for (const auto& t : code_tokens(student))
        if (t.is_blank()) lines.push_back(t.line);
    const bool by_order = lines.size() == blank_ids.size();
    for (std::size_t k = 0; k < lines.size(); ++k) {
        UnfilledBlank u{"", lines[k]};
        const std::string text = line_text(student, lines[k]);
        const std::string tag = "// blank:";
        std::size_t at = text.find(tag);
        if (at != std::string::npos) {
            std::string id = text.substr(at + tag.size());
            id.erase(0, id.find_first_not_of(' '));
            id = id.substr(0, id.find_first_of(" \t"));
            for (const auto& known : blank_ids)
                if (known == id) u.id = id;
        }
        if (u.id.empty() && by_order) u.id = blank_ids[k];
        out.push_back(u);
    }
    return out;
}

std::string unfilled_message(const std::string& file_label, const std::string& exercise,
                             const std::string& lesson_number, const std::vector<UnfilledBlank>& unfilled) {
    if (unfilled.empty()) return "";
    std::string msg;
    for (const auto& u : unfilled) {
        std::string name = u.id.empty() ? "a blank" : "blank '" + u.id + "'";
        msg += file_label + ": " + name + " on line " + std::to_string(u.line) + " is not filled yet (`______`).\n";
    }
    msg += "Fill " + std::string(unfilled.size() == 1 ? "it" : "them") + " in and grade again; stuck? `make hint-" +
           lesson_number + " EX=" + exercise + "` gives a hint, one level at a time.\n";
    return msg;
}

std::vector<std::string> unfilled_blanks(const std::filesystem::path& student,
                                         const std::vector<std::string>& blank_ids) {
    std::vector<std::string> ids;
    for (const auto& u : find_unfilled(util::read_text(student), blank_ids))
        ids.push_back(u.id.empty() ? "line " + std::to_string(u.line) : u.id);
    return ids;
}

}  // namespace workbook::review
