"""What a metric declares about itself, so every workflow reads it from the metric class and keeps no list of its own.

:class:`MetricFacts` is the part of :class:`refscore.protocol.Metric` that the workflows above the metrics ask
for: the range and direction of a test case's threshold, the check names and display label of test cases, the
explanation of one case's score, the arithmetic of bootstrap replicates, the settings that do not change the
numbers (left out of the config hash), the command-line defaults and runtime flags, a model to load once per
worker, and token similarities for the report. A new metric overrides only what differs from the defaults below;
docs/architecture.md lists them.

>>> from refscore.metrics import get_metric_class
>>> bleu = get_metric_class("bleu")
>>> bleu.check_spec("bleu").label, bleu.check_spec("chrf"), bleu.threshold_range
('BLEU', None, (0.0, 1.0))
"""
from __future__ import annotations

from collections.abc import Sequence
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar

import numpy as np

from refscore._column_rules import ColumnRules
from refscore.lazy import import_entry

if TYPE_CHECKING:   # imported when asked for: it loads the compiled pairwise kernel
    from refscore._pair_scoring import PairScoring

Scorer = Callable[[np.ndarray], np.ndarray]

#: The merge rules of statistics columns (:meth:`MetricFacts.merge_rules`) and the segment-count column's name.
SUM, SEGMENTS, CARRIED = "sum", "segments", "carried"
DOCUMENTS = "documents"


@dataclass(frozen=True)
class CheckSpec:
    """How a test case's check name maps onto a metric: the canonical check name, the metric's registry name, the
    display label, the options the check name fixes (``rougeL``: ``types=("rougeL",)``), the options a check sets
    unless given (BLEU: sacreBLEU sentence_bleu's effective order) and the default bands."""

    name: str
    registry: str
    label: str
    options: tuple[tuple[str, Any], ...] = ()
    defaults: tuple[tuple[str, Any], ...] = ()
    bands: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class Arithmetic:
    """How a metric's resampled scores are computed (bootstrap intervals, paired tests).

    ``exact(totals)``: ``(m, n_scores)`` float64 scores of exact sums (full corpus, randomization trials);
    ``resampled(sums32)``: a peer's scores of float32 resample sums (sacreBLEU's BLEU, chrF, TER), ``None`` when
    the metric has no peer arithmetic; ``scale``: 100 for sacreBLEU's 0–100 scores, 1 for refscore's own.
    """

    scale: float
    exact: Scorer
    resampled: Scorer | None

    @property
    def peer(self) -> bool:
        return self.resampled is not None


@dataclass(frozen=True)
class CliOption:
    """One command-line flag mapped onto one config field: metrics declare their flags next to their config
    (:attr:`Metric.cli_options`), so the command line is generated, not hand-written.

    ``flags`` e.g. ``("--tokenize", "-tok")``; ``field`` is the config attribute it sets; ``type`` converts the
    string (``bool`` makes a store-true switch); ``choices`` restricts values.
    """

    flags: tuple[str, ...]
    field: str
    help: str
    type: Callable[[str], Any] | type = str
    choices: tuple[Any, ...] | None = None

    @property
    def dest(self) -> str:
        return self.flags[0].lstrip("-").replace("-", "_")


