"""METEOR with NLTK 3.10.4's exact numbers (see :mod:`refscore.metrics.meteor.metric`, docs/meteor.md)."""
from refscore.metrics.meteor.metric import METEOR, METEORConfig, METEORScore, meteor, sentence_meteor

__all__ = ["METEOR", "METEORConfig", "METEORScore", "meteor", "sentence_meteor"]
