#include "device.hpp"

#include <cstring>

namespace wb04 {

Rng test_rng() { return Rng(test_seed(wb::run_seed(), wb::current_test_name())); }

CaseInfo case_info(std::string shape, std::string probe) {
  CaseInfo c;
  c.title = wb::current_test_name();
  c.shape = std::move(shape);
  c.probe = std::move(probe);
  c.seed = wb::run_seed();
  return c;
}

std::string cuda_error_text(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

void cuda_ok(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) FAIL("the test's own CUDA call failed: " + what + ": " + cuda_error_text(e));
}

DeviceBuffer::DeviceBuffer(std::size_t before, std::size_t payload, std::size_t after)
    : before_(before), payload_(payload), after_(after) {
  void* p = nullptr;
  cuda_ok(cudaMalloc(&p, total() == 0 ? 1 : total()), "cudaMalloc of " + std::to_string(total()) + " bytes");
  base_ = static_cast<unsigned char*>(p);
  fill(0xFF);
}

DeviceBuffer::~DeviceBuffer() {
  if (base_ != nullptr) (void)cudaFree(base_);  // after a device fault this fails too; the test already failed
}

void DeviceBuffer::fill(std::uint8_t byte) { cuda_ok(cudaMemset(base_, byte, total()), "cudaMemset"); }

void DeviceBuffer::upload(const void* src, std::size_t bytes) {
  cuda_ok(cudaMemcpy(data(), src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
}

std::vector<std::uint8_t> DeviceBuffer::download() const {
  std::vector<std::uint8_t> out(total());
  cuda_ok(cudaMemcpy(out.data(), base_, total(), cudaMemcpyDeviceToHost), "cudaMemcpy from the device");
  return out;
}

void check_after_launch(const std::string& entry) {
  std::string problems;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    problems = entry + ": the kernel launch failed: " + cuda_error_text(e) + "\n";
  } else if ((e = cudaDeviceSynchronize()) != cudaSuccess) {
    problems = entry + ": the kernel failed while running: " + cuda_error_text(e) + "\n";
  }
#ifdef WORKBOOK_EMU
  // The emulator runs a launch synchronously and may turn a fault into a launch error; its diagnostics say where.
  std::vector<std::string> diagnostics = emu::take_diagnostics();
  if (!diagnostics.empty()) {
    constexpr std::size_t kShown = 5;
    problems += entry + ": the emulator found " + std::to_string(diagnostics.size()) +
                " problem(s) while running the kernel:\n";
    for (std::size_t i = 0; i < diagnostics.size() && i < kShown; ++i) problems += diagnostics[i] + "\n";
    if (diagnostics.size() > kShown) problems += "... and " + std::to_string(diagnostics.size() - kShown) + " more\n";
  }
#endif
  if (!problems.empty()) FAIL(problems);
}

void expect_report(bool ok, const std::string& report) {
  if (ok)
    SUCCEED();
  else
    FAIL_CHECK(report);
}

void expect_clean(const MismatchLog& log, const CaseInfo& info) {
  expect_report(log.ok(), log.ok() ? std::string() : log.report(info));
}

void expect_unchanged(const CaseInfo& info, const std::string& name, const DeviceBuffer& buf,
                      const std::vector<std::uint8_t>& uploaded, std::size_t element_size) {
  std::vector<std::uint8_t> now = buf.download();
  std::size_t changed = 0, first = 0;
  for (std::size_t i = 0; i < uploaded.size(); i += element_size) {
    if (std::memcmp(&now[buf.before() + i], &uploaded[i], element_size) != 0 && changed++ == 0) first = i / element_size;
  }
  expect_report(changed == 0, changed == 0 ? std::string() : unchanged_input_report(info, name, changed, first));
}

}  // namespace wb04
