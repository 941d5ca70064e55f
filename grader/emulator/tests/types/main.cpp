// Catch2 2.x main for the emulator's type tests (3.x links Catch2::Catch2WithMain instead).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
