"""The resampling machinery of the meta-evaluation tests: coin draws (the reference's stream or a fast one) and
a statistic evaluated on many resampled metric vectors at once.

A *cell vector* holds the metric scores of the cells a test works on (the rated cells, rows in the grouping's
order: mt-metrics-eval's ``_ReshapeAndFilter`` order); a statistic maps ``(resamples, cells)`` arrays to one
averaged correlation per resample.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from refscore._core._mt_coins import fill_coins
from refscore.checks import check_choice, check_seed
from refscore.meta._rows import Rows, magnitude_divisor, rows_of
from refscore.meta._ties import optimize_ties
from refscore.meta.correlations import row_values

RESAMPLERS = ("fast", "reference")

#: Cells (resamples x rows x length) scattered at once when a statistic is not vectorised by formula.
_CHUNK_CELLS = 2_000_000
#: Coins drawn at once by ``Resampler.coin_blocks``: a block's doubles (512 KiB) stay in the cache while they are
#: turned into coins and summed, where a whole test's (8 bytes x 1,000 resamples x cells) would go through memory;
#: and a block's product with 4 columns (at most 262,144 multiply-adds) stays on one thread: OpenBLAS woke its
#: threads for such thin products somewhere between 0.5 and 1 million (measured), at 10-30x the CPU time.
_BLOCK_CELLS = 1 << 16


class Resampler:
    """Coins for PERM-BOTH and uniform draws for pair sampling: ``"reference"`` = ``RandomState(seed)``, the
    stream of ``np.random.seed(seed)`` (``binomial(1, 0.5, n)`` is ``random_sample(n) > 0.5`` draw for draw);
    ``"fast"`` = ``default_rng(seed)``, coins from packed random bits."""

    def __init__(self, kind: str, seed: int | None) -> None:
        self.kind = check_choice(kind, "resampler", RESAMPLERS)
        seed = check_seed(seed)
        self.random: np.random.RandomState | np.random.Generator
        if kind == "reference":
            # RandomState(bits).seed(s) is RandomState(s); coin_blocks draws from its MT19937 state directly
            self._bits = np.random.MT19937()
            self.random = np.random.RandomState(self._bits)
            self.random.seed(seed)
        else:
            self.random = np.random.default_rng(seed)

    def masks(self, size: int, n: int) -> np.ndarray:
        """``(size, n)`` coins; True keeps metric1's score in resample 1."""
        if isinstance(self.random, np.random.RandomState):
            return self.random.random_sample((size, n)) > 0.5
        packed = self.random.integers(0, 256, (size, (n + 7) // 8), dtype=np.uint8)
        return np.unpackbits(packed, axis=1, count=n).astype(bool)

    def coin_blocks(self, size: int, n: int) -> Iterator[np.ndarray]:
        """The coins of ``masks(size, n)``, the same draws, as float 1.0 (True) / 0.0, in blocks of whole
        resamples: the reference stream in blocks of about ``_BLOCK_CELLS`` coins drawn into one buffer by the
        compiled ``fill_coins`` (each block is overwritten by the next: use it before asking for the next; the
        stream goes on after the last block), the fast one in one block."""
        if self.kind != "reference":
            yield self.masks(size, n).astype(np.float64)
            return
        rows = max(1, _BLOCK_CELLS // max(1, n))
        coins = np.empty((min(rows, size), n))
        state = self._bits.state
        key, position = state["state"]["key"].copy(), int(state["state"]["pos"])
        try:
            for start in range(0, size, rows):
                block = coins[:min(rows, size - start)]
                position = fill_coins(key, position, block)
                yield block
        finally:  # also when the caller stops early: the stream goes on after the coins drawn
            self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": position}}


def _pair_count(cells: np.ndarray) -> int:
    per_row = cells.sum(1)
    return int((per_row * (per_row - 1) // 2).sum())


def make_resampler(kind: str, seed: int | None) -> Resampler:
    return Resampler(kind, seed)


class Statistic:
    """An averaged correlation over the rows of a fixed human matrix, for cell vectors of metric scores."""

    # the projections of the last coins (_projection): their base array, its address and shape, per vector
    _cached_coins: np.ndarray
    _cached_where: tuple[int, tuple[int, ...]]
    _projections: dict[int, tuple[np.ndarray, np.ndarray]]
    _weights: np.ndarray

    def __init__(self, name: str, rows: Rows, cells: np.ndarray, draw: Resampler | None, empty: float,
                 options: dict[str, object], grouping: str = "none") -> None:
        self.grouping = grouping
        self.name, self.rows, self.cells, self.draw, self.empty, self.options = name, rows, cells, draw, empty, options
        self.sample_rate = float(options.get("sample_rate", 1.0))  # type: ignore[arg-type]  # checked options
        # the reference's draws for pair sampling come between the coins of consecutive resamples
        self.interleaved = name == "kendall_ties_opt" and self.sample_rate < 1.0
        self.pairwise = (name == "kendall" and options.get("variant", "b") != "c"
                         and _pair_count(cells) <= _CHUNK_CELLS // 10)
        if self.pairwise:
            self._pair_table()
        # Pearson by masked sums of squares and products; scores of extreme magnitude take the scaled row path
        self.linear = (name == "pearson" and rows.human.shape[0] == 1
                       and magnitude_divisor(rows.human[0][cells[0]]) == 1.0)
        if self.linear:
            gold = rows.human[0][cells[0]]
            self.centered = gold - gold.mean()
            self.gold_square = float(self.centered @ self.centered)

    def _pair_table(self) -> None:
        """Kendall by pair lookup: the rated pairs of every row (cell positions in the cell vector), the human
        order of each and the row they count for."""
        positions = np.full(self.cells.shape, -1)
        positions[self.cells] = np.arange(int(self.cells.sum()))
        length = self.cells.shape[1]
        first, second = np.triu_indices(length, 1)
        row_of, pair_of = np.nonzero(self.cells[:, first] & self.cells[:, second])
        self.pair_i = positions[row_of, first[pair_of]]
        self.pair_j = positions[row_of, second[pair_of]]
        h = self.rows.human
        self.human_sign = np.sign(h[row_of, first[pair_of]] - h[row_of, second[pair_of]]).astype(np.int8)
        self.row_starts = np.r_[0, np.flatnonzero(np.diff(row_of)) + 1]
        self.pair_rows = row_of[self.row_starts]

    def _projection(self, masks: np.ndarray, vector: np.ndarray) -> np.ndarray:
        """The masked sums of ``vector``, its squares and its products with the centred human scores, per resample;
        kept for the last coins, so that the pairs of a matrix of tests that share them compute each metric's
        once."""
        # the cache holds the coins' base array, so its identity cannot be reused by a new array while cached
        root = masks if masks.base is None else masks.base
        where = (masks.__array_interface__["data"][0], masks.shape)
        if getattr(self, "_cached_coins", None) is not root or self._cached_where != where:
            self._cached_coins, self._cached_where, self._projections = root, where, {}
            self._weights = masks.astype(np.float64)
        key = id(vector)
        if key not in self._projections:
            self._projections[key] = (vector, self._weights @ np.stack(
                [vector, vector * vector, self.centered * vector], axis=1))
        return self._projections[key][1]

    def kendall_mixed(self, masks: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Kendall of ``where(masks, a, b)`` and ``where(masks, b, a)`` by pair lookup: a pair's metric order is one
        of four precomputed ones, chosen by the coins of its two cells."""
        i, j = self.pair_i, self.pair_j
        epsilon = float(self.options.get("epsilon", 0.0))  # type: ignore[arg-type]  # checked options
        table = np.stack([b[i] - b[j], b[i] - a[j], a[i] - b[j], a[i] - a[j]])  # by code 2 * coin_i + coin_j
        signs = np.where(np.abs(table) <= epsilon, 0, np.sign(table)).astype(np.int8)
        flat_index = np.arange(i.size)
        out = []
        for choose in (lambda code: code, lambda code: 3 - code):
            values = np.empty((masks.shape[0], self.rows.human.shape[0]))
            step = max(1, _CHUNK_CELLS // max(1, i.size))
            for start in range(0, masks.shape[0], step):
                coins = masks[start:start + step]
                code = choose(2 * coins[:, i].astype(np.intp) + coins[:, j])
                metric_sign = signs.ravel()[code * i.size + flat_index]
                counts = self._sign_counts(metric_sign)
                values[start:start + step] = self._tau_rows(counts)
            out.append(self._average(values, None))
        return out[0], out[1]

    def _sign_counts(self, metric_sign: np.ndarray) -> list[np.ndarray]:
        human_tie, metric_tie = self.human_sign == 0, metric_sign == 0
        product = metric_sign * self.human_sign
        categories = [product > 0, product < 0, metric_tie & ~human_tie, human_tie & ~metric_tie,
                      human_tie & metric_tie]
        full = np.zeros((5, metric_sign.shape[0], self.rows.human.shape[0]), dtype=np.int64)
        for index, category in enumerate(categories):
            full[index][:, self.pair_rows] = np.add.reduceat(category, self.row_starts, axis=1)
        return list(full)

    def _tau_rows(self, counts: list[np.ndarray]) -> np.ndarray:
        from refscore.meta.correlations import _tau

        valid = self.rows.valid
        return _tau(counts, str(self.options.get("variant", "b")), self.rows.human, self.rows.human, valid)

    def _scatter(self, vectors: np.ndarray) -> np.ndarray:
        if self.name == "kendall_ties_opt":  # cell vectors are packed (systems, items) matrices
            matrices = vectors.reshape(vectors.shape[0], *self.cells.shape)
            return rows_of(np.zeros(self.cells.shape), matrices, self.grouping).metric
        padded = np.zeros((vectors.shape[0], *self.cells.shape))
        padded[:, self.cells] = vectors
        return padded

    def __call__(self, vectors: np.ndarray) -> np.ndarray:
        vectors = np.atleast_2d(vectors)
        if self.name == "kendall_ties_opt":
            variant = str(self.options.get("variant", "acc23"))
            random = self.draw.random if self.draw is not None and self.sample_rate < 1 else None
            if self.sample_rate < 1 and random is None:
                random = np.random.default_rng()
            exact = self.draw is None or self.draw.kind == "reference"
            return np.array([optimize_ties(self.rows, variant, self.sample_rate, random, padded, exact).tau
                             for padded in self._scatter(vectors)])
        per_chunk = max(1, _CHUNK_CELLS // self.cells.size)
        out = []
        for start in range(0, vectors.shape[0], per_chunk):
            values, weights = row_values(self.name, self.rows._replace(metric=self._scatter(
                vectors[start:start + per_chunk])), **self.options)
            out.append(self._average(values, weights))
        return np.concatenate(out)

    def _average(self, values: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        defined = ~np.isnan(values)
        if weights is not None:
            defined &= weights > 0
            weights = np.where(defined, weights, 0)
        else:
            weights = defined.astype(float)
        total = np.where(defined, values * weights, 0.0).sum(-1)
        count = weights.sum(-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(count > 0, total / count, self.empty)

    def mixed(self, masks: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Pearson of ``where(masks, a, b)`` and ``where(masks, b, a)`` by sums, for coins shared by several tests:
        each metric's masked sums are computed once (one matrix product for all resamples)."""
        return self._pearson_pair(self._projection(masks, a) - self._projection(masks, b), a, b)

    def mixed_drawn(self, draw: Resampler, size: int, a: np.ndarray, b: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``size`` resamples of :meth:`mixed` with coins from ``draw``, block by block (a block's coins are summed
        while they are in the cache): the number of coins that keep ``a`` per resample and both Pearsons."""
        # column 0 counts the coins (a sum of ones and zeros: exact); the others are the shift of _pearson_pair
        columns = np.stack([np.ones_like(a), a - b, a * a - b * b, self.centered * (a - b)], axis=1)
        sums = np.concatenate([coins @ columns for coins in draw.coin_blocks(size, a.size)])
        first, second = self._pearson_pair(sums[:, 1:], a, b)
        return sums[:, 0], first, second

    def _pearson_pair(self, shift: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Both Pearsons from ``shift``, the masked sums of ``a - b``, ``a² - b²`` and ``g (a - b)`` per resample
        (``g``: the centred human scores): resample 1's sums are ``b``'s plus the shift, resample 2's the rest."""
        g = self.centered
        n = a.size
        sums = np.array([b.sum(), b @ b, g @ b]) + shift
        both = np.array([a.sum() + b.sum(), a @ a + b @ b, g @ (a + b)])
        out = []
        for total, square, cross in (sums.T, (both - sums).T):
            variance = square - total * total / n
            with np.errstate(invalid="ignore", divide="ignore"):
                r = np.clip(cross / np.sqrt(self.gold_square * variance), -1.0, 1.0)
            out.append(np.where((variance > 0) & (self.gold_square > 0), r, self.empty))
        return out[0], out[1]


def statistic_of(name: str, rows: Rows, cells: np.ndarray, draw: Resampler | None, *, empty: float = 0.0,
                 grouping: str = "none", **options: object) -> Statistic:
    """The statistic ``name`` over ``rows`` for cell vectors (``empty``: the value when no row is defined; the
    reference uses 0 inside its tests)."""
    check_choice(name, "statistic", ("pearson", "spearman", "kendall", "kendall_like", "kendall_ties_opt"))
    return Statistic(name, rows, cells, draw, empty, dict(options), grouping)


def correlations_of(compute: Callable[[np.ndarray], np.ndarray], size: int, a: np.ndarray, b: np.ndarray,
                    draw: Resampler, masks: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``size`` PERM-BOTH resamples: the number of coins that are True in each (resample 1 keeps ``a`` where the
    coin is True) and both correlations. Coins come from ``masks`` when given, else from ``draw`` (one resample at
    a time where the statistic itself draws between them, as the reference does)."""
    if isinstance(compute, Statistic) and compute.interleaved and masks is None:
        kept_each: list[int] = []
        first_each: list[float] = []
        second_each: list[float] = []
        for _ in range(size):
            coin = draw.masks(1, a.size)
            kept_each.append(int(np.count_nonzero(coin)))
            first_each.append(compute(np.where(coin, a, b))[0])
            second_each.append(compute(np.where(coin, b, a))[0])
        return np.array(kept_each), np.array(first_each), np.array(second_each)
    linear = (isinstance(compute, Statistic) and compute.linear
              and magnitude_divisor(a) == 1.0 and magnitude_divisor(b) == 1.0)
    if linear and masks is None:
        return compute.mixed_drawn(draw, size, a, b)  # type: ignore[attr-defined]  # linear: a Statistic
    coins = draw.masks(size, a.size) if masks is None else masks
    if isinstance(compute, Statistic) and compute.pairwise:
        first, second = compute.kendall_mixed(coins, a, b)
    elif linear:
        first, second = compute.mixed(coins, a, b)  # type: ignore[attr-defined]  # linear: a Statistic
    else:
        first, second = compute(np.where(coins, a, b)), compute(np.where(coins, b, a))
    return np.count_nonzero(coins, axis=1), first, second
