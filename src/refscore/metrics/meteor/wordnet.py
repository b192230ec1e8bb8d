"""WordNet 3.0 read straight from its database files, for METEOR's synonym stage: what NLTK 3.10.4's
``wordnet.synsets(word)`` and ``lemma.name()`` give, without NLTK.

The files are those of Debian's ``wordnet-base`` package (``/usr/share/wordnet``: ``index.*``, ``data.*``,
``*.exc``), or the same files in the directory ``$REFSCORE_WORDNET`` names. Only the parts METEOR uses are read:
the index (lemma -> part of speech -> synset offsets), the exception lists of morphy, and the lemma names of
each synset's data line (read on first use, by byte offset, as NLTK does).

>>> wordnet = load_wordnet()
>>> wordnet.morphy("geese", "n"), wordnet.morphy("running", "v")
(['goose'], ['run'])
>>> sorted(wordnet.synonyms("cars"))
['auto', 'automobile', 'car', 'cars', 'gondola', 'machine', 'motorcar', 'railcar']
"""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from refscore.errors import MissingModelError

#: The environment variable naming a directory with WordNet 3.0's database files.
WORDNET_ENV = "REFSCORE_WORDNET"
#: Where Debian's ``wordnet-base`` package installs them (looked at when ``$REFSCORE_WORDNET`` is unset).
DEFAULT_WORDNET_DIRS = ("/usr/share/wordnet", "/usr/local/share/wordnet")
#: WordNet's parts of speech in NLTK's ``POS_LIST`` order, with their file suffixes.
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
#: The files refscore reads.
REQUIRED_FILES = tuple(f"{kind}.{suffix}" for suffix in POS_FILES.values() for kind in ("index", "data")) + tuple(
    f"{suffix}.exc" for suffix in POS_FILES.values())

#: NLTK's ``WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS`` (suffix, replacement), in its order.
SUBSTITUTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

#: Words whose synonym sets are kept; past this the cache starts over (memory stays bounded on huge vocabularies).
SYNONYM_CACHE_WORDS = 1_000_000

# NLTK's split of a lemma name from its adjective marker: "galore(ip)" -> "galore".
_SYNTACTIC_MARKER = re.compile(r"(.*?)(\([^()]*\))?$")


def missing_wordnet_message(where: str) -> str:
    """The error text for absent WordNet files: which packages install them and how to point elsewhere."""
    return (f"METEOR needs WordNet 3.0's database files ({', '.join(REQUIRED_FILES[:2])}, ..., verb.exc) and "
            f"{where}; install Debian's wordnet-base and wordnet-sense-index packages "
            f"(apt-get install wordnet-base wordnet-sense-index, into /usr/share/wordnet), or set "
            f"${WORDNET_ENV} to a directory holding WordNet 3.0's dict files")


def wordnet_directory() -> Path:
    """The directory WordNet is read from: ``$REFSCORE_WORDNET`` when set, else the first of
    :data:`DEFAULT_WORDNET_DIRS` that holds the files; an error naming the packages when there is none."""
    named = os.environ.get(WORDNET_ENV)
    candidates = [Path(named)] if named else [Path(d) for d in DEFAULT_WORDNET_DIRS]
    for directory in candidates:
        missing = [name for name in REQUIRED_FILES if not (directory / name).is_file()]
        if not missing:
            return directory
        if named:
            raise MissingModelError(missing_wordnet_message(
                f"${WORDNET_ENV}={named} lacks {', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''}"))
    raise MissingModelError(missing_wordnet_message(
        f"found none in {' or '.join(DEFAULT_WORDNET_DIRS)} (${WORDNET_ENV} is not set)"))


class WordNet:
    """The index, exception lists and lemma names of one WordNet directory (see :func:`load_wordnet`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        #: part of speech -> lemma -> its index line (offsets parsed on first use: reading stays fast)
        self.index: dict[str, dict[str, str]] = {}
        #: part of speech -> inflected form -> base forms (NLTK's ``_exception_map``)
        self.exceptions: dict[str, dict[str, list[str]]] = {}
        self._data: dict[str, bytes] = {}
        self._names: dict[tuple[str, int], tuple[str, ...]] = {}
        self._synonyms: dict[str, frozenset[str]] = {}
        for pos, suffix in POS_FILES.items():
            with open(directory / f"index.{suffix}", encoding="utf-8") as lines:
                # lines starting with a space are the license header
                self.index[pos] = {line[:line.index(" ")]: line for line in lines if not line.startswith(" ")}
            with open(directory / f"{suffix}.exc", encoding="utf-8") as lines:
                self.exceptions[pos] = {terms[0]: terms[1:] for terms in map(str.split, lines)}

    def offsets(self, lemma: str, pos: str) -> list[int]:
        """The synset offsets of an indexed ``lemma`` (NLTK's ``_lemma_pos_offset_map[lemma][pos]``): an index
        line is lemma, pos, n_synsets, n_pointers, the pointers, n_senses, tagsense count, the offsets."""
        fields = self.index[pos][lemma].split()
        first = 6 + int(fields[3])
        return [int(f) for f in fields[first:first + int(fields[2])]]

    def morphy(self, form: str, pos: str) -> list[str]:
        """NLTK 3.10.4's ``_morphy(form, pos)``: the form itself and either its exception-list base forms or its
        one-step suffix substitutions, those in the index under ``pos``, first occurrence order."""
        bases = self.exceptions[pos].get(form)
        if bases is None:
            bases = [form[:-len(old)] + new for old, new in SUBSTITUTIONS[pos] if form.endswith(old)]
        result: list[str] = []
        for candidate in [form, *bases]:
            if candidate in self.index[pos] and candidate not in result:
                result.append(candidate)
        return result

    def lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        """``[lemma.name() for lemma in synset.lemmas()]`` of the synset at ``offset`` of ``data.<pos>``."""
        key = (pos, offset)
        names = self._names.get(key)
        if names is None:
            data = self._data.get(pos)
            if data is None:
                data = self._data[pos] = (self.directory / f"data.{POS_FILES[pos]}").read_bytes()
            end = data.find(b"\n", offset)
            fields = data[offset:end if end >= 0 else len(data)].decode("utf-8").split("|", 1)[0].split()
            count = int(fields[3], 16)
            names = tuple(_SYNTACTIC_MARKER.match(name).group(1)  # type: ignore[union-attr]  # always matches
                          for name in fields[4:4 + 2 * count:2])
            self._names[key] = names
        return names

    def synonyms(self, word: str) -> frozenset[str]:
        """The lemma names of every synset of ``word`` in any part of speech (NLTK's ``wordnet.synsets(word)``,
        morphy included), as METEOR's synonym stage takes them: names with ``_`` left out, the word itself added.
        """
        found = self._synonyms.get(word)
        if found is None:
            lemma = word.lower()
            names = {name for pos in POS_FILES for form in self.morphy(lemma, pos)
                     for offset in self.offsets(form, pos) for name in self.lemma_names(pos, offset) if "_" not in name}
            names.add(word)
            if len(self._synonyms) >= SYNONYM_CACHE_WORDS:
                self._synonyms.clear()
            found = self._synonyms[word] = frozenset(names)
        return found


@functools.lru_cache(maxsize=4)
def _load(directory: str) -> WordNet:
    return WordNet(Path(directory))


def load_wordnet() -> WordNet:
    """The WordNet of :func:`wordnet_directory`, read once per process and directory."""
    return _load(str(wordnet_directory()))
