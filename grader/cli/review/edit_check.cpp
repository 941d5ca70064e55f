#include "review/edit_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "util/files.hpp"
#include "lesson/markers.hpp"
#include "review/fill_policy.hpp"
#include "review/host_fill.hpp"
#include "review/tokens.hpp"

namespace workbook::review {
namespace {

// Above this many DP cells the file is too far from the starter for a token diff to be worth computing.
constexpr std::size_t kMaxCells = 6'000'000;
constexpr std::size_t kMaxShownChanges = 8;

bool is_open(const std::string& t) { return t == "(" || t == "[" || t == "{"; }
bool is_close(const std::string& t) { return t == ")" || t == "]" || t == "}"; }
std::string partner(const std::string& close) { return close == ")" ? "(" : close == "]" ? "[" : "{"; }

// True when tokens [b, e) of `s` nest properly and close everything they open.
bool balanced(const std::vector<Tok>& s, std::size_t b, std::size_t e) {
    std::vector<std::string> stack;
    for (std::size_t i = b; i < e; ++i) {
        if (is_open(s[i].text)) stack.push_back(s[i].text);
        else if (is_close(s[i].text)) {
            if (stack.empty() || stack.back() != partner(s[i].text)) return false;
            stack.pop_back();
        }
    }
    return stack.empty();
}

std::string join_tokens(const std::vector<Tok>& s, std::size_t b, std::size_t e) {
    std::string out;
    for (std::size_t i = b; i < e; ++i) out += (i == b ? "" : " ") + s[i].text;
    return out;
}

std::string shorten(const std::string& s, std::size_t max = 70) {
    if (s.size() <= max) return s;
    return s.substr(0, max - 3) + "...";
}

// The starter is literal segments separated by wildcards. Each wildcard takes a balanced run of student tokens
// after which the next segment matches exactly; the search backtracks over the few cut points that qualify and
// remembers dead ends, so it is linear in practice and needs no table.
bool wildcard_match(const std::vector<Tok>& p, const std::vector<Tok>& s,
                    std::vector<std::pair<std::size_t, std::size_t>>& fills) {
    std::vector<std::pair<std::size_t, std::size_t>> segs;  // [begin, end) in p of each literal segment
    std::size_t start = 0;
    for (std::size_t i = 0; i <= p.size(); ++i)
        if (i == p.size() || p[i].is_blank()) {
            segs.push_back({start, i});
            start = i + 1;
        }
    const std::size_t ns = s.size();
    auto seg_matches = [&](std::size_t k, std::size_t at) {
        const auto [b, e] = segs[k];
        if (at + (e - b) > ns) return false;
        for (std::size_t i = b; i < e; ++i)
            if (s[at + i - b].text != p[i].text) return false;
        return true;
    };
    if (!seg_matches(0, 0)) return false;
    const std::size_t wilds = segs.size() - 1;
    std::set<std::pair<std::size_t, std::size_t>> dead;
    std::vector<std::pair<std::size_t, std::size_t>> spans(wilds);
    std::function<bool(std::size_t, std::size_t)> rec = [&](std::size_t k, std::size_t pos) -> bool {
        if (k == wilds) return pos == ns;
        if (dead.count({k, pos})) return false;
        const std::size_t len = segs[k + 1].second - segs[k + 1].first;
        std::vector<const std::string*> stack;
        for (std::size_t e = pos;; ++e) {
            if (stack.empty() && seg_matches(k + 1, e)) {
                spans[k] = {pos, e};
                if (rec(k + 1, e + len)) return true;
            }
            if (e >= ns) break;
            const std::string& t = s[e].text;
            if (is_open(t)) stack.push_back(&t);
            else if (is_close(t)) {
                if (stack.empty() || *stack.back() != partner(t)) break;
                stack.pop_back();
            }
        }
        dead.insert({k, pos});
        return false;
    };
    if (!rec(0, segs[0].second - segs[0].first)) return false;
    fills = spans;
    return true;
}

// An LCS is not unique: an inserted `x; if (c) return;` after `x;` may be aligned as "`; if (c) return` inserted"
// rather than "`if (c) return;` inserted". Slide each unmatched run along equal tokens to where it touches the fewest
// lines that also hold matched tokens, so whole lines read as added or removed.
void slide_runs(const std::vector<Tok>& t, std::vector<long>& match, std::vector<long>& other_match, bool skip_blanks) {
    const std::size_t n = t.size();
    auto cost = [&](std::size_t a, std::size_t b) {
        int c = 0;
        if (a > 0 && t[a - 1].line == t[a].line) ++c;
        if (b < n && t[b].line == t[b - 1].line) ++c;
        return c;
    };
    for (std::size_t a = 0; a < n;) {
        if (match[a] >= 0) {
            ++a;
            continue;
        }
        std::size_t b = a;
        bool has_blank = false;
        while (b < n && match[b] < 0) has_blank |= t[b].is_blank(), ++b;
        if (skip_blanks && has_blank) {
            a = b;
            continue;
        }
        // Slide left as far as equal tokens allow, then walk right scoring each position.
        while (a > 0 && match[a - 1] >= 0 && t[a - 1].text == t[b - 1].text) {
            match[b - 1] = match[a - 1];
            other_match[static_cast<std::size_t>(match[b - 1])] = static_cast<long>(b - 1);
            match[a - 1] = -1;
            --a, --b;
        }
        std::size_t best_a = a;
        int best = cost(a, b);
        for (std::size_t x = a, y = b; y < n && match[y] >= 0 && t[x].text == t[y].text;) {
            ++x, ++y;
            int c = cost(x, y);
            if (c < best) best = c, best_a = x;
        }
        while (a < best_a) {
            match[a] = match[b];
            other_match[static_cast<std::size_t>(match[a])] = static_cast<long>(a);
            match[b] = -1;
            ++a, ++b;
        }
        a = b;
    }
}

// Adjacent blanks (`______ ______` with nothing between) make the split of their combined fill ambiguous: any
// balanced cut matches. Choose the cut a person would: a placeholder still present is its own blank's fill, a
// student's `// blank: <id>` comment marks where that blank's code is, and cuts fall between lines.
void resplit_adjacent(const std::vector<Tok>& p, const std::vector<Tok>& s, const std::string& student,
                      const std::vector<std::string>& ids, std::vector<std::pair<std::size_t, std::size_t>>& spans) {
    std::map<std::string, int> anchor;  // blank id -> student line holding its `// blank: id` comment
    for (const auto& c : comment_tokens(student)) {
        auto at = c.text.find("blank:");
        if (at == std::string::npos) continue;
        std::string id = c.text.substr(at + 6);
        id.erase(0, id.find_first_not_of(" \t"));
        id = id.substr(0, id.find_first_of(" \t\r\n*"));
        if (!id.empty() && !anchor.count(id)) anchor[id] = c.line;
    }
    std::vector<std::size_t> wild;
    for (std::size_t i = 0; i < p.size(); ++i)
        if (p[i].is_blank()) wild.push_back(i);
    for (std::size_t a = 0; a < wild.size();) {
        std::size_t b = a + 1;
        while (b < wild.size() && wild[b] == wild[b - 1] + 1) ++b;
        const std::size_t g = b - a;
        if (g < 2 || g > 4) {
            a = b;
            continue;
        }
        const std::size_t lo = spans[a].first, hi = spans[b - 1].second;
        // Cut points: where the prefix of the region is balanced.
        std::vector<std::size_t> cuts;
        {
            int depth = 0;
            for (std::size_t j = lo; j <= hi; ++j) {
                if (depth == 0) cuts.push_back(j);
                if (j < hi) depth += is_open(s[j].text) ? 1 : is_close(s[j].text) ? -1 : 0;
            }
        }
        if (cuts.size() > 64) {
            a = b;
            continue;
        }  // long fills: keep the first match rather than search
        auto piece_cost = [&](std::size_t k, std::size_t from, std::size_t to) {
            int cost = 0, placeholders = 0;
            for (std::size_t j = from; j < to; ++j) placeholders += s[j].is_blank();
            if (placeholders > 1 || (placeholders == 1 && to - from > 1)) cost += 100;
            const std::string id = a + k < ids.size() ? ids[a + k] : "";
            auto it = anchor.find(id);
            if (it != anchor.end()) cost += from < to ? 10 * std::abs(s[from].line - it->second) : 50;
            if (from > lo && from < hi && s[from].line == s[from - 1].line) cost += 1;
            return cost;
        };
        std::vector<std::size_t> bounds(g + 1), best;
        int best_cost = -1;
        bounds[0] = lo;
        bounds[g] = hi;
        std::function<void(std::size_t, std::size_t, int)> search = [&](std::size_t k, std::size_t ci, int cost) {
            if (best_cost >= 0 && cost >= best_cost) return;
            if (k == g) {
                best_cost = cost;
                best = bounds;
                return;
            }
            if (k == g - 1) {
                search(k + 1, ci, cost + piece_cost(k, bounds[k], hi));
                return;
            }
            for (std::size_t c = ci; c < cuts.size(); ++c) {
                bounds[k + 1] = cuts[c];
                search(k + 1, c, cost + piece_cost(k, bounds[k], cuts[c]));
            }
        };
        std::size_t first = 0;
        while (first < cuts.size() && cuts[first] < lo) ++first;
        search(0, first, 0);
        if (!best.empty())
            for (std::size_t k = 0; k < g; ++k) spans[a + k] = {best[k], best[k + 1]};
        a = b;
    }
}

struct Change {
    int line;
    std::string text;
};

// Token LCS between starter and student, rendered as changed lines. Wildcards never match, and student tokens lying
// between a wildcard's matched neighbours are its fill, not an edit.
std::vector<std::string> describe_changes(const std::string& psrc, const std::vector<Tok>& p, const std::string& ssrc,
                                          const std::vector<Tok>& s, const std::vector<std::string>& blank_ids) {
    const std::size_t n = p.size(), m = s.size();
    auto same = [&](std::size_t i, std::size_t j) { return !p[i].is_blank() && p[i].text == s[j].text; };
    std::size_t pre = 0;
    while (pre < n && pre < m && same(pre, pre)) ++pre;
    // The common suffix is trimmed only when no blank lies past the prefix: otherwise the end of a fill (`... ) ;`)
    // can pass for the end of the starter's next statement and drag the alignment off.
    bool blank_after_prefix = false;
    for (std::size_t k = pre; k < n; ++k) blank_after_prefix = blank_after_prefix || p[k].is_blank();
    std::size_t suf = 0;
    while (!blank_after_prefix && suf < n - pre && suf < m - pre && same(n - 1 - suf, m - 1 - suf)) ++suf;
    const std::size_t a = n - pre - suf, b = m - pre - suf;

    std::vector<long> match_p(n, -1), match_s(m, -1);
    for (std::size_t k = 0; k < pre; ++k) match_p[k] = static_cast<long>(k), match_s[k] = static_cast<long>(k);
    for (std::size_t k = 0; k < suf; ++k) {
        match_p[n - 1 - k] = static_cast<long>(m - 1 - k);
        match_s[m - 1 - k] = static_cast<long>(n - 1 - k);
    }
    if ((a + 1) * (b + 1) > kMaxCells) {
        int first = pre < n ? p[pre].line : (n ? p[n - 1].line : 1);
        return {"line " + std::to_string(first) +
                " onwards: the file differs from the starter too much to list the changes"};
    }
    // An LCS (a match scores kMatch) in which a wildcard may also take a bracket-balanced run of student tokens as
    // its fill (each taken token scores 1), provided the starter token right after the blank matches right after
    // the fill. Without the fill, tokens of a fill pair up with look-alike tokens of a removed line (`rsqrtf(...)`
    // taking the `( ) ;` of a deleted `__syncthreads();`) and the diff names the wrong lines; with the anchor and
    // the lower score, a fill never swallows code added after the blank. Scores stay below 5 (a + b), in 32 bits.
    constexpr std::uint32_t kMatch = 4;
    constexpr std::size_t kMaxFill = 256;
    std::vector<std::uint32_t> L((a + 2) * (b + 1), 0);
    auto l = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return L[i * (b + 1) + j]; };
    auto depth_step = [&](std::size_t j) { return is_open(s[pre + j].text) ? 1 : is_close(s[pre + j].text) ? -1 : 0; };
    // The fills of wildcard i that end right before a token matching p[i + 1]: (end, score).
    auto anchored_fills = [&](std::size_t i, std::size_t j, auto&& visit) {
        if (i + 1 >= a) return;
        int depth = 0;
        for (std::size_t k = j; k < b && k - j <= kMaxFill; ++k) {
            if (depth == 0 && k > j && same(pre + i + 1, pre + k))
                if (visit(k, l(i + 2, k + 1) + kMatch + static_cast<std::uint32_t>(k - j))) return;
            depth += depth_step(k);
            if (depth < 0) break;
        }
    };
    for (std::size_t i = a; i-- > 0;) {
        for (std::size_t j = b + 1; j-- > 0;) {
            std::uint32_t best = l(i + 1, j);
            if (j < b) best = std::max(best, l(i, j + 1));
            if (j < b && same(pre + i, pre + j)) best = std::max(best, l(i + 1, j + 1) + kMatch);
            if (p[pre + i].is_blank())
                anchored_fills(i, j, [&](std::size_t, std::uint32_t v) {
                    best = std::max(best, v);
                    return false;
                });
            l(i, j) = best;
        }
    }
    for (std::size_t i = 0, j = 0; i < a && j < b;) {
        if (same(pre + i, pre + j) && l(i, j) == l(i + 1, j + 1) + kMatch) {
            match_p[pre + i] = static_cast<long>(pre + j);
            match_s[pre + j] = static_cast<long>(pre + i);
            ++i, ++j;
            continue;
        }
        if (p[pre + i].is_blank()) {
            long end = -1;
            anchored_fills(i, j, [&](std::size_t k, std::uint32_t v) {
                if (v == l(i, j)) end = static_cast<long>(k);
                return end >= 0;
            });
            if (end >= 0) {  // the fill is s[j, end); p[i + 1] matches s[end]
                const std::size_t k = static_cast<std::size_t>(end);
                match_p[pre + i + 1] = static_cast<long>(pre + k);
                match_s[pre + k] = static_cast<long>(pre + i + 1);
                i += 2;
                j = k + 1;
                continue;
            }
        }
        if (l(i + 1, j) >= l(i, j + 1)) ++i;
        else ++j;
    }

