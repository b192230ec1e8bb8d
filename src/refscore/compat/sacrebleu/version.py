"""sacreBLEU's ``version``: the sacreBLEU release this drop-in follows."""
from refscore.metrics.bleu import SACREBLEU_VERSION

__version__ = version = SACREBLEU_VERSION
__version_tuple__ = version_tuple = tuple(int(part) for part in SACREBLEU_VERSION.split("."))
__commit_id__ = commit_id = None
