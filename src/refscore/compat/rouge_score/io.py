"""rouge-score's ``io`` module: ``compute_scores_and_write_to_csv`` (score files matched by glob patterns and write
per-example scores or aggregates as CSV, in rouge-score's format). The CSV file is written atomically.

>>> import os, tempfile
>>> from refscore.compat.rouge_score import rouge_scorer
>>> folder = tempfile.mkdtemp()
>>> for name in ("target", "prediction"):
...     _ = open(os.path.join(folder, name + ".txt"), "w").write("the cat sat\\n")
>>> output = os.path.join(folder, "scores.csv")
>>> compute_scores_and_write_to_csv(os.path.join(folder, "target*"), os.path.join(folder, "prediction*"),
...                                 output, rouge_scorer.RougeScorer(["rouge1"]), None)
>>> print(open(output).read().strip())
id,rouge1-P,rouge1-R,rouge1-F
0,1.000000,1.000000,1.000000
"""
from __future__ import annotations

import glob
import logging
from typing import Any

from refscore.io.atomic import atomic_write

__all__ = ["compute_scores_and_write_to_csv"]

_logger = logging.getLogger(__name__)


def compute_scores_and_write_to_csv(target_filepattern: str, prediction_filepattern: str, output_filename: str,
                                    scorer: Any, aggregator: Any, delimiter: str = "\n") -> None:
    """Score the records (``delimiter``-separated) of the target and prediction files, pairing files in sorted
    order; write aggregates (when ``aggregator`` is given) or per-example scores to ``output_filename``."""
    target_filenames = glob.glob(target_filepattern)
    prediction_filenames = glob.glob(prediction_filepattern)
    if len(target_filenames) < 1 or len(target_filenames) != len(prediction_filenames):
        raise ValueError("Must have equal and positive number of target and prediction files. Found: %d target "
                         "files (%s), %d prediction files (%s)." % (len(target_filenames), target_filepattern,
                                                                    len(prediction_filenames),
                                                                    prediction_filepattern))
    scores = _compute_scores(target_filenames, prediction_filenames, scorer, delimiter)
    if aggregator:
        for score in scores:
            aggregator.add_scores(score)
        _write_aggregates_to_csv(output_filename, aggregator.aggregate())
    else:
        _write_scores_to_csv(output_filename, scores)


def _records(filename: str, delimiter: str) -> list[str]:
    with open(filename) as file:
        records = file.read().split(delimiter)
    if records[-1]:
        _logger.warning("Expected delimiter at end of file")
    else:
        records = records[:-1]
    return records


def _compute_scores(target_filenames: list[str], prediction_filenames: list[str], scorer: Any,
                    delimiter: str) -> list[dict[str, Any]]:
    scores: list[dict[str, Any]] = []
    for target_filename, prediction_filename in zip(sorted(target_filenames), sorted(prediction_filenames)):
        targets = _records(target_filename, delimiter)
        predictions = _records(prediction_filename, delimiter)
        if len(targets) != len(predictions):
            raise ValueError("Must have equal number of lines across target and prediction files. Mismatch between "
                             "files: %s, %s." % (target_filename, prediction_filename))
        if hasattr(scorer, "score_batch"):   # refscore's scorer: one compiled call per file pair
            scores.extend(scorer.score_batch(targets, predictions))
        else:
            scores.extend(scorer.score(t, p) for t, p in zip(targets, predictions))
    return scores


def _write_aggregates_to_csv(output_filename: str, aggregates: dict[str, Any]) -> None:
    with atomic_write(output_filename) as output_file:
        output_file.write("score_type,low,mid,high\n")
        for score_type, aggregate in sorted(aggregates.items()):
            for letter, field in (("R", "recall"), ("P", "precision"), ("F", "fmeasure")):
                low, mid, high = (getattr(getattr(aggregate, part), field) for part in ("low", "mid", "high"))
                output_file.write("%s-%s,%f,%f,%f\n" % (score_type, letter, low, mid, high))


def _write_scores_to_csv(output_filename: str, scores: list[dict[str, Any]]) -> None:
    if len(scores) < 1:
        _logger.warning("No scores to write")
        return
    rouge_types = sorted(scores[0].keys())
    with atomic_write(output_filename) as out_file:
        out_file.write("id" + "".join(",{t}-P,{t}-R,{t}-F".format(t=t) for t in rouge_types) + "\n")
        for i, result in enumerate(scores):
            out_file.write("%d" % i + "".join(",%f,%f,%f" % (result[t].precision, result[t].recall,
                                                              result[t].fmeasure) for t in rouge_types) + "\n")


