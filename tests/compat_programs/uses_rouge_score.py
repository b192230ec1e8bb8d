"""A typical rouge-score user program."""
import sys

from rouge_score import rouge_scorer, scoring

scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)
aggregator = scoring.BootstrapAggregator()
pairs = [("The quick brown fox jumps over the lazy dog.\nIt ran.", "The quick brown dog jumps on the log.\nIt ran."),
         ("the cat sat on the mat", "a cat was sitting on a mat"), ("hello world", "goodbye moon")]
for target, prediction in pairs:
    scores = scorer.score(target, prediction)
    aggregator.add_scores(scores)
    print({key: tuple(round(v, 12) for v in value) for key, value in scores.items()})
print(scorer.score_multi(["the cat sat", "a dog sat"], "the dog sat"))
print(rouge_scorer.lcs_ind(["a", "b", "c"], ["b", "c", "a"]))
print(sorted(aggregator.aggregate()))
print(rouge_scorer.RougeScorer.__module__, file=sys.stderr)
