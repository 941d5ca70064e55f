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
    REQUIRE(texts(sig) ==
            std::vector<std::string>{"u8\"a\"", "L'b'", "uR\"d(\")d\"", "\"s\"_sv", "U'c'", "R\"(multi\nline)\"", "x"});
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

TEST_CASE("cxxlex: digraphs are single tokens and '%:' opens a directive", "[cxxlex]") {
    auto sig =
        cxxlex::significant(cxxlex::lex("f() <% a<:1:> = 2; %>\n%:define X 1\nstd::vector<::T> v; a<:::b:>; %:%:"));
    auto t = texts(sig);
    CHECK(t[3] == "<%");
    CHECK(t[5] == "<:");
    CHECK(t[7] == ":>");
    CHECK(t[11] == "%>");
    CHECK(sig[12].kind == Kind::preprocessor);
    CHECK(t[12] == "%:define X 1");
    // "<::" followed by neither ':' nor '>' is '<' '::'; "<:::" is "<:" "::".
    CHECK(std::find(t.begin(), t.end(), "<") != t.end());
    auto lt = std::find(t.begin(), t.end(), "<");
    CHECK(*(lt + 1) == "::");
    auto dg = std::find(lt, t.end(), "<:");
    REQUIRE(dg != t.end());
    CHECK(*(dg + 1) == "::");
    CHECK(t.back() == "%:%:");
}

TEST_CASE("cxxlex: spliced lexing reads what the compiler reads", "[cxxlex]") {
    cxxlex::Options o;
    o.spliced = true;
    const std::string src = "x = 1 /\\\n/ hidden;\nret\\\nurn y; /\\\n* c *\\  \n/ z\n#def\\\nine Q 1\n";
    auto ts = cxxlex::lex(src, o);
    std::string tiles;
    for (const auto& t : ts) tiles += src.substr(t.offset, t.length);
    CHECK(tiles == src);  // the tokens' byte ranges tile the input
    auto sig = cxxlex::significant(ts);
    auto t = texts(sig);
    REQUIRE(t == std::vector<std::string>{"x", "=", "1", "return", "y", ";", "z", "#define Q 1"});
    CHECK(sig[3].kind == Kind::keyword);
    CHECK(sig[3].line == 3);
    CHECK(sig[3].column == 1);
    CHECK(sig[6].line == 6);
    CHECK(sig[7].kind == Kind::preprocessor);
    // The comment `/\<nl>/ hidden;` is one token, covering both physical lines.
    auto c = std::find_if(ts.begin(), ts.end(), [](const cxxlex::Token& k) { return k.kind == Kind::comment; });
    REQUIRE(c != ts.end());
    CHECK(c->text == "// hidden;");
    CHECK(src.substr(c->offset, c->length) == "/\\\n/ hidden;");
    // Without splicing, the same text is code.
    auto plain = texts(cxxlex::significant(cxxlex::lex(src)));
    CHECK(std::find(plain.begin(), plain.end(), "hidden") != plain.end());
}

TEST_CASE("cxxlex: a splice inside a raw string is reverted", "[cxxlex]") {
    cxxlex::Options o;
    o.spliced = true;
    const std::string src = "s = R\"d(a)d\\\n\" b)d\"; q";
    auto sig = cxxlex::significant(cxxlex::lex(src, o));
    REQUIRE(sig.size() == 5);
    CHECK(sig[2].kind == Kind::string);
    CHECK(sig[2].text == "R\"d(a)d\\\n\" b)d\"");
    CHECK(sig[4].text == "q");
    CHECK(cxxlex::splice_offsets(src) == std::vector<std::size_t>{11});
    CHECK(cxxlex::splice_offsets("a \\ \t\r\nb \\x\n") == std::vector<std::size_t>{2});
}

TEST_CASE("cxxlex: spliced lexing reads line ends and a byte order mark as GCC does (phase 1)", "[cxxlex]") {
    cxxlex::Options o;
    o.spliced = true;
    // A carriage return alone ends the line for GCC, so a `//` comment stops there and what follows is code (read
    // as a blank, `hidden` would be part of the comment and escape the review).
    const std::string src = "a; // why\rhidden();\r#define X 1\rb;";
    auto sig = texts(cxxlex::significant(cxxlex::lex(src, o)));
    CHECK(sig == std::vector<std::string>{"a", ";", "hidden", "(", ")", ";", "#define X 1", "b", ";"});
    auto all = cxxlex::lex(src, o);
    auto h = std::find_if(all.begin(), all.end(), [](const cxxlex::Token& k) { return k.text == "hidden"; });
    REQUIRE(h != all.end());
    CHECK(h->line == 2);  // GCC's __LINE__ there
    // "\r\n" is still one line end, and a backslash before a lone carriage return is a splice.
    CHECK(texts(cxxlex::significant(cxxlex::lex("a\r\nb", o))) == std::vector<std::string>{"a", "b"});
    CHECK(texts(cxxlex::significant(cxxlex::lex("ab\\\rc", o))) == std::vector<std::string>{"abc"});
    CHECK(cxxlex::splice_offsets("x \\\ry") == std::vector<std::size_t>{2});
    // The mark is skipped at the start of the file only; the token ranges still tile the input.
    const std::string bom = "\xEF\xBB\xBF// c\nint x;";
    auto b = cxxlex::lex(bom, o);
    CHECK(texts(cxxlex::significant(b)) == std::vector<std::string>{"int", "x", ";"});
    REQUIRE(!b.empty());
    CHECK(b.front().offset == 0);
    std::size_t covered = 0;
    for (const auto& t : b) covered += t.length;
    CHECK(covered == bom.size());
}
