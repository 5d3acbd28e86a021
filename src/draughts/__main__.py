import sys

from draughts.cli import main

sys.exit(main())
