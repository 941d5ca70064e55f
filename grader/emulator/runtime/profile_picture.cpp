// The picture of one warp: for warp 0 of a launch's first block, which 128-byte segments each global request's lanes
// touch (and how many of each segment's four 32-byte sectors), coloured coalesced / split / redundant, and for each
// shared-memory request how many distinct words each of the 32 banks serves. A text rendering goes into the report,
// an SVG beside it.
//
//   coalesced  the request touches the fewest sectors its bytes need
//   split      it touches more (strided or misaligned lanes: sectors fetched for bytes nobody uses)
//   redundant  every byte was already loaded by an earlier request of this warp (a re-read of the row)
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "memcheck.hpp"
#include "profile.hpp"

namespace emu::prof {
namespace {

constexpr unsigned kMaxSegments = 48;  // columns drawn per request
constexpr unsigned kMaxRows = 24;      // requests drawn per barrier interval

enum class Kind { coalesced, split, redundant, conflict, clean };

struct Row {
    const Request* r;
    Kind kind;
    std::string where;
    std::vector<unsigned> cells;  // global: sectors touched per segment (0-4); shared: distinct words per bank
    std::uint32_t broadcast = 0;  // shared: banks where several lanes read one word
    std::uint64_t base = 0;       // global: first segment drawn
};

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::coalesced: return "coalesced";
        case Kind::split: return "split";
        case Kind::redundant: return "redundant";
        case Kind::conflict: return "bank conflict";
        case Kind::clean: return "conflict-free";
    }
    return "";
}

std::vector<Row> rows_of(const LaunchStats& s) {
    std::vector<Row> rows;
    std::set<std::uintptr_t> loaded;            // bytes warp 0 has loaded so far (granules of 1 byte, few rows)
    std::map<const void*, std::uint64_t> base;  // first segment per access site (one array each): its requests line up
    std::map<unsigned, unsigned> per_interval;
    for (const Request& r : s.trace) {
        if (r.shared) continue;
        std::uint64_t lo = ~0ull;
        for (unsigned l = 0; l < 32; ++l)
            if (r.mask >> l & 1u) lo = std::min<std::uint64_t>(lo, r.addr[l] / 128);
        auto it = base.find(r.pc);
        if (it == base.end() || lo < it->second) base[r.pc] = lo;
    }
    for (const Request& r : s.trace) {
        if (per_interval[r.interval]++ >= kMaxRows) continue;
        Row row{&r, Kind::coalesced, site(r.pc), {}, 0, 0};
        if (r.shared) {
            row.cells.assign(32, 0);
            std::map<unsigned, std::set<std::uintptr_t>> words;
            std::map<std::uintptr_t, unsigned> lanes_on_word;
            for (unsigned l = 0; l < 32; ++l) {
                if (!(r.mask >> l & 1u)) continue;
                for (std::uintptr_t a = r.addr[l] / 4; a <= (r.addr[l] + r.size - 1) / 4; ++a) {
                    words[a % 32].insert(a);
                    ++lanes_on_word[a];
                }
            }
            for (auto& [bank, ws] : words) {
                row.cells[bank] = static_cast<unsigned>(ws.size());
                for (auto w : ws)
                    if (lanes_on_word[w] > 1 && !r.write) row.broadcast |= 1u << bank;
            }
            row.kind = shared_wavefronts(r) > shared_ideal_wavefronts(r) ? Kind::conflict : Kind::clean;
        } else {
            row.base = base[r.pc];
            row.cells.assign(kMaxSegments, 0);
            std::set<std::uint64_t> sectors;
            bool all_seen = !r.write;
            for (unsigned l = 0; l < 32; ++l) {
                if (!(r.mask >> l & 1u)) continue;
                for (std::uintptr_t a = r.addr[l]; a < r.addr[l] + r.size; ++a) {
                    sectors.insert(a / 32);
                    if (!r.write) all_seen &= loaded.count(a) != 0;
                }
            }
            for (std::uint64_t sec : sectors) {
                const std::uint64_t seg = sec / 4;
                if (seg >= row.base && seg - row.base < kMaxSegments) ++row.cells[seg - row.base];
            }
            if (all_seen) row.kind = Kind::redundant;
            else if (sectors.size() > ideal_sectors(r)) row.kind = Kind::split;
        }
        rows.push_back(std::move(row));
        if (!r.shared && !r.write)
            for (unsigned l = 0; l < 32; ++l)
                if (r.mask >> l & 1u)
                    for (std::uintptr_t a = r.addr[l]; a < r.addr[l] + r.size; ++a) loaded.insert(a);
    }
    return rows;
}

// Text inside the SVG: kernel names hold '<' and '>' (templates), file names may hold '&'.
std::string xml(const std::string& t) {
    std::string o;
    for (char c : t) {
        switch (c) {
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '&': o += "&amp;"; break;
            case '\'': o += "&apos;"; break;
            case '"': o += "&quot;"; break;  // attributes are double-quoted (the lesson's figure test requires it)
            default: o += c;
        }
    }
    return o;
}

std::string phase(unsigned interval) {
    return interval == 0 ? "before the first __syncthreads (pass 1)"
                         : "after __syncthreads #" + std::to_string(interval);
}

}  // namespace

