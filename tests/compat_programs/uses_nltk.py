"""A typical NLTK user program (BLEU, GLEU, chrF)."""
import sys

from nltk.translate import bleu_score, chrf_score, gleu_score
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu

hyp = "the cat is on the mat".split()
refs = ["the cat sat on the mat".split(), "there is a cat on the mat".split()]
print(sentence_bleu(refs, hyp), sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method4))
print(corpus_bleu([refs, refs], [hyp, "a cat".split()]), bleu_score.modified_precision(refs, hyp, 2))
print(gleu_score.sentence_gleu(refs, hyp), gleu_score.corpus_gleu([refs], [hyp]))
print(chrf_score.sentence_chrf(refs[0], hyp), chrf_score.corpus_chrf([refs[0]], [hyp]))
print(chrf_score.chrf_precision_recall_fscore_support("the cat", "the hat", 2))
print(bleu_score.sentence_bleu.__module__, file=sys.stderr)
