"""``python -m skyprivacy``: the same command line as the ``skyprivacy`` script."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