    slide_runs(s, match_s, match_p, false);
    slide_runs(p, match_p, match_s, true);

    std::vector<std::string> out;
    std::vector<bool> in_fill(m, false);
    std::size_t blank_no = 0;
    for (std::size_t w = 0; w < n; ++w) {
        if (!p[w].is_blank()) continue;
        long sa = -1, sb = static_cast<long>(m);
        for (std::size_t k = w; k-- > 0;)
            if (match_p[k] >= 0) {
                sa = match_p[k];
                break;
            }
        for (std::size_t k = w + 1; k < n; ++k)
            if (match_p[k] >= 0) {
                sb = match_p[k];
                break;
            }
        for (long j = sa + 1; j < sb; ++j) in_fill[static_cast<std::size_t>(j)] = true;
        if (sa + 1 < sb && !balanced(s, static_cast<std::size_t>(sa + 1), static_cast<std::size_t>(sb))) {
            std::string name = blank_no < blank_ids.size() ? "blank '" + blank_ids[blank_no] + "'" : "a blank";
            out.push_back("line " + std::to_string(s[static_cast<std::size_t>(sa + 1)].line) + ": what fills " + name +
                          " (`" +
                          shorten(join_tokens(s, static_cast<std::size_t>(sa + 1), static_cast<std::size_t>(sb))) +
                          "`) closes a bracket it did not open, so it reaches outside the blank");
        }
        ++blank_no;
    }

