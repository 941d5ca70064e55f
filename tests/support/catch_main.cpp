// Catch2 2.x's runner, compiled once for every unit-test executable (compiling the single header's implementation
// is the slowest step of a test build). With Catch2 3.x the library's own Catch2WithMain is linked instead.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
