"""Hugging Face ``evaluate.load("squad")`` and ``evaluate.load("squad_v2")`` on refscore's SQuAD scoring: the
official v1.1 / v2.0 scripts' arithmetic (sums in the scripts' order, × 100) and output dicts, per-question scores
from :func:`refscore.metrics.squad.segment_values`.

Predictions are ``{"id", "prediction_text"}`` (v2 also ``"no_answer_probability"``, read as evaluate's float32
feature), references ``{"id", "answers": {"text": [...], "answer_start": [...]}}`` (a list of ``{"text": ...}``
dicts is read too, as evaluate's features convert it).

>>> from refscore.compat import evaluate
>>> predictions = [{"prediction_text": "1976", "id": "56e10a3be3433e1400422b22", "no_answer_probability": 0.0}]
>>> references = [{"answers": {"answer_start": [97], "text": ["1976"]}, "id": "56e10a3be3433e1400422b22"}]
>>> evaluate.load("squad").compute(predictions=[{k: v for k, v in predictions[0].items() if k != "no_answer_probability"}],
...                                references=references)
{'exact_match': 100.0, 'f1': 100.0}
>>> evaluate.load("squad_v2").compute(predictions=predictions, references=references)["best_f1_thresh"]
0.0
"""
from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from refscore.compat._evaluate_base import EvaluateModule
from refscore.errors import InputError, InputTypeError
from refscore.metrics.squad import segment_values


def _field(entry: Any, key: str, argument: str, index: int) -> Any:
    if not isinstance(entry, Mapping) or key not in entry:
        raise InputError(f"{argument}[{index}] must be a dict with {key!r} (SQuAD's format), got "
                         f"{type(entry).__name__}{'' if not isinstance(entry, Mapping) else ' without ' + repr(key)}")
    return entry[key]


def answer_texts(reference: Any, index: int) -> list[str]:
    """The answer texts of ``references[index]``: ``answers["text"]``, or the ``"text"`` of each answer dict."""
    answers = _field(reference, "answers", "references", index)
    texts = answers.get("text", []) if isinstance(answers, Mapping) else [_field(a, "text", f"references[{index}]"
                                                                              "['answers']", k)
                                                                       for k, a in enumerate(answers)]
    for k, text in enumerate(texts):
        if not isinstance(text, str):
            raise InputTypeError(f"references[{index}]['answers']['text'][{k}] must be a str, got {type(text).__name__}")
    return list(texts)


def _predictions(predictions: list[Any]) -> dict[Any, str]:
    texts = {}
    for index, entry in enumerate(predictions):
        text = _field(entry, "prediction_text", "predictions", index)
        if not isinstance(text, str):
            raise InputTypeError(f"predictions[{index}]['prediction_text'] must be a str, got {type(text).__name__}")
        texts[_field(entry, "id", "predictions", index)] = text
    return texts


def raw_scores(version: str, predictions: Mapping[Any, str], references: list[Any], missing: str
               ) -> list[tuple[Any, float, float]]:
    """(id, exact match, F1) of each reference with a prediction, in order, repeats included (the scripts'
    loops: v1.1 adds each row, v2.0's ``get_raw_scores`` keeps the last row of an id at its first place)."""
    rows = []
    for index, reference in enumerate(references):
        qid, texts = _field(reference, "id", "references", index), answer_texts(reference, index)
        if qid not in predictions:
            print(missing.format(qid=qid), file=sys.stderr)
            continue
        if not texts and version == "1.1":   # the v1.1 script's max() of no scores
            raise InputError(f"squad: references[{index}] (id {qid!r}) has no answer text; SQuAD v1.1 needs at "
                             f"least one (unanswerable questions: evaluate.load('squad_v2'))")
        exact, f1, _ = segment_values(version, predictions[qid], texts or [""])
        rows.append((qid, float(exact), f1))
    return rows


