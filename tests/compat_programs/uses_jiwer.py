"""A typical user program of jiwer 4."""
import sys

import jiwer

refs = ["the cat sat on the mat", "hello world", "", "quite a bit of longer sentence"]
hyps = ["the cat sit on mat today", "hello", "noise", "quite bit of an even longest sentence here"]
print(jiwer.wer(refs, hyps), jiwer.mer(refs, hyps), jiwer.wil(refs, hyps), jiwer.wip(refs, hyps),
      jiwer.cer(refs, hyps))
out = jiwer.process_words(refs, hyps)
print(out.hits, out.substitutions, out.deletions, out.insertions, out.alignments)
print(jiwer.visualize_alignment(out))
print(jiwer.visualize_alignment(jiwer.process_characters(refs, hyps), line_width=30))
print(jiwer.visualize_error_counts(out, top_k=2))
standard = jiwer.process_words(["I can't go <unk> there"], ["i can not go  there"],
                               reference_transform=jiwer.wer_standardize, hypothesis_transform=jiwer.wer_standardize)
print(standard)
print(jiwer.process_words(["a", "b c"], ["a b", "c"], jiwer.wer_contiguous, jiwer.wer_contiguous).wer)
print(jiwer.ReduceToListOfListOfChars()([]), jiwer.RemovePunctuation()("a, b!"))
print(jiwer.process_words.__module__, file=sys.stderr)
