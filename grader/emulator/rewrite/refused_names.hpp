// CUDA features the emulator does not provide and whose names its headers therefore do not declare: textures and
// surfaces, CUDA graphs. Without this, a program using them fails with a page of g++ errors ("'cudaTextureObject_t'
// has not been declared", then every use of it); the rewriter instead refuses the translation unit at the first use
// in the program's own files with one sentence naming the feature.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

namespace emu::rewrite {

// `name` is an identifier of the program's own code, `next` the significant token after it. Returns the sentence
// that refuses it when it names a feature the emulator does not provide, nothing otherwise.
std::optional<std::string> refused_feature(std::string_view name, std::string_view next);

// The driver API beyond the functions cuda.h declares (its templates refuse those where they are called): a call of
// a `cuXxx` function that nothing in the translation unit declared before it, in a program that included cuda.h
// (`CUresult` was declared), would be g++'s "was not declared in this scope"; it is refused in one sentence instead.
// A name declared earlier (the program's own `cuHelper`, cuda.h's templates) is left alone.
class DriverApiCalls {
 public:
    // Every identifier of the translation unit, in order, after its own check.
    void see(std::string_view name);
    // `name` is an identifier of the program's own code, `prev` and `next` the significant tokens around it.
    std::optional<std::string> refused_call(std::string_view name, std::string_view prev, std::string_view next) const;

 private:
    bool driver_header_ = false;
    std::unordered_set<std::string_view> declared_;  // names of the driver API's form seen so far
};

}  // namespace emu::rewrite
