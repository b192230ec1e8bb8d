import numpy as np
import numpy.typing as npt

def fill_coins(key: npt.NDArray[np.uint32], position: int, out: npt.NDArray[np.float64]) -> int: ...
