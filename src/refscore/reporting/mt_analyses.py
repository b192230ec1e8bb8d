"""compare-mt's analyses (Neubig et al. 2019, compare-mt 0.2.10 ``compare_mt_main``'s defaults) from a report's texts
and BLEU statistics: the length ratio and brevity penalty of each system, the word F-measure by the frequency of a
word in the references, and the number of segments by the length difference between output and reference.

Words are the tokens of the report's BLEU (sacreBLEU's ``13a`` unless BLEU is configured otherwise, lowercased with
``lowercase=True``), so the numbers equal compare-mt's run on text tokenized that way. compare-mt takes one
reference: with several, the word and length-difference analyses use the first; the length ratio and the brevity
penalty are BLEU's (with several references, the closest reference length of each segment).

>>> references = [["the", "cat", "sat"], ["a", "dog"]]
>>> words = word_accuracy_by_frequency(references, {"sys": [["the", "cat"], ["a", "dog", "barked"]]})
>>> words.labels[:3], words.reference_words
(['<1', '1', '2'], [0, 5, 0, 0, 0, 0, 0, 0, 0])
>>> round(words.fmeasure["sys"][1], 4)   # words seen once: 4 of 4 output words match, 4 of 5 reference words
0.8889
>>> words.output_words["sys"][0]   # "barked" is in no reference: bucket <1
1
>>> length_difference_counts(references, {"sys": [["the", "cat"], ["a", "dog", "barked"]]}).counts["sys"][7:10]
[1, 0, 1]
"""
from __future__ import annotations

import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import NamedTuple

import numpy as np

from refscore.errors import InputError, TokenizedInputWarning
from refscore.metrics.bleu import BLEU
from refscore.protocol import Statistics
from refscore.reporting.data import ReportData
from refscore.wording import fixed
from refscore.reporting.latex import latex_escape, latex_table
from refscore.text.tokenizer_registry import interned_words

#: compare-mt's word-frequency bucket edges (``FreqWordBucketer``): < 1, 1, 2, 3, 4, [5,10), [10,100), [100,1000),
#: >= 1000 occurrences.
FREQUENCY_EDGES: tuple[int, ...] = (1, 2, 3, 4, 5, 10, 100, 1000)
#: compare-mt's length-difference bucket edges (``LengthDiffSentenceBucketer``), len(output) - len(reference).
LENGTH_DIFFERENCE_EDGES: tuple[int, ...] = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)

Tokens = Sequence[Sequence[Hashable]]


def _check_segments(system: str, outputs: Tokens, references: Tokens) -> None:
    if len(outputs) != len(references):
        raise InputError(f"systems[{system!r}] has {len(outputs)} segments but there are {len(references)} "
                         f"references; give one output per segment")


#: A corpus as word ids (one vocabulary shared with the corpora it is compared with) and segment offsets: the words
#: of segment i are ``ids[offsets[i]:offsets[i + 1]]``.
Encoded = tuple[np.ndarray, np.ndarray]


def _intern(corpora: Sequence[Tokens]) -> tuple[list[Encoded], list[Hashable]]:
    """Token lists as :data:`Encoded` corpora with one vocabulary (returned too, in order of first appearance)."""
    vocabulary: dict[Hashable, int] = {}
    encoded = []
    for corpus in corpora:
        ids = np.fromiter((vocabulary.setdefault(w, len(vocabulary)) for words in corpus for w in words), np.int64)
        encoded.append((ids, np.concatenate([[0], np.cumsum([len(words) for words in corpus], dtype=np.int64)])))
    return encoded, list(vocabulary)


