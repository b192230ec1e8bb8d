"""METEOR's alignment and score of one hypothesis against one reference, statement for statement NLTK 3.10.4's
``nltk.translate.meteor_score`` (``_match_enums``, ``_enum_stem_match``, ``_enum_wordnetsyn_match``,
``_count_chunks``, ``single_meteor_score``), on token lists.

Three stages match words, each among the words the earlier ones left: exact (lower-cased) words, then equal
Porter stems (NLTK_EXTENSIONS mode), then WordNet synonyms of the hypothesis word. Each stage walks the
hypothesis from its last word to its first and takes the last free reference position of a match, which is how
NLTK treats repeated words. The score is ``(1 - gamma * (chunks / matches) ** beta) * fmean`` with
``fmean = P * R / (alpha * P + (1 - alpha) * R)``, and 0 when nothing matches or a side is empty.

A hypothesis word takes the *last* free reference position: here the first "the" pairs with the reference's
second "the", which splits the alignment into three chunks, as in NLTK.

>>> from refscore.metrics.meteor.wordnet import load_wordnet
>>> aligner = Aligner(load_wordnet())
>>> aligner.align("the cats sat on a mat".split(), "the cat sat on the mat".split())
[(0, 4), (1, 1), (2, 2), (3, 3), (5, 5)]
>>> round(aligner.score("the cats sat on a mat".split(), "the cat sat on the mat".split(), 0.9, 3.0, 0.5), 4)
0.7433
"""
from __future__ import annotations

from collections import defaultdict

from refscore.text.porter import porter_stem
from refscore.metrics.meteor.wordnet import WordNet

Enumerated = list[tuple[int, str]]
Matches = list[tuple[int, int]]

# Letters no rule of NLTK's Porter stemmer names (suffixes, the irregular-word pool, the cvc exceptions w/x/y):
# a non-ASCII character stands in as one of them, so the compiled ASCII stemmer treats it as NLTK does (a
# consonant), with equal neighbours kept equal and different ones different (the double-consonant rules).
_STAND_INS = "jqk"


def _ascii_stand_in(word: str) -> str:
    chars = list(word)
    for i, char in enumerate(word):
        if ord(char) < 128:
            continue
        if i > 0 and word[i - 1] == char:
            chars[i] = chars[i - 1]
            continue
        after = word[i + 1] if i + 1 < len(word) and ord(word[i + 1]) < 128 else ""
        chars[i] = next(c for c in _STAND_INS if c != (chars[i - 1] if i else "") and c != after)
    return "".join(chars)


def stem(word: str) -> str:
    """NLTK's ``PorterStemmer().stem(word)`` (NLTK_EXTENSIONS mode) of a lower-case word, by the compiled
    stemmer; non-ASCII characters pass through a stand-in letter (the stemmer only cuts and appends ASCII).

    >>> stem("running"), stem("ponies"), stem("façades")
    ('run', 'poni', 'façad')
    """
    if word.isascii():
        return porter_stem(word)
    stand_in = _ascii_stand_in(word)
    stemmed = porter_stem(stand_in)
    # where the stem still has the stand-in's letter the original's is there (appended letters are never j/q/k)
    return "".join(word[i] if i < len(word) and c == stand_in[i] else c for i, c in enumerate(stemmed))


def _remove(pairs: Enumerated, taken: set[int]) -> Enumerated:
    return [pair for i, pair in enumerate(pairs) if i not in taken]


def _positions(reference: Enumerated) -> defaultdict[str, list[int]]:
    """Each reference word's positions in the enumerated list, in order (the last free one is popped first)."""
    positions: defaultdict[str, list[int]] = defaultdict(list)
    for j, (_, word) in enumerate(reference):
        positions[word].append(j)
    return positions


def match_enums(hypothesis: Enumerated, reference: Enumerated) -> tuple[Matches, Enumerated, Enumerated]:
    """NLTK's ``_match_enums``: equal words, hypothesis from its end, each taking the last free reference position."""
    positions = _positions(reference)
    matches: Matches = []
    hyp_taken: set[int] = set()
    ref_taken: set[int] = set()
    for i in range(len(hypothesis) - 1, -1, -1):
        free = positions.get(hypothesis[i][1])
        if free:
            j = free.pop()
            hyp_taken.add(i)
            ref_taken.add(j)
            matches.append((hypothesis[i][0], reference[j][0]))
    return matches, _remove(hypothesis, hyp_taken), _remove(reference, ref_taken)


