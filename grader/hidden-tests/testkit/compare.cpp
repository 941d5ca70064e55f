#include "compare.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "remote/client.hpp"

namespace wb::testkit {

namespace {
std::string footer(const CaseInfo& info) {
    std::ostringstream s;
    s << "inputs: " << info.shape << "; random seed " << info.seed << " (the same seed replays the same inputs)\n";
    s << "what this case probes: " << info.probe;
    return s.str();
}
}  // namespace

MismatchLog::MismatchLog(std::string what, std::string column_word)
    : what_(std::move(what)), column_word_(std::move(column_word)) {}

void MismatchLog::fail(long row, long column, const std::string& expected, const std::string& got) {
    if (first_.size() < kShown) first_.push_back({row, column, expected, got});
    count(row, column);
}

void MismatchLog::count(long row, long column) {
    ++checked_;
    ++wrong_;
    if (rows_.empty() || rows_.back() != row) rows_.push_back(row);
    if (min_column_ < 0 || column < min_column_) min_column_ = column;
    if (column > max_column_) max_column_ = column;
}

std::string MismatchLog::report(const CaseInfo& info) const {
    std::ostringstream s;
    s << info.title << ": " << wrong_ << " of " << checked_ << " " << what_ << " values are wrong.\n";
    for (std::size_t i = 0; i < first_.size(); ++i) {
        const Entry& e = first_[i];
        s << (i == 0 ? "first mismatch" : "next mismatch") << " at row " << e.row << ", " << column_word_ << " "
          << e.column << ": expected " << e.expected << ", got " << e.got << "\n";
    }
    s << "wrong values lie in " << rows_.size() << (rows_.size() == 1 ? " row" : " rows");
    if (!rows_.empty() && rows_.size() <= 6) {
        s << " (";
        for (std::size_t i = 0; i < rows_.size(); ++i) s << (i ? ", " : "") << rows_[i];
        s << ")";
    }
    s << ", " << column_word_ << "s " << min_column_ << " to " << max_column_ << "\n";
    // A NaN where a number was expected: on the GPU an unwritten shared-memory read shows only so (shared_poison.cu);
    // on the emulator, which names such reads itself, an uninitialized local (every thread's stack starts as NaN,
    // runtime/fiber.hpp).
    const bool gpu = wb::remote::config().backend == "gpu";
    for (const Entry& e : first_) {
        const bool got_nan = e.got.rfind("nan", 0) == 0 && e.got.find(poisoned_note()) == std::string::npos;
        if (got_nan && e.expected.rfind("nan", 0) != 0) {
            if (gpu)
                s << "note: a NaN where a number was expected. Besides arithmetic such as 0/0, it can come from "
                     "reading shared "
                     "memory the kernel never wrote: the tests fill shared memory with NaN before each launch.\n";
            else
                s << "note: a NaN where a number was expected. Besides arithmetic such as 0/0, it can come from a "
                     "local "
                     "variable or array element read before the thread wrote it: the emulator starts every thread with "
                     "its "
                     "locals holding NaN (as a GPU leaves whatever its registers held), so check that every element of "
                     "a "
                     "local array and every accumulator is set before it is used.\n";
            break;
        }
    }
    s << footer(info);
    return s.str();
}

std::string format_f32(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string format_half(double v, std::uint16_t bits) {
    char buf[64];
    if (std::isnan(v)) std::snprintf(buf, sizeof buf, "nan (0x%04x)", bits);
    else std::snprintf(buf, sizeof buf, "%.5g (0x%04x)", v, bits);
    return buf;
}

std::string poisoned_note() {
    return " -- still the NaN pattern the buffer was filled with before the launch: this element was never written";
}

std::string untouched_report(const CaseInfo& info, const std::string& buffer, const Untouched& u) {
    std::ostringstream s;
    s << info.title << ": the kernel wrote where it must not: " << u.changed << " byte(s) of the " << buffer
      << " buffer outside its " << buffer << " elements changed; the first at " << u.first_where << ".\n";
    s << footer(info);
    return s.str();
}

std::string unchanged_input_report(const CaseInfo& info, const std::string& buffer, std::size_t changed,
                                   std::size_t first_index) {
    std::ostringstream s;
    s << info.title << ": the " << buffer << " buffer is read-only, but " << changed
      << " of its elements changed during the launch (first at element " << first_index << ").\n";
    s << footer(info);
    return s.str();
}

}  // namespace wb::testkit
