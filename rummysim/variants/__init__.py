"""The registry of the variants rummysim plays: one package per variant, listed once in ``PACKAGES``.

A variant is a package ``rummysim.variants.<name>`` whose ``__init__`` builds its ``Variant``
(``rummysim.base.variant``) from its own modules; it imports only ``rummysim.base``,
``rummysim.engine``, ``rummysim.cards`` and ``rummysim.results``. Everything above this registry
(``run``, ``analysis``, ``report``, ``play``, ``env``, ``cli``) reaches a variant only through its
``Variant`` object: adding a variant is adding its package and its name to ``PACKAGES``.
"""

from __future__ import annotations

import copyreg
from importlib import import_module

from ..base.errors import UnknownVariant
from ..base.variant import Variant

#: the variant packages, in the order commands list them
PACKAGES = ("basic", "shanghai", "gin")

VARIANTS: dict[str, Variant] = {name: import_module(f".{name}.variant", __name__).VARIANT for name in PACKAGES}
#: the variant names, for option choices
NAMES = tuple(VARIANTS)
#: what a command plays, and what the Python API's entry points play, when no variant is named
DEFAULT_VARIANT = "basic"


def variant_named(name) -> Variant:
    """The variant called ``name``; ``UnknownVariant`` (one line, the names allowed) if there is none."""
    if not isinstance(name, str) or name not in VARIANTS:
        raise UnknownVariant(f"variant {name!r}: allowed {', '.join(NAMES)}")
    return VARIANTS[name]


def variant_of(record: dict) -> Variant:
    """The variant of a results record (``run.json``, ``compare.json``...): its ``"variant"``; a
    record written before there was a second variant (schema version 1) names none and is Basic's."""
    if "variant" not in record and record.get("schema_version", 1) < 2:
        return VARIANTS["basic"]
    return variant_named(record.get("variant"))


def _by_name(variant: Variant):
    """How a ``Variant`` is pickled (a Dask worker receives a run's ``RunSpec``): by its name, looked up
    again in the registry where it is unpickled, never its functions and modules."""
    return variant_named, (variant.name,)


copyreg.pickle(Variant, _by_name)
