#include "workbook_catch.hpp"

#include <algorithm>
#include <string>

#include "cxxlex/cxxlex.hpp"

using cxxlex::Kind;

namespace {

std::string joined(const std::vector<cxxlex::Token>& ts) {
  std::string s;
  for (const auto& t : ts) s += t.text;
  return s;
}

std::vector<std::string> texts(const std::vector<cxxlex::Token>& ts) {
  std::vector<std::string> v;
  for (const auto& t : ts) v.push_back(t.text);
  return v;
}

}  // namespace

TEST_CASE("cxxlex: concatenated tokens give the input back", "[cxxlex]") {
  const std::string src =
      "#include <cstdio>\n#define X(a) \\\n  (a + 1) /* c\n */\nint main() {\r\n  auto s = R\"x(a)\"b)x\";\n"
      "  char c = '\\''; // done \\\n still comment\n  return 0x1Fu + 1.5e-3f + 1'000;\n}\n/* open";
  auto ts = cxxlex::lex(src);
  CHECK(joined(ts) == src);
}

TEST_CASE("cxxlex: kinds, lines and columns", "[cxxlex]") {
  auto ts = cxxlex::significant(cxxlex::lex("int x = 3;\n  __shared__ float s[4]; // hi\n"));
  REQUIRE(ts.size() == 12);
  CHECK(ts[0].kind == Kind::keyword);
  CHECK(ts[1].kind == Kind::identifier);
  CHECK(ts[3].kind == Kind::number);
  CHECK(ts[5].text == "__shared__");
  CHECK(ts[5].kind == Kind::identifier);
  CHECK(ts[5].line == 2);
  CHECK(ts[5].column == 3);
  CHECK(ts[5].offset == 13);
}

TEST_CASE("cxxlex: comments and strings hide their contents", "[cxxlex]") {
  auto ts = cxxlex::lex("a /* <<< */ \"<<<\" // >>>\nb");
  auto sig = cxxlex::significant(ts);
  REQUIRE(sig.size() == 3);
  CHECK(sig[1].kind == Kind::string);
  CHECK(sig[2].text == "b");
  CHECK(sig[2].line == 2);
}

TEST_CASE("cxxlex: literal prefixes, raw strings and suffixes", "[cxxlex]") {
  auto sig = cxxlex::significant(cxxlex::lex("u8\"a\" L'b' uR\"d(\")d\" \"s\"_sv U'c' R\"(multi\nline)\" x"));
  REQUIRE(texts(sig) == std::vector<std::string>{"u8\"a\"", "L'b'", "uR\"d(\")d\"", "\"s\"_sv", "U'c'",
                                                   "R\"(multi\nline)\"", "x"});
  CHECK(sig[0].kind == Kind::string);
  CHECK(sig[1].kind == Kind::character);
  CHECK(sig.back().line == 2);
}

TEST_CASE("cxxlex: punctuators take the longest match", "[cxxlex]") {
  auto sig = cxxlex::significant(cxxlex::lex("k<<<g, b>>>(p); a<<=2; x->*m; f(...); A<B<C<int>>> y; a>>b; ::n"));
  auto t = texts(sig);
  CHECK(t[1] == "<<<");
  CHECK(t[5] == ">>>");
  CHECK(std::count(t.begin(), t.end(), "<<=") == 1);
  CHECK(std::count(t.begin(), t.end(), "->*") == 1);
  CHECK(std::count(t.begin(), t.end(), "...") == 1);
  CHECK(std::count(t.begin(), t.end(), ">>>") == 2);
  CHECK(std::count(t.begin(), t.end(), ">>") == 1);
  CHECK(t.back() == "n");

  cxxlex::Options plain;
  plain.cuda_launch_brackets = false;
  auto p = texts(cxxlex::significant(cxxlex::lex("k<<<g>>>()", plain)));
  CHECK(p == std::vector<std::string>{"k", "<<", "<", "g", ">>", ">", "(", ")"});
}

TEST_CASE("cxxlex: directives span continuations; '#' elsewhere is punctuation", "[cxxlex]") {
  auto ts = cxxlex::lex("  #define M(x) \\\n  x##x /* a\nb */ + 1\nint y; #\n");
  REQUIRE(ts[1].kind == Kind::preprocessor);
  CHECK(ts[1].text == "#define M(x) \\\n  x##x /* a\nb */ + 1");
  auto sig = cxxlex::significant(ts);
  CHECK(sig.back().text == "#");
  CHECK(sig.back().kind == Kind::punct);
  CHECK(sig.back().line == 4);
}

TEST_CASE("cxxlex: numbers", "[cxxlex]") {
  auto t = texts(cxxlex::significant(cxxlex::lex("1e+5 0x1p-3 .5f 1'024 3.f 42ull 7.e10")));
  CHECK(t == std::vector<std::string>{"1e+5", "0x1p-3", ".5f", "1'024", "3.f", "42ull", "7.e10"});
}

TEST_CASE("cxxlex: keywords", "[cxxlex]") {
  CHECK(cxxlex::is_keyword("typename"));
  CHECK(cxxlex::is_keyword("alignas"));
  CHECK_FALSE(cxxlex::is_keyword("__global__"));
  CHECK(cxxlex::newline_count("a\nb\n") == 2);
}
