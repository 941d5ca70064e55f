#include "rewrite.hpp"

#include <filesystem>
#include <map>
#include <algorithm>
#include <set>

#include "cxxlex/cxxlex.hpp"
#include "line_map.hpp"
#include "ptx_forms.hpp"
#include "refused_names.hpp"

namespace emu::rewrite {

namespace {

using cxxlex::Kind;
using cxxlex::Token;

struct Edit {
    std::size_t end;                // one past the last replaced token (index into all tokens)
    std::string text;               // replacement; the newlines of the replaced tokens are appended after it
    bool has_own_newlines = false;  // a rewritten directive keeps its continuations itself
};

bool is(const Token& t, std::string_view s) { return t.text == s; }

std::string escape(std::string_view s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        o += c;
    }
    return o;
}

// Rewrites one token sequence: the file, or the body of one #define (then `in_macro` keeps the continuations).
class Rewriter {
 public:
    Rewriter(std::vector<Token> tokens, bool in_macro, std::vector<Problem>* problems, int line_offset,
             std::string source_dir = "", bool preprocessed = false)
        : ts_(std::move(tokens)),
          in_macro_(in_macro),
          preprocessed_(preprocessed),
          problems_(problems),
          line_offset_(line_offset),
          source_dir_(std::move(source_dir)) {
        for (std::size_t i = 0; i < ts_.size(); ++i) {
            Kind k = ts_[i].kind;
            if (k != Kind::comment && k != Kind::whitespace && k != Kind::newline && k != Kind::preprocessor)
                sig_.push_back(i);
        }
    }

    std::string run() {
        mark_user_code();
        std::vector<bool> braces;  // one entry per open '{': true when it opens a namespace or extern "C" block
        bool refused = false;      // a feature the emulator lacks is refused once, at its first use
        DriverApiCalls driver_calls;
        std::vector<std::size_t> launches;
        for (std::size_t k = 0; k < sig_.size(); ++k) {
            const Token& t = tok(k);
            if (preprocessed_ && !refused && user_[k] && t.kind == Kind::identifier) {
                const std::string_view next = k + 1 < sig_.size() ? tok(k + 1).text : "";
                auto sentence = refused_feature(t.text, next);
                if (!sentence) sentence = driver_calls.refused_call(t.text, k >= 1 ? tok(k - 1).text : "", next);
                if (sentence) {
                    problem(k, *sentence);
                    refused = true;
                }
            }
            if (preprocessed_ && t.kind == Kind::identifier) driver_calls.see(t.text);
            if (preprocessed_ && user_[k] && t.kind == Kind::identifier && non_kernel_definition(k) &&
                std::all_of(braces.begin(), braces.end(), [](bool ns) { return ns; }))
                host_functions_.insert(t.text);
            if (is(t, "{")) {
                braces.push_back(opens_namespace(k));
                open_braces_ = braces.size();
            } else if (is(t, "}")) {
                if (!braces.empty()) braces.pop_back();
                open_braces_ = braces.size();
                while (!extern_shared_.empty() && extern_shared_.back().second > open_braces_)
                    extern_shared_.pop_back();
            } else if (is(t, "&") && extern_shared_address(k)) {
                // `&smem` of `extern __shared__ T smem[]`: the array's address, not the pointer variable's.
                replace(k, k + 1, "(::emu::array_address(" + tok(k + 1).text + "))");
                ++k;
            } else if (is(t, "<<<") || spaced_open(k)) {
                launches.push_back(k);  // rewritten once every kernel of the file is known (kernels_)
            } else if (preprocessed_ && (is(t, "asm") || is(t, "__asm__") || is(t, "__asm"))) {
                // A special-register read (the merge refused every other asm statement in device code).
                const auto read = ptx_special_register_read(
                    [this](std::size_t i) -> std::string_view { return tok(i).text; }, sig_.size(), k);
                if (read) {
                    replace(k, read->end, read->replacement);
                    k = read->end;
                }
            } else if (is(t, "__noinline__") &&
                       !(k >= 1 && (is(tok(k - 1), "(") || is(tok(k - 1), ",") || is(tok(k - 1), "::")))) {
                // A qualifier in student code. The prelude defines __noinline__ as plain `noinline`, because newer
                // libstdc++ headers spell `__attribute__((__noinline__))` or `[[__gnu__::__noinline__]]` (left alone
                // here: inside an attribute list); standing alone, it is spelled as the attribute.
                replace(k, k, "__attribute__((noinline))");
            } else if (preprocessed_ && (is(t, "__global__") || is(t, "__device__") || is(t, "__host__") ||
                                         is(t, "__constant__") || is(t, "__managed__"))) {
                // Kept through preprocessing so that emu-nvcc could tell device code from host code; g++ needs them
                // gone. A variable's qualifier becomes the section that makes it device memory.
                bool ns_scope = true;
                for (bool b : braces) ns_scope = ns_scope && b;
                const bool variable = !is(t, "__global__") && !is(t, "__host__") && place_device_variable(k, k);
                if (!variable) replace(k, k, "");
                if (is(t, "__global__") && ns_scope) note_kernel(k);
                if (is(t, "__global__")) guard_kernel_body(k);
                if (!variable && (is(t, "__global__") || is(t, "__device__"))) place_static_locals(k);
            } else if (preprocessed_ && is(t, "(") && k > 0 && user_[k] && call_like(k - 1)) {
                wrap_element_args(k);
            } else if (preprocessed_ && is(t, "=") && k > 0 && user_[k]) {
                wrap_stored_value(k);
            } else if (is(t, "__shared__")) {
                bool ns_scope = !in_macro_;  // a macro is most likely expanded inside a function
                for (bool b : braces) ns_scope = ns_scope && b;
                k = shared_decl(k, ns_scope);
            }
        }
        for (const std::size_t k : launches) launch(k);
        register_kernels();
        for (std::size_t i = 0; i < ts_.size() && !preprocessed_; ++i) {
            if (ts_[i].kind == Kind::preprocessor) {
                rewrite_macro(i);
                absolute_include(i);
            }
        }
        return apply();
    }

 private:
    std::vector<Token> ts_;
    std::vector<std::size_t> sig_;
    std::map<std::size_t, Edit> edits_;  // keyed by the first replaced token
    bool in_macro_;
    bool preprocessed_;  // input is g++ -E output: no directives to rewrite, qualifiers to spell out
    std::vector<Problem>* problems_;
    int line_offset_;
    std::string source_dir_;
    // Per significant token of preprocessed input: it comes from the program's own files (not a system header nor the
    // emulator's), after emu/arg_read.hpp was included.
    std::vector<bool> user_;
    // Non-template kernels defined at namespace scope: name and the index of the '}' that ends the definition.
    std::vector<std::pair<std::string, std::size_t>> kernels_;
    std::set<std::string> host_functions_;  // functions defined at namespace scope in the program's files, not kernels

    const Token& tok(std::size_t k) const { return ts_[sig_[k]]; }
    bool tok_is(std::size_t k, std::string_view s) const { return k < sig_.size() && tok(k).text == s; }

