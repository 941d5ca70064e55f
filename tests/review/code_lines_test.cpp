// grade/code_lines.hpp: the emulator's `pc 0x… (+0x…)` addresses, made in a worker that may not start addr2line,
// become file:line in the grade, which runs addr2line outside the sandbox.
#include "workbook_catch.hpp"

#include <link.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "grade/code_lines.hpp"

namespace {

// A function of this file whose code address the test looks up.
__attribute__((noinline)) int code_lines_probe(int x) { return x * 3 + 1; }

// The load base of the main program, as the emulator's diagnostics compute offsets from it.
std::uintptr_t main_program_base() {
    std::uintptr_t base = 0;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* data) -> int {
            *static_cast<std::uintptr_t*>(data) = info->dlpi_addr;
            return 1;  // the first object is the main program
        },
        &base);
    return base;
}

std::string hex(std::uintptr_t v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

}  // namespace

TEST_CASE("code addresses of a report become file:line, what cannot be placed stays", "[tools]") {
    REQUIRE(code_lines_probe(1) == 4);
    const std::uintptr_t pc = reinterpret_cast<std::uintptr_t>(&code_lines_probe);
    const std::string offset = hex(pc - main_program_base());
    const std::string message = "[race] Race reported between Write access at pc " + hex(pc) + " (+" + offset +
                                ") by thread (0,0,0)\n    and Read access at pc 0xdeadbeef (+0xfffffff0) by thread "
                                "(1,0,0)\n";
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");  // not addr2line's own
    const std::string named = workbook::grade::name_code_lines(message, self);
    INFO(named);
    CHECK(named.find("Write access at code_lines_test.cpp:") != std::string::npos);
    CHECK(named.find("pc " + hex(pc)) == std::string::npos);
    // An offset outside the program: addr2line answers ??, and the address is left as it was.
    CHECK(named.find("at pc 0xdeadbeef (+0xfffffff0) by thread (1,0,0)") != std::string::npos);
    // Nothing to name, or no program to ask: the message is unchanged.
    CHECK(workbook::grade::name_code_lines("no addresses here", self) == "no addresses here");
    CHECK(workbook::grade::name_code_lines(message, "") == message);
}
