"""Hostile and careless input: each case reproduced, with what tf1mem now does.

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_hostile.py.
"""

from tf1mem.distributed import servers


# ------------------------------------------------------------ ports and hosts


def test_permission_denied_is_not_reported_as_in_use():
    text = servers.port_problem(80, "Permission denied")
    assert "cannot be opened by this user (Permission denied)" in text
    assert "ports below 1024 need privileges" in text and "in use" not in text
    assert "already in use" in servers.port_problem(5000, "Address already in use")
