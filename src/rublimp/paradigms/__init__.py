"""All paradigms, registered by their RuBLiMP names on import.

One module per phenomenon group; each paradigm is a small class decorated with
:func:`~rublimp.paradigms.base.register`.
"""

from __future__ import annotations

import importlib
import pkgutil

from .base import (  # noqa: F401
    REGISTRY,
    Edit,
    InvariantError,
    Paradigm,
    ParadigmContext,
    Perturbation,
    apply_edits,
    check_pair,
    get_paradigm,
    paradigm_names,
    register,
)

# import every sibling module so its @register decorators run
for _info in pkgutil.iter_modules(__path__):
    if _info.name not in ("base",) and not _info.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_info.name}")
