#include "arch_merge.hpp"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "cxxlex/cxxlex.hpp"
#include "line_map.hpp"
#include "ptx_forms.hpp"

namespace emu::driver {

namespace {

using cxxlex::Kind;
using cxxlex::Token;

bool significant(const Token& t) {
    return t.kind != Kind::comment && t.kind != Kind::whitespace && t.kind != Kind::newline &&
           t.kind != Kind::preprocessor;
}

// Where a function body starts and what it is: device code, host code, or both.
enum class Side { none, host, device, both };

struct Stream {
    std::string_view text;
    std::vector<Token> all;
    std::vector<std::size_t> sig;   // indices into `all` of the significant tokens
    std::vector<int> fn;            // per significant token: the function body it lies in (index of its '{'), or -1
    std::vector<Side> side;         // per significant token: the kind of that function
    std::vector<std::string> name;  // per significant token: the name of that function (for messages)

    explicit Stream(std::string_view t) : text(t), all(cxxlex::lex(t)) {
        for (std::size_t i = 0; i < all.size(); ++i)
            if (significant(all[i])) sig.push_back(i);
        classify();
    }
    const Token& tok(std::size_t k) const { return all[sig[k]]; }

    // A '{' opens a function body when the tokens since the last ';', '{' or '}' look like a function's head: they
    // hold a '(' and are not a namespace, class, enum, extern "C" block or an initializer.
    void classify() {
        fn.assign(sig.size(), -1);
        side.assign(sig.size(), Side::none);
        name.assign(sig.size(), std::string());
        struct Open {
            bool body;  // this brace opened a function body (the outermost one)
        };
        std::vector<Open> stack;
        int cur = -1;
        Side cur_side = Side::none;
        std::string cur_name;
        std::size_t head = 0;  // first token of the current head
        for (std::size_t k = 0; k < sig.size(); ++k) {
            const std::string& s = tok(k).text;
            if (s == "{") {
                bool body = false;
                if (cur < 0) {
                    bool paren = false, scope = false;
                    bool global = false, device = false, host = false;
                    std::string fname;
                    for (std::size_t j = head; j < k; ++j) {
                        const std::string& h = tok(j).text;
                        if (h == "(" && !paren) {
                            paren = true;
                            if (j > head && tok(j - 1).kind == Kind::identifier) fname = tok(j - 1).text;
                        }
                        if (!paren && (h == "namespace" || h == "class" || h == "struct" || h == "union" ||
                                       h == "enum" || h == "=" || tok(j).kind == Kind::string))
                            scope = true;
                        if (h == "__global__") global = true;
                        if (h == "__device__") device = true;
                        if (h == "__host__") host = true;
                    }
                    if (paren && !scope) {
                        body = true;
                        cur = static_cast<int>(k);
                        cur_side = global || (device && !host) ? Side::device
                                   : device && host            ? Side::both
                                                               : Side::host;
                        cur_name = fname;
                    }
                }
                stack.push_back({body});
            }
            fn[k] = cur;
            side[k] = cur_side;
            name[k] = cur_name;
            if (s == "}") {
                if (!stack.empty()) {
                    if (stack.back().body) {
                        cur = -1;
                        cur_side = Side::none;
                        cur_name.clear();
                    }
                    stack.pop_back();
                }
            }
            if (s == ";" || s == "{" || s == "}") head = k + 1;
        }
    }
};

struct Hunk {
    std::size_t h0, h1, d0, d1;  // [h0, h1) of the host's significant tokens replaced by [d0, d1) of the device's
};

// Myers' O(ND) difference of two sequences of token ids, as a list of hunks.
std::vector<Hunk> diff(const std::vector<int>& a, const std::vector<int>& b, std::size_t max_d, bool* too_many) {
    std::size_t pre = 0;
    while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) ++pre;
    std::size_t suf = 0;
    while (suf < a.size() - pre && suf < b.size() - pre && a[a.size() - 1 - suf] == b[b.size() - 1 - suf]) ++suf;
    const long n = static_cast<long>(a.size() - pre - suf), m = static_cast<long>(b.size() - pre - suf);
    auto A = [&](long i) { return a[pre + static_cast<std::size_t>(i)]; };
    auto B = [&](long j) { return b[pre + static_cast<std::size_t>(j)]; };
    const long off = n + m + 1;
    std::vector<long> v(static_cast<std::size_t>(2 * off + 1), 0);
    std::vector<std::vector<long>> trace;
    long found = -1;
    for (long d = 0; d <= n + m; ++d) {
        if (static_cast<std::size_t>(d) > max_d) {
            *too_many = true;
            return {};
        }
        // Only diagonals -d … d can matter to the walk back from round d: keep that window (memory O(D²), not O(ND)).
        trace.emplace_back(v.begin() + (off - d), v.begin() + (off + d + 1));
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d ||
                (k != d && v[static_cast<std::size_t>(off + k - 1)] < v[static_cast<std::size_t>(off + k + 1)]))
                x = v[static_cast<std::size_t>(off + k + 1)];
            else x = v[static_cast<std::size_t>(off + k - 1)] + 1;
            long y = x - k;
            while (x < n && y < m && A(x) == B(y)) ++x, ++y;
            v[static_cast<std::size_t>(off + k)] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
        if (found >= 0) break;
    }
    // Walk back through the trace: each step is one deletion (host only) or one insertion (device only).
    struct Step {
        long x, y;
        bool del;
    };
    std::vector<Step> steps;
    long x = n, y = m;
    for (long d = found; d > 0; --d) {
        const std::vector<long>& window = trace[static_cast<std::size_t>(d)];
        auto pv = [&](long kk) { return window[static_cast<std::size_t>(kk + d)]; };
        const long k = x - y;
        const long pk = (k == -d || (k != d && pv(k - 1) < pv(k + 1))) ? k + 1 : k - 1;
        const long px = pv(pk), py = px - pk;
        // From (px, py) one edit, then a diagonal run of equal tokens up to (x, y).
        if (pk == k + 1) steps.push_back({px, py, false});  // insertion of B[py]
        else steps.push_back({px, py, true});               // deletion of A[px]
        x = px;
        y = py;
    }
    std::reverse(steps.begin(), steps.end());
    std::vector<Hunk> hunks;
    for (const Step& s : steps) {
        const std::size_t hx = pre + static_cast<std::size_t>(s.x), hy = pre + static_cast<std::size_t>(s.y);
        Hunk h = s.del ? Hunk{hx, hx + 1, hy, hy} : Hunk{hx, hx, hy, hy + 1};
        if (!hunks.empty() && hunks.back().h1 == h.h0 && hunks.back().d1 == h.d0) {
            hunks.back().h1 = h.h1;
            hunks.back().d1 = h.d1;
        } else {
            hunks.push_back(h);
        }
    }
    return hunks;
}

