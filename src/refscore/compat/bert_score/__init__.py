"""Drop-in for ``bert_score`` 0.3.13 with its layout: ``score``, ``plot_example`` (module ``score``),
``BERTScorer`` (module ``scorer``) and the ``utils`` helpers re-exported at the top, as bert-score does.
``__version__`` is ``"0.3.12"``: what bert-score 0.3.13 itself reports (and writes into its hashes).

>>> from refscore.compat import bert_score
>>> bert_score.__version__, bert_score.model2layers["roberta-large"]
('0.3.12', 17)
"""
from refscore.metrics.bertscore.tables import BERT_SCORE_HASH_VERSION

__version__ = BERT_SCORE_HASH_VERSION

from refscore.compat.bert_score import scorer, utils  # noqa: E402
from refscore.compat.bert_score.score import BERTScorer, plot_example, score  # noqa: E402
from refscore.compat.bert_score.utils import (bert_cos_score_idf, get_bert_embedding, get_hash,  # noqa: E402
                                              get_idf_dict, get_model, get_tokenizer, lang2model, model2layers,
                                              sent_encode)

__all__ = ["BERTScorer", "bert_cos_score_idf", "get_bert_embedding", "get_hash", "get_idf_dict", "get_model",
           "get_tokenizer", "lang2model", "model2layers", "plot_example", "score", "scorer", "sent_encode", "utils"]
