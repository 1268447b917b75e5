"""Tier 2: tests that use TensorFlow in the test process, and start no Python process."""
