"""Names of 0.1 that moved to a resource namespace stay for 0.2 and warn (DeprecationWarning)."""

from __future__ import annotations

import warnings


def deprecated(name: str, instead: str) -> None:
    """Warns that ``vd.<name>()`` moved to ``vd.<instead>()`` (the old name goes in 0.3), as the JS SDK's
    aliases do; Python's warning filters decide how often it is shown."""
    warnings.warn(f"vd.{name}() is deprecated: use vd.{instead}() (the alias is removed in 0.3).", DeprecationWarning, stacklevel=3)
