"""Asking the processor to start loading memory a kernel will read soon.

A batch move over a large level spends most of its time waiting for memory:
each agent reads its cell's entry, then the cell's item list, then the
items' geometry, three loads that each wait for the one before. Telling the
processor, a few agents ahead, which addresses those agents will need lets it
fetch them while the current agent is being moved (software prefetching; it
never changes a result, only when memory arrives).
"""
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic


@intrinsic
def prefetch(typingctx, array, index):
    """Hint that element ``index`` of ``array``'s memory will be read soon; does nothing else.

    ``index`` counts elements from the start of the data, as in the
    flattened array of a C-contiguous ``array``. An index outside the array
    is harmless (a prefetch never faults).
    """
    if not (isinstance(array, types.Array) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        arr_type = signature.args[0]
        arr = context.make_array(arr_type)(context, builder, args[0])
        i = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = builder.gep(arr.data, [i])
        byte_ptr = builder.bitcast(ptr, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr.type, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte_ptr.type], fnty)
        # read (0), keep in all cache levels (3), data cache (1)
        builder.call(fn, [byte_ptr, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(array, index), codegen
