"""refscore.text: the Porter stemmer ROUGE and METEOR share is NLTK 3.10.4's, and both metrics use it from here."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.stem.porter import PorterStemmer

from refscore.text.porter import porter_stem

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzAEIOUY", min_size=0, max_size=14)


@settings(max_examples=25, deadline=None)
@given(WORDS)
def test_porter_stem_is_nltks_with_the_case_kept(word):
    assert porter_stem(word) == PorterStemmer().stem(word, to_lowercase=False)


def test_known_stems():
    assert [porter_stem(w) for w in ("running", "generalizations", "caresses", "ponies", "")] == \
        ["run", "gener", "caress", "poni", ""]


def test_meteor_and_rouge_stem_with_refscore_text():
    from refscore.metrics.meteor import align
    from refscore.text import rouge_words

    assert align.porter_stem is porter_stem and rouge_words.porter_stem is porter_stem
