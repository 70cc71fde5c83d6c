// A ConstantEvaluator (function/shape_refiner.h) that runs the node's CPU kernel, as TensorFlow's
// shape refiner evaluates small constant subgraphs with its kernels.
#pragma once

#include "function/shape_refiner.h"

#include <memory>

namespace tstudio {

class CpuDevice;
class KernelRegistry;
class OpRegistry;
class ResourceManager;

/// Owns a single-threaded CPU device whose allocator holds the values it computes: keep the
/// evaluator alive as long as the GraphShapes built with it.
class KernelConstantEvaluator {
public:
    /// The registries must outlive the evaluator.
    KernelConstantEvaluator(const OpRegistry& ops, const KernelRegistry& kernels);
    ~KernelConstantEvaluator();
    KernelConstantEvaluator(const KernelConstantEvaluator&) = delete;
    KernelConstantEvaluator& operator=(const KernelConstantEvaluator&) = delete;

    /// The outputs of `node` (attrs completed) for these input values; nullopt when there is no
    /// CPU kernel or it fails (the refiner then keeps what the shape function said).
    std::optional<std::vector<Tensor>> evaluate(const tensorflow::NodeDef& node, const std::vector<Tensor>& inputs);
    /// The function form for ShapeRefinerOptions::evaluator (refers to this object).
    ConstantEvaluator function();
    /// Where the values live (for inferGraphShapes' allocator argument).
    Allocator& allocator();

private:
    const OpRegistry& m_ops;
    const KernelRegistry& m_kernels;
    std::unique_ptr<CpuDevice> m_device;
    std::unique_ptr<ResourceManager> m_resources;
    std::int64_t m_step = 0;
};

} // namespace tstudio
