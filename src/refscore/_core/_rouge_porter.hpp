// NLTK's PorterStemmer in its default NLTK_EXTENSIONS mode (nltk/stem/porter.py, NLTK 3.10), ported rule by
// rule: the same rule lists in the same order, the same "first matching suffix decides" semantics of
// `_apply_rule_list`, the same consonant definition for 'y' and the NLTK-only extensions (irregular-form pool,
// "ies"/"ied" on 4-letter words, the 2-letter cvc case, "alli" recursion, "fulli", "logi").
// Input: a lowercase word (rouge-score lowercases before stemming). Pure C++, no Python objects.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace refscore::rouge {

class PorterStemmer {
  public:
    std::string stem(std::string_view input) const {
        std::string word(input);
        const char* pooled = irregular(word);
        if (pooled != nullptr) return std::string(pooled);
        if (word.size() <= 2) return word;
        word = step1a(word);
        word = step1b(word);
        word = step1c(word);
        word = step2(word);
        word = step3(word);
        word = step4(word);
        word = step5a(word);
        word = step5b(word);
        return word;
    }

  private:
    enum Cond { NONE, POSITIVE_MEASURE, MEASURE_GT1, ION, LOGI };
    struct Rule {
        const char* suffix;
        const char* replacement;
        Cond cond;
    };

    static const char* irregular(const std::string& w) {
        static const char* const pool[][2] = {
            {"sky", "sky"},        {"skies", "sky"},       {"dying", "die"},        {"lying", "lie"},
            {"tying", "tie"},      {"news", "news"},       {"innings", "inning"},   {"inning", "inning"},
            {"outings", "outing"}, {"outing", "outing"},   {"cannings", "canning"}, {"canning", "canning"},
            {"howe", "howe"},      {"proceed", "proceed"}, {"exceed", "exceed"},    {"succeed", "succeed"}};
        for (const auto& entry : pool)
            if (w == entry[0]) return entry[1];
        return nullptr;
    }

    static bool is_vowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

    // NLTK `_is_consonant(word, i)`.
    static bool is_consonant(const std::string& w, std::size_t i) {
        if (is_vowel(w[i])) return false;
        if (w[i] == 'y') {
            bool negate = false;
            while (i > 0 && w[i] == 'y') {
                negate = !negate;
                --i;
            }
            return (!is_vowel(w[i])) != negate;
        }
        return true;
    }

    // NLTK `_measure`: the number of "vc" pairs in the consonant/vowel pattern of the first `len` characters.
    static int measure(const std::string& w, std::size_t len) {
        int m = 0;
        bool prev_consonant = true;
        for (std::size_t i = 0; i < len; ++i) {
            bool consonant = is_vowel(w[i]) ? false : (w[i] == 'y' ? (i == 0 ? true : !prev_consonant) : true);
            if (i > 0 && !prev_consonant && consonant) ++m;
            prev_consonant = consonant;
        }
        return m;
    }
    static int measure(const std::string& w) { return measure(w, w.size()); }

    static bool contains_vowel(const std::string& w) {
        bool prev_consonant = true;
        for (std::size_t i = 0; i < w.size(); ++i) {
            bool consonant = is_vowel(w[i]) ? false : (w[i] == 'y' ? (i == 0 ? true : !prev_consonant) : true);
            if (!consonant) return true;
            prev_consonant = consonant;
        }
        return false;
    }

