"""The compiled methods of dataclasses, kept between runs like a .pyc (issue 33, round 3).

On Python 3.11 every method a dataclass gets (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ``__setattr__``...) is written out as source text and compiled on its own by
``dataclasses._create_fn``; the ~80 dataclasses imported before the first frame of `play` ask for
about 500 such compilations, 40-55 ms of CPU, a fifth of what the game adds to a bare Textual
app.  The same text always compiles to the same code, so the code is kept in the per-user cache
(marshalled, keyed on the SHA-256 of the exact text, in a file for this version of Python) and the next start runs it without
compiling.  The function the class gets is made exactly as before: the same text, the same
globals and locals, only ``compile`` is skipped.

Only Python 3.11 is patched (3.12 and later build the methods differently, and
``dataclasses._create_fn`` must still be the function this module knows); on anything else
``install`` does nothing.  Code objects run when they are loaded, so the file sits in a folder
of this user's alone and is read only if nobody else could have written it (as the ready-built
scenarios of engine/scenariocache.py).
"""

from __future__ import annotations

import dataclasses
import marshal
import os
import sys
from pathlib import Path
from typing import Any

from kiev_tui.nossl import sha256  # no OpenSSL at start-up (issue 33)

_LAYOUT = 2  # 2: the lazy methods (LAZY) are no longer stored
_MAX_ENTRIES = 20_000  # far above the program's own classes: a file grown past it starts again

_stored: dict[bytes, bytes] = {}  # digest of the text -> its code, marshalled (read from the file, not used yet)
_new: dict[bytes, bytes] = {}  # the same for code compiled in this run
_used: set[bytes] = set()  # the texts found in the file in this run
#: Texts met more than once a run (classes alike in their fields share a method's text): their code
#: stays in _stored for every use, instead of being compiled again from the second on (issue 33).
_again: set[bytes] = set()
_again_grew = False  # a text was met again that the file does not list yet
#: The code of those texts once loaded: every class met again shares it (one code object, not one each).
_again_code: dict[bytes, Any] = {}
#: Where the file lists the texts met again: digests, 32 bytes each, one after another.
AGAIN = b"again"
_file: Path | None = None
_original: Any = None
#: Methods most classes never call: the printed form, and a frozen class's refusal to be changed
#: (its own __init__ and pickling go round them).  Each is compiled the first time it is called,
#: which leaves some 270 compiled methods out of the first frame of `play` (issue 33, round 5).
LAZY = frozenset({"__repr__", "__setattr__", "__delattr__"})


def _key() -> str:
    return f"dataclass-code\nlayout={_LAYOUT}\npython={sys.version}"


def _create_fn(name: str, args: Any, body: Any, *, globals: Any = None, locals: Any = None,
               return_type: Any = dataclasses.MISSING) -> Any:
    """`dataclasses._create_fn` of Python 3.11, line for line, with the compiled text looked up first."""
    if locals is None:
        locals = {}
    return_annotation = ""
    if return_type is not dataclasses.MISSING:
        locals["_return_type"] = return_type
        return_annotation = "->_return_type"
    args = ",".join(args)
    body = "\n".join(f"  {b}" for b in body)
    txt = f" def {name}({args}){return_annotation}:\n{body}"
    local_vars = ", ".join(locals.keys())
    txt = f"def __create_fn__({local_vars}):\n{txt}\n return {name}"
    if name in LAZY:
        return _later(name, txt, vars(dataclasses) if globals is None else globals, locals)
    digest = sha256(txt.encode("utf-8", "surrogatepass")).digest()
    code = _again_code.get(digest)  # a text met again, loaded already: its code is shared
    if code is None:
        code = _load(digest)
    if code is None:
        code = compile(txt, "<string>", "exec")  # what exec(txt) compiles
        _compiled(digest, code)
    ns: dict[str, Any] = {}
    exec(code, vars(dataclasses) if globals is None else globals, ns)  # None: the frame of dataclasses
    return ns["__create_fn__"](**locals)


def _later(name: str, txt: str, globals: dict[str, Any], locals: dict[str, Any]) -> Any:
    """A stand-in for the method ``txt`` defines: the first call compiles it (as
    ``dataclasses._create_fn`` would have), and every call runs it with the same arguments."""
    real: Any = None

    def method(self: Any, *args: Any) -> Any:
        nonlocal real
        if real is None:
            ns: dict[str, Any] = {}
            exec(compile(txt, "<string>", "exec"), globals, ns)
            real = ns["__create_fn__"](**locals)
        return real(self, *args)

    method.__name__ = method.__qualname__ = name
    return method


def _load(digest: bytes) -> Any:
    """The stored code of a text, or None; read once a run (its bytes freed at once); the code of a
    text met again is kept for every use."""
    blob = _stored.pop(digest, None)  # its bytes are not needed again
    if blob is None:
        return None
    code = marshal.loads(blob)
    if digest in _again:  # shared by every later class alike
        _again_code[digest] = code
    _used.add(digest)
    return code


def _compiled(digest: bytes, code: Any) -> None:
    """Note code compiled in this run: new to the file, or a text met a second time."""
    global _again_grew
    if digest not in _used and digest not in _new:
        _new[digest] = marshal.dumps(code)
    elif digest not in _again:  # met again: the next run keeps its code for every use
        _again.add(digest)
        _again_grew = True


def install() -> None:
    """Use the kept code for every dataclass created from now on (Python 3.11 only)."""
    global _file, _original
    if _original is not None or sys.version_info[:2] != (3, 11) or getattr(os, "getuid", None) is None:
        return
    current = getattr(dataclasses, "_create_fn", None)
    code = getattr(current, "__code__", None)
    if code is None or code.co_varnames[:5] != ("name", "args", "body", "globals", "locals"):
        return  # not the function this module copies
    from kiev_tui import datacache

    folder = datacache.cache_dir()
    if folder is None:
        return  # the cache is off: compiled as usual
    _file = folder / "code" / "dataclasses.marshal"
    found, value = datacache._read(_file, _key()) if datacache.private(_file) else (False, None)
    if found and isinstance(value, dict) and all(type(k) is bytes and type(v) is bytes for k, v in value.items()):
        again = value.pop(AGAIN, b"")
        _again.update(again[i:i + 32] for i in range(0, len(again), 32))
        _stored.update(value)
    _original = current
    dataclasses._create_fn = _create_fn
    import atexit

    atexit.register(save)


def save() -> None:
    """Write the code compiled in this run to the cache, if there is any new."""
    global _again_grew
    if _file is None or not (_new or _again_grew):
        return
    from kiev_tui import datacache

    folder = _file.parent
    if not datacache.make_private(folder):
        return
    found, value = datacache._read(_file, _key()) if datacache.private(_file) else (False, None)
    codes = value if found and isinstance(value, dict) and len(value) + len(_new) <= _MAX_ENTRIES else {}
    old = codes.pop(AGAIN, b"")
    again = _again | {old[i:i + 32] for i in range(0, len(old), 32)}
    codes.update(_new)
    codes[AGAIN] = b"".join(sorted(again))
    datacache._write(folder, _file, _key(), codes)
    _new.clear()
    _again_grew = False


def uninstall() -> None:
    """Put the standard library's own function back (tests)."""
    global _original, _file, _again_grew
    _again_grew = False
    if _original is not None:
        dataclasses._create_fn = _original
        _original = None
    _stored.clear()
    _new.clear()
    _used.clear()
    _again.clear()
    _again_code.clear()
    _file = None
