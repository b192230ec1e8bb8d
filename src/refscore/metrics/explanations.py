"""Short explanations of one case's score, what the output lacks compared with the expected output: the bodies of
the metrics' :meth:`~refscore.protocol.Metric.explain_case` hooks (test cases explain failing cases with them).

Computed in Python for the one case being explained, from the metric's own tokenization where refscore exposes it:
BLEU and GLEU list the reference words and n-grams the output lacks and the brevity penalty; ROUGE-L the reference
words outside the longest common subsequence (ROUGE-Lsum: the same over the whole text, an approximation of its
per-sentence union LCS); ROUGE-N the missing reference n-grams; TER the edit count; chrF the missing reference
words; BERTScore the least-matched tokens.

>>> from refscore.metrics.rouge import ROUGE
>>> print(ROUGE(types=["rougeL"]).explain_case("the cat sat", ["the black cat sat"]))
ROUGE-L F 0.857 (recall 0.750, precision 1.000); reference words outside the longest common subsequence: 'black'
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from refscore._core._tokenize import encode_words_with_vocab
from refscore.metrics.rouge.words import rouge_tokenizer
from refscore.protocol import Metric
from refscore.text.rouge_words import rouge_score_tokens

#: At most this many words or n-grams are listed.
MAX_ITEMS = 8


def _quoted(items: Sequence[str]) -> str:
    shown = ", ".join(f"'{item}'" for item in items[:MAX_ITEMS])
    return shown + (f" and {len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else "")


def _ngrams(tokens: Sequence[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def _missing(reference: Sequence[str], output: Sequence[str], n: int) -> list[str]:
    """Reference n-grams (in reference order, counted with multiplicity) the output does not cover."""
    available = Counter(_ngrams(output, n))
    missing = []
    for gram in _ngrams(reference, n):
        if available[gram] > 0:
            available[gram] -= 1
        else:
            missing.append(" ".join(gram))
    return list(dict.fromkeys(missing))


def _best_reference(metric: Metric, output: str, references: Sequence[str]) -> int:
    """The reference this output scores best against (one batch call; ties to the first)."""
    if len(references) == 1:
        return 0
    scores = metric.sentence_scores([output] * len(references), list(references))
    return int(np.argmax(scores) if metric.higher_is_better else np.argmin(scores))


def _sacrebleu_tokens(metric: Metric, texts: list[str]) -> list[list[str]]:
    config = metric.config
    ids, offsets, vocab = encode_words_with_vocab(texts, config.tokenize, config.lowercase)
    return [[vocab[k] for k in ids[offsets[i]:offsets[i + 1]]] for i in range(len(texts))]


def explain_bleu(metric: Metric, output: str, references: Sequence[str]) -> str:
    """BLEU's n-gram precisions, brevity penalty and the reference words and n-grams the output lacks."""
    result = metric.score_from_statistics(metric.statistics([output], [list(references)], num_threads=1))
    hyp, *refs = _sacrebleu_tokens(metric, [output, *references])
    reference = refs[_best_reference(metric, output, references)]
    words = _missing(reference, hyp, 1)
    phrases, order = [], 2
    for order in range(2, metric.config.max_order + 1):    # the lowest order with a gap explains the most
        phrases = [gram for gram in _missing(reference, hyp, order) if not set(gram.split(" ")) & set(words)]
        if phrases:
            break
    # with effective order, orders longer than the output do not count: show only the orders that do
    values = result.values
    orders = [p for p, total in zip(values["precisions"], values["totals"]) if total > 0] or [0.0]
    precisions = "/".join(f"{100 * p:.0f}" for p in orders)
    parts = [f"BLEU {result.score:.3f} (n-gram precisions {precisions}%)"]
    if values["bp"] < 1.0:
        parts.append(f"brevity penalty {values['bp']:.3f}: output {values['sys_len']} tokens, reference "
                     f"{values['ref_len']}")
    else:
        parts.append("no brevity penalty")
    if words:
        parts.append(f"reference words missing from the output: {_quoted(words)}")
    if phrases:
        parts.append(f"reference {order}-grams missing: {_quoted(phrases)}")
    return "; ".join(parts)


def explain_gleu(metric: Metric, output: str, references: Sequence[str]) -> str:
    hyp, *refs = _sacrebleu_tokens(metric, [output, *references])
    reference = refs[_best_reference(metric, output, references)]
    words = _missing(reference, hyp, 1)
    if words:
        return f"reference words missing from the output: {_quoted(words)}"
    return f"every reference word is in the output; reference n-grams missing: {_quoted(_missing(reference, hyp, 2))}"


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
    reference_text = references[_best_reference(metric, output, references)]
    hyp = rouge_tokens(output, config.stemmer, config.tokenizer, config.spm_model)
    ref = rouge_tokens(reference_text, config.stemmer, config.tokenizer, config.spm_model)
    if rouge_type in ("rougeL", "rougeLsum"):
        unmatched = [token for token, kept in zip(ref, lcs_mask(ref, hyp)) if not kept]
        what = "reference words outside the longest common subsequence"
    else:
        unmatched = _missing(ref, hyp, int(rouge_type[len("rouge"):]))
        what = "reference n-grams missing from the output"
    return score + (f"; {what}: {_quoted(unmatched)}" if unmatched else "")


def explain_chrf(metric: Metric, output: str, references: Sequence[str]) -> str:
    reference = references[_best_reference(metric, output, references)]
    present = set(output.split())
    missing = list(dict.fromkeys(word for word in reference.split() if word not in present))
    if missing:
        return f"reference words not in the output: {_quoted(missing)}"
    return "every reference word is in the output; the character n-grams differ (order, spacing or extra text)"


def explain_ter(metric: Metric, output: str, references: Sequence[str]) -> str:
    stats = metric.statistics([output], [list(references)], num_threads=1)
    scores = metric.segment_scores(stats)
    edits, length = stats.column("edits")[0], stats.column("ref_length")[0]
    reference = references[_best_reference(metric, output, references)]
    present = set(output.lower().split()) if not metric.config.case_sensitive else set(output.split())
    words = reference.split() if metric.config.case_sensitive else reference.lower().split()
    missing = list(dict.fromkeys(word for word in words if word not in present))
    average = " (average of the references)" if len(references) > 1 else ""
    text = f"TER {scores[0]:.3f}: {edits:g} edits over {length:g} reference words{average}"
    return text + (f"; reference words not in the output: {_quoted(missing)}" if missing else "")


def explain_bertscore(metric: Metric, output: str, references: Sequence[str]) -> str:
    reference = references[_best_reference(metric, output, references)]
    similarity, output_tokens, reference_tokens = metric.token_similarities().similarity_matrix(output, reference)
    parts = []
    for side, tokens, best in (("reference", reference_tokens, similarity.max(axis=0, initial=-1.0)),
                               ("output", output_tokens, similarity.max(axis=1, initial=-1.0))):
        if len(tokens):
            order = np.argsort(best, kind="stable")[:3]
            listed = ", ".join(f"'{tokens[k].strip()}' {best[k]:.2f}" for k in order)
            parts.append(f"least-matched {side} tokens: {listed}")
    return "; ".join(parts)