// Where a region of one stream lies: inside one function body (and which), at namespace or class scope, or across.
struct Where {
    enum { inside, outside, across } at;
    int fn = -1;
    Side side = Side::none;
    std::string name;
};

Where where(const Stream& s, std::size_t k0, std::size_t k1) {
    // The tokens around the region and in it; the region is inside F when its neighbours on both sides are.
    auto fn_at = [&](std::size_t k) { return k < s.sig.size() ? s.fn[k] : -1; };
    const int before = k0 > 0 ? s.fn[k0 - 1] : -1;
    const int after = fn_at(k1);
    Where w;
    if (before >= 0 && before == after) {
        for (std::size_t k = k0; k < k1; ++k)
            if (s.fn[k] != before) return {Where::across};
        w.at = Where::inside;
        w.fn = before;
        w.side = s.side[k0 > 0 ? k0 - 1 : 0];
        w.name = s.name[k0 > 0 ? k0 - 1 : 0];
        return w;
    }
    // Outside: the region may hold whole functions, but must not cut into one.
    if ((k0 == 0 || before < 0 || (s.tok(k0 - 1).text == "}" && s.fn[k0 - 1] >= 0)) &&
        (after < 0 || (k1 < s.sig.size() && s.tok(k1).text == "{" && static_cast<std::size_t>(after) == k1))) {
        w.at = Where::outside;
        return w;
    }
    w.at = Where::across;
    return w;
}

