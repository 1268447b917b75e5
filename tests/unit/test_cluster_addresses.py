"""The cluster's task addresses, checked before any server starts (no TensorFlow).

The tests here: no TensorFlow in the test process; the rest:
tests/commands/test_cluster_addresses.py.
"""

import pytest

from tf1mem.distributed import launcher
from tf1mem.errors import UsageError


@pytest.mark.parametrize("ps, workers, named", [
    (("127.0.0.1:24000",), ("127.0.0.1:24000",), r"'127\.0\.0\.1:24000' is given to both "
                                                 r"ps:0 and worker:0"),
    (("127.0.0.1:24000",), ("127.0.0.1:24001", "localhost:24001"),
     r"'localhost:24001' is given to both worker:0 and worker:1"),
])
def test_one_address_for_two_tasks_is_a_usage_error_naming_it(ps, workers, named):
    opts = launcher.ClusterOptions(ps_hosts=ps, worker_hosts=workers, job_name="ps",
                                   task_index=0)
    with pytest.raises(UsageError, match=named):
        launcher.task_from(opts, {})
