// Ratios, CSV, tables and the SVG plot of the benchmark (see report.h).
#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace bench {
namespace {

using Key = std::tuple<std::string, std::string, int, int>;  // op, dtype, M, N
Key key_of(const Row& r) { return {r.op, r.dtype, r.M, r.N}; }

bool timed(const Row& r) { return r.status == "ok" && r.tbs > 0; }

// Large shapes are the ones the roofline targets are stated for; the sweep is the source document's 2 x 256 x D.
bool is_sweep(const Row& r, int sweep_M) { return r.M == sweep_M; }

std::string label(const Row& r) {
    if (r.source == "solution" || r.source == "student") return r.source + ":" + r.kernel;
    return r.kernel;
}

std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

}  // namespace

bool launched_pdl(const Row& r) { return r.shape.find("+pdl") != std::string::npos; }

void derive_ratios(std::vector<Row>& rows, double copy_tbs) {
    std::map<Key, double> shape_copy, reference, best_solution;
    std::map<std::pair<Key, bool>, double> best_copy;  // (shape, launched with PDL) -> fastest copy's TB/s
    std::set<Key> designed;  // shapes where the copy designs of the same bytes (copies.h: row_copy_rows) were timed
    for (const Row& r : rows) {
        if (!timed(r)) continue;
        if (r.source == "copy design") designed.insert(key_of(r));
        if (r.source == "copy" || r.source == "copy design") {
            double& best = best_copy[{key_of(r), launched_pdl(r)}];
            best = std::max(best, r.tbs);
        }
        if (r.source == "copy") shape_copy[key_of(r)] = r.tbs;
        if (r.source == "reference") reference[key_of(r)] = r.tbs;
        if (r.source == "solution") best_solution[key_of(r)] = std::max(best_solution[key_of(r)], r.tbs);
    }
    for (Row& r : rows) {
        if (!timed(r)) continue;
        const Key k = key_of(r);
        r.of_copy = copy_tbs > 0 ? r.tbs / copy_tbs : 0;
        r.of_shape_copy = shape_copy.count(k) ? r.tbs / shape_copy[k] : 0;
        r.of_reference = reference.count(k) ? r.tbs / reference[k] : 0;
        r.of_best_solution = best_solution.count(k) ? r.tbs / best_solution[k] : 0;
        // Only where copy designs were measured (large shapes); the grid-stride copy alone is not "the best".
        const auto b = best_copy.find({k, launched_pdl(r)});
        r.of_best_copy = b != best_copy.end() && designed.count(k) ? r.tbs / b->second : 0;
    }
}

void write_csv(const std::string& path, const RunInfo& info, const std::vector<Row>& rows) {
    std::ofstream out(path);
    out << "date,device,op,dtype,M,N,kernel,source,shape,status,bytes,median_us,tb_per_s,of_copy,of_shape_copy,"
           "of_reference,of_best_solution,max_err_over_tol,of_best_copy\n";
    char buf[512];
    const double copy_bytes = 2.0 * (size_t(2) << 30);
    std::vector<CopyFigure> copies = info.copies;
    if (copies.empty()) copies.push_back({info.copy_name, info.copy_tbs});
    for (const CopyFigure& c : copies) {
        const bool roofline = c.name == info.copy_name;
        std::snprintf(buf, sizeof buf, "%s,%s,copy,-,0,0,%s,%s,,ok,%.0f,%.3f,%.4f,%.4f,0,0,0,0,0\n", info.date.c_str(),
                      info.device.c_str(), c.name.c_str(), roofline ? "roofline" : "candidate", copy_bytes,
                      c.tbs > 0 ? copy_bytes / (c.tbs * 1e12) * 1e6 : 0, c.tbs,
                      info.copy_tbs > 0 ? c.tbs / info.copy_tbs : 0);
        out << buf;
    }
    for (const Row& r : rows) {
        std::snprintf(buf, sizeof buf, "%s,%s,%s,%s,%d,%d,%s,%s,%s,%s,%.0f,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3g,%.4f\n",
                      info.date.c_str(), info.device.c_str(), r.op.c_str(), r.dtype.c_str(), r.M, r.N, r.kernel.c_str(),
                      r.source.c_str(), r.shape.c_str(), r.status.c_str(), r.bytes, r.us, r.tbs, r.of_copy,
                      r.of_shape_copy, r.of_reference, r.of_best_solution, r.err, r.of_best_copy);
        out << buf;
    }
}

