// What a hidden test sees of the harness: WB_TEST, the run's seed and the name of the test being run.
// Works with Catch2 2.x (single header) and 3.x (split headers).
#pragma once

// WORKBOOK_CATCH2_MAJOR comes from the build (the Catch2 that CMake found); a machine can have both versions'
// headers, and compiling against one while linking the other fails.
#if defined(WORKBOOK_CATCH2_MAJOR) ? WORKBOOK_CATCH2_MAJOR == 3 : __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#define WB_CATCH2_MAJOR 3
#else
#include <catch2/catch.hpp>
#define WB_CATCH2_MAJOR 2
#endif

#include <cstdint>
#include <string>
#include <vector>

namespace wb {

struct TestEntry {
    std::string name;
    std::vector<std::string> tags;  // "[rmsnorm][edge]" -> {"rmsnorm", "edge"}
};

// Every WB_TEST of this executable, in registration (file) order.
const std::vector<TestEntry>& registered_tests();

// Registration happens during static initialisation; a name the harness cannot select exactly through a Catch2 test
// spec (see protocol.hpp) aborts the program at start-up, so a bad name is found the first time the tests are built
// and listed, not when a student is graded.
struct Registrar {
    Registrar(const char* name, const char* tags);
};

// The seed of this run (--wb-seed, or drawn at start-up and printed), and the test being run.
std::uint64_t run_seed();
const std::string& current_test_name();

}  // namespace wb

#define WB_TEST_CAT2(a, b) a##b
#define WB_TEST_CAT(a, b) WB_TEST_CAT2(a, b)
// __COUNTER__, not __LINE__: a case list written as one macro puts several WB_TESTs on one line.
#define WB_TEST(name, tags)                                                                \
    static const ::wb::Registrar WB_TEST_CAT(wb_test_registrar_, __COUNTER__){name, tags}; \
    TEST_CASE(name, tags)
