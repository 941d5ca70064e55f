// CUDA's <vector_functions.h> for emulator builds: the make_* constructors (defined with the types).
#pragma once
#include "emu/vector_types.hpp"