// A header of a library the emulator compiles for the host only (Thrust, on its CPP system; docs/emulator.md, Thrust).
bool host_library_header(const std::string& file) { return file.find("/thrust/") != std::string::npos; }

std::string marker(const std::pair<std::string, int>& at) {
    std::string f;
    for (char c : at.first) {
        if (c == '"' || c == '\\') f += '\\';
        f += c;
    }
    return "\n# " + std::to_string(at.second) + " \"" + f + "\"\n";
}

// Device text spliced into the host text: its line markers may enter or leave include files that the host text
// around it does not (the block can start inside a header the device pass entered before it), and the compiler
// ignores, with a warning, markers that do not nest. Their enter/leave flags (1, 2) go; the file and line, and the
// system-header flags (3, 4), stay.
std::string without_nesting_flags(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t eol = std::min(text.find('\n', i), text.size());
        std::string_view line = text.substr(i, eol - i);
        const std::size_t q = line.rfind('"');
        if (line.size() > 2 && line[0] == '#' && line[1] == ' ' && q != std::string_view::npos && q > 2) {
            out.append(line.substr(0, q + 1));
            for (std::size_t f = q + 1; f < line.size(); ++f)
                if (line[f] == '3' || line[f] == '4') (out += ' ') += line[f];
        } else {
            out.append(line);
        }
        if (eol < text.size()) out += '\n';
        i = eol + 1;
    }
    return out;
}

}  // namespace

