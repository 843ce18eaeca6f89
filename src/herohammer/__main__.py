"""Run the command line: ``python -m herohammer``."""

from .cli import main

raise SystemExit(main())