class Aligner:
    """METEOR of token lists with one WordNet; stems are cached per word (the synonyms by the WordNet)."""

    def __init__(self, wordnet: WordNet) -> None:
        self.wordnet = wordnet
        self._stems: dict[str, str] = {}

    def _stem(self, word: str) -> str:
        found = self._stems.get(word)
        if found is None:
            found = self._stems[word] = stem(word)
        return found

    def _synonym_match(self, hypothesis: Enumerated, reference: Enumerated) -> tuple[Matches, Enumerated,
                                                                                      Enumerated]:
        """NLTK's ``_enum_wordnetsyn_match``: a hypothesis word takes the last free reference position holding any
        of its synonyms (or itself)."""
        positions = _positions(reference)
        matches: Matches = []
        hyp_taken: set[int] = set()
        ref_taken: set[int] = set()
        for i in range(len(hypothesis) - 1, -1, -1):
            best_j, best_word = -1, None
            for synonym in self.wordnet.synonyms(hypothesis[i][1]):
                free = positions.get(synonym)
                if free and free[-1] > best_j:   # distinct words sit at distinct positions: no ties
                    best_j, best_word = free[-1], synonym
            if best_word is not None:
                positions[best_word].pop()
                hyp_taken.add(i)
                ref_taken.add(best_j)
                matches.append((hypothesis[i][0], reference[best_j][0]))
        return matches, _remove(hypothesis, hyp_taken), _remove(reference, ref_taken)

    def stage_matches(self, hypothesis: list[str], reference: list[str]) -> tuple[Matches, Matches, Matches]:
        """The (hypothesis, reference) position pairs each stage matched: exact, stem, synonym."""
        hyp: Enumerated = list(enumerate(word.lower() for word in hypothesis))
        ref: Enumerated = list(enumerate(word.lower() for word in reference))
        exact, hyp, ref = match_enums(hyp, ref)
        stem_hyp = [(i, self._stem(word)) for i, word in hyp]
        stem_ref = [(j, self._stem(word)) for j, word in ref]
        stemmed, stem_hyp, stem_ref = match_enums(stem_hyp, stem_ref)
        # NLTK's synonym stage gets the stem stage's leftovers with the stems as their words
        synonyms, _, _ = self._synonym_match(stem_hyp, stem_ref)
        return exact, stemmed, synonyms

    def align(self, hypothesis: list[str], reference: list[str]) -> Matches:
        """NLTK's ``align_words`` on lower-cased words: the exact, stem and synonym matches, sorted by hypothesis
        position."""
        exact, stemmed, synonyms = self.stage_matches(hypothesis, reference)
        return sorted(exact + stemmed + synonyms, key=lambda pair: pair[0])

    def score(self, hypothesis: list[str], reference: list[str], alpha: float, beta: float, gamma: float) -> float:
        """NLTK's ``single_meteor_score(reference, hypothesis, alpha=..., beta=..., gamma=...)``."""
        matches = self.align(hypothesis, reference)
        count = len(matches)
        if count == 0 or not hypothesis or not reference:
            return 0.0   # NLTK: a ZeroDivisionError, caught, gives 0
        precision = float(count) / len(hypothesis)
        recall = float(count) / len(reference)
        denominator = alpha * precision + (1 - alpha) * recall
        if denominator == 0:
            return 0.0
        fmean = (precision * recall) / denominator
        frag_frac = float(chunk_count(matches)) / count
        penalty = gamma * frag_frac ** beta
        return (1 - penalty) * fmean


def chunk_count(matches: Matches) -> int:
    """NLTK's ``_count_chunks``: runs of matches adjacent in both the hypothesis and the reference.

    >>> chunk_count([(0, 0), (1, 1), (2, 5), (3, 6)])
    2
    """
    chunks = 1
    for (h, r), (next_h, next_r) in zip(matches, matches[1:]):
        if not (next_h == h + 1 and next_r == r + 1):
            chunks += 1
    return chunks
