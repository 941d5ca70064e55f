// CUDA's <math_constants.h> for emulator builds: the CUDART_* constants.
#pragma once
#include "emu/math.hpp"
