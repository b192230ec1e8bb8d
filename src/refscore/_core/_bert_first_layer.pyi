import numpy as np
import numpy.typing as npt

def first_layer_products(id_rows: npt.NDArray[np.float32], position_rows: npt.NDArray[np.float32],
                         slots: npt.NDArray[np.int64], positions: npt.NDArray[np.int64],
                         rstd: npt.NDArray[np.float32], constant: npt.NDArray[np.float32],
                         out: npt.NDArray[np.float32]) -> None: ...
