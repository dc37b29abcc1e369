"""Borrowed array views: the same memory, without reference counting.

Numba counts references on every array a compiled function receives: two
atomic operations per array per call. The world's buffers are shared by every
thread of a batch move, so those counts bounce one cache line between cores
and cost more than the geometry. A kernel that only reads an array its caller
keeps alive for the whole call can use a borrowed view instead: the same data,
shape and strides, but no memory-manager record, so no counting.

Never let a borrowed view outlive the call that made it (do not return it or
store it anywhere that persists).
"""
from numba.core import cgutils, types
from numba.extending import intrinsic


@intrinsic
def borrow(typingctx, array):
    """A view of ``array`` whose reference count is never touched (see module docstring)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context, builder, signature, args):
        source = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        view = cgutils.create_struct_proxy(signature.return_type)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    return array(array), codegen