std::string render_trace_text(const LaunchStats& s) {
    std::ostringstream o;
    o << "   warp 0 of block 0, global requests: one column per 128-byte segment from the first one its access site "
         "touches; digit = "
         "sectors touched (4 = whole segment), '.' = none\n";
    unsigned interval = ~0u;
    for (const Row& row : rows_of(s)) {
        if (row.r->interval != interval) {
            interval = row.r->interval;
            o << "   -- " << phase(interval) << "\n";
        }
        char head[160];
        std::snprintf(head, sizeof head, "     %-28s %s %2uB x%2d %-13s ", row.where.c_str(),
                      row.r->shared ? "sh" : (row.r->write ? "st" : "ld"), row.r->size, __builtin_popcount(row.r->mask),
                      kind_name(row.kind));
        o << head;
        unsigned last = 0;
        for (unsigned i = 0; i < row.cells.size(); ++i)
            if (row.cells[i]) last = i + 1;
        if (row.r->shared) o << "banks ";
        for (unsigned i = 0; i < (row.r->shared ? 32u : std::max(last, 1u)); ++i) {
            const unsigned c = row.cells[i];
            if (row.r->shared && (row.broadcast >> i & 1u)) o << 'b';
            else o << (c == 0 ? '.' : c >= 10 ? '+' : char('0' + c));
        }
        o << "\n";
    }
    return o.str();
}

std::string render_trace_svg(const LaunchStats& s) {
    const std::vector<Row> rows = rows_of(s);
    const int cell = 12, rowh = 16, left = 330, top = 40;
    std::ostringstream body;
    int y = top;
    unsigned interval = ~0u;
    auto colour = [](Kind k) {
        switch (k) {
            case Kind::coalesced: return "#2e9d4f";
            case Kind::split: return "#e08a1e";
            case Kind::redundant: return "#7f7fbf";
            case Kind::conflict: return "#d43b3b";
            case Kind::clean: return "#2e9d4f";
        }
        return "#000";
    };
    for (const Row& row : rows) {
        if (row.r->interval != interval) {
            interval = row.r->interval;
            y += 6;
            body << "<text x=\"8\" y=\"" << y + 11 << "\" font-weight=\"bold\">" << phase(interval) << "</text>\n";
            y += rowh;
        }
        body << "<text x=\"8\" y=\"" << y + 11 << "\">" << xml(row.where) << " "
             << (row.r->shared  ? "shared"
                 : row.r->write ? "store"
                                : "load")
             << " " << row.r->size << " B x " << __builtin_popcount(row.r->mask) << ": " << kind_name(row.kind)
             << "</text>\n";
        const unsigned n = row.r->shared ? 32 : kMaxSegments;
        // One grey strip for the row's untouched cells, then the touched ones on top.
        body << "<rect x=\"" << left << "\" y=\"" << y << "\" width=\"" << int(n) * cell - 1 << "\" height=\""
             << rowh - 2 << "\" fill=\"#eeeeee\"/>\n";
        for (unsigned i = 0; i < n; ++i) {
            const unsigned c = row.cells[i];
            const int x = left + int(i) * cell;
            if (!c) continue;
            const bool bcast = row.r->shared && (row.broadcast >> i & 1u);
            const char* fill = row.r->shared ? (bcast ? "#5aa7e0" : c > 1 ? "#d43b3b" : "#2e9d4f") : colour(row.kind);
            // Global: the share of the segment's four sectors touched sets the opacity.
            const double op = row.r->shared ? 1.0 : 0.25 + 0.75 * std::min(c, 4u) / 4.0;
            body << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell - 1 << "\" height=\"" << rowh - 2
                 << "\" fill=\"" << fill << "\" fill-opacity=\"" << op << "\"><title>"
                 << (row.r->shared ? "bank " : "segment +") << i << ": " << c
                 << (row.r->shared ? " word(s)" : " sector(s)") << (bcast ? ", broadcast" : "") << "</title></rect>\n";
        }
        y += rowh;
    }
    std::ostringstream o;
    const int width = left + int(kMaxSegments) * cell + 20;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << y + 50
      << "\" font-family=\"monospace\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"8\" y=\"18\" font-size=\"13\" font-weight=\"bold\">"
      << xml(s.kernel + (s.label.empty() ? "" : " [" + s.label + "]")) << ": warp 0 of block 0 (CPU emulator)</text>\n"
      << "<text x=\"8\" y=\"32\">global: one cell per 128-byte segment (darker = more of its 4 sectors); shared: one "
         "cell per "
         "bank (red = several words: conflict, blue = broadcast)</text>\n"
      << body.str() << "<text x=\"8\" y=\"" << y + 20
      << "\"><tspan fill=\"#2e9d4f\">coalesced</tspan>  <tspan fill=\"#e08a1e\">split</tspan>  "
         "<tspan fill=\"#7f7fbf\">redundant (re-read)</tspan>  <tspan fill=\"#d43b3b\">bank conflict</tspan>  "
         "<tspan fill=\"#5aa7e0\">broadcast</tspan></text>\n</svg>\n";
    return o.str();
}

}  // namespace emu::prof
