"""The move-engine kernel (lookup/crossword/engine_kernel.py) compiled by numba.

The only module of `lookup` that imports numba, and only when lookup/crossword/engine.py asks for
the compiled path (numba installed: `pip install wordpack[fast]`). The kernel's functions are
compiled from their own code objects against a namespace where the two primitives that differ
(`bit_count`, `int_array`) and every kernel function are compiled versions, so CPython and
numba run one source.
"""

import functools
import types

import numba
import numpy as np
from numba import types as nbtypes
from numba.extending import intrinsic

from lookup.crossword import engine_kernel

# Every function of the kernel that another kernel function calls, callees first.
KERNEL_FUNCTIONS = ("arc_for", "leave_slot", "fill_leave_table", "sub_leave_keys", "_walk_down",
                    "_cross_check", "setup", "_sort_descending", "_anchor_bound", "_precedes",
                    "_rack_setup", "_rack_values", "_anchor_order", "score_new_tiles", "_leave_key",
                    "_write_record", "search")


@intrinsic
def _ctpop(typingctx, x):
    """The CPU's population count of an int64."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return nbtypes.int64(nbtypes.int64), codegen


@numba.njit(cache=True)
def bit_count(x):
    """Set bits of a non-negative int64."""
    return _ctpop(x)


@numba.njit(cache=True)
def int_array(n):
    """N zeros as an int64 array."""
    return np.zeros(n, np.int64)


@functools.cache
def compiled_kernel() -> dict:
    """The kernel's functions by name, compiled once per process (each on its first call;
    numba keeps the machine code in its cache between processes).
    """
    namespace = dict(vars(engine_kernel))
    namespace["bit_count"] = bit_count
    namespace["int_array"] = int_array
    for name in KERNEL_FUNCTIONS:
        source = getattr(engine_kernel, name)
        clone = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
        clone.__qualname__ = source.__qualname__
        clone.__doc__ = source.__doc__
        namespace[name] = numba.njit(cache=True)(clone)
    return namespace