bool read_csv(const std::string& path, std::vector<Row>& rows, RunInfo* info) {
    std::ifstream in(path);
    if (!in) return false;
    std::string line;
    if (!std::getline(in, line)) return false;
    const std::vector<std::string> header = split_csv(line);
    auto col = [&](const char* name) { return int(std::find(header.begin(), header.end(), name) - header.begin()); };
    const int c_op = col("op"), c_dtype = col("dtype"), c_m = col("M"), c_n = col("N"), c_kernel = col("kernel"),
              c_source = col("source"), c_shape = col("shape"), c_status = col("status"), c_bytes = col("bytes"),
              c_us = col("median_us"), c_err = col("max_err_over_tol"), c_date = col("date"), c_device = col("device");
    const int needed = std::max({c_op, c_dtype, c_m, c_n, c_kernel, c_source, c_status, c_bytes, c_us, c_err});
    if (needed >= int(header.size())) return false;
    while (std::getline(in, line)) {
        const std::vector<std::string> c = split_csv(line);
        if (int(c.size()) <= needed) continue;
        Row r;
        r.op = c[c_op];
        r.dtype = c[c_dtype];
        r.M = std::stoi(c[c_m]);
        r.N = std::stoi(c[c_n]);
        r.kernel = c[c_kernel];
        r.source = c[c_source];
        r.shape = c_shape < int(c.size()) ? c[c_shape] : "";
        r.status = c[c_status];
        r.bytes = std::stod(c[c_bytes]);
        r.us = std::stod(c[c_us]);
        r.err = std::stod(c[c_err]);
        r.tbs = r.us > 0 ? r.bytes / (r.us * 1e-6) / 1e12 : 0;
        if (info && c_date < int(c.size()) && c_device < int(c.size())) {
            info->date = c[c_date];
            info->device = c[c_device];
        }
        if (r.op == "copy") {
            if (!info) continue;
            info->copies.push_back({r.kernel, r.tbs});
            if (r.source != "candidate") {
                info->copy_tbs = r.tbs;
                info->copy_name = r.kernel;
            }
            continue;
        }
        rows.push_back(r);
    }
    return true;
}

