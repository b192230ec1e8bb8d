"""The METEOR oracle: NLTK 3.10.4's ``meteor_score`` reading the same WordNet 3.0 files as refscore, laid out as
``nltk_data/corpora/wordnet`` in a private directory (NLTK refuses world-writable roots), without downloads.

The files come from Debian's ``wordnet-base`` and ``wordnet-sense-index`` packages; NLTK's reader also wants a
``lexnames`` file, built from the table of the ``lexnames(5WN)`` manual page those packages install. Without
them the METEOR tests skip, except under ``.ci/run`` (``REFSCORE_REQUIRE_WORDNET=1``), where they fail.
"""
from __future__ import annotations

import gzip
import os
import re
import shutil
from pathlib import Path

import pytest

DEBIAN_WORDNET = Path("/usr/share/wordnet")
LEXNAMES_MAN_PAGE = Path("/usr/share/man/man5/lexnames.5WN.gz")
NLTK_FILES = ("cntlist.rev", "index.sense", "index.adj", "index.adv", "index.noun", "index.verb", "data.adj",
              "data.adv", "data.noun", "data.verb", "adj.exc", "adv.exc", "noun.exc", "verb.exc")
#: lexnames' third field: the syntactic category of the file's synsets
CATEGORIES = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}
WHY = ("METEOR's tests need WordNet 3.0: apt-get install wordnet-base wordnet-sense-index "
       "(or set REFSCORE_WORDNET and mind that NLTK's oracle reads /usr/share/wordnet)")


def require_wordnet() -> None:
    """Skip (fail under CI's ``REFSCORE_REQUIRE_WORDNET=1``) unless Debian's WordNet files are installed."""
    missing = [name for name in NLTK_FILES if not (DEBIAN_WORDNET / name).is_file()]
    if not LEXNAMES_MAN_PAGE.is_file():
        missing.append(str(LEXNAMES_MAN_PAGE))
    if missing:
        message = f"{WHY}; missing: {', '.join(missing)}"
        if os.environ.get("REFSCORE_REQUIRE_WORDNET") == "1":
            pytest.fail(message)
        pytest.skip(message)


def lexnames_lines() -> list[str]:
    """The 45 ``NN<TAB>name<TAB>category`` lines of WordNet's ``lexnames`` file, from the manual page's table."""
    page = gzip.decompress(LEXNAMES_MAN_PAGE.read_bytes()).decode("utf-8")
    rows = re.findall(r"^(\d\d)\t(\w+\.\w+)\s", page, flags=re.M)
    assert [int(number) for number, _ in rows] == list(range(45)), rows
    return [f"{number}\t{name}\t{CATEGORIES[name.split('.')[0]]}\n" for number, name in rows]


def build_nltk_data(root: Path) -> Path:
    """``root/nltk_data/corpora/wordnet`` with Debian's files and ``lexnames``, private (mode 0700); returns the
    ``nltk_data`` directory."""
    data = root / "nltk_data"
    corpus = data / "corpora" / "wordnet"
    corpus.mkdir(parents=True)
    for directory in (data, data / "corpora", corpus):
        directory.chmod(0o700)
    for name in NLTK_FILES:
        shutil.copyfile(DEBIAN_WORDNET / name, corpus / name)
    (corpus / "lexnames").write_text("".join(lexnames_lines()), encoding="utf-8")
    return data


@pytest.fixture(scope="session")
def nltk_wordnet(tmp_path_factory: pytest.TempPathFactory):
    """NLTK's ``wordnet`` corpus (the default of ``meteor_score``) on the offline layout; ``nltk.data.path``
    points there for the session."""
    require_wordnet()
    import nltk
    from nltk.corpus import wordnet

    root = tmp_path_factory.mktemp("meteor_nltk")
    root.chmod(0o700)
    data = build_nltk_data(root)
    nltk.data.path.insert(0, str(data))
    wordnet.ensure_loaded()
    assert wordnet.get_version() == "3.0"
    yield wordnet
    nltk.data.path.remove(str(data))


def nltk_meteor(hypothesis: str, references: list[str], tokenize=str.split, **options) -> float:
    """NLTK's ``meteor_score`` of texts split by ``tokenize``."""
    from nltk.translate.meteor_score import meteor_score

    return meteor_score([tokenize(r) for r in references], tokenize(hypothesis), **options)