    // Group by line: a starter line that lost tokens is "removed" (none of it left) or "changed"; student lines with
    // added tokens that no changed line accounts for are "added".
    std::map<int, std::vector<std::size_t>> removed_by_line;
    for (std::size_t i = 0; i < n; ++i)
        if (match_p[i] < 0 && !p[i].is_blank()) removed_by_line[p[i].line].push_back(i);
    std::set<int> added_lines;
    for (std::size_t j = 0; j < m; ++j)
        if (match_s[j] < 0 && !in_fill[j]) added_lines.insert(s[j].line);

    std::vector<Change> changes;
    std::set<int> explained;
    for (const auto& [pline, idx] : removed_by_line) {
        std::set<int> slines;
        for (std::size_t i = 0; i < n; ++i)
            if (p[i].line == pline && match_p[i] >= 0) slines.insert(s[static_cast<std::size_t>(match_p[i])].line);
        std::string was = line_text(psrc, pline);
        if (slines.empty()) {
            changes.push_back({pline, "line " + std::to_string(pline) + ": `" + shorten(was) + "` was removed"});
            continue;
        }
        std::string now;
        for (int sl : slines) {
            now += (now.empty() ? "" : " ") + line_text(ssrc, sl);
            explained.insert(sl);
        }
        changes.push_back(
            {pline, "line " + std::to_string(pline) + ": `" + shorten(was) + "` became `" + shorten(now) + "`"});
    }
    for (int sl : added_lines) {
        if (explained.count(sl)) continue;
        changes.push_back({sl, "line " + std::to_string(sl) + ": `" + shorten(line_text(ssrc, sl)) + "` was added"});
    }
    std::stable_sort(changes.begin(), changes.end(), [](const Change& x, const Change& y) { return x.line < y.line; });
    for (std::size_t k = 0; k < changes.size() && k < kMaxShownChanges; ++k) out.push_back(changes[k].text);
    if (changes.size() > kMaxShownChanges)
        out.push_back("... and " + std::to_string(changes.size() - kMaxShownChanges) + " more changed lines");
    return out;
}

// A veto by the fill policy: one sentence naming the file, the line and what was refused.
EditCheck refused(const std::string& label, const Refusal& why, const std::string& subject, const std::string& rule) {
    EditCheck r;
    r.ok = false;
    r.refused = true;
    r.changes.push_back("line " + std::to_string(why.line) + ": " + subject + " " + why.what);
    r.reason = label + ":" + std::to_string(why.line) + ": " + subject + " " + why.what + "; " + rule +
               ", so this vetoes the grade.";
    return r;
}

}  // namespace

