#include "protocol.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace wb {

namespace {

bool parse_u64(const std::string& text, std::uint64_t* out) {
    if (text.empty() || text[0] == '-' || text[0] == '+') return false;
    errno = 0;
    char* end = nullptr;
    unsigned long long v = std::strtoull(text.c_str(), &end, 0);
    if (errno != 0 || end == text.c_str() || *end != '\0') return false;
    *out = v;
    return true;
}

}  // namespace

bool wants_run(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--wb-run") == 0) return true;
    return false;
}

Options parse_options(int argc, char** argv) {
    Options o;
    o.catch_args.push_back(argc > 0 ? argv[0] : "harness");
    auto value = [&](int& i, const char* flag) -> std::optional<std::string> {
        if (i + 1 >= argc) {
            o.error = std::string(flag) + " needs a value";
            return std::nullopt;
        }
        return std::string(argv[++i]);
    };
    for (int i = 1; i < argc && o.error.empty(); ++i) {
        std::string a = argv[i];
        if (a == "--wb-list") {
            o.list = true;
        } else if (a == "--wb-run") {
            o.run = value(i, "--wb-run");
        } else if (a == "--wb-result") {
            o.result = value(i, "--wb-result");
        } else if (a == "--wb-seed") {
            if (auto v = value(i, "--wb-seed")) {
                std::uint64_t s = 0;
                if (parse_u64(*v, &s)) o.seed = s;
                else o.error = "--wb-seed wants an unsigned 64-bit integer, got '" + *v + "'";
            }
        } else if (a == "--wb-worker") {
            if (auto v = value(i, "--wb-worker")) o.worker = *v;
        } else if (a == "--wb-backend") {
            if (auto v = value(i, "--wb-backend")) {
                o.backend = *v;
                if (o.backend != "emu" && o.backend != "gpu")
                    o.error = "--wb-backend wants emu or gpu, got '" + *v + "'";
            }
        } else if (a == "--wb-sandbox") {
            if (auto v = value(i, "--wb-sandbox")) {
                o.sandbox = *v;
                if (o.sandbox != "auto" && o.sandbox != "bwrap" && o.sandbox != "none" && o.sandbox != "off")
                    o.error = "--wb-sandbox wants auto, bwrap, none or off, got '" + *v + "'";
            }
        } else if (a == "--wb-sandbox-why") {
            if (auto v = value(i, "--wb-sandbox-why")) o.sandbox_why = *v;
        } else if (a == "--wb-call-timeout") {
            if (auto v = value(i, "--wb-call-timeout")) {
                char* end = nullptr;
                o.call_timeout_s = std::strtod(v->c_str(), &end);
                if (end == v->c_str() || *end != '\0' || !(o.call_timeout_s > 0))
                    o.error = "--wb-call-timeout wants a positive number of seconds, got '" + *v + "'";
            }
        } else if (a == "--wb-worker-as-mb" || a == "--wb-worker-rss-mb") {
            if (auto v = value(i, a.c_str())) {
                std::uint64_t n = 0;
                if (!parse_u64(*v, &n)) o.error = a + " wants an unsigned integer, got '" + *v + "'";
                (a == "--wb-worker-as-mb" ? o.worker_as_mb : o.worker_rss_mb) = n;
            }
        } else if (a == "--wb-worker-env") {
            if (auto v = value(i, "--wb-worker-env")) {
                if (v->find('=') == std::string::npos) o.error = "--wb-worker-env wants KEY=VALUE, got '" + *v + "'";
                o.worker_env.push_back(*v);
            }
        } else if (a == "--wb-hide") {
            if (auto v = value(i, "--wb-hide")) o.hide.push_back(*v);
        } else if (a == "--wb-sanitize") {
            if (auto v = value(i, "--wb-sanitize")) {
                o.sanitize = *v;
                if (o.sanitize != "memcheck" && o.sanitize != "racecheck" && o.sanitize != "synccheck" &&
                    o.sanitize != "initcheck")
                    o.error = "--wb-sanitize wants memcheck, racecheck, synccheck or initcheck, got '" + *v + "'";
            }
        } else if (a == "--wb-sanitizer") {
            if (auto v = value(i, "--wb-sanitizer")) o.sanitizer = *v;
        } else if (a.rfind("--wb-", 0) == 0) {
            o.error = "unknown harness option " + a;
        } else {
            o.catch_args.push_back(a);
        }
    }
    if (o.error.empty() && o.run && !o.result) o.error = "--wb-run needs --wb-result FILE";
    if (o.error.empty() && o.result && !o.run) o.error = "--wb-result is only meaningful with --wb-run";
    if (o.error.empty() && o.list && o.run) o.error = "--wb-list and --wb-run exclude each other";
    if (o.error.empty() && !o.sanitize.empty() && o.backend != "gpu")
        o.error = "--wb-sanitize runs compute-sanitizer, which needs --wb-backend gpu";
    return o;
}

std::vector<std::string> parse_tags(const std::string& tags) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < tags.size()) {
        if (tags[i] != '[') return {};
        std::size_t close = tags.find(']', i);
        if (close == std::string::npos || close == i + 1) return {};
        out.push_back(tags.substr(i + 1, close - i - 1));
        i = close + 1;
    }
    return out;
}

std::string name_problem(const std::string& name) {
    if (name.empty()) return "the name is empty";
    if (name.front() == ' ' || name.back() == ' ') return "the name starts or ends with a space";
    for (char c : name) {
        if (std::strchr(",[]*~\"\\", c) != nullptr)
            return std::string("the name contains '") + c + "', which Catch2 reads as test-spec syntax";
        if (static_cast<unsigned char>(c) < 0x20) return "the name contains a control character";
    }
    if (name.rfind("exclude:", 0) == 0) return "the name starts with 'exclude:'";
    return {};
}

nlohmann::json result_json(const std::string& nonce, std::uint64_t seed, const TestOutcome& outcome,
                           const nlohmann::json& worker) {
    nlohmann::json failures = nlohmann::json::array();
    for (const auto& f : outcome.failures) failures.push_back({{"message", f}});
    return {
        {"nonce", nonce},
        {"name", outcome.name},
        {"status", outcome.passed ? "passed" : "failed"},
        {"assertions", outcome.assertions},
        {"seed", seed},
        {"failures", failures},
        {"measurements", outcome.measurements},
        {"worker", worker},
    };
}

bool write_result_file(const std::string& path, const nlohmann::json& result, std::string* error) {
    const std::string tmp = path + ".partial";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            if (error) *error = "cannot open " + tmp + ": " + std::strerror(errno);
            return false;
        }
        // Invalid UTF-8 in a message (a kernel's bytes echoed back) is replaced instead of aborting the dump.
        out << result.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        out.flush();
        if (!out) {
            if (error) *error = "cannot write " + tmp;
            return false;
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        if (error) *error = "cannot rename " + tmp + " to " + path + ": " + std::strerror(errno);
        std::remove(tmp.c_str());
        return false;
    }
    return true;
}

}  // namespace wb
