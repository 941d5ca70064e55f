#include "review/host_fill.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

namespace workbook::review {
// Not anonymous: workbook_lib is a unity build, where this file's helpers would meet fill_policy.cpp's.
namespace host_grammar {

using cxxlex::Kind;

bool word(const Tok& t) {
    return !t.text.empty() && (std::isalpha(static_cast<unsigned char>(t.text[0])) || t.text[0] == '_');
}
bool ident(const Tok& t) { return t.kind == Kind::identifier && word(t); }
// A keyword as spelled (the alternative operator spellings are normalized to `&&`, `|` …, which are not words).
bool keyword(const Tok& t, std::initializer_list<std::string_view> list = {}) {
    return t.kind == Kind::keyword && word(t) && (list.size() == 0 || among(t.text, list));
}

bool arithmetic_type_word(const Tok& t) {
    return keyword(t, {"bool", "char", "char8_t", "char16_t", "char32_t", "wchar_t", "short", "int", "long", "signed",
                       "unsigned", "float", "double"});
}
bool cv_word(const Tok& t) { return keyword(t, {"const", "volatile", "constexpr"}); }

// ------------------------------------------------------------------------------------------------------------------
// The starter: which blanks lie in host code, and which names are numbers there.

struct Frame {
    enum Kind { ns, cls, function, block } kind = ns;
    bool device = false;
    std::map<std::string, bool> names;  // declared here: true when its type is arithmetic
    std::set<std::string> functions;    // host functions declared here with arithmetic parameters and result
};

std::size_t match_close(const std::vector<Tok>& p, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < p.size(); ++i) {
        if (among(p[i].text, {"(", "[", "{"})) ++depth;
        else if (among(p[i].text, {")", "]", "}"}) && --depth == 0) return i;
    }
    return p.size();
}
std::size_t match_open(const std::vector<Tok>& p, std::size_t close) {
    int depth = 0;
    for (std::size_t i = close + 1; i-- > 0;) {
        if (among(p[i].text, {")", "]", "}"})) ++depth;
        else if (among(p[i].text, {"(", "[", "{"}) && --depth == 0) return i;
    }
    return p.size();
}

// A parameter list `(b, e)` (exclusive): each parameter's name and whether its type is arithmetic. `all` is false
// when any parameter is not (an unnamed `int` is arithmetic; `void` alone is an empty list).
std::vector<std::pair<std::string, bool>> parameters(const std::vector<Tok>& p, std::size_t b, std::size_t e,
                                                     bool& all) {
    std::vector<std::pair<std::string, bool>> out;
    all = true;
    std::size_t start = b;
    int depth = 0;
    for (std::size_t i = b; i <= e; ++i) {
        if (i < e && among(p[i].text, {"(", "[", "{", "<"})) ++depth;
        if (i < e && among(p[i].text, {")", "]", "}", ">"})) --depth;
        if (i < e && !(depth == 0 && p[i].text == ",")) continue;
        // One parameter: [start, i). Its name is the last identifier before a default argument.
        std::size_t stop = start;
        while (stop < i && p[stop].text != "=") ++stop;
        if (stop == start) {
            start = i + 1;
            continue;
        }
        if (stop - start == 1 && keyword(p[start], {"void"})) {
            start = i + 1;
            continue;
        }
        bool arithmetic = true, has_type = false;
        std::string name;
        for (std::size_t k = start; k < stop; ++k) {
            if (arithmetic_type_word(p[k])) has_type = true;
            else if (cv_word(p[k])) {
            } else if (k + 1 == stop && ident(p[k])) name = p[k].text;
            else arithmetic = false;
        }
        arithmetic = arithmetic && has_type;
        all = all && arithmetic;
        if (!name.empty()) out.push_back({name, arithmetic});
        start = i + 1;
    }
    return out;
}

// Declaration specifiers a starter's arithmetic declaration may begin with.
bool specifier(const Tok& t) {
    return arithmetic_type_word(t) || cv_word(t) || keyword(t, {"static", "inline", "extern"}) ||
           (t.kind == Kind::identifier && among(t.text, {"__device__", "__host__", "__forceinline__", "__noinline__"}));
}

}  // namespace host_grammar

using namespace host_grammar;

