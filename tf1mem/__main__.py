"""``python -m tf1mem`` is ``python -m tf1mem.train``."""

import sys

from tf1mem.train import main

sys.exit(main())
