// CPU kernels of the conditional accumulators: the creating ops make (or share) one
// ConditionalAccumulator resource per kernel; apply, take, count and set-global-step act on the
// accumulator a handle names (a resource handle, or TensorFlow's ref to [container, name]).
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "kernels/data_flow/accumulator_kernels.h"

#include "core/log.h"
#include "distributed/mpi_context.h"
#include "framework/kernel_registry.h"
#include "framework/node_attrs.h"
#include "framework/op_kernel.h"
#include "kernels/data_flow/conditional_accumulator.h"
#include "kernels/queue/resource_naming.h"

#include <mutex>
#include <optional>

namespace tstudio {
namespace {

const std::vector<DataType> kAccumulatorDtypes = {tensorflow::DT_HALF, tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE};

/// The three creating ops. `kResourceHandle`: a scalar resource handle (ResourceConditionalAccumulator);
/// otherwise the ref to a string vector [container, name] that the node keeps (TensorFlow's
/// ConditionalAccumulator and SparseConditionalAccumulator).
template <bool kSparse, bool kResourceHandle> class AccumulatorHandleOp : public OpKernel {
public:
    explicit AccumulatorHandleOp(OpKernelConstruction& c) : OpKernel(c) { m_init = readConfig(c.node()); }

    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        if (!m_name) {
            auto name = resourceNameFor(node());
            if (!name)
                return name.error();
            auto accumulator = lookupOrCreateMatching<ConditionalAccumulator>(ctx, *name, m_config);
            if (!accumulator)
                return accumulator.error();
            if constexpr (!kResourceHandle) {
                auto handle = Tensor::allocate(ctx.allocator(), tensorflow::DT_STRING, TensorShape({2}));
                if (!handle)
                    return handle.error();
                handle->strings()[0] = name->container;
                handle->strings()[1] = name->name;
                std::lock_guard lock(m_handleMutex);
                m_handle = std::move(*handle);
            }
            m_name = *name;
        }
        if constexpr (kResourceHandle) {
            return setHandleOutput(ctx, *m_name, ConditionalAccumulator::kTypeName);
        } else {
            ctx.setOutputRef(0, &m_handle, &m_handleMutex);
            return Status::ok();
        }
    }

private:
    Status readConfig(const tensorflow::NodeDef& def)
    {
        auto dtype = attrType(def, "dtype");
        if (!dtype)
            return dtype.error();
        auto shape = attrShape(def, "shape");
        if (!shape)
            return shape.error();
        auto reduction = attrString(def, "reduction_type");
        if (!reduction)
            return reduction.error();
        if (*reduction != "MEAN" && *reduction != "SUM")
            return invalidArgumentError("reduction_type must be 'MEAN' or 'SUM', got '" + *reduction + "'");
        m_config.dtype = *dtype;
        m_config.shape = *shape;
        m_config.mean = *reduction == "MEAN";
        m_config.sparse = kSparse;
        return Status::ok();
    }

