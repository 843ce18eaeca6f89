"""What every test shares: hypothesis without its per-example deadline.

The suite runs on shared, loaded machines (CI, two cores); a time limit per example then
fails tests for the machine's load, not for the code.  Speed is measured in benchmarks.
"""

from hypothesis import settings

settings.register_profile("herohammer", deadline=None)
settings.load_profile("herohammer")
