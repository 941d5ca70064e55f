// `workbook profile`'s pure parts: the register table it reads from nvcc -Xptxas -v, and the advice line a grade on
// the emulator shows under a performance exercise.
#include "workbook_catch.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

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
    const std::filesystem::path none = "/nonexistent-build";
    CHECK(tools::profile_advice(manifest, "04", "rmsnorm", none, "abc").empty());
    const std::string a = tools::profile_advice(manifest, "04", "rmsnorm_fast", none, "abc");
    CHECK(a.find("make profile-04 EX=rmsnorm_fast") != std::string::npos);
    CHECK(a.find("pending GPU verification") != std::string::npos);
    CHECK(tools::profile_advice(nlohmann::json::array(), "04", "rmsnorm_fast", none, "abc").empty());
}

TEST_CASE("profile: a grade shows the counts of the last profile of the same content, and only of it", "[tools]") {
    const auto manifest = nlohmann::json::parse(R"j({"exercises": [
        {"name": "rmsnorm_fast", "title": "One-pass fp32 RMSNorm (performance)"}]})j");
    const auto build = std::filesystem::temp_directory_path() / ("wb-profile-advice-" + std::to_string(::getpid()));
    const auto dir = build / "profile" / "04" / "rmsnorm_fast";
    std::filesystem::create_directories(dir);
    {
        std::ofstream(dir / "profiled-source.json") << R"({"exercise": "rmsnorm_fast", "sha256": "c0ffee"})"
                                                    << "\n";
        // A row re-read from DRAM: 2 sectors of 8 per load request are ideal here, and the traffic is 1.5 times the
        // minimum.
        std::ofstream(dir / "profile.jsonl")
            << R"({"kernel": "slow_kernel<256>", "label": "16384 x 4096 fp32", "ld_requests": 10, "ld_sectors": 80,)"
            << R"( "ld_ideal": 40, "st_requests": 5, "st_sectors": 20, "st_ideal": 20, "traffic_ratio": 1.5,)"
            << R"( "predicted_tbs": 2.5})"
            << "\n";
    }
    const std::string same = tools::profile_advice(manifest, "04", "rmsnorm_fast", build, "c0ffee");
    CHECK(same.find("slow_kernel, 16384 x 4096 fp32: 8.00 sectors per load request (ideal 4.00), 4.00 per store") !=
          std::string::npos);
    CHECK(same.find("DRAM traffic 1.50x the minimum") != std::string::npos);
    CHECK(same.find("PREDICTION") != std::string::npos);
    CHECK(same.find("pending GPU verification") != std::string::npos);
    // Another content (the file changed since it was profiled): only the pointer to the command.
    const std::string other = tools::profile_advice(manifest, "04", "rmsnorm_fast", build, "decaf");
    CHECK(other.find("sectors per load request") == std::string::npos);
    CHECK(other.find("make profile-04 EX=rmsnorm_fast shows") != std::string::npos);
    std::filesystem::remove_all(build);
}
