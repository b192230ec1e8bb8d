"""Internals of BERTScore (bert-score 0.3.13 semantics): model loading, tokenization, embedding, greedy matching,
IDF and baseline rescaling. The public API is :mod:`refscore.metrics.bertscore`.

torch and transformers are imported only inside the functions that need them (the ``bertscore`` extra).
"""
