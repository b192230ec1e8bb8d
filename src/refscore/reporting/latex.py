"""LaTeX tables (booktabs) for ``refscore compare --format latex`` and ``refscore report --latex``: one escaping
rule and one table layout for both.

>>> print(latex_table(["system", "BLEU"], [[latex_escape("sys_A"), "30.1"]], comments=["bleu: nrefs:1"]))
\\begin{tabular}{lc}
\\toprule
system & BLEU \\\\
\\midrule
sys\\_A & 30.1 \\\\
\\bottomrule
\\end{tabular}
% bleu: nrefs:1
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

#: LaTeX's special characters and their escaped forms (the backslash first, so later escapes are kept).
_ESCAPES = (("\\", "\\textbackslash{}"), ("&", "\\&"), ("%", "\\%"), ("$", "\\$"), ("#", "\\#"), ("_", "\\_"),
            ("{", "\\{"), ("}", "\\}"), ("~", "\\textasciitilde{}"), ("^", "\\textasciicircum{}"))


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (system names, file names, bucket labels).

    >>> latex_escape("a_b & 50% [5,10)")
    'a\\\\_b \\\\& 50\\\\% [5,10)'
    """
    for char, escaped in _ESCAPES:
        text = text.replace(char, escaped)
    return text


def latex_table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, caption: str | None = None,
                comments: Iterable[str] = ()) -> str:
    """A booktabs ``tabular`` (``\\usepackage{booktabs}``): the first column left-aligned, the others centred.

    Cells are written as given (escape text with :func:`latex_escape`); ``caption`` becomes a ``%`` comment line
    above the table and each of ``comments`` one below it (signatures, settings), so the table pastes into any
    ``table`` float.
    """
    lines = [] if caption is None else [f"% {caption}"]
    lines += ["\\begin{tabular}{l" + "c" * (len(headers) - 1) + "}", "\\toprule", " & ".join(headers) + " \\\\",
              "\\midrule"]
    lines += [" & ".join(row) + " \\\\" for row in rows]
    lines += ["\\bottomrule", "\\end{tabular}"]
    lines += [f"% {comment}" for comment in comments]
    return "\n".join(lines)


__all__ = ["latex_escape", "latex_table"]
