"""How many examples each hypothesis property of the rules tries.

A mutation run (``make mutants``; mutmut sets ``MUTANT_UNDER_TEST``) runs every property once for each
change to the engine that reaches it: there each tries a tenth as many examples (at least 20), and the
worked cases and focused tests do most of the noticing. Every other run tries them all.
"""

from __future__ import annotations

import os


def examples(count: int) -> int:
    return max(20, count // 10) if "MUTANT_UNDER_TEST" in os.environ else count
