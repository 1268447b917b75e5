"""Tier 3: tf1mem's commands and scripts run in child processes, as a user runs them."""
