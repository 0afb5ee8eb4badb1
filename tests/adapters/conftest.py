"""The adapter tests run offline: Haystack's usage telemetry is off before Haystack is imported."""

import os

os.environ["HAYSTACK_TELEMETRY_ENABLED"] = "False"
