"""jiwer 4.0's ``jiwer.alignment``: the text pictures of an alignment and of the error counts.

>>> from refscore.compat.jiwer.process import process_words
>>> visualize_alignment(process_words("a b c", "a x c"), show_measures=False).splitlines()
['=== SENTENCE 1 ===', '', 'REF: a b c', 'HYP: a x c', '       S  ']
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Union

from refscore.compat.jiwer.process import AlignmentChunk, CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts"]

_Output = Union[WordOutput, CharacterOutput]


def visualize_alignment(output: _Output, show_measures: bool = True, skip_correct: bool = True,
                        line_width: int | None = None) -> str:
    """Each pair's REF / HYP / operation lines (pairs without an error left out with ``skip_correct``), then the
    counts and measures (``show_measures``); ``line_width`` wraps long sentences at best effort."""
    is_cer = isinstance(output, CharacterOutput)
    text = ""
    for index, (reference, hypothesis, chunks) in enumerate(zip(output.references, output.hypotheses,
                                                                output.alignments)):
        if skip_correct and (len(chunks) == 0 or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {index + 1} ===\n\n"
        text += _comparison(reference, hypothesis, chunks, not is_cer, line_width)
        text += "\n"
    if not show_measures:
        return text[:-1]
    text += "=== SUMMARY ===\n"
    text += f"number of sentences: {len(output.alignments)}\n"
    text += (f"substitutions={output.substitutions} deletions={output.deletions} "
             f"insertions={output.insertions} hits={output.hits}\n")
    if isinstance(output, CharacterOutput):
        text += f"\ncer={output.cer * 100:.2f}%\n"
    else:
        text += (f"\nmer={output.mer * 100:.2f}%\nwil={output.wil * 100:.2f}%\nwip={output.wip * 100:.2f}%"
                 f"\nwer={output.wer * 100:.2f}%\n")
    return text


def _comparison(reference: list[str], hypothesis: list[str], chunks: list[AlignmentChunk], spaced: bool,
                line_width: int | None) -> str:
    ref_line, hyp_line, op_line = "REF: ", "HYP: ", "     "
    done = ""   # the lines already wrapped
    for chunk in chunks:
        if chunk.type in ("equal", "substitute"):
            refs = reference[chunk.ref_start_idx:chunk.ref_end_idx]
            hyps = hypothesis[chunk.hyp_start_idx:chunk.hyp_end_idx]
            mark = " " if chunk.type == "equal" else "s"
        elif chunk.type == "delete":
            refs = reference[chunk.ref_start_idx:chunk.ref_end_idx]
            hyps = ["*"] * len(refs)
            mark = "d"
        elif chunk.type == "insert":
            hyps = hypothesis[chunk.hyp_start_idx:chunk.hyp_end_idx]
            refs = ["*"] * len(hyps)
            mark = "i"
        else:
            raise ValueError(f"unparseable op name={chunk.type}")
        for ref, hyp in zip(refs, hyps[:len(refs)]):
            width = max(len(ref), len(hyp), len(mark))
            if line_width is not None and len(ref_line) + width > line_width:
                if spaced:
                    done += f"{ref_line[:-1]}\n{hyp_line[:-1]}\n{op_line[:-1]}\n\n"
                else:
                    done += f"{ref_line}\n{hyp_line}\n{op_line}\n\n"
                ref_line, hyp_line, op_line = "REF: ", "HYP: ", "     "
            if ref == "*":
                ref = "*" * width
            elif hyp == "*":
                hyp = "*" * width
            ref_line += f"{ref:>{width}}"
            hyp_line += f"{hyp:>{width}}"
            op_line += f"{mark.upper():>{width}}"
            if spaced:
                ref_line += " "
                hyp_line += " "
                op_line += " "
    if spaced:
        return done + f"{ref_line[:-1]}\n{hyp_line[:-1]}\n{op_line[:-1]}\n"
    return done + f"{ref_line}\n{hyp_line}\n{op_line}\n"


def collect_error_counts(output: _Output) -> tuple[Any, Any, Any]:
    """How often each (reference, hypothesis) substitution, each insertion and each deletion occurs: three
    ``defaultdict``\\s (substitutions keyed by ``(from, to)``), words joined by a space (characters by nothing)."""
    substitutions: defaultdict[Any, int] = defaultdict(lambda: 0)
    insertions: defaultdict[Any, int] = defaultdict(lambda: 0)
    deletions: defaultdict[Any, int] = defaultdict(lambda: 0)
    sep = " " if isinstance(output, WordOutput) else ""
    for index, chunks in enumerate(output.alignments):
        ref, hyp = output.references[index], output.hypotheses[index]
        for chunk in chunks:
            if chunk.type == "insert":
                insertions[sep.join(hyp[chunk.hyp_start_idx:chunk.hyp_end_idx])] += 1
            if chunk.type == "delete":
                deletions[sep.join(ref[chunk.ref_start_idx:chunk.ref_end_idx])] += 1
            if chunk.type == "substitute":
                key = (sep.join(ref[chunk.ref_start_idx:chunk.ref_end_idx]),
                       sep.join(hyp[chunk.hyp_start_idx:chunk.hyp_end_idx]))
                substitutions[key] += 1
    return substitutions, insertions, deletions


def _error_list(errors: dict[Any, int], top_k: int | None) -> str:
    if len(errors) == 0:
        return "none"
    keys = sorted(errors, reverse=True, key=lambda k: errors[k])
    if top_k is not None:
        keys = keys[:top_k]
    width = max(len(k) if isinstance(k, str) else max(len(e) for e in k) for k in keys)
    text = ""
    for count, (key, value) in enumerate(sorted(errors.items(), key=lambda item: item[1], reverse=True)):
        if top_k is not None and count >= top_k:
            break
        if isinstance(key, tuple):
            text += f"{key[0]: <{width}} --> {key[1]:<{width}} = {value}x\n"
        else:
            text += f"{key:<{width}} = {value}x\n"
    return text


def visualize_error_counts(output: _Output, show_substitutions: bool = True, show_insertions: bool = True,
                           show_deletions: bool = True, top_k: int | None = None) -> str:
    """The substituted, inserted and deleted words (or characters) with their counts, most frequent first."""
    s, i, d = collect_error_counts(output)
    text = ""
    for shown, title, errors in ((show_substitutions, "SUBSTITUTIONS", s), (show_insertions, "INSERTIONS", i),
                                 (show_deletions, "DELETIONS", d)):
        if shown:
            if text != "":
                text += "\n"
            text += f"=== {title} ===\n" + _error_list(errors, top_k)
    return text[:-1] if text[-1:] == "\n" else text
