// CUDA features the emulator does not provide and whose names its headers therefore do not declare: textures and
// surfaces, CUDA graphs. Without this, a program using them fails with a page of g++ errors ("'cudaTextureObject_t'
// has not been declared", then every use of it); the rewriter instead refuses the translation unit at the first use
// in the program's own files with one sentence naming the feature.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace emu::rewrite {

// `name` is an identifier of the program's own code, `next` the significant token after it. Returns the sentence
// that refuses it when it names a feature the emulator does not provide, nothing otherwise.
std::optional<std::string> refused_feature(std::string_view name, std::string_view next);

}  // namespace emu::rewrite
