"""Test oracles for Hugging Face evaluate 0.4.6's ``exact_match``, ``squad`` and ``squad_v2`` modules.

``evaluate.load`` fetches a metric's module from the Hub, which the tests cannot reach, and the module code is not
part of the installed ``evaluate`` package. These oracles are written for the tests from the published definitions
(evaluate's metric cards; the official SQuAD v1.1 and v2.0 evaluation scripts, rajpurkar.github.io/SQuAD-explorer):
the same numpy calls on ``str_`` arrays for ``exact_match`` (numpy's own behaviour, NULs and widths included), the
same per-question functions and the same summation order for SQuAD. They share no code with refscore, which
normalises with plain strings. torchmetrics' SQuAD (an installed peer) is checked separately in the tests.
"""
from __future__ import annotations

import collections
import re
import string

import numpy as np


def evaluate_exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False,
                         ignore_punctuation=False, ignore_numbers=False):
    """The exact_match card's steps, on numpy arrays."""
    given_p, given_r = np.asarray(predictions), np.asarray(references)
    preds, refs = given_p.copy(), given_r.copy()
    for pattern in regexes_to_ignore or []:
        preds = np.array([re.sub(pattern, "", text) for text in preds])
        refs = np.array([re.sub(pattern, "", text) for text in refs])
    if ignore_case:
        preds, refs = np.char.lower(preds), np.char.lower(refs)
    for enabled, chars in ((ignore_punctuation, string.punctuation), (ignore_numbers, string.digits)):
        if enabled:
            table = chars.maketrans("", "", chars)
            preds, refs = np.char.translate(preds, table=table), np.char.translate(refs, table=table)
    same = (preds == refs) & ((preds != "") | (given_p == given_r))
    return {"exact_match": np.mean(same)}


_DROP = set(string.punctuation)


def normalize(text):
    """SQuAD's answer normalisation, step by step."""
    text = "".join(c for c in text.lower() if c not in _DROP)
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def f1_v1(prediction, truth):
    p, t = normalize(prediction).split(), normalize(truth).split()
    overlap = sum((collections.Counter(p) & collections.Counter(t)).values())
    if overlap == 0:
        return 0
    precision, recall = 1.0 * overlap / len(p), 1.0 * overlap / len(t)
    return (2 * precision * recall) / (precision + recall)


def f1_v2(truth, prediction):
    t = normalize(truth).split() if truth else []
    p = normalize(prediction).split() if prediction else []
    overlap = sum((collections.Counter(t) & collections.Counter(p)).values())
    if not t or not p:
        return int(t == p)
    if overlap == 0:
        return 0
    precision, recall = 1.0 * overlap / len(p), 1.0 * overlap / len(t)
    return (2 * precision * recall) / (precision + recall)


def evaluate_squad(predictions, references):
    by_id = {p["id"]: p["prediction_text"] for p in predictions}
    exact = f1 = total = 0
    for ref in references:
        total += 1
        if ref["id"] not in by_id:
            continue
        truths = list(ref["answers"]["text"])
        exact += max(normalize(by_id[ref["id"]]) == normalize(t) for t in truths)
        f1 += max(f1_v1(by_id[ref["id"]], t) for t in truths)
    return {"exact_match": 100.0 * exact / total, "f1": 100.0 * f1 / total}


def evaluate_squad_v2(predictions, references, no_answer_threshold=1.0):
    na = {p["id"]: float(np.float32(p["no_answer_probability"])) for p in predictions}
    by_id = {p["id"]: p["prediction_text"] for p in predictions}
    has_ans = collections.OrderedDict()
    for ref in references:
        has_ans[ref["id"]] = bool(ref["answers"]["text"])
    exact_raw, f1_raw = {}, {}
    for ref in references:
        truths = [t for t in ref["answers"]["text"] if normalize(t)] or [""]
        if ref["id"] not in by_id:
            continue
        pred = by_id[ref["id"]]
        exact_raw[ref["id"]] = max(int(normalize(t) == normalize(pred)) for t in truths)
        f1_raw[ref["id"]] = max(f1_v2(t, pred) for t in truths)

    def threshold(scores):
        return {q: (float(not has_ans[q]) if na[q] > no_answer_threshold else s) for q, s in scores.items()}

    exact, f1 = threshold(exact_raw), threshold(f1_raw)

    def summary(ids=None):
        ids = list(exact) if ids is None else ids
        return [("exact", 100.0 * sum(exact[k] for k in ids) / len(ids)),
                ("f1", 100.0 * sum(f1[k] for k in ids) / len(ids)), ("total", len(ids))]

    out = collections.OrderedDict(summary())
    for prefix, wanted in (("HasAns", True), ("NoAns", False)):
        ids = [k for k, v in has_ans.items() if v is wanted]
        if ids:
            out.update((f"{prefix}_{k}", v) for k, v in summary(ids))

    def best(scores):
        score = top = sum(1 for k in has_ans if not has_ans[k])
        thresh = 0.0
        for q in sorted(na, key=lambda k: na[k]):
            if q not in scores:
                continue
            score += scores[q] if has_ans[q] else (-1 if by_id[q] else 0)
            if score > top:
                top, thresh = score, na[q]
        return 100.0 * top / len(scores), thresh

    out["best_exact"], out["best_exact_thresh"] = best(exact_raw)
    out["best_f1"], out["best_f1_thresh"] = best(f1_raw)
    return dict(out)
