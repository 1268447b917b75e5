"""The linear batch-size model: a step's peak memory as ``intercept + slope * batch``.

Once activations dominate, a step's peak grows in proportion to the batch: two
measured points give the line (:func:`fit_linear`), and the line gives the largest
batch within a budget (:func:`largest_batch`). The fit search
(:mod:`tf1mem.observe.fit`) measures its predictions; the out-of-memory explanation
(:mod:`tf1mem.observe.oom`) predicts from two smaller batches. Pure Python.
"""

import math
from typing import Iterable, Tuple

__all__ = ["fit_linear", "largest_batch"]


def fit_linear(points: Iterable[Tuple[float, float]]) -> Tuple[float, float]:
    """Least-squares ``bytes = intercept + slope * batch`` through (batch, bytes) points.

    Raises:
      ValueError: fewer than two distinct batch sizes.
    """
    pts = [(float(b), float(m)) for b, m in points]
    if len({b for b, _ in pts}) < 2:
        raise ValueError(f"a linear fit needs two distinct batch sizes, got {pts}")
    n = len(pts)
    mean_b = sum(b for b, _ in pts) / n
    mean_m = sum(m for _, m in pts) / n
    slope = (sum((b - mean_b) * (m - mean_m) for b, m in pts)
             / sum((b - mean_b) ** 2 for b, _ in pts))
    return mean_m - slope * mean_b, slope


def largest_batch(intercept: float, slope: float, budget: float) -> int:
    """The largest integer batch whose predicted bytes stay within ``budget``.

    Returns 0 when even a batch of 1 is predicted over budget; raises ValueError if
    memory does not grow with the batch (``slope <= 0``: no finite answer).
    """
    if slope <= 0:
        raise ValueError(f"memory does not grow with the batch size (slope {slope:.3g} "
                         "bytes per example): no largest batch to predict")
    return max(0, int(math.floor((budget - intercept) / slope)))