EditCheck edit_check_text(const std::string& pristine, const std::string& student, const std::string& label,
                          const std::vector<std::string>& blank_ids) {
    if (auto why = refuse_source(student, pristine))
        return refused(label, *why, "this line", "the grader refuses text that compilers do not all read the same way");
    // A bug hunt's fix region is a wildcard like `______`; the names of its starter code stay allowed in the fix.
    const std::vector<Tok> p = pattern_tokens(pristine);
    const std::vector<Tok> s = code_tokens(student);
    EditCheck r;
    std::vector<std::pair<std::size_t, std::size_t>> spans;
    if (wildcard_match(p, s, spans)) {
        resplit_adjacent(p, s, student, blank_ids.empty() ? pristine_blank_ids(pristine) : blank_ids, spans);
        const std::set<std::string> names = starter_names(code_tokens(pristine));
        // A blank in host code (a launcher, outside every kernel) is held to a grammar of its own: no hook checks
        // host code, so a pointer made there could write anything in the worker (review/host_fill.hpp).
        const std::vector<HostContext> contexts = host_contexts(p);
        for (std::size_t k = 0; k < spans.size(); ++k) {
            if (spans[k].first >= spans[k].second) continue;
            const std::string subject = "the fill of " + (k < blank_ids.size() ? "blank '" + blank_ids[k] + "'"
                                                                               : "blank " + std::to_string(k + 1));
            if (auto why = refuse_fill(s, spans[k].first, spans[k].second, names))
                return refused(label, *why, subject, "a blank's fill is arithmetic on the kernel's own values");
            if (k < contexts.size() && contexts[k].host)
                if (auto why = refuse_host_fill(s, spans[k].first, spans[k].second, contexts[k]))
                    return refused(label, *why, subject,
                                   "this blank lies in host code, which the emulator does not check: its fill computes "
                                   "numbers from numbers only (no pointer, array, member, address, or call but min, "
                                   "max and the file's arithmetic functions)");
        }
        std::vector<const Tok*> wilds;
        for (const auto& t : p)
            if (t.is_blank()) wilds.push_back(&t);
        for (std::size_t k = 0; k < spans.size(); ++k) {
            auto [b, e] = spans[k];
            Fill f;
            f.index = k;
            if (k < blank_ids.size()) f.id = blank_ids[k];
            if (b < e) {
                f.line = s[b].line;
                f.end_line = s[e - 1].line;
                f.text = student.substr(s[b].begin, s[e - 1].end - s[b].begin);
                f.tokens = join_tokens(s, b, e);
                f.unfilled = (e - b == 1 && s[b].is_blank());
            } else {
                // An empty fill: place it where the previous token ends so messages still point somewhere useful.
                f.line = b > 0 ? s[b - 1].line : wilds[k]->line;
                f.end_line = f.line;
            }
            if (wilds[k]->fix_region) {
                f.fix_region = true;
                const std::vector<Tok> given =
                    code_tokens(pristine.substr(wilds[k]->begin, wilds[k]->end - wilds[k]->begin));
                f.unchanged = join_tokens(given, 0, given.size()) == f.tokens;
            }
            r.fills.push_back(std::move(f));
        }
        // Adjacent blanks (consecutive wildcards in the starter) share one region for the review rules.
        std::vector<std::size_t> wild;
        for (std::size_t i = 0; i < p.size(); ++i)
            if (p[i].is_blank()) wild.push_back(i);
        for (std::size_t a = 0; a < wild.size() && a < r.fills.size();) {
            std::size_t b = a + 1;
            while (b < wild.size() && b < r.fills.size() && wild[b] == wild[b - 1] + 1) ++b;
            const std::string region = spans[a].first < spans[b - 1].second
                                           ? join_tokens(s, spans[a].first, spans[b - 1].second)
                                           : std::string();
            for (std::size_t k = a; k < b; ++k) r.fills[k].region_tokens = region;
            a = b;
        }
        return r;
    }
    r.ok = false;
    r.changes = describe_changes(pristine, p, student, s, blank_ids);
    if (r.changes.empty()) {
        // Every token lines up yet no match exists only when a fill is unbalanced in a way the LCS absorbed.
        r.changes.push_back("a fill does not keep its brackets balanced, so it reaches outside its blank");
    }
    for (const auto& c : r.changes) r.diff += c + "\n";
    std::string where;
    for (const auto& c : r.changes)
        if (c.rfind("line ", 0) == 0) {
            where = " (" + c.substr(0, c.find(':')) + ")";
            break;
        }
    r.reason = label + ": code outside the blanks was changed" + where +
               (lesson::starter_regions(pristine, label).empty()
                    ? "; only the `______` parts may be edited"
                    : "; only the `______` parts and the lines between `// fix:` and `// end fix` may be edited") +
               ", so this vetoes the grade.";
    return r;
}

EditCheck edit_check(const std::filesystem::path& pristine, const std::filesystem::path& student,
                     const std::vector<std::string>& blank_ids) {
    return edit_check_text(util::read_text(pristine), util::read_text(student), student.filename().string(), blank_ids);
}

EditCheck edit_check(const std::filesystem::path& pristine, const std::filesystem::path& student) {
    return edit_check(pristine, student, {});
}

}  // namespace workbook::review
