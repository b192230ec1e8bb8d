"""Whether the compiled tokenizers' character tables match the installed ``regex`` (sacreBLEU's ``intl``).

The ``intl`` tokenizer splits at ``\\p{P}``, ``\\p{S}`` and ``\\p{N}`` of the ``regex`` module. sacreBLEU asks the
installed ``regex``; refscore's kernel reads tables generated once (``_core/gen_unicode_tables.py``) from the
``regex`` recorded in :data:`TABLE_VERSIONS`. A ``regex`` with a newer Unicode version gives categories to newly
assigned code points, so sacreBLEU's ``intl`` output changes for them while refscore's does not (regex 2026.11.19
against the tables' 2026.5.9: 470 code points, listed in docs/tokenize.md). Every other character, and every
other tokenizer, is unaffected. refscore cannot follow the installed ``regex`` without regenerating the tables, so
it says so: :func:`check_intl_tables` warns once per process when ``intl`` is used with another ``regex``.

>>> sorted(TABLE_VERSIONS)
['regex', 'unicodedata']
"""
from __future__ import annotations

import warnings

from refscore._core._tokenize import UNICODE_TABLE_VERSIONS
from refscore.errors import RefscoreWarning, caller_stacklevel

#: The versions the compiled character tables were generated from (Python's ``unicodedata`` and ``regex``).
TABLE_VERSIONS: dict[str, str] = dict(UNICODE_TABLE_VERSIONS)


def installed_regex_version() -> str | None:
    """The installed ``regex`` distribution's version (``None`` when it is not installed), read from its metadata
    without importing it (importlib.metadata only when asked: it costs the command line's start-up)."""
    import importlib.metadata

    try:
        return importlib.metadata.version("regex")
    except importlib.metadata.PackageNotFoundError:
        return None


def check_intl_tables(tokenize: object) -> None:
    """Warn (:class:`~refscore.errors.RefscoreWarning`, once per process) when ``tokenize`` is ``"intl"`` and the
    installed ``regex`` is not the version the character tables were generated from.

    >>> check_intl_tables("13a")   # only intl reads regex's categories: never a warning
    """
    if tokenize != "intl":
        return
    installed = installed_regex_version()
    if installed is not None and installed != TABLE_VERSIONS["regex"] and installed not in _WARNED:
        _WARNED.add(installed)
        tables = TABLE_VERSIONS["regex"]
        warnings.warn(
            f"tokenize='intl': refscore's character tables were generated with regex {tables}, but regex "
            f"{installed} is installed. sacreBLEU's intl tokenizer follows the installed regex, so where the two "
            f"versions give a code point different Unicode categories (newly assigned characters, e.g. U+1D27A "
            f"with regex 2026.11.19; docs/tokenize.md lists them) refscore's tokens and sacreBLEU's differ. For "
            f"exact sacreBLEU parity install regex=={tables}.", RefscoreWarning, stacklevel=caller_stacklevel())


#: The installed regex versions already warned about (once per process).
_WARNED: set[str] = set()


__all__ = ["TABLE_VERSIONS", "check_intl_tables", "installed_regex_version"]