class Squad(EvaluateModule):
    """``evaluate.load("squad")``: ``compute(predictions, references)`` -> ``{"exact_match", "f1"}`` (0–100)."""

    name = "squad"
    input_layouts = ({"predictions": {"id": "string", "prediction_text": "string"},
                      "references": {"id": "string", "answers": {"text": ["string"], "answer_start": ["int32"]}}},)

    def _compute(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        rows = raw_scores("1.1", _predictions(predictions), references,
                          "Unanswered question {qid} will receive score 0.")
        total = len(references)
        exact_sum: float = 0
        f1_sum: float = 0
        for _, exact, f1 in rows:   # the script adds each question as it reads it, in order
            exact_sum += exact
            f1_sum += f1
        return {"exact_match": 100.0 * exact_sum / total, "f1": 100.0 * f1_sum / total}


def _eval_dict(exact: Mapping[Any, float], f1: Mapping[Any, float], qids: list[Any] | None = None) -> dict[str, Any]:
    keys = list(exact) if qids is None else qids
    total = len(keys)
    return {"exact": 100.0 * sum(exact[k] for k in keys) / total, "f1": 100.0 * sum(f1[k] for k in keys) / total,
            "total": total}


def _best_threshold(predictions: Mapping[Any, str], scores: Mapping[Any, float], no_answer: Mapping[Any, float],
                    has_answer: Mapping[Any, bool]) -> tuple[float, float]:
    """v2's ``find_best_thresh``: the no-answer probability threshold that scores best, and that score."""
    current = best = float(sum(1 for k in has_answer if not has_answer[k]))
    threshold = 0.0
    for qid in sorted(no_answer, key=lambda k: no_answer[k]):
        if qid not in scores:
            continue
        current += scores[qid] if has_answer[qid] else (-1 if predictions[qid] else 0)
        if current > best:
            best, threshold = current, no_answer[qid]
    return 100.0 * best / len(scores), threshold


class SquadV2(EvaluateModule):
    """``evaluate.load("squad_v2", no_answer_threshold=1.0)``: ``compute(predictions, references)`` -> exact, f1,
    total, the ``HasAns_*`` / ``NoAns_*`` breakdown when there are such questions, and the best thresholds."""

    name = "squad_v2"
    input_layouts = ({"predictions": {"id": "string", "prediction_text": "string", "no_answer_probability": "float32"},
                      "references": {"id": "string", "answers": {"text": ["string"], "answer_start": ["int32"]}}},)

    def __init__(self, *args: Any, no_answer_threshold: float = 1.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.no_answer_threshold = no_answer_threshold

    def _compute(self, predictions: list[Any], references: list[Any]) -> dict[str, Any]:
        no_answer = {}
        for index, entry in enumerate(predictions):
            probability = _field(entry, "no_answer_probability", "predictions", index)
            no_answer[entry["id"]] = float(np.float32(probability))   # evaluate's float32 feature
        texts = _predictions(predictions)
        has_answer = {_field(r, "id", "references", i): bool(answer_texts(r, i)) for i, r in enumerate(references)}
        rows = raw_scores("2.0", texts, references, "Missing prediction for {qid}")
        exact_raw = {qid: exact for qid, exact, _ in rows}
        f1_raw = {qid: f1 for qid, _, f1 in rows}
        threshold = self.no_answer_threshold

        def thresholded(scores: dict[Any, float]) -> dict[Any, float]:
            return {qid: float(not has_answer[qid]) if no_answer[qid] > threshold else score
                    for qid, score in scores.items()}

        exact, f1 = thresholded(exact_raw), thresholded(f1_raw)
        if not exact:
            raise InputError("squad_v2: no reference id has a prediction; give each prediction the 'id' of its "
                             "reference")
        output = _eval_dict(exact, f1)
        for prefix, wanted in (("HasAns", True), ("NoAns", False)):
            qids = [qid for qid, answered in has_answer.items() if answered is wanted]
            if qids:
                output.update({f"{prefix}_{k}": v for k, v in _eval_dict(exact, f1, qids).items()})
        output["best_exact"], output["best_exact_thresh"] = _best_threshold(texts, exact_raw, no_answer, has_answer)
        output["best_f1"], output["best_f1_thresh"] = _best_threshold(texts, f1_raw, no_answer, has_answer)
        return output
