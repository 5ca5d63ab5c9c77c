"""``python -m search.piskvork``: see :mod:`search.piskvork.cli`."""

import sys

from search.piskvork.cli import main

if __name__ == "__main__":
    sys.exit(main())
