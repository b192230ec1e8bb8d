"""A typical bert-score user program; the model directory is the first argument (a local model, no download)."""
import sys

import bert_score
from bert_score import BERTScorer, score
from bert_score.utils import model2layers

model = sys.argv[1]
cands = ["The cat sat on the mat.", "A fast brown fox jumped."]
refs = [["The cat is on the mat.", "A cat sat on a mat."], ["A quick brown fox jumps over the lazy dog."]]
P, R, F = score(cands, refs, model_type=model, num_layers=2)
print(F.tolist(), P.tolist(), model2layers["roberta-large"])
scorer = BERTScorer(model_type=model, num_layers=2, idf=True, idf_sents=[r for group in refs for r in group])
print(scorer.score(cands, refs)[2].tolist(), repr(bert_score.__version__))
print(BERTScorer.__module__, file=sys.stderr)