def _pair_counts(corpus: Encoded, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (segment, word) pairs of a corpus as keys ``segment * size + id``, sorted, and their counts."""
    ids, offsets = corpus
    segments = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    return np.unique(segments * size + ids, return_counts=True)


def bucket_labels(edges: Sequence[int]) -> list[str]:
    """compare-mt's bucket names for integer ``edges`` (``Bucketer.set_bucket_cutoffs``): ``<e0``, a single value
    where two edges are 1 apart, ``[lo,hi)`` otherwise, ``>=last``.

    >>> bucket_labels((1, 2, 5, 10))
    ['<1', '1', '[2,5)', '[5,10)', '>=10']
    """
    labels = [f"<{edges[0]}"]
    labels += [f"{hi - 1}" if hi - 1 == lo else f"[{lo},{hi})" for lo, hi in zip(edges, edges[1:])]
    return labels + [f">={edges[-1]}"]


def bucket_indices(values: np.ndarray, edges: Sequence[int]) -> np.ndarray:
    """The bucket of each value: the index of the first edge it is below, or the last bucket (compare-mt's
    ``cutoff_into_bucket``).

    >>> bucket_indices(np.array([0, 1, 4, 5, 99]), (1, 2, 5)).tolist()
    [0, 1, 2, 3, 3]
    """
    return np.searchsorted(np.asarray(edges), values, side="right")


@dataclass(frozen=True)
class LengthRatio:
    """A system's corpus lengths in words: ``ratio`` = hypothesis / reference words (compare-mt's ``length``
    score, 0 without reference words), ``brevity_penalty`` = BLEU's (1, or exp(1 - reference / hypothesis words)
    when shorter; 0 without hypothesis words)."""

    hypothesis_words: int
    reference_words: int
    ratio: float
    brevity_penalty: float


def length_ratios(metric: BLEU, statistics: Mapping[str, Statistics]) -> dict[str, LengthRatio]:
    """Length ratio and brevity penalty per system from its BLEU statistics (``hyp_len``, ``ref_len``).

    >>> bleu = BLEU()
    >>> stats = {"short": bleu.statistics(["a b c"], [["a b c d e f"]])}
    >>> ratio = length_ratios(bleu, stats)["short"]
    >>> ratio.ratio, round(ratio.brevity_penalty, 4)
    (0.5, 0.3679)
    """
    ratios = {}
    for system, stats in statistics.items():
        score = metric.score_from_statistics(stats)
        values = score.values
        ratios[system] = LengthRatio(values["sys_len"], values["ref_len"], values["sys_len"] / values["ref_len"]
                                     if values["ref_len"] else 0.0, float(values["bp"]))
    return ratios


@dataclass(frozen=True)
class WordAccuracy:
    """Word matches by frequency bucket (compare-mt's word accuracy analysis), per bucket in ``labels`` order:
    ``reference_words`` per bucket, and per system ``output_words``, ``matches``, ``precision``, ``recall`` and
    ``fmeasure`` (all three 0 where a bucket has no match, as compare-mt)."""

    labels: list[str]
    reference_words: list[int]
    output_words: dict[str, list[int]]
    matches: dict[str, list[int]]
    precision: dict[str, list[float]]
    recall: dict[str, list[float]]
    fmeasure: dict[str, list[float]]


def word_accuracy_by_frequency(references: Tokens, systems: Mapping[str, Tokens], *,
                               frequencies: Mapping[Hashable, int] | None = None,
                               edges: Sequence[int] = FREQUENCY_EDGES) -> WordAccuracy:
    """compare-mt's word F-measure by frequency bucket: a word's bucket is its count in ``frequencies`` (default:
    its count in ``references``; give counts of a training corpus for compare-mt's ``freq_corpus_file``). In each
    segment an output word matches while the reference has unmatched copies of it (min of the two counts)."""
    for system, outputs in systems.items():
        _check_segments(system, outputs, references)
    (reference, *outputs), words = _intern([references, *systems.values()])
    return _word_accuracy(reference, dict(zip(systems, outputs)), words, frequencies, edges)


def _word_accuracy(reference: Encoded, outputs: Mapping[str, Encoded], words: Sequence[Hashable],
                   frequencies: Mapping[Hashable, int] | None, edges: Sequence[int]) -> WordAccuracy:
    """:func:`word_accuracy_by_frequency` on encoded corpora (``words``: their vocabulary)."""
    size = max(len(words), 1)
    if frequencies is None:
        counts = np.bincount(reference[0], minlength=len(words))
    else:
        counts = np.array([frequencies.get(word, 0) for word in words], dtype=np.int64).reshape(-1)
    buckets = bucket_indices(counts, edges)   # of every word
    labels = bucket_labels(edges)

    def per_bucket(ids: np.ndarray, weights: np.ndarray | None = None) -> list[int]:
        return [int(v) for v in np.bincount(buckets[ids], weights, minlength=len(labels)).round()]

    reference_words = per_bucket(reference[0])
    reference_pairs, reference_counts = _pair_counts(reference, size)
    output_words, matches = {}, {}
    for system, output in outputs.items():
        # each (segment, word) pair of both sides matches min(output count, reference count) times
        pairs, pair_counts = _pair_counts(output, size)
        shared, mine, theirs = np.intersect1d(pairs, reference_pairs, assume_unique=True, return_indices=True)
        output_words[system] = per_bucket(output[0])
        matches[system] = per_bucket(shared % size, np.minimum(pair_counts[mine], reference_counts[theirs]) * 1.0)
    systems = list(outputs)
    precision = {s: [m / o if m else 0.0 for m, o in zip(matches[s], output_words[s])] for s in systems}
    recall = {s: [m / r if m else 0.0 for m, r in zip(matches[s], reference_words)] for s in systems}
    fmeasure = {s: [2 * p * r / (p + r) if p + r else 0.0 for p, r in zip(precision[s], recall[s])] for s in systems}
    return WordAccuracy(labels, reference_words, output_words, matches, precision, recall, fmeasure)


@dataclass(frozen=True)
class LengthDifferences:
    """Segments per bucket of len(output) - len(reference) in words, per system (``counts[system][bucket]``)."""

    labels: list[str]
    counts: dict[str, list[int]]


def length_difference_counts(references: Tokens, systems: Mapping[str, Tokens], *,
                             edges: Sequence[int] = LENGTH_DIFFERENCE_EDGES) -> LengthDifferences:
    """compare-mt's sentence buckets by length difference (``bucket_type=lengthdiff``, counting segments)."""
    for system, outputs in systems.items():
        _check_segments(system, outputs, references)
    return _length_differences(np.array([len(words) for words in references], dtype=np.int64),
                               {s: np.array([len(words) for words in o], dtype=np.int64) for s, o in systems.items()},
                               edges)


def _length_differences(reference_lengths: np.ndarray, lengths: Mapping[str, np.ndarray],
                        edges: Sequence[int]) -> LengthDifferences:
    """:func:`length_difference_counts` from the words per segment of the references and of each system."""
    labels = bucket_labels(edges)
    counts = {}
    for system, output_lengths in lengths.items():
        buckets = bucket_indices(output_lengths - reference_lengths, edges)
        counts[system] = [int(v) for v in np.bincount(buckets, minlength=len(labels))]
    return LengthDifferences(labels, counts)


def bleu_tokens(metric: BLEU, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The words BLEU counts in ``texts`` (its tokenizer and ``lowercase``, as sacreBLEU tokenizes), as
    ``(ids, offsets, vocabulary)``: the words of text i are ``vocabulary[k] for k in ids[offsets[i]:offsets[i + 1]]``.
    """
    config = metric.config
    ids, offsets, vocabulary = interned_words(texts, config.tokenize, lowercase=config.lowercase,
                                              spm_model=config.spm_model)
    return ids.astype(np.int64), offsets, vocabulary


def bleu_words(metric: BLEU, texts: Sequence[str]) -> list[list[str]]:
    """The words BLEU counts in each text (see :func:`bleu_tokens`).

    >>> bleu_words(BLEU(), ["Hello, world!", ""])
    [['Hello', ',', 'world', '!'], []]
    """
    ids, offsets, vocabulary = bleu_tokens(metric, texts)
    words, bounds = [vocabulary[k] for k in ids.tolist()], offsets.tolist()
    return [words[bounds[i]:bounds[i + 1]] for i in range(len(bounds) - 1)]


@dataclass(frozen=True)
class MTAnalyses:
    """compare-mt's analyses of a report (see the module): ``bleu`` is the BLEU whose words and statistics they
    use."""

    bleu: BLEU
    lengths: dict[str, LengthRatio]
    words: WordAccuracy
    length_differences: LengthDifferences


def analyse(data: ReportData, *, frequency_texts: Sequence[str] | None = None) -> MTAnalyses:
    """compare-mt's analyses of a report's systems: with the report's metric that declares
    ``compare_mt_words`` (sacreBLEU BLEU: its words and its statistics) when it
    has one, else with sacreBLEU's default BLEU. ``frequency_texts`` (e.g. the target side of the training data,
    compare-mt's ``freq_corpus_file``) give the word counts of the frequency buckets instead of the references; they
    are tokenized as BLEU tokenizes."""
    bleu = next((metric for metric in data.metrics if metric.compare_mt_words), None)
    if bleu is not None:
        statistics = data.statistics[bleu.name]
    else:
        bleu = BLEU()
        with warnings.catch_warnings():   # the user did not ask for BLEU: its advice on tokenized input is noise
            warnings.simplefilter("ignore", TokenizedInputWarning)
            statistics = {s: bleu.statistics(data.hypotheses[s], data.references) for s in data.systems}
    # one tokenization of the first references and every system, so that equal words have equal ids
    texts = [refs[0] for refs in data.references] + [h for system in data.systems for h in data.hypotheses[system]]
    frequencies = None
    if frequency_texts is not None:
        if isinstance(frequency_texts, str) or not all(isinstance(text, str) for text in frequency_texts):
            raise InputError("frequency_texts must be a list of strings (one text per line of the corpus)")
        ids, _, vocabulary = bleu_tokens(bleu, frequency_texts)
        frequencies = dict(zip(vocabulary, np.bincount(ids, minlength=len(vocabulary)).tolist()))
    ids, offsets, vocabulary = bleu_tokens(bleu, texts)
    n = data.n_segments
    corpora = [(ids[offsets[k * n]:offsets[(k + 1) * n]], offsets[k * n:(k + 1) * n + 1] - offsets[k * n])
               for k in range(len(data.systems) + 1)]
    reference, outputs = corpora[0], dict(zip(data.systems, corpora[1:]))
    lengths = {system: np.diff(output[1]) for system, output in outputs.items()}
    return MTAnalyses(bleu, length_ratios(bleu, statistics),
                      _word_accuracy(reference, outputs, vocabulary, frequencies, FREQUENCY_EDGES),
                      _length_differences(np.diff(reference[1]), lengths, LENGTH_DIFFERENCE_EDGES))


# -- HTML and LaTeX ----------------------------------------------------------------------------------------------
class _Table(NamedTuple):
    """A table of the section as plain text, for the HTML and the LaTeX: a row per system (``systems_in_rows``, the
    first cell the system) or a column per system (the last columns)."""

    caption: str
    headers: list[str]
    rows: list[list[str]]
    systems_in_rows: bool


def _tables(analyses: MTAnalyses) -> list[_Table]:
    """The section's three tables."""
    systems = list(analyses.lengths)
    lengths = [[s, str(r.hypothesis_words), str(r.reference_words), f"{r.ratio:.4f}", f"{r.brevity_penalty:.4f}"]
               for s, r in analyses.lengths.items()]
    words = analyses.words
    fmeasure = [[label, str(words.reference_words[i]), *(f"{words.fmeasure[s][i]:.4f}" for s in systems)]
                for i, label in enumerate(words.labels)]
    differences = analyses.length_differences
    counts = [[label, *(str(differences.counts[s][i]) for s in systems)] for i, label in enumerate(differences.labels)]
    return [
        _Table("Length: output and reference words (BLEU's), length ratio (output / reference) and BLEU's brevity "
               "penalty", ["system", "output words", "reference words", "length ratio", "brevity penalty"], lengths,
               True),
        _Table("Word F-measure (0-1) by the word's frequency in the references; reference words per bucket",
               ["frequency", "reference words", *systems], fmeasure, False),
        _Table("Segments by length difference: output words minus reference words", ["difference", *systems], counts,
               False),
    ]


def section_html(analyses: MTAnalyses) -> str:
    """The report's compare-mt section: the three tables, escaped. Systems are numbered as in the rest of the page
    (1 = the first system): a number and the name in row headers, the number (the name on hover) in column
    headers, so that tables with many long names fit the page."""
    number = {system: i for i, system in enumerate(analyses.lengths, 1)}

    def column_header(index: int, text: str, table: _Table) -> str:
        if table.systems_in_rows or index < len(table.headers) - len(number):
            return f'<th scope="col">{escape(text)}</th>'
        return f'<th scope="col"><abbr title="{escape(text)}">{number[text]}</abbr></th>'

    def row_header(text: str, table: _Table) -> str:
        return f'<th scope="row">{f"{number[text]}&nbsp;" if table.systems_in_rows else ""}{escape(text)}</th>'

    parts = []
    for table in _tables(analyses):
        head = "".join(column_header(i, h, table) for i, h in enumerate(table.headers))
        body = "".join("<tr>" + row_header(row[0], table) + "".join(f"<td>{escape(c)}</td>" for c in row[1:]) +
                       "</tr>" for row in table.rows)
        parts.append(f'<table class="mt-analysis"><caption>{escape(table.caption)}</caption><thead><tr>{head}</tr>'
                     f'</thead><tbody>{body}</tbody></table>')
    words = f"<code>{escape(str(analyses.bleu.signature()))}</code>"
    return (f'<p>compare-mt 0.2.10\'s definitions and buckets. Words are BLEU\'s tokens ({words}); with several '
            f'references, the word and length-difference tables use the first of each segment.</p>'
            f'<div class="grid">{"".join(parts)}</div>')


def report_latex(data: ReportData, analyses: MTAnalyses, digits: int = 2) -> str:
    """The report's tables as LaTeX (booktabs): corpus scores (×100, the page's scale) with their bootstrap intervals,
    then the compare-mt tables; signatures and settings as ``%`` comments."""
    names, scale = data.score_names, data.scale
    rows = [[latex_escape(system), *(f"{fixed(scale(n) * data.corpus[system][n], digits)} "
                                     f"[{fixed(scale(n) * data.intervals[system][n][0], digits)}, "
                                     f"{fixed(scale(n) * data.intervals[system][n][1], digits)}]" for n in names)]
            for system in data.systems]
    tables = [latex_table(["system", *map(latex_escape, names)], rows,
                          caption=f"Corpus scores (x100) with 95% bootstrap intervals ({data.n} resamples)",
                          comments=[f"{n}: {data.bootstrap_signatures.get(n, data.signatures[n])}" for n in names])]
    for table in _tables(analyses):
        tables.append(latex_table([latex_escape(h) for h in table.headers],
                                  [[latex_escape(cell) for cell in row] for row in table.rows], caption=table.caption,
                                  comments=[f"words: {analyses.bleu.signature()}"]))
    return "\n\n".join(tables) + "\n"
