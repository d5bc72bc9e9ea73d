"""``python -m core.cli``: the ``hipocampo`` command."""

import sys

from core.cli import main

sys.exit(main())