    Status m_init;
    AccumulatorConfig m_config;
    std::optional<ResourceName> m_name;
    Tensor m_handle;
    std::mutex m_handleMutex;
};

Expected<std::int64_t> scalarInt64(const Tensor& t, const char* what)
{
    if (t.rank() != 0)
        return unexpected(invalidArgumentError(std::string("Argument ") + what + " must be scalar, but had bad shape " +
                                               t.shape().toString()));
    return t.scalar<std::int64_t>();
}

/// The accumulator's dtype must be the op's `dtype` attr (TensorFlow's MatchSignature).
Status checkDtype(const ConditionalAccumulator& accumulator, DataType opDtype)
{
    if (opDtype == accumulator.config().dtype)
        return Status::ok();
    return invalidArgumentError("Signature mismatch: accumulator '" + accumulator.config().name + "' holds " +
                                dataTypeString(accumulator.config().dtype) + ", the op's dtype is " +
                                dataTypeString(opDtype));
}

class ApplyGradientOp : public OpKernel {
public:
    explicit ApplyGradientOp(OpKernelConstruction& c) : OpKernel(c) {}
    Status compute(OpKernelContext& ctx) override
    {
        auto accumulator = accumulatorFromInput(ctx, 0, false);
        if (!accumulator)
            return accumulator.error();
        if (Status s = checkDtype(**accumulator, inputTypes()[2]); !s.isOk())
            return s;
        auto step = scalarInt64(ctx.input(1), "local_step");
        if (!step)
            return step.error();
        auto applied = (*accumulator)->applyDense(ctx, *step, ctx.input(2));
        return applied ? Status::ok() : applied.error();
    }
};

class SparseApplyGradientOp : public OpKernel {
public:
    explicit SparseApplyGradientOp(OpKernelConstruction& c) : OpKernel(c)
    {
        auto known = attrBool(c.node(), "has_known_shape");
        if (known)
            m_hasKnownShape = *known;
        else
            m_init = known.error();
    }
    Status compute(OpKernelContext& ctx) override
    {
        if (!m_init.isOk())
            return m_init;
        auto accumulator = accumulatorFromInput(ctx, 0, true);
        if (!accumulator)
            return accumulator.error();
        if (Status s = checkDtype(**accumulator, inputTypes()[3]); !s.isOk())
            return s;
        auto step = scalarInt64(ctx.input(1), "local_step");
        if (!step)
            return step.error();
        auto applied =
            (*accumulator)
                ->applySparse(ctx, *step, ctx.input(2), ctx.input(3), m_hasKnownShape ? &ctx.input(4) : nullptr);
        return applied ? Status::ok() : applied.error();
    }

private:
    Status m_init;
    bool m_hasKnownShape = false;
};

Expected<std::int32_t> numRequired(const Tensor& t)
{
    if (t.rank() != 0)
        return unexpected(
            invalidArgumentError("Argument num_required must be scalar, but had bad shape " + t.shape().toString()));
    return t.scalar<std::int32_t>();
}

/// Under MPI (MpiContext initialized, more than one rank; each rank runs its own copy of the graph,
/// so each holds its own copy of the ps variables): the value a take returns is summed over the
/// ranks with an allreduce named after the accumulator's shared name, and divided by the number of
/// ranks for MEAN, so every rank applies the same update and the copies stay identical.
Status combineAcrossRanks(Tensor& value, const ConditionalAccumulator& accumulator)
{
    distributed::MpiContext& mpi = distributed::MpiContext::instance();
    if (!mpi.isInitialized() || mpi.size() <= 1)
        return Status::ok();
    if (Status s = mpi.allreduce("SyncReplicas/" + accumulator.config().name, value.dtype(), value.tensorData().data(),
                                 value.numElements());
        !s.isOk())
        return s;
    if (!accumulator.config().mean)
        return Status::ok();
    return dispatchDataType<TypeList<Eigen::half, float, double>>(value.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T ranks = static_cast<T>(static_cast<float>(mpi.size()));
        for (T& x : value.values<T>())
            x = x / ranks;
    });
}

class TakeGradientOp : public OpKernel {
public:
    explicit TakeGradientOp(OpKernelConstruction& c) : OpKernel(c) {}
    Status compute(OpKernelContext& ctx) override
    {
        auto accumulator = accumulatorFromInput(ctx, 0, false);
        if (!accumulator)
            return accumulator.error();
        if (Status s = checkDtype(**accumulator, outputTypes()[0]); !s.isOk())
            return s;
        auto n = numRequired(ctx.input(1));
        if (!n)
            return n.error();
        auto mean = (*accumulator)->takeDense(ctx, *n);
        if (!mean)
            return mean.error();
        if (Status s = combineAcrossRanks(*mean, **accumulator); !s.isOk())
            return s;
        return ctx.setOutput(0, std::move(*mean));
    }
};

Status int64VectorOutput(OpKernelContext& ctx, int output, const std::vector<std::int64_t>& values)
{
    auto out = ctx.allocateOutput(output, TensorShape({static_cast<std::int64_t>(values.size())}));
    if (!out)
        return out.error();
    std::copy(values.begin(), values.end(), (*out)->values<std::int64_t>().begin());
    return Status::ok();
}

class SparseTakeGradientOp : public OpKernel {
public:
    explicit SparseTakeGradientOp(OpKernelConstruction& c) : OpKernel(c) {}
    Status compute(OpKernelContext& ctx) override
    {
        auto accumulator = accumulatorFromInput(ctx, 0, true);
        if (!accumulator)
            return accumulator.error();
        if (Status s = checkDtype(**accumulator, outputTypes()[1]); !s.isOk())
            return s;
        auto n = numRequired(ctx.input(1));
        if (!n)
            return n.error();
        if (distributed::MpiContext::instance().isInitialized() && distributed::MpiContext::instance().size() > 1)
            return unimplementedError("sparse accumulator '" + (*accumulator)->config().name +
                                      "': combining IndexedSlices gradients across MPI ranks is not supported "
                                      "(only dense accumulators average over the ranks)");
        auto taken = (*accumulator)->takeSparse(ctx, *n);
        if (!taken)
            return taken.error();
        if (Status s = int64VectorOutput(ctx, 0, taken->indices); !s.isOk())
            return s;
        if (Status s = ctx.setOutput(1, std::move(taken->values)); !s.isOk())
            return s;
        return int64VectorOutput(ctx, 2, taken->denseShape);
    }
};

