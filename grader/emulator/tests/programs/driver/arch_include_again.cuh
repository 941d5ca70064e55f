// Includes arch_include.cuh for every pass (see arch_include.cu).
#pragma once
#include "arch_include.cuh"