std::vector<HostContext> host_contexts(const std::vector<Tok>& p) {
    std::vector<HostContext> out;
    std::vector<Frame> frames{Frame{}};
    bool statement_start = true;
    auto declare = [&](const std::string& name, bool arithmetic) { frames.back().names[name] = arithmetic; };
    for (std::size_t i = 0; i < p.size(); ++i) {
        const Tok& t = p[i];
        if (t.is_blank()) {
            HostContext c;
            bool in_class = false;
            for (const auto& f : frames) in_class = in_class || f.kind == Frame::cls;
            c.host = !std::any_of(frames.begin(), frames.end(), [](const Frame& f) { return f.device; });
            // Innermost declaration wins; a name declared as anything else hides an outer number.
            std::set<std::string> seen;
            for (std::size_t k = frames.size(); k-- > 0 && !in_class;) {
                for (const auto& [name, arithmetic] : frames[k].names) {
                    if (!seen.insert(name).second) continue;
                    if (arithmetic) c.values.insert(name);
                    else if (frames[k].functions.count(name)) c.functions.insert(name);
                }
            }
            out.push_back(std::move(c));
            statement_start = true;
            continue;
        }
        if (t.text == "{") {
            // What the brace opens: a function body (its head holds a parameter list), a class, a namespace, a block.
            std::size_t j = i;
            while (j > 0 && keyword(p[j - 1], {"const", "noexcept", "override", "final", "mutable"})) --j;
            Frame f;
            f.kind = Frame::block;
            f.device = frames.back().device;
            std::size_t head = i;  // first token of the statement the brace belongs to
            while (head > 0 && !among(p[head - 1].text, {";", "{", "}"}) && p[head - 1].kind != Kind::preprocessor) {
                const std::size_t at = p[head - 1].text == ")" ? match_open(p, head - 1) : head - 1;
                if (at >= p.size()) break;
                head = at;
            }
            bool has_class_key = false, has_namespace = false, device_head = false, host_head = false;
            for (std::size_t k = head; k < i; ++k) {
                has_class_key = has_class_key || keyword(p[k], {"struct", "class", "union", "enum"});
                has_namespace = has_namespace || keyword(p[k], {"namespace"});
                device_head = device_head || among(p[k].text, {"__global__", "__device__"});
                host_head = host_head || p[k].text == "__host__";
            }
            if (j > 0 && p[j - 1].text == ")") {
                const std::size_t open = match_open(p, j - 1);
                if (open < p.size() && open > 0 && !keyword(p[open - 1])) {
                    f.kind = Frame::function;
                    f.device = f.device || (device_head && !host_head);
                    bool all = false;
                    for (const auto& [name, arithmetic] : parameters(p, open + 1, j - 1, all))
                        f.names[name] = arithmetic;
                }
            } else if (has_namespace) {
                f.kind = Frame::ns;
            } else if (has_class_key) {
                f.kind = Frame::cls;
            }
            frames.push_back(std::move(f));
            statement_start = true;
            continue;
        }
        if (t.text == "}") {
            if (frames.size() > 1) frames.pop_back();
            statement_start = true;
            continue;
        }
        if (t.text == ";") {
            statement_start = true;
            continue;
        }
        if (t.kind == Kind::preprocessor) continue;
        if (statement_start && frames.back().kind != Frame::cls) {
            statement_start = false;
            std::size_t j = i;
            bool arithmetic = false, device_only = false, host_too = false;
            while (j < p.size() && specifier(p[j])) {
                arithmetic = arithmetic || arithmetic_type_word(p[j]);
                device_only = device_only || p[j].text == "__device__";
                host_too = host_too || p[j].text == "__host__";
                ++j;
            }
            if (arithmetic && j + 1 < p.size() && ident(p[j])) {
                if (p[j + 1].text == "(") {  // a function: callable from a host fill when all of it is numbers
                    bool all = false;
                    const std::size_t close = match_close(p, j + 1);
                    parameters(p, j + 2, std::min(close, p.size()), all);
                    declare(p[j].text, false);
                    if (all && (!device_only || host_too)) frames.back().functions.insert(p[j].text);
                } else if (among(p[j + 1].text, {"=", ";", ",", "{"})) {
                    declare(p[j].text, true);
                    // Further declarators of the same statement: `int a = 1, b = 2;` (`, *c` is not a number).
                    int depth = 0;
                    for (std::size_t k = j + 1; k + 1 < p.size() && !(depth == 0 && p[k].text == ";"); ++k) {
                        if (among(p[k].text, {"(", "[", "{"})) ++depth;
                        else if (among(p[k].text, {")", "]", "}"})) --depth;
                        if (depth < 0) break;
                        if (depth == 0 && p[k].text == "," && ident(p[k + 1]))
                            declare(p[k + 1].text, k + 2 < p.size() && among(p[k + 2].text, {"=", ";", ",", "{"}));
                    }
                } else {
                    declare(p[j].text, false);  // an array (`int a[4]`), a bit-field, anything else: not a number
                }
                i = j;
                continue;
            }
        }
        statement_start = false;
        // Any other declaration of a name (a type named by an identifier, a pointer, a reference, `auto`, an array)
        // hides an outer number of that name. Read broadly: a false "declaration" only narrows what a fill may name.
        if (ident(t) && i > 0 && i + 1 < p.size()) {
            const Tok& before = p[i - 1];
            // After a type: a name, any keyword but those that start an expression (`int`, `auto`, `typename`,
            // `class`, `using`, `void` …), or the end of a template argument list, a pointer or a reference.
            const bool after_type =
                ident(before) ||
                (keyword(before) && !keyword(before, {"return", "case", "throw", "sizeof", "alignof", "else", "do",
                                                      "new", "delete", "goto", "co_return", "co_yield", "co_await"})) ||
                among(before.text, {">", "*", "&", "&&"});
            if (after_type && among(p[i + 1].text, {"=", ";", ",", "{", "(", ")", "[", ":", ">"}))
                declare(t.text, false);
        }
        // A structured binding, `auto [a, b] = …` (also `auto& [`, `const auto [`): its names are not numbers here.
        if (t.text == "[" && i > 0 && (keyword(p[i - 1], {"auto"}) || among(p[i - 1].text, {"&", "&&"})))
            for (std::size_t k = i + 1; k < p.size() && p[k].text != "]"; ++k)
                if (ident(p[k])) declare(p[k].text, false);
    }
    return out;
}

