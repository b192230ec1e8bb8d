"""Fuzz target of METEOR's matcher (refscore.metrics.meteor, pure Python), registered in :data:`targets.TARGETS`.

* ``meteor``: segment scores of fuzzed hypotheses and 1-3 references equal NLTK's ``meteor_score`` (the real
  package) exactly, with alpha, beta and gamma drawn now and then; the texts mix words that have WordNet synonyms
  and inflections (so that the exact, stem and synonym stages all match something), repeats, case variants and
  fuzzed raw text; the corpus score is the mean of the segment scores and lies in [0, 1].

NLTK reads the same WordNet 3.0 files as refscore, laid out offline by the tests' helper
(tests/_meteor_peer.py, ``build_nltk_data``) in a private temporary folder once per process: nothing is downloaded.
"""
from __future__ import annotations

import functools
import importlib.util
import tempfile
from pathlib import Path

import numpy as np

#: tests/test_meteor.py's vocabulary: synonyms (car/auto/automobile), inflections (sat/sitting, geese), punctuation.
VOCABULARY = ("the The a cat cats Cat sat sit sitting sits on mat mats dog dogs barked barks bark quick fast "
              "rapid speedy big large huge house home houses car cars auto automobile walk walked walking "
              "happy glad felicitous kill killed murder slay geese goose better good well went go goes gone "
              "children child ran run running . , ! 's café cafés naïve über").split()


@functools.lru_cache(maxsize=1)
def nltk_wordnet() -> None:
    """Point NLTK at an offline copy of Debian's WordNet (tests/_meteor_peer.py's layout), once per process."""
    import nltk
    from nltk.corpus import wordnet

    helper = Path(__file__).resolve().parent.parent / "tests" / "_meteor_peer.py"
    spec = importlib.util.spec_from_file_location("_meteor_peer", helper)
    peer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(peer)
    missing = [name for name in peer.NLTK_FILES if not (peer.DEBIAN_WORDNET / name).is_file()]
    missing += [] if peer.LEXNAMES_MAN_PAGE.is_file() else [str(peer.LEXNAMES_MAN_PAGE)]
    if missing:
        from targets import TargetUnavailable

        raise TargetUnavailable(f"{peer.WHY}; missing: {', '.join(missing)}")
    root = Path(tempfile.mkdtemp(prefix="refscore-fuzz-meteor-"))
    nltk.data.path.insert(0, str(peer.build_nltk_data(root)))
    wordnet.ensure_loaded()
    assert wordnet.get_version() == "3.0", wordnet.get_version()


def _text(source) -> str:
    if source.integer(0, 5) == 0:
        return source.text(30)
    return " ".join(source.choice(VOCABULARY) for _ in range(source.integer(0, 12)))


def meteor(data: bytes) -> None:
    from nltk.translate.meteor_score import meteor_score

    import refscore
    from targets import _source

    nltk_wordnet()
    source = _source(data)
    options = {}
    if source.integer(0, 3) == 0:
        options = {"alpha": source.integer(0, 100) / 100, "beta": source.integer(0, 60) / 10,
                   "gamma": source.integer(0, 100) / 100}
    segments = [(_text(source), [_text(source) for _ in range(source.integer(1, 3))])
                for _ in range(source.integer(1, 4))]
    hypotheses, references = [h for h, _ in segments], [refs for _, refs in segments]
    metric = refscore.METEOR(**options)
    ours = metric.sentence_scores(hypotheses, refscore.per_segment(references))
    peer = [meteor_score([r.split() for r in refs], h.split(), **options) for h, refs in segments]
    assert ours.tolist() == peer, (segments, options, ours.tolist(), peer)
    corpus = refscore.meteor(hypotheses, refscore.per_segment(references), **options).score
    assert 0.0 <= corpus <= 1.0 and corpus == float(np.mean(peer)), (segments, corpus, peer)


METEOR_TARGETS = {"meteor": meteor}