class MetricFacts:
    """The facts and hooks of a metric that workflows read; every one has a default, so a metric overrides only
    what differs (see the attributes' comments)."""

    name: ClassVar[str]
    #: The direction of every score (TER: lower is better): test thresholds, gates, report shading.
    higher_is_better: ClassVar[bool] = True
    #: The range of a test case's threshold on the 0–1 scale; a value outside is a scale or sign mistake.
    threshold_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    #: The range of one sentence-level score on the 0–1 scale (a saved baseline's score outside it is refused);
    #: None: :attr:`threshold_range`. TER is unbounded above, rescaled BERTScore below.
    score_range: ClassVar[tuple[float, float] | None] = None
    #: The display name in test reports and explanations (default: the registry name).
    check_label: ClassVar[str | None] = None
    #: Options a test case's check sets unless given (BLEU: sacreBLEU's sentence_bleu effective order).
    check_defaults: ClassVar[tuple[tuple[str, Any], ...]] = ()
    #: Default bands of a test case's check: (label, bound), best first.
    check_bands: ClassVar[tuple[tuple[str, float], ...]] = ()
    #: Whether the metric offers a test-case check under its own name (False: another metric's names cover it).
    offers_checks: ClassVar[bool] = True
    #: The package and function whose numbers this metric reproduces exactly (for docs and tests), or None.
    exact_to: ClassVar[str | None] = None
    #: ``"module:function"`` of a peer's arithmetic for bootstrap replicates (sacreBLEU's float32 sums for BLEU,
    #: chrF, TER): ``function(metric)`` returns an :class:`Arithmetic`; None: refscore's own.
    peer_arithmetic: ClassVar[str | None] = None
    #: The ``name`` field of the peer's JSON output (sacreBLEU's ``"BLEU"``, ``"TER"``), which the command
    #: line's JSON carries too; None: the peer's JSON has none (or its name depends on the config).
    peer_json_name: ClassVar[str | None] = None
    #: The factor by which the command line and the report print the scores: 100 prints 0–1 scores on sacreBLEU's
    #: 0–100 scale (every built-in metric); scores from outside (COMET, MQM ratings) print as given (1) unless
    #: declared (``external_scores(..., scale=100)``, ``--metric-option NAME.scale=100``).
    display_scale: ClassVar[float] = 100.0
    #: Config fields that do not change the numbers (device, batch size, threads): left out of the config hash.
    runtime_fields: ClassVar[frozenset[str]] = frozenset()
    #: Flags of settings that do not change the numbers (BERTScore: ``--device``), in the command line's
    #: "runtime settings" group; each sets a :attr:`runtime_fields` config field when given.
    runtime_cli_options: ClassVar[tuple[CliOption, ...]] = ()
    #: True when building the metric's scores loads a model: distributed runs keep it in a pool of actors that
    #: call :meth:`warm_up` once each.
    loads_model: ClassVar[bool] = False
    #: True when the statistics count the words of the config's word tokenizer (``tokenize``, ``lowercase``) as
    #: ``hyp_len``/``ref_len`` and the score has ``sys_len``, ``ref_len`` and ``bp``: the report's compare-mt
    #: analyses (length ratios, word accuracy) then use this metric's words and statistics (sacreBLEU BLEU).
    compare_mt_words: ClassVar[bool] = False
    #: True when a segment's statistics depend on that segment alone, to the last bit (not on the other segments
    #: of the call): several systems' segments against the same references are then scored in one call
    #: (:func:`refscore.metrics.systems.statistics_by_system`). False for BERTScore (per-call IDF; embeddings
    #: batched with other sentences) and scores read from outside.
    independent_segments: ClassVar[bool] = True
    #: True when every statistics column is an integer count (BLEU, chrF, GLEU, exact match): sums are exact in any
    #: order, so a distributed run sends only column totals (``refscore.distributed``). A test checks it against
    #: the dtype of every registered metric's statistics.
    integer_statistics: ClassVar[bool] = False
    #: True when the statistics are read by key, (system, segment id), from scores computed elsewhere instead of
    #: computed from the text (:func:`refscore.external_scores`): the workflows hand such a metric each system's
    #: hypotheses as :class:`~refscore.metrics.external.SystemSegments` (or the ids to
    #: :meth:`system_statistics`), and refuse it where a system's segments are not kept together (streamed and
    #: distributed runs, an output a test produces).
    keyed_scores: ClassVar[bool] = False
    #: The bundled example ``refscore example`` scores this metric on: ``"translation"`` (German WMT) or
    #: ``"summarization"`` (English XSum: ROUGE, METEOR, whose stems and synonyms are English).
    example_task: ClassVar[str] = "translation"
    #: The ``tokenize`` option a target language sets unless given (the command line's ``-l SRC-TGT``;
    #: BLEU: sacreBLEU's choice, :data:`refscore.text.languages.TARGET_TOKENIZERS`); empty: none.
    target_tokenizers: ClassVar[dict[str, str]] = {}

    # -- test cases ------------------------------------------------------------------------------------------
    @classmethod
    def check_names(cls) -> tuple[str, ...]:
        """The check names this metric offers (listed in error messages and docs)."""
        return (cls.name,) if cls.offers_checks else ()

    @classmethod
    def check_spec(cls, key: str) -> CheckSpec | None:
        """The :class:`CheckSpec` of check name ``key`` (lowercase, no dashes), None when it is not this metric's."""
        if not cls.offers_checks or key != cls.name:
            return None
        return CheckSpec(cls.name, cls.name, cls.check_label or cls.name, (), cls.check_defaults, cls.check_bands)

    def explain_case(self, output: str, references: Sequence[str]) -> str:
        """A short explanation of one case's score (a test case that failed); the default states the score."""
        stats = self.statistics([output], [list(references)], num_threads=1)  # type: ignore[attr-defined]  # a Metric mixin
        table = self.segment_table(stats)  # type: ignore[attr-defined]  # a Metric mixin
        return "; ".join(f"{name} {float(values[0]):.3f}" for name, values in table.items())

    # -- statistics columns ----------------------------------------------------------------------------------
    @property
    def statistics_columns(self) -> tuple[str, ...] | None:
        """The summed columns of this metric's statistics, in the order its formulas read them (they read by
        position): statistics with other names or another order are refused when scored
        (:meth:`check_statistics`) and put in this order by name when loaded (:func:`refscore.load_statistics`).
        None when they are not known before computing (BERTScore with ``all_layers``). Default: ``columns``.

        >>> from refscore.metrics import get_metric_class
        >>> get_metric_class("ter")().statistics_columns
        ('edits', 'ref_length')
        """
        columns = getattr(self, "columns", None)
        return None if columns is None else tuple(columns)

    def merge_rules(self) -> dict[str, str]:
        """Each statistics column's merge rule, by name: the one place a metric says how statistics of parts of a
        corpus combine (``a + b``, streamed totals, distributed runs, bootstrap resamples). ``"sum"``: a column
        summed over segments (counts; a document-averaged metric's per-segment scores). ``"segments"``: the
        ``documents`` column of a document-averaged metric (ROUGE, BERTScore, METEOR, SQuAD, scores from outside),
        summed too, the count its corpus means divide by. ``"carried"``: a column that follows its segment and is
        never summed (ROUGE's best reference per type). Default: every summed column ``"sum"``, ``documents``
        ``"segments"``.

        >>> from refscore.metrics import get_metric_class
        >>> get_metric_class("ter")().merge_rules(), get_metric_class("meteor")().merge_rules()["documents"]
        ({'edits': 'sum', 'ref_length': 'sum'}, 'segments')
        """
        return {name: SEGMENTS if name == DOCUMENTS else SUM for name in self.statistics_columns or ()}

    @property
    def carried_statistics_columns(self) -> tuple[str, ...]:
        """The carried (never summed) columns, in order (ROUGE's best reference per type): those of
        :meth:`merge_rules` with the rule ``"carried"``."""
        return tuple(name for name, rule in self.merge_rules().items() if rule == CARRIED)

    def documents(self, stats: Any) -> int:
        """The number of segments a document-averaged metric's corpus value is the mean over: the total of its
        ``"segments"`` column, right for a row of totals as for per-segment rows; the rows otherwise."""
        counted = [name for name, rule in self.merge_rules().items() if rule == SEGMENTS]
        if not counted:
            return len(stats)
        total = float(stats.column(counted[0]).sum())
        return int(total) if total == total else len(stats)   # NaN statistics: the rows

    def statistics_rules(self) -> ColumnRules:
        """What the values of this metric's statistics columns may be (counts never negative, matches at most
        their totals), checked on statistics read from a file; the default declares nothing."""
        return ColumnRules()

    # -- significance ----------------------------------------------------------------------------------------
    def arithmetic(self) -> Arithmetic:
        """The arithmetic of bootstrap replicates: refscore's own (exact sums scored in float64, 0–1) unless the
        metric declares a peer's (:attr:`peer_arithmetic`: sacreBLEU's for BLEU, chrF and TER)."""
        if self.peer_arithmetic is not None:
            return import_entry(self.peer_arithmetic)(self)
        return Arithmetic(1.0, self.scores_from_totals, None)  # type: ignore[attr-defined]  # a Metric mixin

    # -- pairwise matrices (refscore.pairs): one declared capability -----------------------------------------
    def pair_scoring(self, texts: list[str]) -> PairScoring:
        """How :func:`refscore.pairwise` / :func:`refscore.mbr` score every pair of an item over ``texts`` (the
        call's distinct texts): default counts-based (:class:`~refscore._pair_scoring.CountPairs`) when
        :meth:`count_streams` gives streams, else sentence scores of the pairs; BERTScore overrides it with its
        native matrices (:class:`~refscore._pair_scoring.NativePairs`). See :mod:`refscore._pair_scoring`."""
        from refscore._pair_scoring import default_pair_scoring

        return default_pair_scoring(self, texts)

    def count_streams(self, texts: list[str]) -> list[tuple[Any, Any, int]] | None:
        """Distinct texts cut into n-gram units once, ``[(units, offsets, max_order), ...]``: declaring it (with
        :meth:`statistics_from_counts`) opts a metric into counts-based :meth:`pair_scoring`
        (:mod:`refscore.metrics._pair_counts` for the built-in ones); None (the default): sentence scores."""
        return None

    def statistics_from_counts(self, hyp: Any, ref: Any, match: Any) -> Any:
        """Statistics rows of pairs from ``(pairs, orders)`` n-gram counts of candidate and reference and their
        clipped matches (only called when :meth:`count_streams` gives streams)."""
        raise NotImplementedError(f"{type(self).__name__} does not share counts between pairs")

    # -- command line and runtime ----------------------------------------------------------------------------
    @classmethod
    def command_line_defaults(cls, options: dict[str, Any], *, segments: bool) -> dict[str, Any]:
        """``options`` with the defaults the command line uses for this metric: with ``segments`` (per-segment
        scores asked for) the sentence-level :attr:`check_defaults` unless set (BLEU: effective order, as
        ``sacrebleu -sl``); the API keeps its config defaults.

        >>> from refscore.metrics import get_metric_class
        >>> bleu = get_metric_class("bleu")
        >>> bleu.command_line_defaults({}, segments=True), bleu.command_line_defaults({}, segments=False)
        ({'effective_order': True}, {})
        """
        return {**dict(cls.check_defaults), **options} if segments else options

    def sentence_metric(self) -> Any:
        """The metric of this one's sentence-level scores (meta-evaluation's segment level, report and calibration):
        this metric with the :attr:`check_defaults` its config leaves at their defaults (BLEU: effective order, as
        ``sacrebleu.sentence_bleu``); itself when that changes nothing. A field set to its default value cannot be
        told from one left unset: give the sentence-level metric explicitly to keep such a value.

        >>> from refscore.metrics import get_metric_class
        >>> bleu = get_metric_class("bleu")
        >>> bleu().sentence_metric().config.effective_order, get_metric_class("chrf")().sentence_metric().name
        (True, 'chrf')
        """
        config = getattr(self, "config", None)
        if not self.check_defaults or not dataclasses.is_dataclass(config):
            return self
        unset = {field.name: field.default for field in dataclasses.fields(config)}
        changes = {name: value for name, value in self.check_defaults
                   if name in unset and getattr(config, name) == unset[name] and getattr(config, name) != value}
        if not changes:
            return self
        # a metric class takes its config; is_dataclass() above narrows config to an instance or a class
        return type(self)(dataclasses.replace(config, **changes))  # type: ignore[call-arg, type-var]  # see above

    @classmethod
    def language_defaults(cls, options: dict[str, Any], target: str) -> dict[str, Any]:
        """``options`` with the tokenizer :attr:`target_tokenizers` picks for target language ``target`` unless a
        tokenizer is given (sacreBLEU's ``-l SRC-TGT``)."""
        chosen = cls.target_tokenizers.get(target)
        if chosen is None or options.get("tokenize") is not None:
            return options
        return {**options, "tokenize": chosen}

    def hashed_config(self) -> dict[str, Any]:
        """The config fields that enter the config hash (statistics merge only with equal hashes): every field
        but :attr:`runtime_fields`."""
        fields = dataclasses.asdict(self.config)  # type: ignore[attr-defined]  # a Metric mixin
        return {name: value for name, value in fields.items() if name not in self.runtime_fields}

    def reported_score(self, stats: Any, *, num_threads: int | None = None) -> Any:
        """The corpus result ``refscore score`` prints when it is not :meth:`score_from_statistics`'s, its headline
        printed as given (ROUGE-1.5.5: the Perl script's bootstrap averages, :meth:`ROUGE155.script_score`); None
        (the default): :meth:`score_from_statistics` and the printed-scale formula."""
        return None

    @classmethod
    def for_example(cls) -> Any:
        """The metric ``refscore example`` scores (default: the default settings; ROUGE: every type)."""
        return cls()

    def check_runtime_settings(self) -> None:
        """Check a runtime setting that would otherwise fail only after a model has loaded (BERTScore: that the
        device exists); raise :class:`~refscore.errors.InputError`. The default checks nothing."""

    def set_progress(self, progress: bool | None) -> None:
        """``--progress/--no-progress`` for a metric that draws progress bars while it scores (BERTScore); None
        decides by the run's length. Metrics that draw none ignore it (the default)."""

    def system_statistics(self, system: str | None, hypotheses: Any, references: Any, segment_ids: Sequence[Any], *,
                          num_threads: int | None = None) -> Any:
        """The per-segment statistics of one named system's outputs (``None``: the only system), segments
        ``segment_ids`` in that order (a meta-evaluation's judgments, a test run's case ids): metrics score the text
        (the default); scores from outside (:attr:`keyed_scores`) join their rows by (system, segment id) instead,
        so that no workflow treats them as a special case."""
        return self.statistics(hypotheses, references, num_threads=num_threads)  # type: ignore[attr-defined]  # a Metric mixin

    def explain_segment(self, output: str, references: Sequence[str], system: str | None, segment_id: Any) -> str:
        """The explanation of one segment's score (a test case's): :meth:`explain_case` of its text by default;
        scores from outside say where the row of (``system``, ``segment_id``) was read."""
        return self.explain_case(output, references)

    def baseline_declarations(self) -> dict[str, Any] | None:
        """What two runs must share for their scores to be compared (a saved baseline), when that is not the
        metric's name and config hash (None, the default): scores from outside, which each run reads from its own
        file, compare when their declarations (direction, range) are equal."""
        return None

    def warm_up(self) -> None:
        """Load what the metric loads lazily (a model) now: once per distributed worker, not inside a batch."""

    def token_similarities(self) -> Any:
        """An object with ``similarity_matrix(output, reference)`` for the report's heatmaps, or None."""
        return None

