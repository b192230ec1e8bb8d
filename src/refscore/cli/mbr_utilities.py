"""``refscore mbr --utilities FILE``: MBR over a saved utility matrix instead of a metric, and the decoders' options
(``--decoder pruning``), for :mod:`refscore.cli.pairs` (docs/mbr.md).

The file is one that refscore writes (or any program can): ``.npy`` (``refscore pairwise -o FILE.npy``: items x
candidates x pseudo-references float64, NaN-padded; or one item's 2-D matrix), ``.npz`` (``refscore mbr --matrices``:
one such array per name, several combined with ``--weights``), or ``.jsonl`` (``refscore pairwise``'s JSONL: one
``{"scores": [[...]]}`` per item, in the items' order). Per item, the JSONL input may give ``weights`` (sampling
probabilities of the pseudo-references) or ``log_probs``.
"""
from __future__ import annotations

import argparse
import json
import zipfile
from typing import Any

import numpy as np

from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import CliError, unreadable
from refscore.cli.metric_setup import metrics_from_args

FORMATS = (".npy", ".npz", ".jsonl")


def _load_jsonl(path: str) -> list[np.ndarray]:
    matrices = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise CliError(f"{path}: line {number}: not JSON ({exc.msg}, column {exc.colno})",
                               ExitCode.BAD_INPUT) from None
            if not isinstance(record, dict) or "scores" not in record:
                raise CliError(f"{path}: line {number}: expected an object with 'scores' (a candidates x "
                               f"pseudo-references list of lists), as refscore pairwise writes", ExitCode.BAD_INPUT)
            scores = np.array(record["scores"], dtype=np.float64) if record["scores"] else np.zeros((0, 0))
            matrices.append(scores)
    return matrices


def load_utilities(path: str) -> Any:
    """The utilities saved in ``path`` (a 3-D or 2-D array, a dict of them by name, or a list per item)."""
    if not path.endswith(FORMATS):
        raise CliError(f"--utilities {path}: the formats are {', '.join(FORMATS)} (refscore pairwise -o FILE.npy, "
                       f"refscore mbr --matrices FILE.npz, refscore pairwise's JSONL)", ExitCode.USAGE)
    try:
        if path.endswith(".jsonl"):
            return _load_jsonl(path)
        loaded = np.load(path, allow_pickle=False)
        if path.endswith(".npy"):
            return loaded
        with loaded:
            arrays = {name: loaded[name] for name in loaded.files}
    except OSError as exc:
        raise unreadable(path, exc, "--utilities") from None
    except (ValueError, zipfile.BadZipFile, UnicodeDecodeError) as exc:
        raise CliError(f"--utilities {path}: not a readable {path.rsplit('.', 1)[-1]} file ({exc})",
                       ExitCode.BAD_INPUT) from None
    if not arrays:
        raise CliError(f"--utilities {path}: the archive holds no array", ExitCode.BAD_INPUT)
    return next(iter(arrays.values())) if len(arrays) == 1 else arrays


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--utilities", default=None, metavar="FILE",
                        help="a saved utility matrix instead of metrics: FILE.npy (refscore pairwise -o), FILE.npz "
                        "(refscore mbr --matrices; several arrays combined with --weights) or FILE.jsonl "
                        "(refscore pairwise's JSONL); higher is better")
    parser.add_argument("--decoder", choices=("mbr", "pruning"), default="mbr",
                        help="mbr: every pair; pruning: confidence-based pruning (Cheng & Vlachos 2023, as mbrs' "
                        "pruning_mbr; the pseudo-references are the candidates, self-pairs included)")
    parser.add_argument("--alpha", type=float, default=0.99, help="pruning: confidence threshold (default 0.99)")
    parser.add_argument("--schedule", type=int, nargs="+", default=[8, 16, 32, 64, 128, 256], metavar="N",
                        help="pruning: pseudo-references per step (default 8 16 32 64 128 256)")
    parser.add_argument("--bootstrap-samples", type=int, default=500,
                        help="pruning: bootstrap resamples per step (default 500)")
    parser.add_argument("--seed", type=int, default=0, help="pruning: seed of the bootstrap draws (default 0)")


def decoder_options(args: argparse.Namespace) -> dict[str, Any]:
    """``pruning_mbr``'s options from the command line."""
    return {"alpha": args.alpha, "sampling_scheduler": args.schedule, "num_bootstrap_samples": args.bootstrap_samples,
            "seed": args.seed}


def selection(args: argparse.Namespace, utilities: Any) -> Any:
    """The selection function for a batch of items, with the command line's options."""
    from refscore.pairs import mbr, pruning_mbr

    source: dict[str, Any] = ({"utilities": utilities} if utilities is not None else
                              {"metric": metrics_from_args(args.metrics, args)})
    threads = {"num_threads": args.num_threads, "memory_budget": args.memory_budget}
    if args.decoder == "pruning":
        if utilities is None and len(source["metric"]) != 1:
            raise CliError(f"--decoder pruning scores one metric, got {len(source['metric'])} ({args.metrics})",
                           ExitCode.USAGE)
        if utilities is None:
            source["metric"] = source["metric"][0]
        for flag, given in (("--weights", args.weights), ("--standardize", args.standardize),
                            ("--include-self", args.include_self), ("--matrices", args.matrices)):
            if given:
                raise CliError(f"{flag} is not an option of --decoder pruning", ExitCode.USAGE)

        def pruned(items: Any, **extra: Any) -> Any:   # extra: mbr's progress and return_matrices
            return pruning_mbr(items.candidates, pseudo_references=items.references, **source, **threads,
                               sample_weights=items.sample_weights, sample_log_probs=items.sample_log_probs,
                               **decoder_options(args))
        return pruned

    def selected(items: Any, **extra: Any) -> Any:
        return mbr(items.candidates, pseudo_references=items.references, weights=args.weights,
                   include_self=args.include_self, standardize=args.standardize, **source, **threads,
                   sample_weights=items.sample_weights, sample_log_probs=items.sample_log_probs, **extra)
    return selected
