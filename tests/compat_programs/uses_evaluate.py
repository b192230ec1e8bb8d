"""A typical HF evaluate user program (metrics refscore has; run offline with metric scripts unavailable, so only
under the switch: the test compares its numbers with the real peers' directly)."""
import sys

import evaluate

predictions = ["the cat sat on the mat", "a dog barked at night"]
references = [["the cat sat on a mat", "a cat sat on the mat"], ["the dog barked at night", "a dog barked"]]
for name in ("bleu", "google_bleu", "sacrebleu", "chrf", "ter"):
    print(name, evaluate.load(name).compute(predictions=predictions, references=references))
rouge = evaluate.load("rouge")
rouge.add_batch(predictions=predictions, references=[refs[0] for refs in references])
print("rouge", rouge.compute(use_aggregator=False))
print(type(evaluate.load("bleu")).__module__, file=sys.stderr)
