// CUDA's <vector_types.h> for emulator builds: char1 … double4 and dim3, with CUDA's sizes and alignments.
#pragma once
#define __VECTOR_TYPES_H__
#include "emu/vector_types.hpp"
