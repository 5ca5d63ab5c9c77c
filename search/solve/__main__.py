"""``python -m search.solve``: see :mod:`search.solve.cli`."""

import sys

from search.solve.cli import main

if __name__ == "__main__":
    sys.exit(main())
