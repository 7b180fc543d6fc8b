"""Methods whose code is imported the first time they are looked up (issue 33, round 7).

A class written as usual keeps, for a method a new game's first frame never calls, only a
stand-in: ``action_load = later("kiev_tui.ui.files_more")``.  The method itself is written in
that module, in a class of the same name used as a plain namespace.  The first look-up (on the
class or on an object) imports the module and puts the real function in the stand-in's place,
so every later call costs what a method written in the class does.  A method that uses
``super()`` without arguments, or has a decorator other than classmethod or staticmethod,
stays where it is.

Each stand-in is a small object; the code it stands for (byte code, constants, line table)
weighs one to several kilobytes, most of it loaded for nothing at every start.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable
from typing import Any


class later:  # noqa: N801 (written like the decorators it sits among)
    """A stand-in for a method of the class it is assigned in, written in ``module``."""

    __slots__ = ("module", "name")

    def __init__(self, module: str) -> None:
        self.module = module
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: object, objtype: type | None = None) -> Any:
        cls = objtype if objtype is not None else type(obj)
        # the class that holds this stand-in (a dataclass with slots is a copy of the one
        # written, so the class is found by looking, not remembered); a NamedTuple's class is
        # made without __set_name__, so there the name is found by looking too
        owner, name = next((k, n) for k in cls.__mro__ for n, v in (
            ((self.name, k.__dict__.get(self.name)),) if self.name else vars(k).items()) if v is self)
        method = vars(getattr(importlib.import_module(self.module), owner.__name__))[name]
        setattr(owner, name, method)
        return method.__get__(obj, cls)  # a function, or a classmethod or staticmethod, bound as the class would


def check(cls: type, module: str) -> list[str]:
    """The stand-ins of ``cls`` that name no method of ``module``'s namespace class (for tests)."""
    space = vars(getattr(importlib.import_module(module), cls.__name__))
    return [name for name, value in vars(cls).items() if isinstance(value, later) and (
        value.module != module or not isinstance(space.get(name), (types.FunctionType, classmethod, staticmethod)))]


def handed_out(module: str, home: str, names: frozenset[str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for ``module``: each of ``names``, written in ``home``, is
    imported when first asked for and kept in ``module`` so later look-ups never come here."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        vars(sys.modules[module])[name] = value
        return value

    return __getattr__
