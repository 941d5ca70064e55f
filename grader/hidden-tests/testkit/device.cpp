#include "device.hpp"

#include <cstring>

namespace wb::testkit {

Rng test_rng() { return Rng(test_seed(wb::run_seed(), wb::current_test_name())); }

CaseInfo case_info(std::string shape, std::string probe) {
    CaseInfo c;
    c.title = wb::current_test_name();
    c.shape = std::move(shape);
    c.probe = std::move(probe);
    c.seed = wb::run_seed();
    return c;
}

DeviceBuffer::DeviceBuffer(std::size_t before, std::size_t payload, std::size_t after)
    : mem_(std::make_unique<wb::remote::Buffer>(before + payload + after)),
      before_(before),
      payload_(payload),
      after_(after) {
    fill(0xFF);
}

DeviceBuffer::~DeviceBuffer() = default;

void DeviceBuffer::fill(std::uint8_t byte) { std::memset(mem_->data(), byte, total()); }

void DeviceBuffer::upload(const void* src, std::size_t bytes) { std::memcpy(data(), src, bytes); }

std::vector<std::uint8_t> DeviceBuffer::download() const {
    return std::vector<std::uint8_t>(mem_->data(), mem_->data() + total());
}

void check_after_launch(const std::string& entry) {
    const wb::remote::CallResult& r = wb::remote::last_call();
    if (!r.answered) FAIL(r.failure);
    const wb::wire::Reply& rep = r.reply;
    if (!rep.defined)
        FAIL("the submitted file does not define " + entry +
             " with the signature the tests call (see the top of the exercise file); was it renamed or changed?");
    std::string problems;
    if (!rep.exception.empty()) problems = entry + " threw an exception instead of launching: " + rep.exception + "\n";
    else if (!rep.launch_error.empty()) problems = entry + ": the kernel launch failed: " + rep.launch_error + "\n";
    else if (!rep.run_error.empty()) problems = entry + ": the kernel failed while running: " + rep.run_error + "\n";
    if (!rep.copy_error.empty() && problems.empty()) problems = entry + ": " + rep.copy_error + "\n";
    // The emulator runs a launch synchronously and may turn a fault into a launch error; its diagnostics say where.
    if (!rep.diagnostics.empty()) {
        constexpr std::size_t kShown = 5;
        problems += entry + ": the emulator found " + std::to_string(rep.diagnostics.size()) +
                    " problem(s) while running the kernel:\n";
        for (std::size_t i = 0; i < rep.diagnostics.size() && i < kShown; ++i) problems += rep.diagnostics[i] + "\n";
        if (rep.diagnostics.size() > kShown)
            problems += "... and " + std::to_string(rep.diagnostics.size() - kShown) + " more\n";
    }
    if (!problems.empty()) FAIL(problems);
}

void expect_report(bool ok, const std::string& report) {
    if (ok) SUCCEED();
    else FAIL_CHECK(report);
}

void expect_clean(const MismatchLog& log, const CaseInfo& info) {
    expect_report(log.ok(), log.ok() ? std::string() : log.report(info));
}

void expect_unchanged(const CaseInfo& info, const std::string& name, const DeviceBuffer& buf,
                      const std::vector<std::uint8_t>& uploaded, std::size_t element_size) {
    std::vector<std::uint8_t> now = buf.download();
    std::size_t changed = 0, first = 0;
    for (std::size_t i = 0; i < uploaded.size(); i += element_size) {
        if (std::memcmp(&now[buf.before() + i], &uploaded[i], element_size) != 0 && changed++ == 0)
            first = i / element_size;
    }
    expect_report(changed == 0, changed == 0 ? std::string() : unchanged_input_report(info, name, changed, first));
}

}  // namespace wb::testkit
