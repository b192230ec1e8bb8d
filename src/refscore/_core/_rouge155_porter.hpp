// The Porter stemmer of ROUGE-1.5.5.pl (its `stem` sub), used by -m after the WordNet exception lookup
// (_rouge155_text.hpp). Plain C++ on lowercase ASCII words, no Python objects.
#pragma once

#include <cstddef>
#include <string>

namespace refscore::rouge155 {

// ------------------------------------------------------------------------------------------------------------
// The Porter stemmer of ROUGE-1.5.5.pl (Martin Porter's Perl release 1 with Chin-Yew Lin's 2004 step-4 change).
// The script's regular expressions are decided by a small backtracking matcher over the same character classes:
// c = [^aeiou], v = [aeiouy], C = c[^aeiouy]*, V = v[aeiou]*. A suffix alternation `(a|b|...)$` matches its
// leftmost, i.e. longest, alternative.
// ------------------------------------------------------------------------------------------------------------
namespace porter {

enum Element { OPT_C, CONS_SEQ, VOWEL_SEQ, OPT_V, VOWEL, NOT_AEIOUWXY, END };

inline bool is_aeiou(char ch) { return ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u'; }
inline bool is_aeiouy(char ch) { return is_aeiou(ch) || ch == 'y'; }

inline bool match(const std::string& s, size_t pos, const Element* pattern, int n) {
    if (n == 0) return true;
    const size_t size = s.size();
    switch (pattern[0]) {
        case END:
            return pos == size && match(s, pos, pattern + 1, n - 1);
        case OPT_C:
        case CONS_SEQ: {
            if (pos < size && !is_aeiou(s[pos])) {
                size_t end = pos + 1;
                while (true) {
                    if (match(s, end, pattern + 1, n - 1)) return true;
                    if (end < size && !is_aeiouy(s[end]))
                        ++end;
                    else
                        break;
                }
            }
            return pattern[0] == OPT_C && match(s, pos, pattern + 1, n - 1);
        }
        case VOWEL_SEQ:
        case OPT_V: {
            if (pos < size && is_aeiouy(s[pos])) {
                size_t end = pos + 1;
                while (true) {
                    if (match(s, end, pattern + 1, n - 1)) return true;
                    if (end < size && is_aeiou(s[end]))
                        ++end;
                    else
                        break;
                }
            }
            return pattern[0] == OPT_V && match(s, pos, pattern + 1, n - 1);
        }
        case VOWEL:
            return pos < size && is_aeiouy(s[pos]) && match(s, pos + 1, pattern + 1, n - 1);
        case NOT_AEIOUWXY: {
            if (pos >= size) return false;
            const char ch = s[pos];
            return !(is_aeiou(ch) || ch == 'w' || ch == 'x' || ch == 'y') && match(s, pos + 1, pattern + 1, n - 1);
        }
    }
    return false;
}

static const Element MGR0[] = {OPT_C, VOWEL_SEQ, CONS_SEQ};                       // ^(C)?VC        m > 0
static const Element MEQ1[] = {OPT_C, VOWEL_SEQ, CONS_SEQ, OPT_V, END};           // ^(C)?VC(V)?$   m = 1
static const Element MGR1[] = {OPT_C, VOWEL_SEQ, CONS_SEQ, VOWEL_SEQ, CONS_SEQ};  // ^(C)?VCVC    m > 1
static const Element HAS_VOWEL[] = {OPT_C, VOWEL};                                // ^(C)?v
static const Element CVC[] = {CONS_SEQ, VOWEL, NOT_AEIOUWXY, END};                // ^Cv[^aeiouwxy]$

inline bool m_gt0(const std::string& s) { return match(s, 0, MGR0, 3); }
inline bool m_eq1(const std::string& s) { return match(s, 0, MEQ1, 5); }
inline bool m_gt1(const std::string& s) { return match(s, 0, MGR1, 5); }
inline bool has_vowel(const std::string& s) { return match(s, 0, HAS_VOWEL, 2); }
inline bool cvc(const std::string& s) { return match(s, 0, CVC, 4); }

inline bool ends_with(const std::string& s, const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

struct Rule {
    const char* suffix;
    const char* replacement;
};

static const Rule STEP2[] = {{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"},   {"anci", "ance"},
                             {"izer", "ize"},    {"bli", "ble"},     {"alli", "al"},     {"entli", "ent"},
                             {"eli", "e"},       {"ousli", "ous"},   {"ization", "ize"}, {"ation", "ate"},
                             {"ator", "ate"},    {"alism", "al"},    {"iveness", "ive"}, {"fulness", "ful"},
                             {"ousness", "ous"}, {"aliti", "al"},    {"iviti", "ive"},   {"biliti", "ble"},
                             {"logi", "log"}};
static const Rule STEP3[] = {{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
                             {"ical", "ic"},  {"ful", ""},   {"ness", ""}};
static const Rule STEP4[] = {{"al", ""},   {"ance", ""}, {"ence", ""},  {"er", ""}, {"ic", ""},  {"able", ""},
                             {"ible", ""}, {"ant", ""},  {"ement", ""}, {"ou", ""}, {"ism", ""}, {"ate", ""},
                             {"iti", ""},  {"ous", ""},  {"ive", ""},   {"ize", ""}};

// The longest rule suffix that `w` ends with (the leftmost match of the alternation), or nullptr.
template <size_t N>
inline const Rule* longest_suffix(const std::string& w, const Rule (&rules)[N]) {
    const Rule* best = nullptr;
    size_t best_length = 0;
    for (const Rule& rule : rules) {
        const size_t n = std::char_traits<char>::length(rule.suffix);
        if (n > best_length && ends_with(w, rule.suffix)) {
            best = &rule;
            best_length = n;
        }
    }
    return best;
}

inline std::string stem(std::string w) {
    if (w.size() < 3) return w;
    const bool first_y = w[0] == 'y';
    if (first_y) w[0] = 'Y';
    // step 1a
    if (ends_with(w, "sses") || ends_with(w, "ies")) {
        w.resize(w.size() - 2);
    } else if (w.size() >= 2 && w.back() == 's' && w[w.size() - 2] != 's') {
        w.pop_back();
    }
    // step 1b
    if (ends_with(w, "eed")) {
        if (m_gt0(w.substr(0, w.size() - 3))) w.pop_back();
    } else if (ends_with(w, "ing") || ends_with(w, "ed")) {
        const std::string stem_part = w.substr(0, w.size() - (ends_with(w, "ing") ? 3 : 2));
        if (has_vowel(stem_part)) {
            w = stem_part;
            const size_t n = w.size();
            if (ends_with(w, "at") || ends_with(w, "bl") || ends_with(w, "iz")) {
                w += 'e';
            } else if (n >= 2 && w[n - 1] == w[n - 2] && !is_aeiouy(w[n - 1]) && w[n - 1] != 'l' && w[n - 1] != 's'
                       && w[n - 1] != 'z') {
                w.pop_back();
            } else if (cvc(w)) {
                w += 'e';
            }
        }
    }
    // step 1c
    if (!w.empty() && w.back() == 'y' && has_vowel(w.substr(0, w.size() - 1))) w.back() = 'i';
    // steps 2 and 3
    if (const Rule* rule = longest_suffix(w, STEP2)) {
        const std::string stem_part = w.substr(0, w.size() - std::char_traits<char>::length(rule->suffix));
        if (m_gt0(stem_part)) w = stem_part + rule->replacement;
    }
    if (const Rule* rule = longest_suffix(w, STEP3)) {
        const std::string stem_part = w.substr(0, w.size() - std::char_traits<char>::length(rule->suffix));
        if (m_gt0(stem_part)) w = stem_part + rule->replacement;
    }
    // step 4, with the script's separate "ment" and "ent" rules
    if (const Rule* rule = longest_suffix(w, STEP4)) {
        const std::string stem_part = w.substr(0, w.size() - std::char_traits<char>::length(rule->suffix));
        if (m_gt1(stem_part)) w = stem_part;
    }
    if (ends_with(w, "ment")) {
        const std::string stem_part = w.substr(0, w.size() - 4);
        if (m_gt1(stem_part)) w = stem_part;
    }
    if (ends_with(w, "ent")) {
        const std::string stem_part = w.substr(0, w.size() - 3);
        if (m_gt1(stem_part)) w = stem_part;
    } else if (ends_with(w, "sion") || ends_with(w, "tion")) {
        const std::string stem_part = w.substr(0, w.size() - 3);
        if (m_gt1(stem_part)) w = stem_part;
    }
    // step 5
    if (!w.empty() && w.back() == 'e') {
        const std::string stem_part = w.substr(0, w.size() - 1);
        if (m_gt1(stem_part) || (m_eq1(stem_part) && !cvc(stem_part))) w = stem_part;
    }
    if (ends_with(w, "ll") && m_gt1(w)) w.pop_back();
    if (first_y) w[0] = 'y';
    return w;
}

}  // namespace porter

}  // namespace refscore::rouge155