void print_tables(const RunInfo& info, const std::vector<Row>& rows) {
    std::printf("\n%s, %s; roofline: %s over 2 GiB, %.2f TB/s (bytes read + written), the fastest of",
                info.device.c_str(), info.date.c_str(), info.copy_name.c_str(), info.copy_tbs);
    for (size_t i = 0; i < info.copies.size(); ++i)
        std::printf("%s %s %.2f", i ? "," : "", info.copies[i].name.c_str(), info.copies[i].tbs);
    std::printf(".\nEffective TB/s = (bytes read once + written once) / median time; (%%) = of that roofline.\n");
    // Groups in a fixed order, columns in order of first appearance.
    std::vector<std::pair<std::string, std::string>> groups;
    for (const Row& r : rows) {
        // Exercises that did not build have no op or dtype to sit under; the list at the end names them.
        if (r.source == "tune" || r.op == "copy" || r.status.rfind("not-built", 0) == 0) continue;
        const auto g = std::make_pair(r.op, r.dtype);
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    }
    int sweep_M = 512;
    for (const auto& [op, dtype] : groups) {
        std::vector<std::string> columns;
        std::vector<std::pair<int, int>> shapes;
        std::map<std::pair<std::pair<int, int>, std::string>, const Row*> cell;
        // The copy designs of the same bytes (large shapes) are one column each for plain and "+pdl" launches: the
        // fastest, with its design; every design is in the CSV.
        std::map<std::pair<std::pair<int, int>, bool>, const Row*> best_design;
        for (const Row& r : rows) {
            if (r.op != op || r.dtype != dtype || r.source != "copy design" || !timed(r)) continue;
            const Row*& b = best_design[{{r.M, r.N}, launched_pdl(r)}];
            if (!b || r.tbs > b->tbs) b = &r;
        }
        for (const Row& r : rows) {
            if (r.op != op || r.dtype != dtype || r.source == "tune" || r.source == "copy design") continue;
            const std::string l = label(r);
            if (std::find(columns.begin(), columns.end(), l) == columns.end()) columns.push_back(l);
            if (is_sweep(r, sweep_M)) continue;
            const auto s = std::make_pair(r.M, r.N);
            if (std::find(shapes.begin(), shapes.end(), s) == shapes.end()) shapes.push_back(s);
            cell[{s, l}] = &r;
        }
        std::vector<bool> design_columns;  // plain, then "+pdl", where measured
        for (bool pdl : {false, true})
            for (const auto& [where, row] : best_design)
                if (where.second == pdl) {
                    design_columns.push_back(pdl);
                    break;
                }
        std::printf("\n### %s, %s\n\n| M x N |", op.c_str(), dtype.c_str());
        for (const auto& c : columns) std::printf(" %s |", c.c_str());
        for (bool pdl : design_columns) std::printf(" best copy of the same bytes%s |", pdl ? " (+pdl)" : "");
        std::printf("\n| --- |");
        for (size_t i = 0; i < columns.size() + design_columns.size(); ++i) std::printf(" --- |");
        std::printf("\n");
        for (const auto& s : shapes) {
            std::printf("| %d x %d |", s.first, s.second);
            for (const auto& c : columns) {
                auto it = cell.find({s, c});
                if (it == cell.end()) std::printf(" |");
                else if (timed(*it->second) && it->second->of_best_copy > 0)
                    std::printf(" %.2f (%.1f%%; %.1f%% of best copy) |", it->second->tbs, 100 * it->second->of_copy,
                                100 * it->second->of_best_copy);
                else if (timed(*it->second))
                    std::printf(" %.2f (%.0f%%) |", it->second->tbs, 100 * it->second->of_copy);
                else std::printf(" %s |", it->second->status.c_str());
            }
            for (bool pdl : design_columns) {
                auto it = best_design.find({s, pdl});
                if (it == best_design.end()) std::printf(" |");
                else
                    std::printf(" %.2f (%.1f%%) %s %s |", it->second->tbs, 100 * it->second->of_copy,
                                it->second->kernel.c_str(), it->second->shape.c_str());
            }
            std::printf("\n");
        }
        // The sweep: for every kernel, the range of the reference's speed-up over it.
        std::map<std::string, std::pair<double, double>> range;  // label -> (min, max) of reference/kernel
        std::map<std::string, int> count, wrong;
        std::map<int, double> ref_at;
        for (const Row& r : rows)
            if (r.op == op && r.dtype == dtype && is_sweep(r, sweep_M) && r.source == "reference" && timed(r))
                ref_at[r.N] = r.tbs;
        for (const Row& r : rows) {
            if (r.op != op || r.dtype != dtype || !is_sweep(r, sweep_M) || r.source == "tune") continue;
            const std::string l = label(r);
            if (!timed(r)) {
                ++wrong[l];
                continue;
            }
            if (!ref_at.count(r.N) || r.source == "reference") continue;
            const double ratio = ref_at[r.N] / r.tbs;
            auto& mm = range.try_emplace(l, ratio, ratio).first->second;
            mm.first = std::min(mm.first, ratio);
            mm.second = std::max(mm.second, ratio);
            ++count[l];
        }
        if (!ref_at.empty()) {
            std::printf(
                "\n%d x N sweep (%zu hidden sizes): speed-up of the reference over each kernel (its time / "
                "the reference's), min - max:\n",
                sweep_M, ref_at.size());
            for (const auto& [l, mm] : range)
                std::printf("  %-32s %.2f - %.2f  (%d sizes%s)\n", l.c_str(), mm.first, mm.second, count[l],
                            wrong.count(l) ? (", " + std::to_string(wrong[l]) + " not timed").c_str() : "");
        }
    }
    // Everything that was not timed, and why.
    std::set<std::string> reported;
    for (const Row& r : rows) {
        if (r.status == "ok" || r.source == "tune") continue;
        const std::string what = label(r) + " " + r.op + " " + r.dtype + ": " + r.status;
        if (!reported.insert(what).second) continue;
        if (r.status == "wrong")
            std::printf("NOT TIMED: %s (failed the fp64 check, first at %d x %d, error %.3g x the tolerance)\n",
                        what.c_str(), r.M, r.N, r.err);
        else std::printf("NOT TIMED: %s\n", what.c_str());
    }
}

