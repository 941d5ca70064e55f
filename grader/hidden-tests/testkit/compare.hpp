// Collecting mismatches and writing the failure message a student reads: which case, where the first wrong element
// is, expected vs got, how many are wrong, and what the case probes. It describes the symptom, never the fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace wb::testkit {

struct CaseInfo {
    std::string title;  // the test's name
    std::string shape;  // "M=7, N=768, eps=1e-05" and whatever else identifies the inputs
    std::string probe;  // one line: what this case probes
    std::uint64_t seed = 0;
};

class MismatchLog {
 public:
    // what: "output", "residual", "totals"; column_word: "column" or "thread".
    MismatchLog(std::string what, std::string column_word = "column");

    void pass() { ++checked_; }
    void fail(long row, long column, const std::string& expected, const std::string& got);
    // The same, with the texts made only for the first few mismatches, the ones the report shows: a wrong kernel gets
    // every element wrong, and formatting each one's numbers cost a judge more than the comparisons did.
    // describe() returns {expected, got}.
    template <class Describe>
    void fail(long row, long column, Describe&& describe) {
        if (first_.size() >= kShown) return count(row, column);
        const std::pair<std::string, std::string> texts = describe();
        fail(row, column, texts.first, texts.second);
    }

    bool ok() const { return wrong_ == 0; }
    std::size_t wrong() const { return wrong_; }
    std::size_t checked() const { return checked_; }
    std::string report(const CaseInfo& info) const;

 private:
    static constexpr std::size_t kShown = 4;  // mismatches the report shows
    void count(long row, long column);        // a mismatch, counted and placed but not shown
    struct Entry {
        long row, column;
        std::string expected, got;
    };
    std::string what_, column_word_;
    std::size_t checked_ = 0, wrong_ = 0;
    std::vector<Entry> first_;  // the first few, in row-major order
    std::vector<long> rows_;    // distinct wrong rows, ascending (rows are visited in order)
    long min_column_ = -1, max_column_ = -1;
};

// Bytes outside the elements a kernel may write (guards before and after the buffer, gaps between strided rows) must
// still hold the poison. region_of(byte offset) names where an offending byte lies.
struct Untouched {
    std::size_t changed = 0;
    std::size_t first_offset = 0;
    std::string first_where;
};

// A short text for the reports: "0.731262207", "nan", "-inf".
std::string format_f32(double v);
std::string format_half(double v, std::uint16_t bits);  // "0.4531 (0x3ee8)"
std::string poisoned_note();                            // appended to "got" when the element still holds the poison

std::string untouched_report(const CaseInfo& info, const std::string& buffer, const Untouched& u);
std::string unchanged_input_report(const CaseInfo& info, const std::string& buffer, std::size_t changed,
                                   std::size_t first_index);

}  // namespace wb::testkit