    void problem(std::size_t k, std::string msg) {
        const Token& t = tok(k);
        problems_->push_back({t.line + line_offset_, t.column, std::move(msg)});
    }

    // Replaces significant tokens [from, to] (inclusive) and whatever lies between them.
    void replace(std::size_t from, std::size_t to, std::string text) {
        edits_[sig_[from]] = Edit{sig_[to] + 1, std::move(text)};
    }

    std::string apply() const {
        std::string out;
        for (std::size_t i = 0; i < ts_.size();) {
            auto e = edits_.find(i);
            if (e == edits_.end()) {
                out += ts_[i].text;
                ++i;
                continue;
            }
            out += e->second.text;
            for (std::size_t j = i; j < e->second.end && !e->second.has_own_newlines; ++j) {
                for (int n = cxxlex::newline_count(ts_[j].text); n > 0; --n) out += in_macro_ ? " \\\n" : "\n";
            }
            i = e->second.end;
        }
        return out + device_section_registrations();
    }

    std::string join(std::size_t from, std::size_t to) const {  // inclusive, one space between tokens
        std::string s;
        for (std::size_t k = from; k <= to && k < sig_.size(); ++k) {
            if (!s.empty()) s += ' ';
            s += tok(k).text;
        }
        return s;
    }

    // Like join, but spaced as people write it ("ns::k<256, float>"): the kernel's name in messages.
    std::string compact(std::size_t from, std::size_t to) const {
        std::string s;
        auto wordy = [](const Token& t) {
            return t.kind == Kind::identifier || t.kind == Kind::keyword || t.kind == Kind::number;
        };
        for (std::size_t k = from; k <= to && k < sig_.size(); ++k) {
            if (k > from && ((wordy(tok(k - 1)) && wordy(tok(k))) || is(tok(k - 1), ","))) s += ' ';
            s += tok(k).text;
        }
        return s;
    }

    bool opens_namespace(std::size_t k) const {
        std::size_t j = k;
        while (j > 0 && (tok(j - 1).kind == Kind::identifier || is(tok(j - 1), "::"))) --j;
        if (j > 0 && is(tok(j - 1), "namespace")) return true;
        return k >= 2 && tok(k - 1).kind == Kind::string && is(tok(k - 2), "extern");
    }

    // Index of the token that opens the bracket closed at k, or npos.
    std::size_t match_back(std::size_t k) const {
        int depth = 0;
        for (std::size_t j = k + 1; j-- > 0;) {
            const std::string& s = tok(j).text;
            if (s == ")" || s == "]" || s == "}") ++depth;
            if (s == "(" || s == "[" || s == "{") {
                if (--depth == 0) return j;
            }
        }
        return std::string::npos;
    }

    // k at a '>' (or '>>', '>>>') closing template arguments: index of the matching '<', or npos.
    std::size_t match_angle_back(std::size_t k) const {
        int depth = 0;
        for (std::size_t j = k + 1; j-- > 0;) {
            const std::string& s = tok(j).text;
            if (s == ")" || s == "]") {
                j = match_back(j);
                if (j == std::string::npos) return j;
                continue;
            }
            if (s == ">") depth += 1;
            else if (s == ">>") depth += 2;
            else if (s == ">>>") depth += 3;
            else if (s == "<") {
                if (--depth == 0) return j;
            } else if (s == ";" || s == "{" || s == "}") {
                return std::string::npos;
            }
        }
        return std::string::npos;
    }

    // First token of the callee that ends at k: name, ns::name, name<args>, ns::template name<args>, (*fp).
    std::size_t callee_begin(std::size_t k) const {
        if (is(tok(k), ")")) return match_back(k);
        if (is(tok(k), "]")) {
            // An element of a table of kernel pointers: `fpDeriv[fp]<<<…>>>` (NVIDIA's finite-difference blog code).
            const std::size_t o = match_back(k);
            return o == std::string::npos || o == 0 ? std::string::npos : callee_begin(o - 1);
        }
        std::size_t b = k;
        if (is(tok(b), ">") || is(tok(b), ">>") || is(tok(b), ">>>")) {
            b = match_angle_back(b);
            if (b == std::string::npos || b == 0) return std::string::npos;
            --b;
        }
        if (tok(b).kind != Kind::identifier) return std::string::npos;
        while (b > 0) {
            std::size_t p = b - 1;
            if (is(tok(p), "template")) {
                if (p == 0) break;
                --p;
            }
            if (!is(tok(p), "::")) break;
            b = p;  // a leading '::' belongs to the name
            if (p == 0) break;
            std::size_t q = p - 1;
            if (is(tok(q), ">")) {
                q = match_angle_back(q);
                if (q == std::string::npos || q == 0) break;
                --q;
            }
            if (tok(q).kind != Kind::identifier) break;
            b = q;
        }
        // A kernel pointer held by an object: `plan.kernel<<<…>>>`, `p->kernel<<<…>>>`, `plans[i].kernel<<<…>>>`.
        if (b >= 2 && (is(tok(b - 1), ".") || is(tok(b - 1), "->"))) return callee_begin(b - 2);
        return b;
    }

    void mark_user_code() {
        user_.assign(sig_.size(), false);
        if (!preprocessed_) return;
        static const std::string kMarkerHeader = "emu/arg_read.hpp";
        bool seen = false, user = false;
        std::string root;  // the emulator's include directory, from where arg_read.hpp was found
        std::size_t k = 0;
        for (std::size_t i = 0; i < ts_.size(); ++i) {
            if (ts_[i].kind == Kind::preprocessor) {
                // A line marker: `# 12 "file" 1 3`; flag 3 marks a system header.
                const std::string& m = ts_[i].text;
                const std::size_t q = m.find('"');
                const std::size_t e = q == std::string::npos ? q : m.find('"', q + 1);
                if (e == std::string::npos) continue;
                const std::string name = m.substr(q + 1, e - q - 1);
                const bool system = (" " + m.substr(e + 1) + " ").find(" 3 ") != std::string::npos;
                if (name.size() >= kMarkerHeader.size() &&
                    name.compare(name.size() - kMarkerHeader.size(), kMarkerHeader.size(), kMarkerHeader) == 0) {
                    seen = true;
                    root = name.substr(0, name.size() - kMarkerHeader.size());
                }
                user = seen && !system && !name.empty() && name[0] != '<' && (root.empty() || name.rfind(root, 0) != 0);
                continue;
            }
            while (k < sig_.size() && sig_[k] < i) ++k;
            if (k < sig_.size() && sig_[k] == i) user_[k] = user;
        }
    }