void write_svg(const std::string& path, const RunInfo& info, const std::vector<Row>& rows, int sweep_M) {
    std::vector<std::pair<std::string, std::string>> groups;
    int max_n = 0;
    for (const Row& r : rows) {
        if (!is_sweep(r, sweep_M) || r.source == "tune" || !timed(r)) continue;
        const auto g = std::make_pair(r.op, r.dtype);
        if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
        max_n = std::max(max_n, r.N);
    }
    const double W = 900, H = 320, left = 60, right = 230, top = 40, bottom = 40;
    const double y_max = std::ceil(std::max(info.copy_tbs, 1.0) * 1.1 * 2) / 2;
    std::ofstream out(path);
    out << "<svg xmlns='http://www.w3.org/2000/svg' width='" << W << "' height='" << H * groups.size() + 30
        << "' font-family='sans-serif' font-size='12'>\n<rect width='100%' height='100%' fill='white'/>\n";
    out << "<text x='10' y='18' font-size='13'>Effective bandwidth against hidden size N, M = " << sweep_M << " rows ("
        << info.device << ", " << info.date << ")</text>\n";
    const char* colours[] = {"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
                             "#17becf", "#bcbd22", "#7f7f7f", "#ff7f0e", "#000000"};
    for (size_t g = 0; g < groups.size(); ++g) {
        const double y0 = 30 + g * H;
        const double pw = W - left - right, ph = H - top - bottom;
        auto X = [&](double n) { return left + pw * n / max_n; };
        auto Y = [&](double t) { return y0 + top + ph * (1 - t / y_max); };
        out << "<text x='" << left << "' y='" << y0 + 25 << "' font-weight='bold'>" << groups[g].first << ", "
            << groups[g].second << "</text>\n";
        out << "<rect x='" << left << "' y='" << y0 + top << "' width='" << pw << "' height='" << ph
            << "' fill='none' stroke='#888'/>\n";
        for (double t = 0; t <= y_max + 1e-9; t += 0.5) {
            out << "<line x1='" << left << "' x2='" << left + pw << "' y1='" << Y(t) << "' y2='" << Y(t)
                << "' stroke='#eee'/><text x='" << left - 8 << "' y='" << Y(t) + 4 << "' text-anchor='end'>" << t
                << "</text>\n";
        }
        for (int n = 0; n <= max_n; n += 1024)
            out << "<text x='" << X(n) << "' y='" << y0 + top + ph + 16 << "' text-anchor='middle'>" << n
                << "</text>\n";
        out << "<text x='14' y='" << y0 + top + ph / 2 << "' transform='rotate(-90 14 " << y0 + top + ph / 2
            << ")' text-anchor='middle'>TB/s</text>\n";
        // The roofline: the fastest large copy of this run.
        out << "<line x1='" << left << "' x2='" << left + pw << "' y1='" << Y(info.copy_tbs) << "' y2='"
            << Y(info.copy_tbs) << "' stroke='red' stroke-dasharray='6 3'/>\n";
        std::vector<std::string> series;
        std::map<std::string, std::vector<std::pair<int, double>>> points;
        for (const Row& r : rows) {
            if (r.op != groups[g].first || r.dtype != groups[g].second || !is_sweep(r, sweep_M) || r.source == "tune" ||
                !timed(r))
                continue;
            const std::string l = r.source == "copy" ? "copy of the same bytes" : label(r);
            if (!points.count(l)) series.push_back(l);
            points[l].push_back({r.N, r.tbs});
        }
        double ly = y0 + top + 10;
        out << "<line x1='" << left + pw + 10 << "' x2='" << left + pw + 30 << "' y1='" << ly << "' y2='" << ly
            << "' stroke='red' stroke-dasharray='6 3'/><text x='" << left + pw + 36 << "' y='" << ly + 4 << "'>"
            << info.copy_name << ", 2 GiB (" << std::fixed;
        out.precision(2);
        out << info.copy_tbs << ")</text>\n";
        out.unsetf(std::ios::fixed);
        out.precision(6);
        for (size_t s = 0; s < series.size(); ++s) {
            auto& p = points[series[s]];
            std::sort(p.begin(), p.end());
            const bool copy = series[s] == "copy of the same bytes";
            const std::string colour = copy ? "#d62728" : colours[s % 10];
            out << "<polyline fill='none' stroke='" << colour << "' stroke-width='"
                << (series[s] == "reference" ? 2.5 : 1.5) << "'" << (copy ? " stroke-dasharray='2 2'" : "")
                << " points='";
            for (const auto& [n, t] : p) out << X(n) << "," << Y(t) << " ";
            out << "'/>\n";
            ly += 18;
            out << "<line x1='" << left + pw + 10 << "' x2='" << left + pw + 30 << "' y1='" << ly << "' y2='" << ly
                << "' stroke='" << colour << "' stroke-width='2'" << (copy ? " stroke-dasharray='2 2'" : "")
                << "/><text x='" << left + pw + 36 << "' y='" << ly + 4 << "'>" << series[s] << "</text>\n";
        }
    }
    out << "</svg>\n";
}

}  // namespace bench
