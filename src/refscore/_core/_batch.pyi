from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

def text_batch_layout(hypotheses: Sequence[Any], references: Sequence[Any]
                      ) -> tuple[list[str], list[str], npt.NDArray[np.int64]] | None: ...
def count_endswith(texts: list[Any], suffix: str) -> int: ...