    // The token before a '(' names something called: a function (not a keyword, a GNU builtin taking a designator or
    // a type, or an attribute), a template instance (`f<T>(`, `static_cast<float>(`), or a functional cast to a
    // built-in type (`float(`).
    bool call_like(std::size_t k) const {
        static const std::set<std::string> kTypes = {"float", "double", "int",  "unsigned",
                                                     "long",  "short",  "char", "bool"};
        static const std::set<std::string> kNotCalls = {
            "__attribute__", "__declspec", "alignas", "_Pragma",     "asm",           "__asm__",   "__asm",
            "__typeof__",    "__typeof",   "typeof",  "__alignof__", "__extension__", "__decltype"};
        const Token& t = tok(k);
        if (is(t, ">")) return true;
        if (t.kind == Kind::keyword) return kTypes.count(t.text) != 0;
        return t.kind == Kind::identifier && !kNotCalls.count(t.text) && t.text.rfind("__builtin", 0) != 0;
    }

    // Arguments of the call whose '(' is at `open` that are one element of an array or buffer (`x[i]`, `p->v[i][j]`,
    // `s.rows[r]`) become `(::emu::detail::arg_probe(x[i]), x[i])` (include/emu/arg_read.hpp): g++ does not
    // instrument a struct element copied straight into a by-value argument.
    void wrap_element_args(std::size_t open) {
        const std::size_t close = match_forward(open);
        if (close >= sig_.size()) return;
        std::size_t a = open + 1;
        int depth = 0;
        for (std::size_t j = open + 1; j <= close; ++j) {
            const std::string& s = tok(j).text;
            if (s == "(" || s == "[" || s == "{") ++depth;
            else if ((s == ")" || s == "]" || s == "}") && j != close) --depth;
            if (j == close || (depth == 0 && s == ",")) {
                if (j > a) wrap_if_element(a, j - 1);
                a = j + 1;
            }
        }
    }

    void wrap_if_element(std::size_t a, std::size_t b) {
        std::size_t j = a;
        if (tok(j).kind != Kind::identifier) return;
        while (j + 2 <= b && (is(tok(j + 1), ".") || is(tok(j + 1), "->")) && tok(j + 2).kind == Kind::identifier)
            j += 2;
        if (j + 1 > b || !is(tok(j + 1), "[")) return;
        ++j;
        while (j <= b && is(tok(j), "[")) {
            const std::size_t c = match_forward(j);
            if (c > b || c == j + 1) return;  // unbalanced, or `T[]` (a declarator, not an element)
            j = c + 1;
        }
        if (j != b + 1) return;
        // The element is evaluated twice (probe, then the argument itself): only when that has no effect.
        static const std::set<std::string> kEffects = {"(",  "++", "--", "=",   "+=",  "-=",  "*=",     "/=",   "%=",
                                                       "&=", "|=", "^=", "<<=", ">>=", "new", "delete", "throw"};
        for (std::size_t k = a; k <= b; ++k)
            if (kEffects.count(tok(k).text)) return;
        if (edits_.count(sig_[a]) || edits_.count(sig_[b])) return;
        replace(a, a, "(::emu::detail::arg_probe(" + tok(a).text);
        replace(b, b, tok(b).text + "), " + join(a, b) + ")");
    }

