"""The old name of :mod:`refscore.inputs`, kept only because the compiled core imports it
(``_core/_tokenize.pyx``; compiled files are not edited in /work/main this wave): import :mod:`refscore.inputs`."""
from refscore.inputs import as_token_ids, is_token_id_sequence

__all__ = ["as_token_ids", "is_token_id_sequence"]
