// uint3 and dim3 for the built-in variables and launches, from the emulator's vector types.
#pragma once
#include <emu/vector_types.hpp>
