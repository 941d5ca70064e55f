// .workbook/verified.json: the file contents a gpu run graded. Each record is sealed with a key of the account that
// graded it (HMAC-SHA256), kept outside every checkout and hidden from submissions, so that a record copied from
// elsewhere or written by hand (a GitHub Classroom repository can commit .workbook/) does not count.
#pragma once

#include <filesystem>

#include "model.hpp"

namespace workbook::grade {

// Where this account's key lives: $XDG_STATE_HOME/workbook, else ~/.local/state/workbook (empty without a home).
std::filesystem::path verification_key_dir();

// Marks run.exercises[i].gpu_verified from verified.json's sealed records (or from this run when it ran on a GPU) and
// records, sealed, the hashes a gpu run graded. Sets run.gpu_verification_done; a record that would have verified
// an exercise of this run but is not sealed by this account is ignored, with a note.
void update_gpu_verification(Run& run, const std::filesystem::path& repo_root);

}  // namespace workbook::grade
