"""``refscore pairwise`` and ``refscore mbr``: many candidates against many references per item, from JSONL.

Each input line is one item, a JSON object with ``candidates`` (a list of strings) and, optionally,
``references`` (a list of strings; ``mbr``: the pseudo-references) and ``id`` (echoed in JSONL output). Without
``references`` the candidates are scored against each other. Every line must agree: all with references or none.
Outputs are written atomically (a failed or interrupted run leaves no half-written file); ``.npy`` holds the
items x candidates x references float64 matrix padded with NaN, ``.jsonl`` one object per item (docs/pairwise.md).

Lines are read one at a time (``refscore.io.json_lines``: the line limit ``REFSCORE_MAX_LINE_BYTES``, errors that
name the file, the line and the column). JSONL output streams: items are scored and written batch by batch, so
the input need not fit in memory; so does ``.npy`` output from a file, after a first pass that finds the matrix's
shape (its header needs every item's size). ``.npy`` output from standard input (which can be read once) and
``mbr --matrices`` (one padded matrix of all items per metric) read every item first.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from refscore.cli import mbr_utilities
from refscore.cli.arguments import add_metrics_argument, add_progress_argument, positive_int
from refscore.cli.commands import command_help
from refscore.cli.exit_codes import ExitCode, input_error_code
from refscore.cli.io import STDIN, CliError, check_readable, source_name, unreadable
from refscore.cli.metric_setup import add_metric_arguments, metrics_from_args
from refscore.cli.process import check_printable
from refscore.errors import InputError
from refscore.io.atomic import NO_SPACE, atomic_write, check_output_paths, output_transaction
from refscore.io.json_lines import json_values
from refscore.progress import progress_bar

_FIELDS = ("id", "candidates", "references", "weights", "log_probs")
_WEIGHT_FIELDS = {"weights": "sample_weights", "log_probs": "sample_log_probs"}
_EXAMPLE = 'each line is one item, e.g. {"candidates": ["a", "b"], "references": ["c"]}'
#: Texts (candidates and references) per call of the scorer when items stream: enough pairs per call to keep the
#: compiled core's threads busy, few enough that one batch's memory stays small.
_BATCH_TEXTS = 1 << 12
#: Seconds of scoring assumed per input byte, only to decide whether the automatic progress bar shows.
_SECONDS_PER_INPUT_BYTE = 1e-6


@dataclass
class Items:
    """Items of a JSONL input, in input order: ids, candidate lists and reference lists (None: no references)."""

    ids: list[Any] = field(default_factory=list)
    candidates: list[list[str]] = field(default_factory=list)
    references: list[list[str]] | None = None
    sample_weights: list[list[float]] | None = None
    sample_log_probs: list[list[float]] | None = None


def _number_list(value: Any, where: str, field_name: str) -> list[float]:
    if not isinstance(value, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                              for v in value):
        raise CliError(f"{where}: '{field_name}' must be a list of numbers (one per pseudo-reference), got "
                       f"{json.dumps(value)[:60]}", ExitCode.BAD_INPUT)
    return [float(v) for v in value]


def _string_list(value: Any, where: str, field_name: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise CliError(f"{where}: '{field_name}' must be a list of strings, got {json.dumps(value)[:60]}",
                       ExitCode.BAD_INPUT)
    return value


class ItemReader:
    """The items of a JSONL file or of standard input, read line by line through :func:`refscore.io.json_lines.
    json_values` (the line limit ``REFSCORE_MAX_LINE_BYTES``; errors name the file, the line and the column) and
    handed on in batches, so that a file need not fit in memory. Every line must agree: all with references or
    none."""

    def __init__(self, path: str, weights: bool = False) -> None:
        self.path, self.source, self.weights = path, source_name(path), weights
        if path != STDIN:
            check_readable(path, "-i")
        self.with_references: bool | None = None
        self.with_weights: dict[str, bool | None] = dict.fromkeys(_WEIGHT_FIELDS)
        self.count = 0

    def input_bytes(self) -> int:
        """The size of the input file (0 for standard input: unknown)."""
        return 0 if self.path == STDIN else os.path.getsize(self.path)

    def _stream(self) -> Any:
        if self.path != STDIN:
            try:
                return open(self.path, "rb")
            except OSError as exc:
                raise unreadable(self.path, exc, "-i") from None
        if sys.stdin is None or not hasattr(sys.stdin, "buffer"):
            raise CliError("standard input is closed; give the input as a file (-i FILE) or pipe it in "
                           "(... | refscore ...)", ExitCode.UNREADABLE_FILE)
        return contextlib.nullcontext(sys.stdin.buffer)

    def _add(self, batch: Items, number: int, record: Any) -> None:
        where = f"{self.source}: line {number}"
        if not isinstance(record, dict) or "candidates" not in record:
            raise CliError(f"{where}: each line must be a JSON object with a 'candidates' list", ExitCode.BAD_INPUT)
        unknown = sorted(set(record) - set(_FIELDS))
        if unknown:
            raise CliError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; the fields are "
                           f"{', '.join(_FIELDS)}", ExitCode.BAD_INPUT)
        has = "references" in record
        if self.with_references is not None and has != self.with_references:
            raise CliError(f"{where}: {'has' if has else 'lacks'} 'references' but the lines before "
                           f"{'do not' if has else 'do'}; give references on every line or on none",
                           ExitCode.LINE_COUNT_MISMATCH)
        self.with_references = has
        for name, attribute in _WEIGHT_FIELDS.items():
            given = name in record
            if given and not self.weights:
                raise CliError(f"{where}: '{name}' weighs the pseudo-references of refscore mbr; refscore pairwise "
                               f"does not use it", ExitCode.BAD_INPUT)
            if self.with_weights[name] is not None and given != self.with_weights[name]:
                raise CliError(f"{where}: {'has' if given else 'lacks'} '{name}' but the lines before "
                               f"{'do not' if given else 'do'}; give it on every line or on none",
                               ExitCode.LINE_COUNT_MISMATCH)
            self.with_weights[name] = given
            if given:
                values = getattr(batch, attribute) if getattr(batch, attribute) is not None else []
                values.append(_number_list(record[name], where, name))
                setattr(batch, attribute, values)
        batch.ids.append(record.get("id", self.count))
        batch.candidates.append(_string_list(record["candidates"], where, "candidates"))
        if has:
            batch.references = batch.references if batch.references is not None else []
            batch.references.append(_string_list(record["references"], where, "references"))
        self.count += 1

    def batches(self, batch_texts: int = _BATCH_TEXTS) -> Iterator[Items]:
        """The items in batches of about ``batch_texts`` texts (at least one item each; none for an empty input)."""
        batch, texts = Items(), 0
        self.with_references, self.count = None, 0   # each pass reads the input afresh
        self.with_weights = dict.fromkeys(_WEIGHT_FIELDS)
        try:
            with self._stream() as stream:
                for number, record in json_values(stream, self.source, hint=_EXAMPLE):
                    self._add(batch, number, record)
                    texts += len(batch.candidates[-1]) + len(batch.references[-1] if batch.references else [])
                    if texts >= batch_texts:
                        yield batch
                        batch, texts = Items(), 0
        except InputError as error:
            raise CliError(str(error), input_error_code(error)) from None
        except OSError as exc:
            if self.path == STDIN:
                raise CliError(f"cannot read standard input ({exc.strerror or exc})", ExitCode.UNREADABLE_FILE) \
                    from None
            raise unreadable(self.path, exc, "-i") from None
        if batch.ids:
            yield batch

    def read_all(self) -> Items:
        """Every item at once (for outputs that need all of them before the first is written)."""
        whole = Items()
        for batch in self.batches():
            whole.ids += batch.ids
            whole.candidates += batch.candidates
            for attribute in _WEIGHT_FIELDS.values():
                if getattr(batch, attribute) is not None:
                    setattr(whole, attribute, (getattr(whole, attribute) or []) + getattr(batch, attribute))
            if batch.references is not None:
                whole.references = whole.references if whole.references is not None else []
                whole.references += batch.references
        return whole


def _one_metric(args: argparse.Namespace) -> Any:
    metrics = metrics_from_args(args.metrics, args)
    if len(metrics) != 1:
        raise CliError(f"pairwise scores one metric at a time, got {len(metrics)} ({args.metrics}); run it once "
                       f"per metric (or use refscore mbr, which combines several)", ExitCode.USAGE)
    return metrics[0]


def _write_npy(path: str, matrices: Any, shape: tuple[int, int, int]) -> None:
    """The NaN-padded matrices as one ``.npy`` array, item after item, written with ``write`` calls: through a
    memory map, a full disk was a bus error (SIGBUS) instead of an error. The file's space is reserved first
    (``posix_fallocate``), so a disk too small for it fails before any item is scored."""
    with atomic_write(path, "wb", argument="-o") as handle:
        np.lib.format.write_array_header_1_0(handle, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float64)),
                                                      "fortran_order": False, "shape": shape})
        _reserve(handle, handle.tell() + 8 * shape[0] * shape[1] * shape[2])
        block = np.empty(shape[1:], dtype=np.float64)
        for matrix in matrices:
            block.fill(np.nan)
            block[:matrix.shape[0], :matrix.shape[1]] = matrix
            handle.write(block.tobytes())


def _reserve(handle: Any, size: int) -> None:
    """Allocate ``size`` bytes of the file's disk space now (where the file system can), so that a full disk is an
    ``OSError`` before the work, not after it."""
    if not hasattr(os, "posix_fallocate") or size <= 0:
        return
    handle.flush()
    try:
        os.posix_fallocate(handle.fileno(), 0, size)
    except OSError as exc:
        if exc.errno in NO_SPACE:
            raise
        # EOPNOTSUPP, EINVAL: a file system without it; the writes report a full disk themselves


def _jsonl_lines(ids: list[Any], rows: Any) -> Any:
    for item_id, row in zip(ids, rows):
        yield json.dumps({"id": item_id, **row}, ensure_ascii=False) + "\n"


def _write_lines(path: str | None, lines: Any) -> None:
    if path is None or path == STDIN:
        for line in lines:
            sys.stdout.write(line)
            sys.stdout.flush()   # a reader downstream gets each item as it is scored
        return
    with atomic_write(path, argument="-o") as handle:
        handle.writelines(lines)


def _stream_bar(reader: ItemReader, description: str, progress: bool | None) -> Any:
    """One bar over the items of a streamed run (its length is unknown until the input ends)."""
    return progress_bar(total=None, description=description, enabled=progress,  # type: ignore[arg-type]  # length unknown
                        expected_seconds=reader.input_bytes() * _SECONDS_PER_INPUT_BYTE, unit="item")


def _shape(batches: Iterable[Items]) -> tuple[int, int, int]:
    """Items x most candidates x most references (the candidates, without references) of the batches."""
    items = candidates = references = 0
    for batch in batches:
        items += len(batch.ids)
        candidates = max(candidates, max(map(len, batch.candidates), default=0))
        refs = batch.candidates if batch.references is None else batch.references
        references = max(references, max(map(len, refs), default=0))
    return items, candidates, references


def cmd_pairwise(args: argparse.Namespace) -> int:
    from refscore.pairs import pairwise_items

    metric = _one_metric(args)
    check_output_paths({"-o": args.output}, [("-i", args.input)])
    reader = ItemReader(args.input)
    options = {"num_threads": args.num_threads, "memory_budget": args.memory_budget}
    if args.output is not None and args.output.endswith(".npy"):   # the header needs every item's size first
        if reader.path == STDIN:   # read once: every item in memory
            items = reader.read_all()
            _write_npy(args.output, pairwise_items(metric, items.candidates, items.references,
                                                   progress=args.progress, **options), _shape([items]))
            return ExitCode.OK
        shape = _shape(reader.batches())   # a first pass for the shape, a second that scores batch by batch
        bar = _stream_bar(reader, f"pairwise {metric.name}", args.progress)

        def matrices() -> Iterator[np.ndarray]:
            for batch in reader.batches():
                yield from pairwise_items(metric, batch.candidates, batch.references, progress=False, **options)
                bar.update(len(batch.ids))

        with bar:
            _write_npy(args.output, matrices(), shape)
        return ExitCode.OK
    bar = _stream_bar(reader, f"pairwise {metric.name}", args.progress)

    def lines() -> Iterator[str]:
        for batch in reader.batches():
            matrices = pairwise_items(metric, batch.candidates, batch.references, progress=False, **options)
            yield from _jsonl_lines(batch.ids, ({"scores": m.tolist()} for m in matrices))
            bar.update(len(batch.ids))

    with bar:
        _write_lines(args.output, lines())
    return ExitCode.OK


def _selections(items: Items, result: Any) -> Iterator[str]:
    rows = ({"chosen": int(result.chosen[k]), "best": result.best[k],
             "utilities": [None if np.isnan(u) else float(u) for u in result.utilities[k, :len(candidates)]]}
            for k, candidates in enumerate(items.candidates))
    return _jsonl_lines(items.ids, rows)


def cmd_mbr(args: argparse.Namespace) -> int:
    check_output_paths({"-o": args.output, "--matrices": args.matrices}, [("-i", args.input)])
    reader = ItemReader(args.input, weights=True)
    utilities = None
    if args.utilities is not None:
        if getattr(args, "_metrics_given", False):   # set by -m (arguments._MetricNames)
            raise CliError(f"--utilities replaces the metrics; leave out -m ({args.metrics})", ExitCode.USAGE)
        check_readable(args.utilities, "--utilities")
        utilities = mbr_utilities.load_utilities(args.utilities)
    select = mbr_utilities.selection(args, utilities)
    if args.matrices is not None or utilities is not None:   # all items at once: the archive, the file's matrices
        items = reader.read_all()
        try:
            result = select(items, **({"return_matrices": True} if args.matrices is not None else {}),
                            progress=args.progress)
        except InputError as error:
            raise CliError(str(error), ExitCode.BAD_INPUT) from None
        selections = "".join(_selections(items, result))
        to_stdout = args.output is None or args.output == STDIN
        if args.matrices is None:
            _write_lines(args.output, [selections])
            return ExitCode.OK
        if to_stdout:
            check_printable(selections)   # before the archive is written
        with output_transaction() as outputs:   # both files or neither
            with outputs.open(args.matrices, "wb", "--matrices") as handle:   # a file object: savez adds no suffix
                np.savez(handle, **result.matrices)
            if not to_stdout:
                outputs.write_text(args.output, selections, "-o")
        if to_stdout:
            _write_lines(None, [selections])
        return ExitCode.OK
    bar = _stream_bar(reader, "mbr", args.progress)

    def lines() -> Iterator[str]:
        for batch in reader.batches():
            yield from _selections(batch, select(batch, progress=False))
            bar.update(len(batch.ids))

    with bar:
        _write_lines(args.output, lines())
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
        "pairwise", help=command_help("pairwise"),
        description="Score every candidate of each JSONL item against each of its references (or, without "
                    "references, against each other candidate): exactly the metric's sentence scores, 0-1.")
    _common(pairwise, "chrf")
    pairwise.add_argument("-o", "--output", default=None, metavar="FILE",
                          help="FILE.npy: items x candidates x references float64, NaN-padded; other names and "
                          "standard output: JSONL, one {\"id\", \"scores\"} per item")
    pairwise.set_defaults(handler=cmd_pairwise)

    mbr = commands.add_parser(
        "mbr", help=command_help("mbr"),
        description="Choose per JSONL item the candidate with the highest expected utility against the other "
                    "candidates (or the item's references, as pseudo-references).")
    _common(mbr, "chrf")
    mbr.add_argument("--weights", type=float, nargs="+", default=None, metavar="W",
                     help="one weight per metric (default: equal weights summing to 1)")
    mbr.add_argument("--include-self", action=argparse.BooleanOptionalAction, default=None,
                     help="score each candidate against itself too (default: no for metrics; with --utilities "
                     "every column counts unless --no-include-self)")
    mbr.add_argument("--standardize", action="store_true",
                     help="standardise each metric's expected utilities per item before weighting")
    mbr.add_argument("-o", "--output", default=None, metavar="FILE",
                     help="JSONL selections, one {\"id\", \"chosen\", \"best\", \"utilities\"} per item "
                     "(default: standard output)")
    mbr.add_argument("--matrices", default=None, metavar="FILE.npz",
                     help="also write each metric's pairwise matrix (NaN-padded) into an .npz archive")
    mbr_utilities.add_arguments(mbr)
    mbr.set_defaults(handler=cmd_mbr)
