// Horovod's gradients (HorovodAllreduce, HorovodBroadcast), as Horovod's _allreduce_grad and
// _broadcast_grad define them; registered when the ops are (builds with MPI).
#include "autodiff/gradient_context.h"
#include "autodiff/gradients_registry.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "distributed/mpi_context.h"
#include "framework/node_attrs.h"
#include "framework/op_registry.h"

namespace tstudio {
namespace {

using distributed::MpiContext;

/// Horovod's _allreduce_grad: the gradient summed over the ranks, as the forward op sums.
Status allreduceGrad(GradientContext& ctx)
{
    auto grad = ctx.grad();
    if (!grad)
        return grad.error();
    auto reduced = ops::firstOutput(ctx.builder().op("HorovodAllreduce", {OpInput(*grad)}));
    if (!reduced)
        return reduced.error();
    return ctx.setInputGradient(0, *reduced);
}

/// Horovod's _broadcast_grad: the allreduced gradient on the root rank, zeros on the others (the
/// rank is this process's when the gradient graph is built, as Horovod's Python reads rank()).
Status broadcastGrad(GradientContext& ctx)
{
    auto root = attrInt(ctx.node(), "root_rank");
    if (!root)
        return root.error();
    auto grad = ctx.grad();
    if (!grad)
        return grad.error();
    GraphBuilder& b = ctx.builder();
    auto reduced = ops::firstOutput(b.op("HorovodAllreduce", {OpInput(*grad)}));
    if (!reduced)
        return reduced.error();
    if (MpiContext::instance().rank() == *root)
        return ctx.setInputGradient(0, *reduced);
    auto zeros = ops::firstOutput(b.op("ZerosLike", {OpInput(*reduced)}));
    if (!zeros)
        return zeros.error();
    return ctx.setInputGradient(0, *zeros);
}

} // namespace

Status registerHorovodGradients(OpRegistry& registry)
{
    if (registry.find("HorovodAllreduce") == nullptr)
        return Status::ok(); // a build without MPI registers no Horovod op
    if (Status s = registry.setGradient("HorovodAllreduce", allreduceGrad); !s.isOk())
        return s;
    return registry.setGradient("HorovodBroadcast", broadcastGrad);
}

} // namespace tstudio
