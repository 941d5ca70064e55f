#include "written/stem.hpp"

#include <memory>

#include <libstemmer.h>

namespace workbook::written {

std::string stem_english(const std::string& word) {
    // A Snowball stemmer keeps its working buffer in the object: one per thread, made on first use.
    struct Free {
        void operator()(sb_stemmer* s) const { sb_stemmer_delete(s); }
    };
    thread_local std::unique_ptr<sb_stemmer, Free> stemmer(sb_stemmer_new("english", "UTF_8"));
    if (!stemmer || word.empty()) return word;
    const sb_symbol* out =
        sb_stemmer_stem(stemmer.get(), reinterpret_cast<const sb_symbol*>(word.data()), static_cast<int>(word.size()));
    if (!out) return word;  // out of memory: the unstemmed word still matches itself
    return std::string(reinterpret_cast<const char*>(out), static_cast<std::size_t>(sb_stemmer_length(stemmer.get())));
}

}  // namespace workbook::written
