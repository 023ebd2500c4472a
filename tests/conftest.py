"""Settings for the whole test run."""

import os

# The python engine translates in a helper process when the host has a second core;
# which instructions then run translated depends on the host's timing.  The tests want
# runs that repeat exactly, so they translate in process (the engine's own rule on a
# one-core host); tests/pdp6/test_helper.py turns the helper on where it tests it.
os.environ["PDP6_HELPER"] = "0"
