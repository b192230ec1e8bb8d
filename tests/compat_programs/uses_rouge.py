"""A typical user program of the `rouge` package."""
import sys

import rouge
from rouge import Rouge
from rouge.rouge_score import rouge_n

hyps = ["the cat sat on the mat. it was happy", "the dog barked"]
refs = ["a cat sat on a mat. it was content", "the dog barked loudly"]
print(Rouge().get_scores(hyps, refs))
print(Rouge(metrics=["rouge-1", "rouge-l"]).get_scores(hyps, refs, avg=True))
print(rouge_n(["the cat sat"], ["the cat ran"], n=1), rouge.__version__)
print(Rouge.__module__, file=sys.stderr)
