"""Drop-in for jiwer 4.0 (``import jiwer`` after :func:`refscore.compat.install`): ``wer``, ``mer``, ``wil``,
``wip``, ``cer``, ``process_words``, ``process_characters``, the transforms and their default compositions, the
result objects and the alignment pictures, with jiwer's outputs (counts, alignments, measures and their
empty-reference rules), computed by refscore's bit-parallel Levenshtein kernel.

Not provided: jiwer's command-line program (``jiwer --reference ...``); use ``refscore score -m wer``.

>>> from refscore.compat import jiwer
>>> jiwer.wer(["the cat sat", "hello world"], ["the cat sit", "hello"])
0.4
>>> jiwer.process_characters("kitten", "sitting").hits
4
"""
from refscore.compat.jiwer import transforms
from refscore.compat.jiwer.alignment import collect_error_counts, visualize_alignment, visualize_error_counts
from refscore.compat.jiwer.measures import cer, mer, wer, wil, wip
from refscore.compat.jiwer.process import (AlignmentChunk, CharacterOutput, WordOutput, process_characters,
                                           process_words)
from refscore.compat.jiwer.transformations import (cer_contiguous, cer_default, wer_contiguous, wer_default,
                                                   wer_standardize, wer_standardize_contiguous)
from refscore.compat.jiwer.transforms import (AbstractTransform, Compose, ExpandCommonEnglishContractions,
                                              ReduceToListOfListOfChars, ReduceToListOfListOfWords,
                                              ReduceToSingleSentence, RemoveEmptyStrings, RemoveKaldiNonWords,
                                              RemoveMultipleSpaces, RemovePunctuation, RemoveSpecificWords,
                                              RemoveWhiteSpace, Strip, SubstituteRegexes, SubstituteWords,
                                              ToLowerCase, ToUpperCase)

name = "jiwer"

__all__ = [
    "wer", "mer", "wil", "wip", "cer", "process_words", "process_characters", "AlignmentChunk", "WordOutput",
    "CharacterOutput", "visualize_alignment", "collect_error_counts", "visualize_error_counts", "transforms",
    "wer_default", "wer_contiguous", "wer_standardize", "wer_standardize_contiguous", "cer_default",
    "cer_contiguous", "AbstractTransform", "Compose", "ExpandCommonEnglishContractions", "RemoveEmptyStrings",
    "ReduceToListOfListOfWords", "ReduceToListOfListOfChars", "ReduceToSingleSentence", "RemoveKaldiNonWords",
    "RemoveMultipleSpaces", "RemovePunctuation", "RemoveSpecificWords", "RemoveWhiteSpace", "Strip",
    "SubstituteRegexes", "SubstituteWords", "ToLowerCase", "ToUpperCase",
]
