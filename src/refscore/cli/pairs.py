"""``refscore pairwise`` and ``refscore mbr``: many candidates against many references per item, from JSONL.

Each input line is one item, a JSON object with ``candidates`` (a list of strings) and, optionally,
``references`` (a list of strings; ``mbr``: the pseudo-references) and ``id`` (echoed in JSONL output). Without
``references`` the candidates are scored against each other. Every line must agree: all with references or none.
Outputs are written atomically (a failed or interrupted run leaves no half-written file); ``.npy`` holds the
items x candidates x references float64 matrix padded with NaN, ``.jsonl`` one object per item (docs/pairwise.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from refscore.cli.arguments import add_metrics_argument, add_progress_argument, positive_int
from refscore.cli.exit_codes import ExitCode
from refscore.cli.io import STDIN, CliError, decode_text, read_bytes, read_standard_input, source_name
from refscore.cli.metric_setup import add_metric_arguments, metrics_from_args
from refscore.io.atomic import atomic_path, atomic_write, check_output_paths

_FIELDS = ("id", "candidates", "references")


def _string_list(value: Any, where: str, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise CliError(f"{where}: '{field}' must be a list of strings, got {json.dumps(value)[:60]}",
                       ExitCode.BAD_INPUT)
    return value


def read_items(path: str) -> tuple[list[Any], list[list[str]], list[list[str]] | None]:
    """The ids, candidate lists and reference lists (None: no line has references) of a JSONL file."""
    source = source_name(path)
    data = read_standard_input() if path == STDIN else read_bytes(path, "-i")
    ids, candidates, references = [], [], []
    with_references: bool | None = None
    for number, line in enumerate(decode_text(data, source).split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{source} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CliError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); each line is one item, "
                           f'e.g. {{"candidates": ["a", "b"], "references": ["c"]}}', ExitCode.BAD_INPUT) from None
        if not isinstance(record, dict) or "candidates" not in record:
            raise CliError(f"{where}: each line must be a JSON object with a 'candidates' list", ExitCode.BAD_INPUT)
        unknown = sorted(set(record) - set(_FIELDS))
        if unknown:
            raise CliError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; the fields are "
                           f"{', '.join(_FIELDS)}", ExitCode.BAD_INPUT)
        has = "references" in record
        if with_references is not None and has != with_references:
            raise CliError(f"{where}: {'has' if has else 'lacks'} 'references' but the lines before "
                           f"{'do not' if has else 'do'}; give references on every line or on none",
                           ExitCode.LINE_COUNT_MISMATCH)
        with_references = has
        ids.append(record.get("id", len(ids)))
        candidates.append(_string_list(record["candidates"], where, "candidates"))
        if has:
            references.append(_string_list(record["references"], where, "references"))
    return ids, candidates, references if with_references else None


def _one_metric(args: argparse.Namespace) -> Any:
    metrics = metrics_from_args(args.metrics, args)
    if len(metrics) != 1:
        raise CliError(f"pairwise scores one metric at a time, got {len(metrics)} ({args.metrics}); run it once "
                       f"per metric (or use refscore mbr, which combines several)", ExitCode.USAGE)
    return metrics[0]


def _write_npy(path: str, matrices: Any, shape: tuple[int, int, int]) -> None:
    with atomic_path(path) as temporary:
        out = np.lib.format.open_memmap(temporary, mode="w+", dtype=np.float64, shape=shape)
        for k, matrix in enumerate(matrices):
            out[k] = np.nan
            out[k, :matrix.shape[0], :matrix.shape[1]] = matrix
        out.flush()
        del out


def _jsonl_lines(ids: list[Any], rows: Any) -> Any:
    for item_id, row in zip(ids, rows):
        yield json.dumps({"id": item_id, **row}, ensure_ascii=False) + "\n"


def _write_lines(path: str | None, lines: Any) -> None:
    if path is None or path == STDIN:
        for line in lines:
            sys.stdout.write(line)
        return
    with atomic_write(path) as handle:
        handle.writelines(lines)


def cmd_pairwise(args: argparse.Namespace) -> int:
    from refscore.pairs import pairwise_items

    metric = _one_metric(args)
    check_output_paths({"-o": args.output})
    ids, candidates, references = read_items(args.input)
    matrices = pairwise_items(metric, candidates, references, num_threads=args.num_threads,
                              memory_budget=args.memory_budget, progress=args.progress)
    if args.output is not None and args.output.endswith(".npy"):
        refs = candidates if references is None else references
        shape = (len(candidates), max(map(len, candidates), default=0), max(map(len, refs), default=0))
        _write_npy(args.output, matrices, shape)
    else:
        _write_lines(args.output, _jsonl_lines(ids, ({"scores": m.tolist()} for m in matrices)))
    return ExitCode.OK


def cmd_mbr(args: argparse.Namespace) -> int:
    from refscore.pairs import mbr

    metrics = metrics_from_args(args.metrics, args)
    check_output_paths({"-o": args.output, "--matrices": args.matrices})
    ids, candidates, references = read_items(args.input)
    result = mbr(candidates, metric=metrics, pseudo_references=references, weights=args.weights,
                 include_self=args.include_self, standardize=args.standardize,
                 return_matrices=args.matrices is not None, num_threads=args.num_threads,
                 memory_budget=args.memory_budget, progress=args.progress)
    rows = ({"chosen": int(result.chosen[k]), "best": result.best[k],
             "utilities": [None if np.isnan(u) else float(u) for u in result.utilities[k, :len(candidates[k])]]}
            for k in range(len(candidates)))
    if args.matrices is not None:
        with atomic_write(args.matrices, "wb") as handle:   # a file object: savez adds no suffix
            np.savez(handle, **result.matrices)
    _write_lines(args.output, _jsonl_lines(ids, rows))
    return ExitCode.OK


def _common(parser: argparse.ArgumentParser, default_metric: str) -> None:
    add_metrics_argument(parser, default_metric)
    parser.add_argument("-i", "--input", default=STDIN, metavar="FILE",
                        help="JSONL items: {\"candidates\": [...], \"references\": [...]} per line (default: "
                        "standard input)")
    parser.add_argument("--num-threads", type=positive_int, default=None,
                        help="threads for the compiled core (default: all)")
    parser.add_argument("--memory-budget", default=None, metavar="SIZE",
                        help="working memory limit, e.g. 4GiB (default: $REFSCORE_MEMORY_BUDGET or 2GiB)")
    add_progress_argument(parser)
    add_metric_arguments(parser)
    parser.set_defaults(segments=True)   # sentence-level metric defaults (BLEU: effective order)


def register(commands: Any) -> None:
    pairwise = commands.add_parser(
        "pairwise", help="sentence scores of every candidate against every reference, per item",
        description="Score every candidate of each JSONL item against each of its references (or, without "
                    "references, against each other candidate): exactly the metric's sentence scores, 0-1.")
    _common(pairwise, "chrf")
    pairwise.add_argument("-o", "--output", default=None, metavar="FILE",
                          help="FILE.npy: items x candidates x references float64, NaN-padded; other names and "
                          "standard output: JSONL, one {\"id\", \"scores\"} per item")
    pairwise.set_defaults(handler=cmd_pairwise)

    mbr = commands.add_parser(
        "mbr", help="minimum Bayes risk selection of one candidate per item",
        description="Choose per JSONL item the candidate with the highest expected utility against the other "
                    "candidates (or the item's references, as pseudo-references).")
    _common(mbr, "chrf")
    mbr.add_argument("--weights", type=float, nargs="+", default=None, metavar="W",
                     help="one weight per metric (default: equal weights summing to 1)")
    mbr.add_argument("--include-self", action="store_true", help="score each candidate against itself too")
    mbr.add_argument("--standardize", action="store_true",
                     help="standardise each metric's expected utilities per item before weighting")
    mbr.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="JSONL selections, one {\"id\", \"chosen\", \"best\", \"utilities\"} per item "
                     "(default: standard output)")
    mbr.add_argument("--matrices", default=None, metavar="FILE.npz",
                     help="also write each metric's pairwise matrix (NaN-padded) into an .npz archive")
    mbr.set_defaults(handler=cmd_mbr)
