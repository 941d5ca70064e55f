// Self-test of the harness's runner protocol helpers (command line, tags, names, result file), run by `make test`.
#include <cstdio>
#include <fstream>

#include "protocol.hpp"

static int failures = 0;
#define EXPECT(c)                                                            \
  do {                                                                       \
    if (!(c)) {                                                              \
      ++failures;                                                            \
      std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #c);            \
    }                                                                        \
  } while (0)

static void test_protocol() {
  const std::string result_path = std::string(WB_SELFTEST_DIR) + "/result.json";
  using namespace wb;
  {
    const char* argv[] = {"h", "--wb-run", "rmsnorm: a b", "--wb-result", "/tmp/r.json", "--wb-seed", "18446744073709551615", "-s"};
    Options o = parse_options(8, const_cast<char**>(argv));
    EXPECT(o.error.empty());
    EXPECT(o.run && *o.run == "rmsnorm: a b");
    EXPECT(o.seed && *o.seed == 18446744073709551615ull);
    EXPECT(o.catch_args.size() == 2 && o.catch_args[1] == "-s");
    EXPECT(wants_run(8, const_cast<char**>(argv)));
  }
  {
    const char* argv[] = {"h", "--wb-run", "x"};
    EXPECT(!parse_options(3, const_cast<char**>(argv)).error.empty());  // no --wb-result
    const char* argv2[] = {"h", "--wb-seed", "-1"};
    EXPECT(!parse_options(3, const_cast<char**>(argv2)).error.empty());
    const char* argv3[] = {"h", "--wb-bogus"};
    EXPECT(!parse_options(2, const_cast<char**>(argv3)).error.empty());
    const char* argv4[] = {"h", "--wb-list"};
    Options o = parse_options(2, const_cast<char**>(argv4));
    EXPECT(o.error.empty() && o.list && !wants_run(2, const_cast<char**>(argv4)));
  }
  EXPECT((parse_tags("[rmsnorm][edge]") == std::vector<std::string>{"rmsnorm", "edge"}));
  EXPECT(parse_tags("rmsnorm").empty());
  EXPECT(parse_tags("[a][").empty());
  EXPECT(name_problem("rmsnorm: hidden size 256 (one element per thread)").empty());
  EXPECT(!name_problem("rmsnorm: 7, 768").empty());
  EXPECT(!name_problem("rmsnorm: [x]").empty());
  EXPECT(!name_problem("*x").empty());
  EXPECT(!name_problem(" x").empty());
  TestOutcome out;
  out.name = "t";
  out.ran = true;
  out.passed = false;
  out.assertions = 3;
  out.failures = {"bad \xff byte"};
  nlohmann::json j = result_json("abc", 18446744073709551615ull, out);
  std::string err;
  EXPECT(write_result_file(result_path, j, &err));
  std::ifstream in(result_path);
  nlohmann::json back = nlohmann::json::parse(in);
  EXPECT(back["nonce"] == "abc" && back["status"] == "failed" && back["assertions"] == 3);
  EXPECT(back["seed"].get<std::uint64_t>() == 18446744073709551615ull);
  EXPECT(back["failures"].size() == 1);
  std::printf("result file: %s\n", back.dump().c_str());
  EXPECT(!write_result_file("/nonexistent/dir/r.json", j, &err) && !err.empty());
}


int main() {
  test_protocol();
  std::printf("%s (%d failures)\n", failures ? "FAILED" : "harness protocol self-test passed", failures);
  return failures ? 1 : 0;
}
