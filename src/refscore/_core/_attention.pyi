import numpy as np
import numpy.typing as npt

def packed_attention_into(qkv: npt.NDArray[np.float32], context: npt.NDArray[np.float32],
                          lengths: npt.NDArray[np.int64], heads: int, head_size: int, scale: float,
                          portable: bool = ...) -> None: ...
def vectorised(head_size: int) -> bool: ...
