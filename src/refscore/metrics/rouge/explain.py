"""ROUGE's explanation of one case's score (its :meth:`~refscore.metrics.rouge.ROUGE.explain_case`): ROUGE-L the
reference words outside the longest common subsequence (ROUGE-Lsum: the same over the whole text, an approximation
of its per-sentence union LCS), ROUGE-N the missing reference n-grams.

>>> from refscore.metrics.rouge import ROUGE
>>> print(ROUGE(types=["rougeL"]).explain_case("the cat sat", ["the black cat sat"]))
ROUGE-L F 0.857 (recall 0.750, precision 1.000); reference words outside the longest common subsequence: 'black'
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from refscore.metrics._explaining import best_reference, missing, quoted
from refscore.metrics.rouge.words import rouge_tokenizer
from refscore.protocol import Metric
from refscore.text.rouge_words import rouge_score_tokens

__all__ = ["explain_rouge", "lcs_mask", "rouge_tokens"]


def rouge_tokens(text: str, stemmer: bool = False, tokenizer: str = "rouge-score", spm_model: Any = None
                 ) -> list[str]:
    """ROUGE's tokens of ``text`` for explanations: rouge-score's tokenization (lowercase ASCII letter/digit runs;
    Porter stems of tokens longer than 3 with ``stemmer``), or ROUGE's other tokenizers themselves.

    >>> rouge_tokens("Cristóbal ran", tokenizer="unicode"), rouge_tokens("Cristóbal ran")
    (['cristóbal', 'ran'], ['crist', 'bal', 'ran'])
    """
    if tokenizer != "rouge-score":
        return rouge_tokenizer(tokenizer, stemmer=stemmer, spm_model=spm_model).tokenize(text)
    return rouge_score_tokens(text, stemmer=stemmer)  # the kernel's tokens (NLTK_EXTENSIONS stems, as rouge-score)


def lcs_mask(reference: Sequence[str], output: Sequence[str]) -> list[bool]:
    """For each reference token, whether it is in a longest common subsequence with the output (rouge-score's
    backtracking order)."""
    rows, cols = len(reference), len(output)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            table[i][j] = (table[i - 1][j - 1] + 1 if reference[i - 1] == output[j - 1]
                           else max(table[i - 1][j], table[i][j - 1]))
    mask = [False] * rows
    i, j = rows, cols
    while i > 0 and j > 0:
        if reference[i - 1] == output[j - 1]:
            mask[i - 1] = True
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return mask


def explain_rouge(metric: Metric, output: str, references: Sequence[str]) -> str:
    config = metric.config
    rouge_type = config.types[0]
    table = metric.segment_table(metric.statistics([output], [list(references)], num_threads=1))
    label = f"ROUGE-{rouge_type[len('rouge'):]}"
    score = (f"{label} F {table[rouge_type][0]:.3f} (recall {table[f'{rouge_type}_recall'][0]:.3f}, "
             f"precision {table[f'{rouge_type}_precision'][0]:.3f})")
    reference_text = references[best_reference(metric, output, references)]
    hyp = rouge_tokens(output, config.stemmer, config.tokenizer, config.spm_model)
    ref = rouge_tokens(reference_text, config.stemmer, config.tokenizer, config.spm_model)
    if rouge_type in ("rougeL", "rougeLsum"):
        unmatched = [token for token, kept in zip(ref, lcs_mask(ref, hyp)) if not kept]
        what = "reference words outside the longest common subsequence"
    else:
        unmatched = missing(ref, hyp, int(rouge_type[len("rouge"):]))
        what = "reference n-grams missing from the output"
    return score + (f"; {what}: {quoted(unmatched)}" if unmatched else "")