// ------------------------------------------------------------------------------------------------------------------
// The fill.

namespace host_grammar {

bool allowed_keyword(const Tok& t) {
    return arithmetic_type_word(t) || cv_word(t) ||
           keyword(t, {"if", "else", "for", "while", "do", "switch", "case", "default", "break", "continue", "return",
                       "true", "false", "sizeof", "alignof", "static_cast"});
}

// The token ends an operand, so a `*` or `&` after it is a binary operator.
bool ends_operand(const std::vector<Tok>& s, std::size_t b, std::size_t i) {
    const Tok& t = s[i];
    if (t.kind == Kind::number || ident(t) || keyword(t, {"true", "false"})) return true;
    if (t.text != ")") return false;
    // `sizeof(int) * 4`: the parentheses of sizeof and alignof end an operand.
    // `(long)&x`: a cast's parentheses hold only type words, and what follows the cast is unary.
    int depth = 0;
    for (std::size_t k = i + 1; k-- > b;) {
        if (s[k].text == ")") ++depth;
        else if (s[k].text == "(" && --depth == 0) {
            if (k > b && keyword(s[k - 1], {"sizeof", "alignof"})) return true;
            bool only_types = k + 1 < i;
            for (std::size_t m = k + 1; m < i; ++m)
                only_types = only_types && (arithmetic_type_word(s[m]) || cv_word(s[m]));
            return !only_types;
        }
    }
    return true;
}

struct Declared {
    std::string name;
    std::size_t at = 0, end = 0;  // the name is the fill's own number in (at, end)
};

}  // namespace host_grammar

