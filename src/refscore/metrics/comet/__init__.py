"""COMET (unbabel-comet 2.2.7's regression and unified models) from a local checkpoint, in torch + transformers only.

``refscore.comet(hypotheses, references, sources=..., model=PATH)`` or ``COMET(model=PATH, sources=...)``; the
``comet`` extra installs torch, transformers and sentencepiece. See docs/comet.md.

>>> from refscore.metrics.comet import COMET
>>> COMET.exact_to
'unbabel-comet 2.2.7 model.predict'
"""
from __future__ import annotations

from refscore.metrics.comet.metric import COMET, COMETConfig, comet, unbabel_comet

__all__ = ["COMET", "COMETConfig", "comet", "unbabel_comet"]
