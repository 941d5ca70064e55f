// A character outside ASCII in a file's code: a no-break space or a minus sign pasted from a web page or a PDF looks
// like its ASCII twin, and the compiler's error ("extended character   is not valid in an identifier") shows it
// as it is, invisible or indistinguishable. This names it.
#pragma once

#include <string>

namespace workbook::review {

// For the first such character in `source`'s code (comments and literals may hold any), one sentence naming its
// line in `file`, its code point and, for the usual lookalikes, what it is; "" when the code is ASCII.
std::string lookalike_note(const std::string& source, const std::string& file);

}  // namespace workbook::review
