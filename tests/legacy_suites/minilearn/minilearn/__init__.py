"""minilearn: a tiny TF1-era layers, metrics and objectives library, in the style of tflearn 0.3."""

from minilearn import layers, metrics, objectives

__all__ = ["layers", "metrics", "objectives"]
