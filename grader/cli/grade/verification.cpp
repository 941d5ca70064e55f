#include "verification.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <cstdlib>

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "util/util.hpp"

namespace workbook::grade {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kKeyBytes = 32;

std::string hex(const unsigned char* bytes, unsigned n) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (unsigned i = 0; i < n; ++i) {
        s.push_back(digits[bytes[i] >> 4]);
        s.push_back(digits[bytes[i] & 15]);
    }
    return s;
}

// This account's key, made on first use by a gpu run (`create`); none where there is no home to keep it in.
std::optional<std::string> verification_key(bool create) {
    const fs::path dir = verification_key_dir();
    if (dir.empty()) return std::nullopt;
    const fs::path file = dir / "gpu-verification.key";
    auto usable = [](const std::optional<std::string>& k) { return k && k->size() == kKeyBytes; };
    if (auto k = util::read_file(file); usable(k)) return k;
    if (!create) return std::nullopt;
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::replace, ec);
    // O_EXCL: of two grades that start at once, one makes the key and the other reads it.
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        auto k = util::read_file(file);
        return usable(k) ? k : std::nullopt;
    }
    std::string key(kKeyBytes, '\0');
    const bool made = RAND_bytes(reinterpret_cast<unsigned char*>(key.data()), static_cast<int>(key.size())) == 1 &&
                      ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size());
    ::close(fd);
    if (made) return key;
    fs::remove(file, ec);
    return std::nullopt;
}

// The seal of one record: every field it states, with the content's hash it is filed under.
std::string seal(const std::string& key, const std::string& hash, const json& record) {
    std::string text = "workbook gpu verification\n" + hash;
    for (const char* field : {"lesson", "exercise", "gpu", "date"}) text += "\n" + record.value(field, std::string());
    text += record.value("all_passed", false) ? "\npassed" : "\nnot passed";
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
              reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac, &n))
        return {};
    return hex(mac, n);
}

bool sealed(const std::optional<std::string>& key, const std::string& hash, const json& record) {
    if (!key || !record.is_object() || !record.contains("seal") || !record["seal"].is_string()) return false;
    const std::string want = seal(*key, hash, record), got = record["seal"].get<std::string>();
    return !want.empty() && got.size() == want.size() && CRYPTO_memcmp(got.data(), want.data(), want.size()) == 0;
}

}  // namespace

fs::path verification_key_dir() {
    const char* state = std::getenv("XDG_STATE_HOME");
    if (state && *state == '/') return fs::path(state) / "workbook";
    const char* home = std::getenv("HOME");
    if (home && *home == '/') return fs::path(home) / ".local" / "state" / "workbook";
    return {};
}

void update_gpu_verification(Run& run, const fs::path& repo_root) {
    const fs::path file = repo_root / ".workbook" / "verified.json";
    json verified = json::object();
    if (auto text = util::read_file(file)) {
        try {
            verified = json::parse(*text);
        } catch (const std::exception&) {
            verified = json::object();  // a damaged file only loses earlier verifications, never grants any
        }
    }
    if (!verified.is_object()) verified = json::object();
    if (!verified.contains("hashes") || !verified["hashes"].is_object()) verified["hashes"] = json::object();
    auto graded_here = [&](const ExerciseResult& ex) {
        return run.backend == Backend::gpu && ex.attempted_build && ex.build.ok && ex.list_error.empty();
    };
    bool any_here = false;
    for (const auto& ex : run.exercises) any_here = any_here || graded_here(ex);
    const auto key = verification_key(any_here);
    json& hashes = verified["hashes"];
    bool all = !run.exercises.empty();
    std::vector<std::string> ignored;
    for (auto& ex : run.exercises) {
        if (graded_here(ex) && key) {
            json record = {{"lesson", run.lesson.id},
                           {"exercise", ex.info->name},
                           {"gpu", run.gpu_name},
                           {"date", util::iso_time_now()},
                           {"all_passed", ex.all_passed}};
            record["seal"] = seal(*key, ex.content_hash, record);
            hashes[ex.content_hash] = record;
        }
        const bool recorded = hashes.contains(ex.content_hash) && hashes[ex.content_hash].is_object() &&
                              hashes[ex.content_hash].value("exercise", std::string()) == ex.info->name;
        const bool counts = recorded && sealed(key, ex.content_hash, hashes[ex.content_hash]);
        if (recorded && !counts && !graded_here(ex)) ignored.push_back(ex.info->file());
        ex.gpu_verified = graded_here(ex) || counts;
        all = all && ex.gpu_verified;
    }
    run.gpu_verification_done = all;
    if (!ignored.empty())
        run.notes.push_back(".workbook/verified.json records a GPU verification of " + util::join(ignored, ", ") +
                            " that this account's grader did not seal (written by hand, copied from elsewhere, or by a "
                            "grader older than the seal): it does not count, and GPU verification stays pending until "
                            "a gpu grade of it");
    if (any_here && key) {
        // Only sealed records are kept: a forged one is dropped the next time the file is written.
        json kept = json::object();
        for (const auto& [hash, record] : hashes.items())
            if (sealed(key, hash, record)) kept[hash] = record;
        verified["hashes"] = kept;
        util::write_file_atomic(file, verified.dump(2) + "\n");
    }
}

}  // namespace workbook::grade
