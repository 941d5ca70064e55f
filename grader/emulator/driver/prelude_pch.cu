// Compiled by the build with EMU_NVCC_WRITE_PCH=1 only to have emu-nvcc precompile the emulator's prelude
// (prelude_pch.hpp): a .cu file of its own adds nothing after the prelude, so the prefix written is every compile's.
