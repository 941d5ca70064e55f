#include "refused_names.hpp"

#include <array>
#include <utility>

namespace emu::rewrite {

namespace {

struct Feature {
    const char* what;  // the feature, as the sentence names it
    const char* why;   // what the program can do instead
};

constexpr Feature kTextures{"3D, layered, cubemap and mipmapped textures, texture gather and texture references",
                            "the emulator has 1D and 2D texture objects and 2D surface objects only (tex1Dfetch, "
                            "tex1D, tex2D, surf2Dread and surf2Dwrite over CUDA arrays, linear and pitched memory; "
                            "emu/texture.hpp); use those, or run this program on a GPU"};
constexpr Feature kGraphs{"CUDA graphs",
                          "the emulator runs every launch at once on the calling thread and cannot capture or "
                          "replay them; launch the kernels directly, or run this program on a GPU"};

// Names only CUDA's texture, surface and graph APIs declare, for the parts the emulator does not have. The fetch functions are templates or overloaded
// functions: they count only when called or instantiated (`tex2D<float>(…)`, `tex1Dfetch(…)`), so a variable of the
// same name in a program does not.
constexpr std::array<std::pair<const char*, const Feature*>, 21> kNames{{
    {"cudaMipmappedArray_t", &kTextures},
    {"cudaMalloc3DArray", &kTextures},
    {"cudaBindTexture", &kTextures},
    {"cudaBindTexture2D", &kTextures},
    {"tex3D", &kTextures},
    {"surf3Dread", &kTextures},
    {"surf3Dwrite", &kTextures},
    {"surf2DLayeredread", &kTextures},
    {"surf2DLayeredwrite", &kTextures},
    {"tex1DLayered", &kTextures},
    {"tex2DLayered", &kTextures},
    {"texCubemap", &kTextures},
    {"tex2Dgather", &kTextures},
    {"cudaGraph_t", &kGraphs},
    {"cudaGraphExec_t", &kGraphs},
    {"cudaGraphNode_t", &kGraphs},
    {"cudaStreamBeginCapture", &kGraphs},
    {"cudaGraphCreate", &kGraphs},
    {"cudaGraphInstantiate", &kGraphs},
    {"cudaGraphLaunch", &kGraphs},
    {"cudaStreamEndCapture", &kGraphs},
}};

bool is_function_like(std::string_view name) { return name.rfind("tex", 0) == 0 || name.rfind("surf", 0) == 0; }

}  // namespace

std::optional<std::string> refused_feature(std::string_view name, std::string_view next) {
    for (const auto& [n, feature] : kNames) {
        if (name != n) continue;
        if (is_function_like(name) && next != "(" && next != "<") return std::nullopt;
        return std::string(feature->what) + " ('" + std::string(name) +
               "') are not emulated by the CPU emulator: " + feature->why;
    }
    // The legacy texture references: `texture<float, 2> tex;` (removed in CUDA 12, still in older programs).
    if ((name == "texture" || name == "surface") && next == "<")
        return std::string(kTextures.what) + " ('" + std::string(name) +
               "<…>') are not emulated by the CPU emulator: " + kTextures.why;
    return std::nullopt;
}

namespace {
// cuXxx: the driver API's functions (cuMemAlloc, cuCtxCreate, cuGraphLaunch); the libraries' are lower case after
// `cu` (cublasSgemm, curandCreateGenerator, cufftExecC2C).
bool driver_api_form(std::string_view name) {
    return name.size() > 2 && name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z';
}
}  // namespace

void DriverApiCalls::see(std::string_view name) {
    if (name == "CUresult") driver_header_ = true;
    else if (driver_api_form(name)) declared_.insert(name);
}

std::optional<std::string> DriverApiCalls::refused_call(std::string_view name, std::string_view prev,
                                                        std::string_view next) const {
    if (!driver_header_ || next != "(" || !driver_api_form(name) || declared_.count(name)) return std::nullopt;
    // A call follows punctuation or `return`; after a type (`static int cuHelper(`) it is the program's own
    // declaration, after `.`, `->` or `::` a member of its own.
    static constexpr std::string_view kBeforeCall[] = {";",  "{", "}", "(",  ")",  ",", "=", "!",      "&&",
                                                       "||", "?", ":", "==", "!=", "[", "+", "return", "else"};
    bool call = false;
    for (std::string_view p : kBeforeCall) call = call || prev == p;
    if (!call) return std::nullopt;
    return "the CUDA driver API (" + std::string(name) +
           ") is not emulated by the CPU emulator, which implements the runtime API and the driver API's common "
           "calls only (devices, contexts, memory, streams, events, cuLaunchKernel): use those or the runtime API "
           "instead, or run this program on a GPU";
}

}  // namespace emu::rewrite
