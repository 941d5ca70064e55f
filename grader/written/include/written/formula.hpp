// Formulas written in different notations become the same words before tokenizing, so that a rubric names each
// mathematical idea once: `rsqrtf(s)`, `1/sqrt(s)`, `\frac{1}{\sqrt{s}}` and `1/√s` all read "rsqrt"; `x^2`, `x*x`,
// `x²` and `x**2` read "xsq"; `N^(1/4)`, `N**0.25`, `sqrt(sqrt(N))` and `\sqrt[4]{N}` read "fourthrootn";
// `3MN`, `3 * M * N` read "3mn"; `ε`, `\varepsilon`, `epsilon` read "eps".
#pragma once

#include <string>

namespace workbook::written {

// `text` lowercased (ASCII) with the rewrites above; everything else is left as it was.
std::string canonical_formulas(const std::string& text);

}  // namespace workbook::written
