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
KERNEL_FUNCTIONS = ("arc_for", "leave_home", "leave_slot", "fill_leave_table", "next_subset",
                    "sub_leave_keys", "_walk_down", "_cross_check", "setup", "square_setup",
                    "update_setup", "records_precede", "_precedes", "_rack_setup",
                    "_keep_largest", "_leave_key", "bingo_key", "_kept_bounds", "_anchor_order",
                    "score_new_tiles", "_write_record", "search_arrays", "search",
                    "record_move")


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
def int_array(n, zeroed=True):
    """N int64s: zeros, or not cleared with zeroed=False (engine_kernel.int_array)."""
    if zeroed:
        return np.zeros(n, np.int64)
    return np.empty(n, np.int64)


def _compile_into(namespace: dict, module, names) -> dict:
    """Compile `names` of `module` against `namespace` (which they then join), callees first;
    each releases the GIL while it runs (nogil), so that searches on several threads
    (lookup/crossword/endgame.py KernelSearch.solve's `threads`) run at once.
    """
    for name in names:
        source = getattr(module, name)
        clone = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
        clone.__qualname__ = source.__qualname__
        clone.__doc__ = source.__doc__
        namespace[name] = numba.njit(cache=True, nogil=True)(clone)
    return namespace


@functools.cache
def compiled_kernel() -> dict:
    """The kernel's functions by name, compiled once per process (each on its first call;
    numba keeps the machine code in its cache between processes).
    """
    namespace = dict(vars(engine_kernel))
    namespace["bit_count"] = bit_count
    namespace["int_array"] = int_array
    return _compile_into(namespace, engine_kernel, KERNEL_FUNCTIONS)


@functools.cache
def compiled_extension(module, names: tuple) -> dict:
    """`names` of a kernel module built on engine_kernel (one source for CPython and numba, like
    the kernel), compiled against the compiled kernel: the module's own globals, with every
    kernel function and primitive it imported swapped for its compiled version.
    """
    kernel = compiled_kernel()
    namespace = dict(vars(module))
    for name in (*KERNEL_FUNCTIONS, "bit_count", "int_array"):
        if name in namespace:
            namespace[name] = kernel[name]
    return _compile_into(namespace, module, names)