MergeResult merge_arch_passes(std::string_view host, std::string_view device) {
    MergeResult r;
    const Stream D(device);
    const rewrite::LineMap dmap(device);
    // Inline assembly in device code is PTX (or SASS): g++ would hand it to the x86 assembler, whose message names
    // neither the file nor the line. Refused here, where the line is known.
    // An empty template (`asm("" : "+r"(x))`, `asm volatile("" ::: "memory")`) holds no instruction: it only tells
    // the compiler what it may not assume, which g++ understands the same way, so it stays. A read of a special
    // register (`asm("mov.u32 %0, %%laneid;" : "=r"(lane))`) is rewritten into the emulator's value of it
    // (rewrite/ptx_forms.hpp).
    auto empty_template = [&](std::size_t k) {
        std::size_t i = k + 1;
        while (i < D.sig.size() && (D.tok(i).text == "volatile" || D.tok(i).text == "__volatile__" ||
                                    D.tok(i).text == "inline" || D.tok(i).text == "goto"))
            ++i;
        if (i >= D.sig.size() || D.tok(i).text != "(") return false;
        bool any = false;
        for (++i; i < D.sig.size() && !D.tok(i).text.empty() && D.tok(i).text[0] == '"'; ++i) {
            if (D.tok(i).text != "\"\"") return false;
            any = true;
        }
        return any && i < D.sig.size() && (D.tok(i).text == ":" || D.tok(i).text == "::" || D.tok(i).text == ")");
    };
    for (std::size_t k = 0; k < D.sig.size(); ++k) {
        const std::string& t = D.tok(k).text;
        if ((t == "asm" || t == "__asm__" || t == "__asm") && D.side[k] == Side::device && !empty_template(k) &&
            !rewrite::ptx_special_register_read([&D](std::size_t i) -> std::string_view { return D.tok(i).text; },
                                                D.sig.size(), k)) {
            const auto at = dmap.at(D.tok(k).line);
            r.problems.push_back(
                {at.second, 1,
                 "inline assembly in device code ('" + D.name[k] +
                     "') is GPU code (PTX) that cannot run on the CPU emulator; use the CUDA intrinsic "
                     "it implements, or keep the assembly behind a branch the emulator does not take",
                 at.first});
        }
    }
    if (!r.problems.empty()) return r;
    if (host == device) {
        r.text = std::string(host);
        return r;
    }
    r.differed = true;
    const Stream H(host);
    const rewrite::LineMap hmap(host);
    // Tokens are equal when they have the same spelling and come from the same source line: both passes read the
    // same files, so this keeps the alignment from sliding a change across a function boundary (a `; }` of one line
    // matched with the `; }` of another).
    std::unordered_map<std::string, int> ids;
    auto seq = [&](const Stream& s, const rewrite::LineMap& map) {
        std::vector<int> v;
        v.reserve(s.sig.size());
        std::string key;
        for (std::size_t k = 0; k < s.sig.size(); ++k) {
            const auto at = map.at(s.tok(k).line);
            key.assign(s.tok(k).text);
            key += '\0';
            key += at.first;
            key += '\0';
            key += std::to_string(at.second);
            v.push_back(ids.emplace(key, static_cast<int>(ids.size())).first->second);
        }
        return v;
    };
    const std::vector<int> a = seq(H, hmap), b = seq(D, dmap);
    bool too_many = false;
    const std::vector<Hunk> hunks = diff(a, b, 4000, &too_many);
    auto origin = [&](const Stream& s, const rewrite::LineMap& map, std::size_t k) {
        if (s.sig.empty()) return std::pair<std::string, int>{"", 0};
        return map.at(s.tok(std::min(k, s.sig.size() - 1)).line);
    };
    auto problem = [&](const std::pair<std::string, int>& at, std::string msg) {
        r.problems.push_back({at.second, 1, std::move(msg), at.first});
    };
    if (too_many) {
        problem({"", 0},
                "the device pass (__CUDA_ARCH__ defined) and the host pass differ in more than 4000 tokens (an "
                "#include or a large block chosen by __CUDA_ARCH__?); the emulator cannot merge them");
        return r;
    }

    // Which side each hunk takes: true = the device pass's tokens.
    std::vector<bool> take_device(hunks.size(), false);
    for (std::size_t i = 0; i < hunks.size(); ++i) {
        const Hunk& h = hunks[i];
        // Thrust runs on its host (CPP) system here: its headers are compiled as the host pass reads them, every
        // __CUDA_ARCH__ branch of theirs (dispatch to CUDA kernels, __host__ __device__ bodies) on its host side.
        if ((h.h1 == h.h0 || host_library_header(origin(H, hmap, h.h0).first)) &&
            (h.d1 == h.d0 || host_library_header(origin(D, dmap, h.d0).first)) && (h.h1 > h.h0 || h.d1 > h.d0))
            continue;
        const Where wh = where(H, h.h0, h.h1), wd = where(D, h.d0, h.d1);
        const auto at = h.d1 > h.d0 ? origin(D, dmap, h.d0) : origin(H, hmap, h.h0);
        const std::string where_text = at.first + ":" + std::to_string(at.second);
        if (wh.at == Where::inside && wd.at == Where::inside && wh.side == wd.side) {
            if (wh.side == Side::device) {
                take_device[i] = true;
            } else if (wh.side == Side::both) {
                problem(at,
                        "'" + wh.name +
                            "' is __host__ __device__ and its body depends on __CUDA_ARCH__: nvcc compiles it twice "
                            "(device code sees __CUDA_ARCH__, host code does not), the emulator compiles one body for "
                            "both and will not choose; move the device branch into a __device__ function and the host "
                            "branch into a __host__ one");
            }
            continue;
        }
        if (wh.at == Where::outside && wd.at == Where::outside) {
            if (h.h1 == h.h0) {
                take_device[i] = true;  // declarations only the device pass has: device code needs them
            } else if (h.d1 > h.d0) {
                problem(at,
                        "the declarations here differ between the device pass (__CUDA_ARCH__ defined) and the host "
                        "pass; the emulator builds one program for both and cannot keep two versions of a "
                        "declaration (keep one declaration and branch on __CUDA_ARCH__ inside a __device__ function)");
            }
            continue;
        }
        problem(at,
                "__CUDA_ARCH__ changes code here in a way the emulator cannot merge (the device pass and the host "
                "pass differ across a function boundary, or in functions of different kinds)");
    }
    if (!r.problems.empty()) return r;

    // A header included only by the device pass (`#if __CUDA_ARCH__ >= 700` / `#include <cuda/barrier>`, as in
    // cuda-samples' globalToShmemAsyncCopy) that the host pass includes later anyway (through another header): its
    // declarations are a device-only hunk early and a host-only hunk later, the same tokens of the same lines. Both
    // copies would be redefinitions; the later one goes, as a second #include of a guarded header would.
    std::vector<bool> moved(hunks.size(), false);
    std::unordered_set<int> device_only;
    for (std::size_t i = 0; i < hunks.size(); ++i)
        if (take_device[i] && hunks[i].h1 == hunks[i].h0)
            for (std::size_t k = hunks[i].d0; k < hunks[i].d1; ++k) device_only.insert(b[k]);
    for (std::size_t i = 0; i < hunks.size() && !device_only.empty(); ++i) {
        const Hunk& h = hunks[i];
        if (take_device[i] || h.d1 != h.d0 || h.h1 == h.h0 || where(H, h.h0, h.h1).at != Where::outside) continue;
        bool is_moved = true;
        for (std::size_t k = h.h0; k < h.h1 && is_moved; ++k) is_moved = device_only.count(a[k]) != 0;
        if (is_moved) take_device[i] = moved[i] = true;  // a host-only hunk's device side is nothing: it goes
    }

    // Host text, with each device hunk spliced in between line markers that keep every later line where it was.
    std::string out;
    std::size_t pos = 0;                     // byte offset in host text copied so far
    auto host_offset = [&](std::size_t k) {  // offset of host significant token k (or end)
        return k < H.sig.size() ? H.tok(k).offset : host.size();
    };
    auto device_offset = [&](std::size_t k) { return k < D.sig.size() ? D.tok(k).offset : device.size(); };
    for (std::size_t i = 0; i < hunks.size(); ++i) {
        if (!take_device[i]) continue;
        const Hunk& h = hunks[i];
        const std::size_t hs = host_offset(h.h0);
        out.append(host.substr(pos, hs - pos));
        if (moved[i]) {
            // A dropped copy keeps its line markers: they enter and leave include files, and the compiler checks
            // that they nest.
            const std::size_t end = h.h1 < H.sig.size() ? H.sig[h.h1] : H.all.size();
            for (std::size_t t = H.sig[h.h0]; t < end; ++t)
                if (H.all[t].kind == cxxlex::Kind::preprocessor) out += "\n" + std::string(H.all[t].text) + "\n";
        }
        if (h.d1 > h.d0) {
            out += marker(dmap.at(D.tok(h.d0).line));
            const std::size_t ds = device_offset(h.d0);
            const std::size_t de = D.tok(h.d1 - 1).offset + D.tok(h.d1 - 1).text.size();
            // The device text starts mid-line: pad to its column so that compiler carets still point at the right place.
            out.append(static_cast<std::size_t>(std::max(0, D.tok(h.d0).column - 1)), ' ');
            out.append(without_nesting_flags(device.substr(ds, de - ds)));
        }
        pos = host_offset(h.h1);
        if (h.h1 < H.sig.size()) {
            out += marker(hmap.at(H.tok(h.h1).line));
            out.append(static_cast<std::size_t>(std::max(0, H.tok(h.h1).column - 1)), ' ');
        }
    }
    out.append(host.substr(pos));
    r.text = std::move(out);
    return r;
}

}  // namespace emu::driver