class NumAccumulatedOp : public OpKernel {
public:
    explicit NumAccumulatedOp(OpKernelConstruction& c) : OpKernel(c) {}
    Status compute(OpKernelContext& ctx) override
    {
        auto accumulator = accumulatorFromInput(ctx, 0, false);
        if (!accumulator && accumulator.error().code() == StatusCode::kInvalidArgument)
            accumulator = accumulatorFromInput(ctx, 0, true); // AccumulatorNumAccumulated serves both kinds
        if (!accumulator)
            return accumulator.error();
        auto out = ctx.allocateOutput(0, TensorShape::scalar());
        if (!out)
            return out.error();
        (*out)->scalar<std::int32_t>() = (*accumulator)->numAccumulated();
        return Status::ok();
    }
};

class SetGlobalStepOp : public OpKernel {
public:
    explicit SetGlobalStepOp(OpKernelConstruction& c) : OpKernel(c) {}
    Status compute(OpKernelContext& ctx) override
    {
        auto accumulator = accumulatorFromInput(ctx, 0, false);
        if (!accumulator && accumulator.error().code() == StatusCode::kInvalidArgument)
            accumulator = accumulatorFromInput(ctx, 0, true); // AccumulatorSetGlobalStep serves both kinds
        if (!accumulator)
            return accumulator.error();
        auto step = scalarInt64(ctx.input(1), "new_global_step");
        if (!step)
            return step.error();
        const std::int64_t before = (*accumulator)->globalStep();
        if ((*accumulator)->setGlobalStep(*step))
            logWarning("accumulator", "Attempt to set current_global_step_ to smaller value: current_global_step_ = " +
                                          std::to_string(before) + " >= " + std::to_string(*step) +
                                          " = new_global_step (accumulator '" + (*accumulator)->config().name + "')");
        return Status::ok();
    }
};

template <typename Kernel> Status addForDtypes(KernelRegistry& registry, const char* op, std::vector<std::string> host)
{
    return registry.add<Kernel>(KernelDef{op, "CPU", {{"dtype", kAccumulatorDtypes}}, std::move(host)});
}

} // namespace

Status registerAccumulatorCpuKernels(KernelRegistry& registry)
{
    Status s = addForDtypes<AccumulatorHandleOp<false, false>>(registry, "ConditionalAccumulator", {"handle"});
    if (s.isOk())
        s = addForDtypes<AccumulatorHandleOp<false, true>>(registry, "ResourceConditionalAccumulator", {"handle"});
    if (s.isOk())
        s = addForDtypes<AccumulatorHandleOp<true, false>>(registry, "SparseConditionalAccumulator", {"handle"});
    for (const char* op : {"AccumulatorApplyGradient", "ResourceAccumulatorApplyGradient"})
        if (s.isOk())
            s = addForDtypes<ApplyGradientOp>(registry, op, {"handle", "local_step"});
    if (s.isOk())
        s = addForDtypes<SparseApplyGradientOp>(registry, "SparseAccumulatorApplyGradient",
                                                {"handle", "local_step", "gradient_indices", "gradient_shape"});
    for (const char* op : {"AccumulatorTakeGradient", "ResourceAccumulatorTakeGradient"})
        if (s.isOk())
            s = addForDtypes<TakeGradientOp>(registry, op, {"handle", "num_required"});
    if (s.isOk())
        s = addForDtypes<SparseTakeGradientOp>(registry, "SparseAccumulatorTakeGradient",
                                               {"handle", "num_required", "indices", "shape"});
    for (const char* op : {"AccumulatorNumAccumulated", "ResourceAccumulatorNumAccumulated"})
        if (s.isOk())
            s = registry.add<NumAccumulatedOp>(KernelDef{op, "CPU", {}, {"handle", "num_accumulated"}});
    for (const char* op : {"AccumulatorSetGlobalStep", "ResourceAccumulatorSetGlobalStep"})
        if (s.isOk())
            s = registry.add<SetGlobalStepOp>(KernelDef{op, "CPU", {}, {"handle", "new_global_step"}});
    return s;
}

} // namespace tstudio
