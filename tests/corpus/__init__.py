"""Tier 4: TF1 code run unchanged, checked against what TF 1.15.5 recorded."""
