// Blank markers in solutions (docs/architecture.md, "Blank markers"): the one place that turns a marked solution into
// the starter a student sees, or into a clean solution without markers, and that reads a starter's fix regions back.
//
//   inline: `x = /*BLANK:id*/expr/*END*/;`       -> `x = ______;`
//   block:  `  // BLANK:id` … `  // END BLANK`   -> `  ______  // blank: id`
//   fix (a bug hunt): a block whose solution lines are followed by `  // STARTER` and the starter's own lines, each
//           written `  //> code` so that the marked solution still compiles as it is:
//             `  // BLANK:id` fixed lines `  // STARTER` `  //> buggy line` … `  // END BLANK`
//           -> `  // fix: id (edit only down to 'end fix')`, the buggy lines, `  // end fix`
//           The starter's region holds working-looking code rather than `______`; the edit check lets the student
//           change the lines between the two comments (starter_regions) and nothing else.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace workbook::lesson {

inline constexpr const char* kBlank = "______";

struct MarkedBlank {
    std::string id;
    int line = 0;         // 1-based line of the marker in the solution
    bool block = false;   // block marker (lines) rather than inline
    std::string code;     // the solution's code between the markers (a block's lines, each ending in '\n')
    bool fix = false;     // a fix region (bug hunt): the starter shows `starter`, not `______`
    std::string starter;  // a fix region's starter lines, `//> ` taken off, each ending in '\n'
};

struct Converted {
    std::string text;                 // the starter, or the solution with markers removed
    std::vector<MarkedBlank> blanks;  // in file order
};

// Starter from a marked solution. Throws UserError naming `label` and the line for a malformed marker
// (unclosed, nested, empty or odd id, an inline marker spread over lines, a stray END).
Converted make_starter(const std::string& solution, const std::string& label);

// The solution as a student would have written it: marker comments gone, filled code kept.
Converted strip_markers(const std::string& solution, const std::string& label);

// A student's file that fills some blanks differently: like strip_markers, but the text of each blank named in
// `fills` is replaced (a block blank by one line, at the indentation of its marker). Used for known wrong answers.
Converted fill_blanks(const std::string& solution, const std::map<std::string, std::string>& fills,
                      const std::string& label);

// A starter's fix region: the lines strictly between its `// fix: <id>` and `// end fix` comments may be edited.
struct FixRegion {
    std::string id;
    int open_line = 0;   // 1-based line of `// fix: <id>`
    int close_line = 0;  // 1-based line of `// end fix`
};

// The fix regions of a starter (as make_starter writes them), in file order. Throws UserError naming `label` and the
// line for an unclosed or nested region or a stray `// end fix`.
std::vector<FixRegion> starter_regions(const std::string& starter, const std::string& label);

}  // namespace workbook::lesson
