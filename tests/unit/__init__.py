"""Tier 1: tests that need no TensorFlow in the test process (seconds in all).

A test here may start a bare Python child to check what an import does, never one that
imports TensorFlow; ``tests/unit/conftest.py`` makes ``import tensorflow`` fail here.
"""
