"""Run the command line: ``python -m herohammer``."""

from .console import main

raise SystemExit(main())