    static bool ends_double_consonant(const std::string& w) {
        std::size_t n = w.size();
        return n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1);
    }

    static bool ends_cvc(const std::string& w) {
        std::size_t n = w.size();
        if (n >= 3 && is_consonant(w, n - 3) && !is_consonant(w, n - 2) && is_consonant(w, n - 1) && w[n - 1] != 'w'
            && w[n - 1] != 'x' && w[n - 1] != 'y')
            return true;
        return n == 2 && !is_consonant(w, 0) && is_consonant(w, 1);
    }

    static bool ends_with(const std::string& w, std::string_view suffix) {
        return w.size() >= suffix.size() && std::string_view(w).substr(w.size() - suffix.size()) == suffix;
    }

    static bool condition(Cond cond, const std::string& stem, const std::string& word) {
        switch (cond) {
            case NONE:
                return true;
            case POSITIVE_MEASURE:
                return measure(stem) > 0;
            case MEASURE_GT1:
                return measure(stem) > 1;
            case ION:
                return measure(stem) > 1 && !stem.empty() && (stem.back() == 's' || stem.back() == 't');
            case LOGI:
                return measure(word, word.size() - 3) > 0;
        }
        return false;
    }

    // NLTK `_apply_rule_list`: the first rule whose suffix matches decides (replace if its condition holds).
    template <std::size_t N>
    static std::string apply(const std::string& word, const Rule (&rules)[N]) {
        for (const Rule& rule : rules) {
            std::string_view suffix(rule.suffix);
            if (ends_with(word, suffix)) {
                std::string stem = word.substr(0, word.size() - suffix.size());
                if (condition(rule.cond, stem, word)) return stem + rule.replacement;
                return word;
            }
        }
        return word;
    }

    static std::string step1a(const std::string& w) {
        if (ends_with(w, "ies") && w.size() == 4) return w.substr(0, 1) + "ie";
        static const Rule rules[] = {{"sses", "ss", NONE}, {"ies", "i", NONE}, {"ss", "ss", NONE}, {"s", "", NONE}};
        return apply(w, rules);
    }

    static std::string step1b(const std::string& w) {
        if (ends_with(w, "ied")) return w.substr(0, w.size() - 3) + (w.size() == 4 ? "ie" : "i");
        if (ends_with(w, "eed")) {
            std::string stem = w.substr(0, w.size() - 3);
            return measure(stem) > 0 ? stem + "ee" : w;
        }
        std::string inter;
        bool found = false;
        for (std::string_view suffix : {std::string_view("ed"), std::string_view("ing")}) {
            if (ends_with(w, suffix)) {
                inter = w.substr(0, w.size() - suffix.size());
                if (contains_vowel(inter)) {
                    found = true;
                    break;
                }
            }
        }
        if (!found) return w;
        if (ends_with(inter, "at")) return inter + "e";
        if (ends_with(inter, "bl")) return inter + "e";
        if (ends_with(inter, "iz")) return inter + "e";
        if (ends_double_consonant(inter)) {
            char last = inter.back();
            if (last != 'l' && last != 's' && last != 'z') return inter.substr(0, inter.size() - 1);
            return inter;
        }
        if (measure(inter) == 1 && ends_cvc(inter)) return inter + "e";
        return inter;
    }

    static std::string step1c(const std::string& w) {
        if (ends_with(w, "y")) {
            std::string stem = w.substr(0, w.size() - 1);
            if (stem.size() > 1 && is_consonant(stem, stem.size() - 1)) return stem + "i";
        }
        return w;
    }

    static std::string step2(const std::string& w) {
        if (ends_with(w, "alli") && measure(w, w.size() - 4) > 0) return step2(w.substr(0, w.size() - 4) + "al");
        static const Rule rules[] = {{"ational", "ate", POSITIVE_MEASURE}, {"tional", "tion", POSITIVE_MEASURE},
                                     {"enci", "ence", POSITIVE_MEASURE},   {"anci", "ance", POSITIVE_MEASURE},
                                     {"izer", "ize", POSITIVE_MEASURE},    {"bli", "ble", POSITIVE_MEASURE},
                                     {"alli", "al", POSITIVE_MEASURE},     {"entli", "ent", POSITIVE_MEASURE},
                                     {"eli", "e", POSITIVE_MEASURE},       {"ousli", "ous", POSITIVE_MEASURE},
                                     {"ization", "ize", POSITIVE_MEASURE}, {"ation", "ate", POSITIVE_MEASURE},
                                     {"ator", "ate", POSITIVE_MEASURE},    {"alism", "al", POSITIVE_MEASURE},
                                     {"iveness", "ive", POSITIVE_MEASURE}, {"fulness", "ful", POSITIVE_MEASURE},
                                     {"ousness", "ous", POSITIVE_MEASURE}, {"aliti", "al", POSITIVE_MEASURE},
                                     {"iviti", "ive", POSITIVE_MEASURE},   {"biliti", "ble", POSITIVE_MEASURE},
                                     {"fulli", "ful", POSITIVE_MEASURE},   {"logi", "log", LOGI}};
        return apply(w, rules);
    }

    static std::string step3(const std::string& w) {
        static const Rule rules[] = {{"icate", "ic", POSITIVE_MEASURE}, {"ative", "", POSITIVE_MEASURE},
                                     {"alize", "al", POSITIVE_MEASURE}, {"iciti", "ic", POSITIVE_MEASURE},
                                     {"ical", "ic", POSITIVE_MEASURE},  {"ful", "", POSITIVE_MEASURE},
                                     {"ness", "", POSITIVE_MEASURE}};
        return apply(w, rules);
    }

    static std::string step4(const std::string& w) {
        static const Rule rules[] = {
            {"al", "", MEASURE_GT1},    {"ance", "", MEASURE_GT1}, {"ence", "", MEASURE_GT1}, {"er", "", MEASURE_GT1},
            {"ic", "", MEASURE_GT1},    {"able", "", MEASURE_GT1}, {"ible", "", MEASURE_GT1}, {"ant", "", MEASURE_GT1},
            {"ement", "", MEASURE_GT1}, {"ment", "", MEASURE_GT1}, {"ent", "", MEASURE_GT1},  {"ion", "", ION},
            {"ou", "", MEASURE_GT1},    {"ism", "", MEASURE_GT1},  {"ate", "", MEASURE_GT1},  {"iti", "", MEASURE_GT1},
            {"ous", "", MEASURE_GT1},   {"ive", "", MEASURE_GT1},  {"ize", "", MEASURE_GT1}};
        return apply(w, rules);
    }

    static std::string step5a(const std::string& w) {
        if (ends_with(w, "e")) {
            std::string stem = w.substr(0, w.size() - 1);
            int m = measure(stem);
            if (m > 1) return stem;
            if (m == 1 && !ends_cvc(stem)) return stem;
        }
        return w;
    }

    static std::string step5b(const std::string& w) {
        if (ends_with(w, "ll")) return measure(w, w.size() - 1) > 1 ? w.substr(0, w.size() - 1) : w;
        return w;
    }
};

}  // namespace refscore::rouge
