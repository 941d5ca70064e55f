// `workbook profile`'s pure parts: the register table it reads from nvcc -Xptxas -v, and the advice line a grade on
// the emulator shows under a performance exercise.
#include "workbook_catch.hpp"

#include <algorithm>

#include "tools/profile.hpp"

using namespace workbook;

TEST_CASE("profile: registers and shared memory per kernel from nvcc -Xptxas -v", "[tools]") {
    const std::string out =
        "ptxas info    : 0 bytes gmem\n"
        "ptxas info    : Compiling entry function '_ZN12_GLOBAL__N_114rmsnorm_kernelILi256EEEvPKfS2_Pfiif' for "
        "'sm_90'\n"
        "ptxas info    : Function properties for _ZN12_GLOBAL__N_114rmsnorm_kernelILi256EEEvPKfS2_Pfiif\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 32 registers, used 1 barriers, 36 bytes smem\n"
        "ptxas info    : Compiling entry function '_Z6plainkPf' for 'sm_90'\n"
        "ptxas info    : Used 8 registers\n";
    const std::string table = tools::ptxas_table(out);
    CHECK(table.find("32\t36\tvoid (anonymous namespace)::rmsnorm_kernel<256>(float const*, float const*, float*, "
                     "int, int, float)\n") != std::string::npos);
    CHECK(table.find("8\t0\tplaink(float*)\n") != std::string::npos);
    CHECK(std::count(table.begin(), table.end(), '\n') == 2);
    CHECK(tools::ptxas_table("nvcc: no kernels here\n").empty());
}

TEST_CASE("profile: the grade's advice line names the performance exercise only", "[tools]") {
    const auto manifest = nlohmann::json::parse(R"j({"exercises": [
        {"name": "rmsnorm", "title": "fp32 RMSNorm, two passes"},
        {"name": "rmsnorm_fast", "title": "One-pass fp32 RMSNorm (performance)"}]})j");
    CHECK(tools::profile_advice(manifest, "04", "rmsnorm").empty());
    const std::string a = tools::profile_advice(manifest, "04", "rmsnorm_fast");
    CHECK(a.find("make profile-04 EX=rmsnorm_fast") != std::string::npos);
    CHECK(a.find("pending GPU verification") != std::string::npos);
    CHECK(tools::profile_advice(nlohmann::json::array(), "04", "rmsnorm_fast").empty());
}