std::optional<Refusal> refuse_host_fill(const std::vector<Tok>& s, std::size_t b, std::size_t e,
                                        const HostContext& context) {
    auto refuse = [](const Tok& t, const std::string& what) { return Refusal{t.line, what}; };
    // Brackets, and the end of each one's scope.
    std::vector<std::size_t> close(e, e);
    {
        std::vector<std::size_t> open;
        for (std::size_t i = b; i < e; ++i) {
            if (among(s[i].text, {"(", "{"})) open.push_back(i);
            else if (among(s[i].text, {")", "}"}) && !open.empty()) {
                close[open.back()] = i;
                open.pop_back();
            }
        }
    }
    // The fill's own declarations: `T name` after a statement's start, with T arithmetic words only.
    std::vector<Declared> declared;
    std::vector<std::size_t> open;
    int declaring_depth = -1;  // inside the declarators of a declaration at this depth
    for (std::size_t i = b; i < e; ++i) {
        const Tok& t = s[i];
        if (among(t.text, {"(", "{"})) open.push_back(i);
        else if (among(t.text, {")", "}"})) {
            if (!open.empty()) open.pop_back();
            if (declaring_depth > static_cast<int>(open.size())) declaring_depth = -1;
        }
        if (t.text == ";" && declaring_depth == static_cast<int>(open.size())) declaring_depth = -1;
        if (!ident(t)) continue;
        const bool after_type = i > b && (arithmetic_type_word(s[i - 1]) || cv_word(s[i - 1]));
        const bool next_declarator = i > b && s[i - 1].text == "," && declaring_depth == static_cast<int>(open.size());
        if (!after_type && !next_declarator) continue;
        if (after_type) {
            // Where the declaration starts: a statement of its own, or the condition of a for, if, while or switch.
            std::size_t k = i - 1;
            while (k > b && (arithmetic_type_word(s[k - 1]) || cv_word(s[k - 1]))) --k;
            const bool own_statement = k == b || among(s[k - 1].text, {";", "{", "}"});
            const bool condition =
                k > b + 1 && s[k - 1].text == "(" && keyword(s[k - 2], {"for", "if", "while", "switch"});
            if (!own_statement && !condition)
                return refuse(t, "declares " + code_quoted(t.text) +
                                     " as the single statement of an if, else, loop or label (give it braces)");
        }
        if (i + 1 < e && s[i + 1].text == "(")
            return refuse(
                t, "declares " + code_quoted(t.text) + " with parentheses (a function declaration; write `= …`)");
        declaring_depth = static_cast<int>(open.size());
        Declared d{t.text, i, e};
        if (!open.empty()) {
            const std::size_t o = open.back();
            if (s[o].text == "{") d.end = close[o];
            else {  // a condition's declaration: its parentheses and the statement after them
                const std::size_t r = close[o];
                if (r + 1 < e && s[r + 1].text == "{") d.end = close[r + 1];
                else {
                    d.end = r;
                    int depth = 0;
                    for (std::size_t k = r + 1; k < e; ++k) {
                        if (among(s[k].text, {"(", "{"})) ++depth;
                        else if (among(s[k].text, {")", "}"}) && --depth < 0) break;
                        if (depth == 0 && s[k].text == ";") {
                            d.end = k;
                            break;
                        }
                    }
                }
            }
        }
        declared.push_back(d);
    }
    auto own_number = [&](std::size_t i) {
        return std::any_of(declared.begin(), declared.end(),
                           [&](const Declared& d) { return d.name == s[i].text && i >= d.at && i < d.end; });
    };
    for (std::size_t i = b; i < e; ++i) {
        const Tok& t = s[i];
        // The alternative operator spellings come normalized (`bitand` is `&`): operators, whatever their kind.
        const Kind kind = t.kind == Kind::keyword && !word(t) ? Kind::punct : t.kind;
        switch (kind) {
            case Kind::number: break;
            case Kind::preprocessor: return refuse(t, "holds a preprocessor directive (" + code_quoted(t.text) + ")");
            case Kind::string: return refuse(t, "holds a string literal");
            case Kind::character: return refuse(t, "holds a character literal");
            case Kind::identifier:
                // `______` left in place is an unfilled blank, which the grade reports (and no compiler accepts).
                if (t.is_blank() || own_number(i) || context.values.count(t.text)) break;
                if ((context.functions.count(t.text) || among(t.text, {"min", "max"})) && i + 1 < e &&
                    s[i + 1].text == "(")
                    break;
                return refuse(t, "names " + code_quoted(t.text) +
                                     ", which is neither a number declared before the blank (an arithmetic parameter, "
                                     "local or constant) nor one the fill declares");
            case Kind::keyword:
                if (!allowed_keyword(t)) return refuse(t, "uses the keyword " + code_quoted(t.text));
                break;
            case Kind::punct:
                if (among(t.text, {"[", "]", "<:", ":>"}))
                    return refuse(t, "holds " + code_quoted(t.text) + " (an array, a subscript or a lambda)");
                if (among(t.text, {".", "->", ".*", "->*"}))
                    return refuse(t, "holds " + code_quoted(t.text) + " (a member access)");
                if (among(t.text, {"::", "#", "##", "%:", "%:%:", "...", "<<<", ">>>"}))
                    return refuse(t, "holds " + code_quoted(t.text));
                if (among(t.text, {"*", "&", "&&"}) && !(i > b && ends_operand(s, b, i - 1)))
                    return refuse(t, "holds a unary " + code_quoted(t.text) +
                                         " (a dereference, an address-of, or a pointer or reference declarator)");
                break;
            default: return refuse(t, "holds the stray character " + code_quoted(t.text));
        }
    }
    return std::nullopt;
}

}  // namespace workbook::review
