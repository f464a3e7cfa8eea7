"""``python -m skyprivacy.cli``: the same command line as the ``skyprivacy`` script."""

import sys

from . import main

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
