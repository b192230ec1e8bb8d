"""A typical sacreBLEU user program (run unchanged by tests/test_compat_install.py)."""
import sys

import sacrebleu
from sacrebleu.metrics import BLEU, CHRF, TER
from sacrebleu.significance import PairedTest

hyps = ["The cat sat on the mat.", "A dog barked at night!", "It rained all day, 3.5 mm."]
refs = [["The cat sat on a mat.", "The dog barked at night.", "It rained all day: 3.5 mm."],
        ["A cat sat on the mat.", "A dog barked loudly at night.", "Rain fell all day."]]
for metric in (BLEU(), CHRF(word_order=2), TER(normalized=True)):
    print(metric.corpus_score(hyps, refs), metric.get_signature())
print(sacrebleu.sentence_bleu(hyps[0], [refs[0][0]]).score)
print(sacrebleu.corpus_chrf(hyps, refs).score, sacrebleu.corpus_ter(hyps, refs).score)
print(BLEU().corpus_score(hyps, refs, n_bootstrap=200))
signatures, scores = PairedTest([("base", hyps), ("other", [h.lower() for h in hyps])], {"BLEU": BLEU()}, refs,
                                test_type="bs", n_samples=200)()
print(signatures["BLEU"], [(r.score, r.p_value) for r in scores["BLEU"]])
print(sacrebleu.__version__, BLEU().tokenizer("a-b, c."))
print(sacrebleu.BLEU.__module__, file=sys.stderr)
