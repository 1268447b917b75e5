"""The defects a review of the first landing found, each shown fixed.

The tests here: TensorFlow in the test process; the rest:
tests/commands/test_review_defects.py, tests/unit/test_review_defects.py.
"""

import threading

from tf1mem.compat.runtime import session_hooks


# ------------------------------------------------------------ session hooks


class _FakeSession:
    sess_str = ""


def test_concurrent_runs_get_distinct_labels_and_none_is_lost():
    from tensorflow.core.protobuf import config_pb2

    hooks = session_hooks.SessionHooks(placement=True)
    session = _FakeSession()
    barrier = threading.Barrier(8)

    def record(thread):
        barrier.wait()
        for i in range(50):
            hooks._record(session, (0, (f"t{thread}-{i}",), ()), config_pb2.RunMetadata())

    threads = [threading.Thread(target=record, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    labels = [label for label, _ in hooks.runs]
    assert len(labels) == 400 and len(set(labels)) == 400
