"""jiwer 4.0's ``jiwer.transformations``: the default and alternative compositions of transforms.

>>> wer_default(["  a  b "])
[['a', 'b']]
>>> cer_default(" ab ")
[['a', 'b']]
"""
from __future__ import annotations

from refscore.compat.jiwer import transforms as tr

__all__ = ["wer_default", "wer_contiguous", "wer_standardize", "wer_standardize_contiguous", "cer_default",
           "cer_contiguous"]

#: ``process_words``' default: multiple spaces collapsed, ends stripped, split into words.
wer_default = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToListOfListOfWords()])
#: like :data:`wer_default`, all sentences joined into one first (different sentence counts).
wer_contiguous = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(),
                             tr.ReduceToListOfListOfWords()])
#: lowercase, contractions expanded, Kaldi non-words removed, whitespace normalised, then words.
wer_standardize = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(),
                              tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip(),
                              tr.ReduceToListOfListOfWords()])
#: :data:`wer_standardize` over all sentences joined into one.
wer_standardize_contiguous = tr.Compose([tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(),
                                         tr.RemoveKaldiNonWords(), tr.RemoveWhiteSpace(replace_by_space=True),
                                         tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(),
                                         tr.ReduceToListOfListOfWords()])
#: ``process_characters``' default: ends stripped, split into characters.
cer_default = tr.Compose([tr.Strip(), tr.ReduceToListOfListOfChars()])
#: :data:`cer_default` over all sentences joined into one.
cer_contiguous = tr.Compose([tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfChars()])
