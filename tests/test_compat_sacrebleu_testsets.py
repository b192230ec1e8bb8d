"""The sacreBLEU drop-in lists sacreBLEU's test-set registry (names and language pairs) without the network, equal
to the real sacreBLEU's functions; the file functions still read the local cache only (issue 29, item 22)."""
from __future__ import annotations

import pytest
import sacrebleu
import sacrebleu.utils as peer_utils
from sacrebleu.dataset import DATASETS as PEER_DATASETS

from refscore.compat import sacrebleu as compat
from refscore.compat.sacrebleu import utils as compat_utils
from refscore.errors import InputError

#: every language pair of the registry, both directions, and pairs the registry does not have
LANGPAIRS = sorted({pair for dataset in PEER_DATASETS.values() for pair in dataset.langpairs}
                   | {"-".join(reversed(pair.split("-"))) for dataset in PEER_DATASETS.values()
                      for pair in dataset.langpairs}
                   | {"xx-yy", "en-xx", "en-de-extra"})


@pytest.fixture(autouse=True)
def empty_cache(tmp_path, monkeypatch):
    """No test set is downloaded: the listings must not depend on the cache."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path))


def test_available_testsets_are_sacrebleus() -> None:
    assert compat.get_available_testsets() == sacrebleu.get_available_testsets()
    assert len(compat.get_available_testsets()) == len(PEER_DATASETS) > 60


@pytest.mark.parametrize("langpair", LANGPAIRS)
def test_available_testsets_for_langpair_are_sacrebleus(langpair: str) -> None:
    assert compat_utils.get_available_testsets_for_langpair(langpair) == \
        peer_utils.get_available_testsets_for_langpair(langpair)


def test_langpairs_for_every_testset_are_sacrebleus() -> None:
    for name in [*PEER_DATASETS, "wmt99", ""]:
        assert compat.get_langpairs_for_testset(name) == sacrebleu.get_langpairs_for_testset(name), name


def test_a_langpair_without_a_dash_is_a_clear_error() -> None:
    with pytest.raises(IndexError):   # the peer's failure
        peer_utils.get_available_testsets_for_langpair("en")
    with pytest.raises(InputError, match="langpair must be 'SRC-TRG' such as 'en-de', got 'en'"):
        compat_utils.get_available_testsets_for_langpair("en")


def test_listed_but_not_cached_test_set_names_the_cache(tmp_path) -> None:
    assert "wmt22" in compat.get_available_testsets()
    with pytest.raises(InputError, match=f"wmt22.*{tmp_path}.*does not download"):
        compat.get_source_file("wmt22", "de-en")
