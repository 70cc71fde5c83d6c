// HorovodAllreduce and HorovodBroadcast with MPI: definitions as Horovod 0.16-0.18 registers them
// (names, args, attrs, type lists), and CPU kernels that hand the
// tensor to the MpiContext's background thread (negotiated by node name, fused, MPI_Allreduce /
// MPI_Bcast) in place of a copy.
#include "distributed/horovod_ops.h"

#include "distributed/mpi_context.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_def_builder.h"
#include "framework/op_kernel.h"
#include "framework/op_registry.h"
#include "ops/common_shape_fns.h"

#include <cstring>

namespace tstudio {

namespace {

using distributed::MpiContext;

/// The output starts as a copy of the input; the collective then works on it in place.
Expected<Tensor*> copyToOutput(OpKernelContext& ctx)
{
    const Tensor& in = ctx.input(0);
    auto out = ctx.allocateOutput(0, in.shape());
    if (!out)
        return out;
    const auto from = in.tensorData();
    auto to = (*out)->tensorData();
    if (!from.empty())
        std::memcpy(to.data(), from.data(), from.size());
    return out;
}

class HorovodAllreduceOp : public OpKernel {
public:
    explicit HorovodAllreduceOp(OpKernelConstruction& c) : OpKernel(c), m_name(c.node().name()) {}

    Status compute(OpKernelContext& ctx) override
    {
        auto out = copyToOutput(ctx);
        if (!out)
            return out.error();
        Tensor& t = **out;
        return MpiContext::instance().allreduce(m_name, t.dtype(), t.tensorData().data(), t.numElements());
    }

private:
    std::string m_name;
};

class HorovodBroadcastOp : public OpKernel {
public:
    explicit HorovodBroadcastOp(OpKernelConstruction& c) : OpKernel(c), m_name(c.node().name())
    {
        auto root = attrInt(c.node(), "root_rank");
        if (root)
            m_root = *root;
        else
            m_init = root.error();
    }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto out = copyToOutput(ctx);
        if (!out)
            return out.error();
        Tensor& t = **out;
        const int size = MpiContext::instance().size();
        if (m_root < 0 || m_root >= size)
            return invalidArgumentError(MpiContext::instance().errorPrefix() + "root_rank " +
                                        std::to_string(m_root) + " is outside [0, " + std::to_string(size) + ")");
        auto bytes = t.tensorData();
        return MpiContext::instance().broadcast(m_name, bytes.data(), bytes.size(), static_cast<int>(m_root));
    }

private:
    std::string m_name;
    std::int64_t m_root = 0;
    Status m_init;
};

} // namespace

Status registerHorovodOps(OpRegistry& registry)
{
    OpDefBuilder allreduce("HorovodAllreduce");
    allreduce.summary("Sums a tensor over every process of an MPI job (Horovod's allreduce).")
        .description("Every process runs the node with a tensor of the same dtype and shape; each gets the "
                     "element-wise sum over all processes. Processes are matched by the node's name, so their "
                     "graphs may run the nodes in different orders. Averaging is the caller's: Horovod's "
                     "DistributedOptimizer divides the sum by the number of processes.")
        .category(op_category::kTraining)
        .attr("T: {int32, int64, half, float, double}")
        .input("tensor: T")
        .output("sum: T")
        .setIsStateful();
    if (Status s = registry.registerOp(allreduce); !s.isOk())
        return s;
    OpDefBuilder broadcast("HorovodBroadcast");
    broadcast.summary("Copies the tensor of one process of an MPI job to every process (Horovod's broadcast).")
        .description("Every process runs the node with a tensor of the same dtype and shape; each gets the "
                     "value that the process root_rank passed in. Used to start every process from rank 0's "
                     "initial variables.")
        .category(op_category::kTraining)
        .attr("T: {uint8, int8, uint16, int16, int32, int64, half, float, double, bool}")
        .attr("root_rank: int")
        .input("tensor: T")
        .output("output: T")
        .setIsStateful();
    if (Status s = registry.registerOp(broadcast); !s.isOk())
        return s;
    for (const char* name : {"HorovodAllreduce", "HorovodBroadcast"})
        if (Status s = registry.setShapeFunction(name, unchangedShape); !s.isOk())
            return s;
    return Status::ok();
}

Status registerHorovodCpuKernels(KernelRegistry& registry)
{
    if (Status s = registry.add<HorovodAllreduceOp>(KernelDef{"HorovodAllreduce", "CPU", {}, {}}); !s.isOk())
        return s;
    return registry.add<HorovodBroadcastOp>(KernelDef{"HorovodBroadcast", "CPU", {}, {}});
}

} // namespace tstudio
