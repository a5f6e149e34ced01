"""``python -m nbapp``: the command line (see :mod:`nbapp.cli`)."""

import sys

from nbapp.cli import main

sys.exit(main())
