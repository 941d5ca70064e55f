#include "written/language.hpp"

#include <set>

namespace workbook::written {
namespace {

bool in(const std::set<std::string>& s, const std::string& w) { return s.count(w) != 0; }

}  // namespace

// Only grammatical glue counts: connectives and negators are left out, so that "because fourth root so too small
// therefore 4096" is still a list of terms however many of them it strings together.
bool is_function_word(const std::string& w) {
    static const std::set<std::string> words = {
        "the",    "a",     "an",    "is",     "are",   "was",     "were",   "be",    "been", "being", "am",
        "it",     "its",   "this",  "that",   "these", "those",   "of",     "in",    "on",   "to",    "for",
        "by",     "with",  "from",  "at",     "as",    "each",    "every",  "which", "what", "who",   "whose",
        "has",    "have",  "had",   "does",   "do",    "did",     "can",    "could", "will", "would", "must",
        "should", "may",   "might", "we",     "i",     "you",     "they",   "he",    "she",  "our",   "my",
        "your",   "their", "there", "here",   "than",  "then",    "into",   "onto",  "over", "under", "per",
        "all",    "any",   "both",  "gets",   "get",   "becomes", "become", "me",    "us",   "them",  "him",
        "her",    "about", "after", "before", "again", "too",     "very",   "and",   "or"};
    return in(words, w);
}

bool is_function_han(const std::string& h) {
    static const std::set<std::string> chars = {
        "的", "了", "是", "在", "把", "被", "会", "要", "就", "都", "也", "这", "那", "它", "其", "个",
        "每", "由", "对", "从", "到", "给", "和", "与", "及", "之", "得", "地", "着", "过", "让", "使",
        "将", "可", "能", "该", "此", "即", "我", "你", "们", "才", "还", "又", "再", "并", "很", "更",
        "最", "已", "经", "当", "时", "后", "前", "里", "中", "上", "下", "有", "为"};
    return in(chars, h);
}

bool is_article(const std::string& w) { return w == "the" || w == "a" || w == "an"; }

bool ends_negation_scope(const std::string& w) {
    static const std::set<std::string> words = {"but",  "however", "whereas", "while",   "instead",  "rather",
                                                "only", "and",     "so",      "because", "since",    "therefore",
                                                "thus", "hence",   "which",   "yet",     "although", "though",
                                                "但",   "而",      "却",      "只",      "仅",       "就"};
    return in(words, w);
}

const std::vector<std::string>& negator_phrases() {
    static const std::vector<std::string> p = {"not",
                                               "no",
                                               "never",
                                               "without",
                                               "neither",
                                               "nor",
                                               "none",
                                               "nothing",
                                               "cannot",
                                               "lack",
                                               "lacks",
                                               "missing",
                                               "omit",
                                               "omits",
                                               "omitted",
                                               "left ... out",
                                               "leave ... out",
                                               "leaves ... out",
                                               "instead of",
                                               "不",
                                               "没有",
                                               "没",
                                               "无",
                                               "未",
                                               "非",
                                               "并非",
                                               "并不",
                                               "别",
                                               "勿",
                                               "缺少"};
    return p;
}

const std::vector<std::string>& post_negator_phrases() {
    static const std::vector<std::string> p = {"无关", "无涉", "不相关", "没有关系", "没关系"};
    return p;
}

const std::vector<std::string>& causal_phrases() {
    static const std::vector<std::string> p = {
        "because",     "since",       "so",         "therefore",  "thus",  "hence",  "otherwise", "consequently",
        "as a result", "which means", "this means", "that means", "means", "cause",  "causes",    "lead to",
        "leads to",    "result in",   "results in", "due to",     "make",  "makes",  "prevent",   "prevents",
        "keep",        "keeps",       "ensure",     "ensures",    "avoid", "avoids", "so that",   "in order to",
        "if",          "would",       "why",        "因为",       "所以",  "因此",   "否则",      "导致",
        "使得",        "使",          "从而",       "于是",       "以便",  "由于",   "如果",      "就会",
        "会",          "让",          "保证",       "避免",       "防止",  "造成",   "意味着"};
    return p;
}

}  // namespace workbook::written
