"""Compiled array helpers that take no reference count: row views of a table's arrays and a legal-move
mask set from a list (for code that steps many tables at once: the variants' ``env_core``, ``Batch``),
and an element copy for code compiled without reference counting (docs/development.md)."""

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def row_view(typingctx, arr, i):
    """``arr[i]`` of a C-contiguous array, as a view that holds no reference to ``arr``'s allocation:
    valid while ``arr`` lives (the caller's argument). A plain ``arr[i]`` takes and drops one (two
    atomic operations): with a dozen row views a table's move, that was half the time of a
    ``batch_step`` (``perf``). Not in a ``parallel=True`` function: its dead-code elimination takes the
    view for a fresh array and drops the writes no later statement reads."""
    if not isinstance(arr, types.Array) or arr.ndim < 2 or arr.layout != "C" or not isinstance(i, types.Integer):
        return None
    view = arr.copy(ndim=arr.ndim - 1, layout="C")

    def codegen(context, builder, signature, args):
        a = context.make_array(arr)(context, builder, args[0])
        shape, strides = cgutils.unpack_tuple(builder, a.shape), cgutils.unpack_tuple(builder, a.strides)
        offset = builder.mul(context.cast(builder, args[1], i, types.intp), strides[0])
        data = builder.bitcast(cgutils.pointer_add(builder, a.data, offset), a.data.type)
        out = context.make_array(view)(context, builder)
        context.populate_array(out, data=data, shape=shape[1:], strides=strides[1:], itemsize=a.itemsize, meminfo=None)
        return out._getvalue()
    return view(arr, i), codegen


@njit(cache=True, inline="always")
def set_mask(legal, n, mask, value):
    """``mask[legal[:n]] = value``: a table's row of ``Batch.mask`` from its ``legal`` list (the variants'
    ``batch_step`` clear the previous moves and set the new ones)."""
    for j in range(n):
        mask[legal[j]] = value


@njit(cache=True, _nrt=False)
def copy_into(dst, src, n):
    """``dst[:n] = src[:n]`` for 1-D arrays, element by element: a slice assignment may copy its
    source first (when the two could overlap), and that allocation needs reference counting."""
    for i in range(n):
        dst[i] = src[i]