    // A statement `lhs = rhs;` whose left-hand side reaches memory (through an index, '->', a dereference or a call:
    // `y[i]`, `p->v`, `*p`, `at(i)`) and whose right-hand side computes something (a call or an operator) becomes
    // `lhs = ::emu::detail::stored_value(rhs);` (include/emu/arg_read.hpp): g++ does not instrument the store of a
    // struct that a call returns straight into memory (`y[i] = __float2bfloat16(v)`). The left-hand side is not
    // touched. Declarations, braced values, chained and comma assignments, and assignments inside an expression or a
    // for-header are left alone; so is a value whose address is taken (`p[i] = &f`: an overloaded function's address
    // needs its target type).
    void wrap_stored_value(std::size_t eq) {
        const std::size_t a = memory_lhs_begin(eq);
        if (a == std::string::npos || a == 0) return;
        static const std::set<std::string> kStatementStart = {";", "{", "}", ")", "else", "do"};
        if (!kStatementStart.count(tok(a - 1).text)) return;
        if (eq + 1 >= sig_.size() || is(tok(eq + 1), "{") || is(tok(eq + 1), "&") || is(tok(eq + 1), ";")) return;
        static const std::set<std::string> kAssign = {
            "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
        static const std::set<std::string> kOperators = {"+",  "-", "*", "/",  "%",  "&",  "|",  "^",  "~",  "!", "<<",
                                                         ">>", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "?"};
        bool computes = false;
        int depth = 0;
        std::size_t j = eq + 1;
        for (; j < sig_.size(); ++j) {
            const std::string& s = tok(j).text;
            if (s == "(" || s == "[" || s == "{") {
                if (s == "(" && j > eq + 1 && (call_like(j - 1) || is(tok(j - 1), ")") || is(tok(j - 1), "]")))
                    computes = true;
                ++depth;
            } else if (s == ")" || s == "]" || s == "}") {
                if (--depth < 0) return;  // the assignment is inside a bracket: part of an expression
            } else if (depth == 0 && (s == "," || kAssign.count(s))) {
                return;  // a comma or a chained assignment
            } else if (depth == 0 && s == ";") {
                break;
            } else if (depth == 0 && kOperators.count(s)) {
                computes = true;  // an operator of a struct (`__half` a + b) is a call too
            }
        }
        if (j >= sig_.size() || !computes || edits_.count(sig_[eq]) || edits_.count(sig_[j])) return;
        replace(eq, eq, "= ::emu::detail::stored_value(");
        replace(j, j, ");");
    }

    // First token of the left-hand side that ends just before the '=' at `eq`, when it is a postfix expression that
    // reaches memory (`y[i]`, `s.rows[r]`, `p->v`, `*p`, `(*p)`, `at(i)`, `ns::buf[i]`); npos otherwise (a plain name
    // or member, or something that is no postfix expression).
    std::size_t memory_lhs_begin(std::size_t eq) const {
        constexpr std::size_t npos = std::string::npos;
        bool memory = false;
        std::size_t a = npos;
        std::size_t j = eq - 1;  // the last token of the operand being walked back over
        while (true) {
            const Token& t = tok(j);
            if (is(t, "]")) {
                const std::size_t o = match_back(j);
                if (o == npos || o == 0 || o + 1 == j) return npos;
                memory = true;
                j = o - 1;
            } else if (is(t, ")")) {
                const std::size_t o = match_back(j);
                if (o == npos) return npos;
                memory = true;
                if (o > 1 && is(tok(o - 1), ">")) {  // a template's call or a cast: `reinterpret_cast<float4*>(p)[i]`
                    const std::size_t lt = match_angle_back(o - 1);
                    if (lt == npos || lt == 0) return npos;
                    j = lt - 1;
                    if (tok(j).kind == Kind::keyword && tok(j).text.find("_cast") != std::string::npos) {
                        a = j;  // a cast begins the postfix expression
                        break;
                    }
                    continue;
                }
                const bool call =
                    o > 0 && (tok(o - 1).kind == Kind::identifier || is(tok(o - 1), ")") || is(tok(o - 1), "]"));
                if (!call) {
                    a = o;  // parentheses around the whole left-hand side: `(*p) = …`
                    break;
                }
                j = o - 1;
            } else if (t.kind == Kind::identifier || is(t, "this")) {
                a = j;
                if (j >= 1 && is(tok(j - 1), "::") && (j < 2 || tok(j - 2).kind != Kind::identifier)) {
                    a = j - 1;  // `::buf[i]`
                    break;
                }
                if (j >= 2 && (is(tok(j - 1), ".") || is(tok(j - 1), "->") || is(tok(j - 1), "::"))) {
                    memory = memory || is(tok(j - 1), "->");
                    j -= 2;
                    continue;
                }
                break;
            } else {
                return npos;
            }
        }
        while (a > 0 && is(tok(a - 1), "*")) {
            memory = true;
            --a;
        }
        return memory ? a : npos;
    }

    // The __global__ at k begins a declaration: remembers the kernel when it is a definition of a function that is not
    // a template (a template's instances have no address until used).
    // The '{' that opens the body of the function declared by the `__global__` at k, npos for a declaration only.
    std::size_t kernel_body(std::size_t k, std::size_t* name_open = nullptr) {
        static const std::set<std::string> kNotName = {"__attribute__", "__launch_bounds__", "alignas", "__declspec",
                                                       "decltype"};
        std::size_t open = std::string::npos;
        for (std::size_t j = k + 1; j < sig_.size(); ++j) {
            const std::string& s = tok(j).text;
            if (s == ";" || s == "{" || s == "}" || s == "=" || s == "<") return std::string::npos;
            if (s != "(") continue;
            if (tok(j - 1).kind == Kind::identifier && !kNotName.count(tok(j - 1).text)) {
                open = j;
                break;
            }
            j = match_forward(j);  // an attribute's arguments
            if (j >= sig_.size()) return std::string::npos;
        }
        if (open == std::string::npos) return std::string::npos;
        std::size_t j = match_forward(open);
        while (j < sig_.size() && ++j < sig_.size() && !is(tok(j), "{") && !is(tok(j), ";")) {
            if (is(tok(j), "(")) j = match_forward(j);
        }
        if (j >= sig_.size() || !is(tok(j), "{")) return std::string::npos;
        if (name_open) *name_open = open;
        return j;
    }

    // A kernel called like a host function (`kernel(args)`, through a pointer: llm.c's benchmark_kernel) runs its
    // body on the host here; on a GPU the call launches nothing. Its body therefore starts by asking the runtime
    // whether a launch is running it, passing the caller's address so that a report can name the call.
    void guard_kernel_body(std::size_t k) {
        std::size_t open = std::string::npos;
        const std::size_t body = kernel_body(k, &open);
        if (body == std::string::npos) return;
        replace(body, body,
                "{ if (!::emu::detail::kernel_body_entered(\"" + tok(open - 1).text +
                    "\", __builtin_return_address(0))) return;");
    }

    // A variable in device memory: `__device__ float g[4];`, `__constant__ int c;`, `__managed__ …`, at namespace
    // scope, in a namespace, a static data member, a variable template, an `extern` declaration, and the unannotated
    // `static` locals of device code, which CUDA places in device memory too. Kernels may read and write it, and only
    // memory the runtime knows as device memory (runtime/kernel_reach.cpp), so its qualifier (or `static`, at k) is
    // replaced with a section attribute: every such variable, each instantiation of a template included, lies in a
    // section `emu_dv_<name>` whose bounds (the linker's __start_/__stop_ symbols) the trailer of the file registers
    // at static initialization. One section per name: a member's declaration in its class and its definition outside
    // agree, and variables of one section share const-ness (g++ refuses read-only and writable data in one section),
    // hence the `_c` of those declared const. `spelled` is what the attribute follows (`static` or nothing). Returns
    // false, changing nothing, for a function, a lambda, a __shared__ variable or a declaration it cannot read.
    bool place_device_variable(std::size_t k, std::size_t replaced, const char* spelled = "") {
        if (k < variable_declaration_end_) {  // `__device__ __constant__ int c;`: the first qualifier placed it
            replace(replaced, replaced, spelled);
            return true;
        }
        bool is_const = false;
        std::size_t template_at = std::string::npos;
        for (std::size_t j = k; j-- > 0;) {
            const std::string& s = tok(j).text;
            if (s == ";" || s == "{" || s == "}" || s == ":") break;
            if (s == "typedef" || s == "using" || s == "friend" || s == "__shared__") return false;
            if (s == "const" || s == "constexpr") is_const = true;
            if (s == "template") template_at = j;
        }
        std::size_t name_at = std::string::npos, init_at = std::string::npos;
        static const std::set<std::string> kParenthesized = {"decltype", "sizeof",    "alignof",
                                                             "alignas",  "__align__", "__attribute__"};
        std::string name;
        int paren = 0, angle = 0;
        std::size_t end = k + 1;
        for (; end < sig_.size(); ++end) {
            const Token& x = tok(end);
            const std::string& s = x.text;
            if (paren == 0 && name.empty()) {
                if (s == "__shared__" || s == "operator") return false;
                if (s == "(" && kParenthesized.count(tok(end - 1).text)) {
                    end = match_forward(end);
                    if (end >= sig_.size()) return false;
                    continue;
                }
                if (s == "<") ++angle;
                if (s == ">" || s == ">>") angle = std::max(0, angle - static_cast<int>(s.size()));
                if (angle > 0) continue;
                if (s == "const" || s == "constexpr") is_const = true;
                if (s == "(" && (tok_is(end + 1, "*") || tok_is(end + 1, "&"))) {
                    // A pointer to a function or an array: `__device__ int (*op)(int) = twice;`
                    const std::size_t close = match_forward(end);
                    for (std::size_t j = end + 1; j < close && j < sig_.size(); ++j) {
                        if (tok(j).kind != Kind::identifier) continue;
                        if (tok_is(j + 1, "(")) return false;  // `int (*pick(int))(int)`: a function
                        name = tok(j).text;
                    }
                    if (name.empty()) return false;
                    end = close;
                    continue;
                }
                if (s == "(") return false;  // a function (or a declarator this placement does not read)
                if (s == "[" || s == "=" || s == "{" || s == "," || s == ";") {
                    if (end == k + 1 || tok(end - 1).kind != Kind::identifier) return false;
                    name = tok(end - 1).text;  // unqualified: `S::x` and the `x` declared in S share a section
                    name_at = end - 1;
                    if (s == "=") init_at = end;
                }
            }
            if (s == "(" || s == "[" || s == "{") ++paren;
            else if (s == ")" || s == "]" || s == "}") --paren;
            if (paren < 0) return false;
            if (paren == 0 && s == ";") break;
        }
        if (end >= sig_.size() || name.empty()) return false;
        if (template_at != std::string::npos && !is_const && name_at != std::string::npos)
            register_template_instances(template_at, name_at, init_at, end);
        const std::string section = "emu_dv_" + name + (is_const ? "_c" : "");
        device_sections_.insert(section);
        replace(replaced, replaced,
                std::string(spelled) + (*spelled ? " " : "") + "__attribute__((section(\"" + section + "\")))");
        variable_declaration_end_ = end;
        placed_name_ = name;
        return true;
    }
    std::string placed_name_;  // of the variable place_device_variable placed last
    std::size_t variable_declaration_end_ = 0;

    // g++ drops a section attribute from the instances of a template (a variable template's, a class template's
    // static member's), so each instance registers itself from its initializer: `template <class T> T x = T(3);`
    // becomes `… = ((void)register_device_variable(&x<T>, sizeof(x<T>)), T(3));`, run at static initialization for
    // each instance the program uses. Only a non-const definition initialized with `=` and an expression, or with no
    // initializer and no array declarator (value-initialized then): a braced list (arrays) leaves the instances
    // unregistered, and a kernel's access to them is refused (docs/emulator.md); const ones are read-only data.
    void register_template_instances(std::size_t template_at, std::size_t name_at, std::size_t init_at,
                                     std::size_t end) {
        const bool no_init = init_at == std::string::npos;
        if ((no_init && !tok_is(name_at + 1, ";")) || (!no_init && tok_is(init_at + 1, "{")) ||
            !tok_is(template_at + 1, "<") || (!no_init && edits_.count(sig_[init_at])) || edits_.count(sig_[end]))
            return;
        // The name as an expression: `Slot<T>::value` as written, or `x<T, N>` from the template's parameters.
        std::size_t first = name_at;
        while (first >= 2 && is(tok(first - 1), "::")) {
            std::size_t j = first - 2;
            if (is(tok(j), ">")) {
                int angle = 0;
                for (; j > template_at; --j) {
                    if (is(tok(j), ">")) ++angle;
                    if (is(tok(j), "<") && --angle == 0) break;
                }
                if (j <= template_at + 1) return;
                --j;
            }
            if (tok(j).kind != Kind::identifier) return;
            first = j;
        }
        std::string expr;
        if (first != name_at) {
            expr = join(first, name_at);
        } else {
            // Each parameter's name: the last identifier before its default argument (`int N = 4`), `...` kept.
            std::vector<std::string> params;
            std::string last;
            bool pack = false, in_default = false;
            int depth = 0;
            for (std::size_t j = template_at + 2; j < name_at; ++j) {
                const std::string& s = tok(j).text;
                const bool closes = depth == 0 && (s == "," || s == ">");
                if (closes) {
                    if (last.empty()) return;
                    params.push_back(last + (pack ? "..." : ""));
                    last.clear();
                    pack = in_default = false;
                    if (s == ">") break;
                    continue;
                }
                if (s == "<" || s == "(") ++depth;
                else if (s == ">" || s == ")") --depth;
                else if (depth == 0 && s == "=") in_default = true;
                else if (depth == 0 && s == "..." && !in_default) pack = true;
                else if (depth == 0 && !in_default && tok(j).kind == Kind::identifier) last = s;
            }
            if (params.empty()) return;
            expr = name_at < sig_.size() ? tok(name_at).text + "<" : "";
            for (std::size_t i = 0; i < params.size(); ++i) expr += (i ? ", " : "") + params[i];
            expr += ">";
        }
        const std::string registration =
            "((void)::emu::detail::register_device_variable(__builtin_addressof(" + expr + "), sizeof(" + expr + ")), ";
        if (no_init) {  // `template <class T> __device__ T x;`: value-initialized, as its static storage would be
            replace(end, end, " = " + registration + "decltype(" + expr + "){});");
            return;
        }
        replace(init_at, init_at, "= " + registration + "(");
        replace(end, end, "));");
    }
    std::set<std::string> device_sections_;

    // The `static` locals of a device function or kernel whose qualifier is at k (`static int calls;`: no memory
    // space, and CUDA puts it in device memory, shared by every thread); `static __shared__` ones stay __shared__.
    // In a function template g++ puts the instances' statics in no section either: each is registered by a statement
    // after its declaration, at every call (a statement, not an initializer: CUDA requires these statics to be
    // constant-initialized, and a dynamic one would read its host guard variable).
    void place_static_locals(std::size_t k) {
        const std::size_t body = kernel_body(k);
        if (body == std::string::npos) return;
        bool in_template = false;
        for (std::size_t j = k; j-- > 0;) {
            const std::string& s = tok(j).text;
            if (s == ";" || s == "{" || s == "}") break;
            if (s == "template") in_template = true;
        }
        const std::size_t close = match_forward(body);
        const std::size_t outer_end = variable_declaration_end_;  // the qualifiers of the body are read later
        for (std::size_t j = body + 1; j < close && j < sig_.size(); ++j) {
            if (!is(tok(j), "static")) continue;
            const std::string& before = tok(j - 1).text;
            if (before != ";" && before != "{" && before != "}") continue;
            static const std::set<std::string> kQualifier = {"__shared__", "__device__", "__constant__", "__managed__"};
            if (j + 1 < sig_.size() && kQualifier.count(tok(j + 1).text)) continue;
            if (!place_device_variable(j, j, "static") || !in_template) continue;
            const std::size_t end = variable_declaration_end_;
            if (edits_.count(sig_[end])) continue;
            replace(end, end,
                    "; ::emu::detail::register_device_variable(__builtin_addressof(" + placed_name_ + "), sizeof(" +
                        placed_name_ + "));");
        }
        variable_declaration_end_ = outer_end;
    }

    // Appended to the file: the bounds of every section of device variables it placed, as device memory. The
    // symbols are weak (a section of `extern` declarations only may be empty here) and hidden (each linked object
    // registers its own sections); sections of the same name in several files are one range once linked.
    std::string device_section_registrations() const {
        if (device_sections_.empty()) return "";
        std::string decls = "\nextern \"C\" {", calls;
        for (const std::string& s : device_sections_) {
            decls += " extern char __start_" + s + "[] __attribute__((weak, visibility(\"hidden\")));";
            decls += " extern char __stop_" + s + "[] __attribute__((weak, visibility(\"hidden\")));";
            calls += " ::emu::detail::register_device_section(__start_" + s + ", __stop_" + s + "),";
        }
        return decls + " }\nstatic const bool emu_device_sections_ = (" + calls + " true);\n";
    }

    void note_kernel(std::size_t k) {
        static const std::set<std::string> kBefore = {"static",   "inline",     "__forceinline__", "extern",
                                                      "__host__", "__device__", "__noinline__"};
        std::size_t b = k;
        while (b > 0 && (kBefore.count(tok(b - 1).text) || tok(b - 1).kind == Kind::string)) --b;
        if (b > 0 && (is(tok(b - 1), ">") || is(tok(b - 1), ">>") || is(tok(b - 1), "template"))) return;
        std::size_t open = std::string::npos;
        const std::size_t j = kernel_body(k, &open);
        if (j == std::string::npos) return;
        const std::size_t close = match_forward(j);
        if (close < sig_.size()) kernels_.emplace_back(tok(open - 1).text, close);
    }

    // A kernel defined once at namespace scope in this file and not a template (note_kernel).
    bool defined_once(const std::string& name) const {
        int n = 0;
        for (const auto& kernel : kernels_) n += kernel.first == name;
        return n == 1 && !defines_function_named(name);
    }

    // Whether the program's own files define a function that is not a kernel under this name, at namespace scope: a
    // host launcher named as its kernel, `void gelu_backward1(floatX* dinp, ..., int block_size)` beside
    // `__global__ void gelu_backward1(floatX* dinp, ...)` (llm.c's dev/cuda), which CUDA overloads. The name alone is
    // then an overload set, which neither the launch's ByteCall nor the kernel's registration can take; the launch
    // calls it by name, as for overloaded kernels, and overload resolution picks the kernel from the arguments, as
    // nvcc does. Functions of headers and members of classes do not count: they do not share the kernel's scope.
    bool defines_function_named(const std::string& name) const { return host_functions_.count(name) != 0; }

    // Whether the identifier at k names a function defined there (`type name(...) {`) that is not a kernel.
    bool non_kernel_definition(std::size_t k) const {
        static const std::set<std::string> kNotType = {"return", "else",  "do",   "new",       "delete",
                                                       "case",   "throw", "goto", "co_return", "sizeof"};
        if (k == 0 || k + 1 >= sig_.size() || !is(tok(k + 1), "(")) return false;
        const Token& before = tok(k - 1);
        const bool after_type =
            ((before.kind == Kind::identifier || before.kind == Kind::keyword) && !kNotType.count(before.text)) ||
            is(before, "*") || is(before, "&") || is(before, "&&") || is(before, ">");
        if (!after_type) return false;
        const std::size_t close = match_forward(k + 1);
        if (close + 1 >= sig_.size() || !is(tok(close + 1), "{")) return false;
        for (std::size_t b = k; b-- > 0;) {
            const Token& p = tok(b);
            if (is(p, ";") || is(p, "{") || is(p, "}")) break;
            if (is(p, "__global__")) return false;
        }
        return true;
    }

    // After each kernel's definition, a registration run at static initialisation, so that
    // cudaLaunchKernel((void*)kernel, …) finds a launcher that knows the parameter types. An overloaded name is left
    // out (its address alone does not say which kernel, nor which function): such a kernel must be passed typed.
    void register_kernels() {
        std::map<std::string, int> count;
        for (const auto& [name, close] : kernels_) ++count[name];
        int n = 0;
        for (const auto& [name, close] : kernels_) {
            if (count[name] != 1 || defines_function_named(name)) continue;
            replace(close, close,
                    "} static const bool emu_kernel_registered_" + std::to_string(n++) +
                        " [[maybe_unused]] = ::emu::detail::register_kernel(" + name + ");");
        }
    }

    // nvcc also reads `<< <` as a launch's opening bracket when both halves are on one line (code formatted by
    // Visual Studio writes `k << <grid, block >> > (args)`), and `>> >` as its closing one, on any lines; measured
    // with nvcc 13. Other splits (`< <<`, `> >>`) are nvcc errors, and stay g++ errors here.
    bool spaced_open(std::size_t k) const {
        return is(tok(k), "<<") && tok_is(k + 1, "<") && tok(k + 1).line == tok(k).line;
    }

    void launch(std::size_t open) {
        const std::size_t open_end = spaced_open(open) ? open + 1 : open;
        if (open == 0) return problem(open, "'<<<' without a kernel before it");
        std::size_t first = callee_begin(open - 1);
        if (first == std::string::npos) {
            return problem(
                open,
                "cannot find the kernel name before '<<<' (expected name, ns::name, name<args>, (*ptr), table[i] or "
                "object.member)");
        }
        int depth = 0;
        std::size_t close = std::string::npos;
        std::size_t close_end = std::string::npos;
        for (std::size_t j = open_end + 1; j < sig_.size(); ++j) {
            const std::string& s = tok(j).text;
            if (s == "(" || s == "[" || s == "{") ++depth;
            else if (s == ")" || s == "]" || s == "}") {
                if (--depth < 0) break;
            } else if (depth == 0 && (s == ">>>" || (s == ">>" && tok_is(j + 1, ">")))) {
                close = j;
                close_end = s == ">>>" ? j : j + 1;
                break;
            } else if (depth == 0 && s == ";") {
                break;
            }
        }
        if (close == std::string::npos) return problem(open, "'<<<' without a matching '>>>'");
        if (!tok_is(close_end + 1, "(")) return problem(close, "expected the kernel's arguments '(…)' after '>>>'");
        std::string callee = compact(first, open - 1);
        // A kernel defined once in this file, launched by its plain name, is called with its parameters' bytes
        // (emu/launch.hpp, ByteCall); any other callee through a lambda, as the name or expression resolves there.
        // The lambda runs in every CUDA thread, which may read the launch's copies but not the host's memory
        // (runtime/kernel_reach.cpp): it captures by copy, and a callee that is an expression rather than a name
        // (`table[k]`, `last->kernel`, read on the host's stack) is evaluated once, on the host, at the launch. It is
        // not instrumented (EMU_UNCHECKED's attribute, spelled out: macros are expanded before this rewrite): the
        // checker's calls for its reads of the copies would leave their frames where the kernel's locals then lie, and
        // a never-written local would no longer read as the poison (docs/emulator.md, uninitialized locals).
        const bool named = plain_name(first, open - 1);
        const std::string by_name = (named ? "[=]" : "[emu_k_ = " + callee + "]") +
                                    "(auto&&... emu_a_) __attribute__((no_sanitize(\"thread\"))) { " +
                                    (named ? callee : "emu_k_") + "(emu_a_...); }";
        const std::string call = first == open - 1 && defined_once(callee)
                                     ? "::emu::detail::byte_call(" + callee + ", " + by_name + ")"
                                     : by_name;
        replace(first, open - 1, "::emu::launch(\"" + escape(callee) + "\", " + call + ", ");
        replace(open, open_end, "");
        replace(close, close_end, ")");
    }

    // Whether tokens [from, to] name a function, as `k`, `ns::k` or `k<256, float>` do (anything inside a template's
    // argument list), rather than compute one, as `table[k]` or `last->kernel` do.
    bool plain_name(std::size_t from, std::size_t to) const {
        int angle = 0;
        for (std::size_t j = from; j <= to; ++j) {
            const Token& t = tok(j);
            if (is(t, "<")) ++angle;
            else if (is(t, ">") || is(t, ">>")) angle -= static_cast<int>(t.text.size());
            else if (angle == 0 && t.kind != Kind::identifier && !is(t, "::") && !is(t, "template")) return false;
        }
        return angle == 0;
    }

    // Rewrites the declaration around the __shared__ at k; returns the index of its closing ';' (or k).
    std::size_t shared_decl(std::size_t k, bool ns_scope) {
        static const std::set<std::string> kSpec = {"static", "extern", "volatile", "const", "__device__"};
        std::size_t begin = k;
        while (begin > 0) {
            const Token& p = tok(begin - 1);
            if (kSpec.count(p.text)) {
                --begin;
            } else if (is(p, ")")) {
                std::size_t o = match_back(begin - 1);
                if (o == std::string::npos || o == 0 || !(is(tok(o - 1), "__align__") || is(tok(o - 1), "alignas")))
                    break;
                begin = o - 1;
            } else if (preprocessed_ && (p.kind == Kind::identifier || p.kind == Kind::keyword || is(p, "::"))) {
                // The type may come before the qualifier: `extern float __shared__ smem[];` (cuda-samples'
                // threadFenceReduction), as C++ allows decl-specifiers in any order. Only in preprocessed text
                // (emu-nvcc), where no directive's words can precede the declaration.
                --begin;
            } else if (preprocessed_ && (is(p, ">") || is(p, ">>"))) {
                // A template argument list of such a type: `cuda::barrier<cuda::thread_scope_block> __shared__ b;`
                std::size_t o = begin - 1;
                int angle = 0;
                for (;; --o) {
                    const std::string& t = tok(o).text;
                    if (t == ">" || t == ">>") angle += static_cast<int>(t.size());
                    else if (t == "<") --angle;
                    else if (t == ";" || t == "{" || t == "}") break;
                    if (angle == 0 || o == 0) break;
                }
                if (angle != 0 || o == 0) break;
                begin = o;
            } else {
                break;
            }
        }
        std::size_t end = k;
        int depth = 0;
        while (end < sig_.size()) {
            const std::string& s = tok(end).text;
            if (s == "(" || s == "[" || s == "{") ++depth;
            else if (s == ")" || s == "]" || s == "}") --depth;
            if (depth < 0 || (depth == 0 && s == ";")) break;
            ++end;
        }
        if (end >= sig_.size() || !is(tok(end), ";")) {
            problem(k, "cannot find the ';' that ends this __shared__ declaration");
            return k;
        }

        // Storage and alignment specifiers go; what remains is the type and the declarators.
        bool is_extern = false;
        std::vector<std::string> aligns;
        std::vector<std::size_t> rest;
        for (std::size_t j = begin; j < end; ++j) {
            const std::string& s = tok(j).text;
            if (s == "extern") is_extern = true;
            else if (s == "static") continue;  // namespace-scope declarations are all made static below
            else if (s == "__shared__" || s == "__device__") continue;
            else if ((s == "__align__" || s == "alignas") && tok_is(j + 1, "(")) {
                int d = 0;
                std::size_t c = j + 1;
                for (; c < end; ++c) {
                    if (is(tok(c), "(")) ++d;
                    if (is(tok(c), ")") && --d == 0) break;
                }
                aligns.push_back(join(j + 2, c - 1));
                j = c;
            } else {
                rest.push_back(j);
            }
        }

        // Split the declarators at top-level commas (template argument commas stay inside).
        std::vector<std::vector<std::size_t>> parts(1);
        int paren = 0, angle = 0;
        for (std::size_t j : rest) {
            const std::string& s = tok(j).text;
            if (s == "(" || s == "[" || s == "{") ++paren;
            else if (s == ")" || s == "]" || s == "}") --paren;
            else if (paren == 0 && s == "<") ++angle;
            else if (paren == 0 && angle > 0 && (s == ">" || s == ">>" || s == ">>>"))
                angle = std::max(0, angle - static_cast<int>(s.size()));
            else if (paren == 0 && angle == 0 && s == "=") {
                problem(j, "a __shared__ variable cannot have an initializer (CUDA rejects it too)");
                return end;
            }
            if (paren == 0 && angle == 0 && s == ",") {
                parts.emplace_back();
                continue;
            }
            parts.back().push_back(j);
        }

        std::vector<std::size_t> base;  // type specifiers shared by all declarators
        std::string class_name;
        class_tokens_.clear();
        std::string out;
        if (!aligns.empty() && !is_extern) {
            out += "struct";
            for (const std::string& a : aligns) out += " alignas(" + a + ")";
        }
        std::string align_struct;
        for (std::size_t pi = 0; pi < parts.size(); ++pi) {
            const std::vector<std::size_t>& part = parts[pi];
            // The name is the identifier before the trailing array bounds.
            std::size_t n = part.size();
            while (n > 0 && is(tok(part[n - 1]), "]")) {
                std::size_t o = match_back(part[n - 1]);
                while (n > 0 && part[n - 1] != o) --n;
                if (n == 0) break;
                --n;
            }
            if (n == 0 || tok(part[n - 1]).kind != Kind::identifier) {
                problem(k, "cannot parse this __shared__ declaration; write it as `__shared__ T name[N];`");
                return end;
            }
            std::size_t name_at = n - 1;
            if (pi == 0) {
                // Pointer declarators (* const &) bind to the first name only.
                std::size_t r = name_at;
                bool has_ptr = false;
                while (r > 0) {
                    const std::string& s = tok(part[r - 1]).text;
                    if (s == "*" || s == "&" || s == "&&") has_ptr = true;
                    else if (s != "const" && s != "volatile" && s != "__restrict__") break;
                    --r;
                }
                std::size_t first_ptr = name_at;
                if (has_ptr) {
                    for (std::size_t j = r; j < name_at; ++j) {
                        const std::string& s = tok(part[j]).text;
                        if (s == "*" || s == "&" || s == "&&") {
                            first_ptr = j;
                            break;
                        }
                    }
                }
                base.assign(part.begin(), part.begin() + static_cast<std::ptrdiff_t>(first_ptr));
                if (base.empty()) {
                    problem(k, "this __shared__ declaration has no type");
                    return end;
                }
            }
            std::vector<std::size_t> type = pi == 0 ? std::vector<std::size_t>{} : base;
            for (std::size_t j = 0; j < part.size(); ++j) {
                if (j != name_at) type.push_back(part[j]);
            }
            const std::string name = tok(part[name_at]).text;
            if (pi == 0) {
                // `__shared__ union { typename Load::TempStorage load; ... } storage;` (CUB's examples): the type is
                // defined first, under its own name or one made from the variable's, and the variables take it.
                out.insert(0, defined_class(base, name, &class_name));
            }
            if (pi == 0 && !aligns.empty() && !is_extern) {
                align_struct = "emu_align_" + name + "_";
                out += " " + align_struct + " {}; ";
            }
            auto type_text = [&](std::size_t skip_from, std::size_t skip_to) {
                std::string s;
                bool named = false;
                for (std::size_t j = 0; j < type.size(); ++j) {
                    if (j >= skip_from && j <= skip_to) continue;
                    if (!class_name.empty() && std::find(base.begin(), base.end(), type[j]) != base.end() &&
                        class_tokens_.count(type[j])) {
                        if (named) continue;  // the class's definition is replaced by its name
                        named = true;
                        if (!s.empty()) s += ' ';
                        s += class_name;
                        continue;
                    }
                    if (!s.empty()) s += ' ';
                    s += tok(type[j]).text;
                }
                return s;
            };
            if (!out.empty() && out.back() != ' ') out += ' ';
            if (ns_scope) out += "static ";
            if (is_extern) {
                // The first array bound of `T name[]` goes: the variable becomes a pointer to its elements (so that a
                // lambda may copy it), and `&name` is rewritten where it appears (array_address).
                std::size_t lb = type.size(), rb = type.size();
                for (std::size_t j = 0; j < type.size(); ++j) {
                    if (is(tok(type[j]), "[")) {
                        lb = j;
                        rb = match_forward(type[j]);
                        for (std::size_t m = j; m < type.size(); ++m) {
                            if (type[m] == rb) {
                                rb = m;
                                break;
                            }
                        }
                        break;
                    }
                }
                out += "auto* const " + name + " = ::emu::dynamic_shared<" + type_text(lb, rb) + ">();";
                extern_shared_.emplace_back(name, open_braces_);
            } else {
                out += "auto& " + name + " = ::emu::shared_var<" + type_text(type.size(), type.size()) +
                       ">([]() -> ::emu::SharedSlot* { static ::emu::SharedSlot emu_slot_; return &emu_slot_; }(), \"" +
                       name + "\"" + (align_struct.empty() ? std::string() : ", alignof(" + align_struct + ")") + ");";
            }
        }
        replace(begin, end, out);
        return end;
    }

    // A class defined in a __shared__ declaration's type (`union { ... }`, `struct Tile { ... }`): its definition as a
    // statement of its own, named (the variable's name gives one to an unnamed class), and the type's tokens in
    // class_tokens_; nothing when the type defines no class.
    std::string defined_class(const std::vector<std::size_t>& base, const std::string& var, std::string* name) {
        std::size_t key = base.size(), open = base.size();
        for (std::size_t j = 0; j < base.size(); ++j) {
            const std::string& t = tok(base[j]).text;
            if (key == base.size() && (t == "union" || t == "struct" || t == "class")) key = j;
            if (t == "{") {
                open = j;
                break;
            }
        }
        if (key == base.size() || open == base.size() || open < key) return "";
        const std::size_t close_sig = match_forward(base[open]);
        std::size_t close = open;
        while (close < base.size() && base[close] != close_sig) ++close;
        if (close == base.size()) return "";
        *name = open == key + 1 ? "emu_shared_type_" + var + "_" : tok(base[key + 1]).text;
        std::string def = tok(base[key]).text + " " + *name;
        for (std::size_t j = open; j <= close; ++j) def += " " + tok(base[j]).text;
        for (std::size_t j = key; j <= close; ++j) class_tokens_.insert(base[j]);
        return def + "; ";
    }
    std::set<std::size_t> class_tokens_;
    // The `extern __shared__` arrays in scope (name, the number of braces open at their declaration).
    std::vector<std::pair<std::string, std::size_t>> extern_shared_;
    std::size_t open_braces_ = 0;
    // `& name` naming one of them as a whole (not `&name[i]`, `&name->x`): a binary & cannot take a pointer, so the
    // & is the address-of operator.
    bool extern_shared_address(std::size_t k) const {
        if (k + 1 >= sig_.size() || tok(k + 1).kind != Kind::identifier) return false;
        if (k + 2 < sig_.size() && (is(tok(k + 2), "[") || is(tok(k + 2), ".") || is(tok(k + 2), "->") ||
                                    is(tok(k + 2), "(") || is(tok(k + 2), "::")))
            return false;
        if (k >= 1 && (is(tok(k - 1), ".") || is(tok(k - 1), "->"))) return false;
        for (const auto& entry : extern_shared_)
            if (entry.first == tok(k + 1).text) return true;
        return false;
    }

    std::size_t match_forward(std::size_t k) const {  // k: significant index of an opening bracket
        int depth = 0;
        for (std::size_t j = k; j < sig_.size(); ++j) {
            const std::string& s = tok(j).text;
            if (s == "(" || s == "[" || s == "{") ++depth;
            if ((s == ")" || s == "]" || s == "}") && --depth == 0) return j;
        }
        return sig_.size();
    }

    // The rewritten file lives elsewhere (the build tree): `#include "x.h"` must still find x.h next to the .cu.
    void absolute_include(std::size_t i) {
        if (source_dir_.empty()) return;
        const std::string& text = ts_[i].text;
        std::size_t hash = text.find('#');
        std::size_t d = text.find_first_not_of(" \t", hash + 1);
        if (d == std::string::npos || text.compare(d, 7, "include") != 0) return;
        std::size_t q1 = text.find('"', d + 7);
        if (q1 == std::string::npos || text.find_first_not_of(" \t", d + 7) != q1) return;
        std::size_t q2 = text.find('"', q1 + 1);
        if (q2 == std::string::npos) return;
        const std::filesystem::path rel = text.substr(q1 + 1, q2 - q1 - 1);
        if (rel.is_absolute()) return;
        std::error_code ec;
        const std::filesystem::path full = std::filesystem::path(source_dir_) / rel;
        if (!std::filesystem::exists(full, ec)) return;
        const std::string abs = std::filesystem::absolute(full, ec).lexically_normal().string();
        edits_[i] = Edit{i + 1, text.substr(0, q1 + 1) + escape(abs) + text.substr(q2), true};
    }

    // A #define whose body launches a kernel or declares __shared__ memory is rewritten like code.
    void rewrite_macro(std::size_t i) {
        const std::string& text = ts_[i].text;
        std::size_t hash = text.find('#');
        std::size_t d = text.find_first_not_of(" \t", hash + 1);
        if (d == std::string::npos || text.compare(d, 6, "define") != 0) return;
        if (text.find("<<<") == std::string::npos && text.find("__shared__") == std::string::npos) return;
        std::vector<Token> body = cxxlex::lex(std::string_view(text).substr(hash + 1));
        Rewriter sub(std::move(body), true, problems_, ts_[i].line - 1);
        edits_[i] = Edit{i + 1, text.substr(0, hash + 1) + sub.run(), true};
    }
};

}  // namespace

Result rewrite_preprocessed(std::string_view preprocessed) {
    Result r;
    Rewriter rw(cxxlex::lex(preprocessed), false, &r.problems, 0, "", true);
    r.text = rw.run();
    const LineMap map(preprocessed);
    for (Problem& p : r.problems) {
        auto [file, line] = map.at(p.line);
        p.file = file;
        p.line = line;
    }
    return r;
}

Result rewrite(std::string_view source, const std::string& path, const std::string& source_dir) {
    Result r;
    Rewriter rw(cxxlex::lex(source), false, &r.problems, 0, source_dir);
    std::string body = rw.run();
    r.text = std::string("#include <") + kPreludeHeader + ">\n#line 1 \"" + escape(path) + "\"\n" + body;
    return r;
}

}  // namespace emu::rewrite
