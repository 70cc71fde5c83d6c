// The oneDNN convolutions (see conv2d_dnnl.h): one CPU engine, primitives cached per geometry and
// thread count, activations described to oneDNN as NHWC and filters as HWIO so no layout change
// happens on our side; oneDNN picks its own filter layout (format_tag::any) and the filter is
// reordered into it (or, for the filter backprop, out of it) around the convolution.
#define EIGEN_USE_THREADS

#include "kernels/nn/conv2d_dnnl.h"
#include "devices/cpu/cpu_parallel.h"
#include "kernels/isa/dnnl_isa_cap.h"

#include <atomic>

#ifdef TSTUDIO_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#include <omp.h>

#include <algorithm>
#include <array>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include <unsupported/Eigen/CXX11/Tensor>
#endif

namespace tstudio::nn {

namespace {

std::atomic<bool> g_enabled{true};

} // namespace

bool dnnlConvCompiledIn()
{
#ifdef TSTUDIO_HAVE_DNNL
    return true;
#else
    return false;
#endif
}

bool dnnlConvEnabled()
{
    return dnnlConvCompiledIn() && g_enabled.load(std::memory_order_relaxed);
}

void setDnnlConvEnabled(bool enabled)
{
    g_enabled.store(enabled, std::memory_order_relaxed);
}

#ifdef TSTUDIO_HAVE_DNNL

namespace {

using dims = dnnl::memory::dims;
using tag = dnnl::memory::format_tag;
using dt = dnnl::memory::data_type;

enum class Pass : std::int64_t { kForward, kBackpropInput, kBackpropFilter };

/// What a cached plan depends on: the pass, its epilogue, the thread count and the whole geometry.
using Key = std::array<std::int64_t, 20>;

Key makeKey(Pass pass, DnnlConvEpilogue epilogue, int threads, const Conv2DGeometry& g)
{
    return {static_cast<std::int64_t>(pass),
            static_cast<std::int64_t>(epilogue),
            threads,
            g.batch,
            g.inDepth,
            g.outDepth,
            g.rows.input,
            g.rows.filter,
            g.rows.dilation,
            g.rows.stride,
            g.rows.output,
            g.rows.padBefore,
            g.rows.padAfter,
            g.cols.input,
            g.cols.filter,
            g.cols.dilation,
            g.cols.stride,
            g.cols.output,
            g.cols.padBefore,
            g.cols.padAfter};
}

/// One primitive ready to run: the convolution, the filter layout it wants, and the reorder
/// between that layout and our HWIO (none when they are the same).
struct Plan {
    dnnl::primitive conv;
    dnnl::memory::desc filterDesc;     // the layout the convolution reads or writes
    dnnl::memory::desc scratchpadDesc; // user-managed, so concurrent runs never share one
    bool reorderFilter = false;
    dnnl::reorder filterReorder; // HWIO -> filterDesc, or filterDesc -> HWIO for the filter backprop
    // The input backprop of a one-channel image runs on planar (NCHW) buffers, where oneDNN has a
    // GEMM implementation about 3x faster than its direct one for C = 1 (a one-channel NCHW image
    // is the NHWC one byte for byte); out_backprop is reordered into `planarOutputDesc` first.
    bool planar = false;
    dnnl::memory::desc planarOutputDesc;
    dnnl::reorder outputReorder; // NHWC out_backprop -> planarOutputDesc
};

dnnl::engine& cpuEngine()
{
    static dnnl::engine engine = [] {
        capDnnlIsa();
        return dnnl::engine(dnnl::engine::kind::cpu, 0);
    }();
    return engine;
}

/// oneDNN computes each spatial size as (input + padBefore + padAfter - effectiveFilter) / stride + 1;
/// TensorFlow's sizes and pads (SAME puts the odd pad after) must agree with that, and every size
/// must be positive (empty tensors stay on the im2col path, which handles them).
bool takes(const Conv2DGeometry& g)
{
    if (g.batch <= 0 || g.inDepth <= 0 || g.outDepth <= 0)
        return false;
    for (const WindowDim* d : {&g.rows, &g.cols}) {
        if (d->input <= 0 || d->filter <= 0 || d->output <= 0 || d->stride <= 0 || d->dilation <= 0 ||
            d->padBefore < 0 || d->padAfter < 0)
            return false;
        const std::int64_t span = d->input + d->padBefore + d->padAfter - d->effectiveFilter();
        if (span < 0 || span / d->stride + 1 != d->output)
            return false;
    }
    return true;
}

struct Descs {
    dnnl::memory::desc image;   // the input (or its backprop), NHWC
    dnnl::memory::desc filter;  // HWIO, as our tensors hold it
    dnnl::memory::desc anyFilter;
    dnnl::memory::desc output;  // the output (or its backprop), NHWC
    dnnl::memory::desc bias;    // one per output channel
    dims strides, dilates, padBefore, padAfter;
};

/// Whether the input backprop runs planar (see Plan::planar).
bool planarBackpropInput(Pass pass, const Conv2DGeometry& g)
{
    return pass == Pass::kBackpropInput && g.inDepth == 1;
}

Descs descsFor(const Conv2DGeometry& g)
{
    Descs d;
    d.image = dnnl::memory::desc({g.batch, g.inDepth, g.rows.input, g.cols.input}, dt::f32, tag::nhwc);
    const dims filterDims{g.outDepth, g.inDepth, g.rows.filter, g.cols.filter};
    d.filter = dnnl::memory::desc(filterDims, dt::f32, tag::hwio);
    d.anyFilter = dnnl::memory::desc(filterDims, dt::f32, tag::any);
    d.output = dnnl::memory::desc({g.batch, g.outDepth, g.rows.output, g.cols.output}, dt::f32, tag::nhwc);
    d.bias = dnnl::memory::desc({g.outDepth}, dt::f32, tag::x);
    d.strides = {g.rows.stride, g.cols.stride};
    d.dilates = {g.rows.dilation - 1, g.cols.dilation - 1}; // oneDNN counts the holes
    d.padBefore = {g.rows.padBefore, g.cols.padBefore};
    d.padAfter = {g.rows.padAfter, g.cols.padAfter};
    return d;
}

dnnl::convolution_forward::desc forwardDesc(const Descs& d, dnnl::prop_kind kind, bool withBias = false)
{
    if (withBias)
        return dnnl::convolution_forward::desc(kind, dnnl::algorithm::convolution_direct, d.image, d.anyFilter,
                                               d.bias, d.output, d.strides, d.dilates, d.padBefore, d.padAfter);
    return dnnl::convolution_forward::desc(kind, dnnl::algorithm::convolution_direct, d.image, d.anyFilter, d.output,
                                           d.strides, d.dilates, d.padBefore, d.padAfter);
}

/// Builds the plan for one pass; throws dnnl::error when oneDNN has no implementation.
std::shared_ptr<const Plan> buildPlan(Pass pass, DnnlConvEpilogue epilogue, const Conv2DGeometry& g)
{
    dnnl::engine& engine = cpuEngine();
    const Descs d = descsFor(g);
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    if (epilogue == DnnlConvEpilogue::kBiasRelu) {
        dnnl::post_ops ops;
        ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
        attr.set_post_ops(ops);
    }
    auto plan = std::make_shared<Plan>();
    switch (pass) {
    case Pass::kForward: {
        const bool withBias = epilogue != DnnlConvEpilogue::kNone;
        dnnl::convolution_forward::primitive_desc pd(forwardDesc(d, dnnl::prop_kind::forward_inference, withBias),
                                                     attr, engine);
        plan->conv = dnnl::convolution_forward(pd);
        plan->filterDesc = pd.weights_desc();
        plan->scratchpadDesc = pd.scratchpad_desc();
        break;
    }
    case Pass::kBackpropInput: {
        Descs conv = d;
        if (planarBackpropInput(pass, g)) {
            plan->planar = true;
            conv.image = dnnl::memory::desc(d.image.dims(), dt::f32, tag::nchw);
            conv.output = dnnl::memory::desc(d.output.dims(), dt::f32, tag::nchw);
            plan->planarOutputDesc = conv.output;
            plan->outputReorder = dnnl::reorder(dnnl::reorder::primitive_desc(engine, d.output, engine, conv.output));
        }
        dnnl::convolution_forward::primitive_desc hint(forwardDesc(conv, dnnl::prop_kind::forward_training), engine);
        dnnl::convolution_backward_data::desc desc(dnnl::algorithm::convolution_direct, conv.image, conv.anyFilter,
                                                   conv.output, conv.strides, conv.dilates, conv.padBefore,
                                                   conv.padAfter);
        dnnl::convolution_backward_data::primitive_desc pd(desc, attr, engine, hint);
        plan->conv = dnnl::convolution_backward_data(pd);
        plan->filterDesc = pd.weights_desc();
        plan->scratchpadDesc = pd.scratchpad_desc();
        break;
    }
    case Pass::kBackpropFilter: {
        dnnl::convolution_forward::primitive_desc hint(forwardDesc(d, dnnl::prop_kind::forward_training), engine);
        dnnl::convolution_backward_weights::desc desc(dnnl::algorithm::convolution_direct, d.image, d.anyFilter,
                                                      d.output, d.strides, d.dilates, d.padBefore, d.padAfter);
        dnnl::convolution_backward_weights::primitive_desc pd(desc, attr, engine, hint);
        plan->conv = dnnl::convolution_backward_weights(pd);
        plan->filterDesc = pd.diff_weights_desc();
        plan->scratchpadDesc = pd.scratchpad_desc();
        break;
    }
    }
    plan->reorderFilter = plan->filterDesc != d.filter;
    if (plan->reorderFilter) {
        plan->filterReorder = pass == Pass::kBackpropFilter
                                  ? dnnl::reorder(dnnl::reorder::primitive_desc(engine, plan->filterDesc, engine, d.filter))
                                  : dnnl::reorder(dnnl::reorder::primitive_desc(engine, d.filter, engine, plan->filterDesc));
    }
    return plan;
}

/// The cached plan, built on first use; nullptr when oneDNN has no implementation for it (that
/// answer is cached too). Bounded: the cache is emptied when it grows past kMaxPlans.
std::shared_ptr<const Plan> planFor(Pass pass, DnnlConvEpilogue epilogue, int threads, const Conv2DGeometry& g)
{
    constexpr std::size_t kMaxPlans = 256;
    static std::mutex mutex;
    static std::map<Key, std::shared_ptr<const Plan>> plans;
    const Key key = makeKey(pass, epilogue, threads, g);
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (auto it = plans.find(key); it != plans.end())
            return it->second;
    }
    std::shared_ptr<const Plan> plan;
    try {
        plan = buildPlan(pass, epilogue, g);
    } catch (const std::exception&) {
        plan = nullptr; // no implementation (dnnl::error) or no memory: im2col runs it
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (plans.size() >= kMaxPlans)
        plans.clear();
    plans.emplace(key, plan);
    return plan;
}

/// What one run of a pass reads and writes: the activations at `image` and `output` (NHWC), the
/// HWIO filter at `filter` (which of them are read and which written depends on the pass) and,
/// for a forward pass with an epilogue, the bias.
struct Buffers {
    float* image = nullptr;
    float* filter = nullptr;
    float* output = nullptr;
    const float* bias = nullptr;
    DnnlConvEpilogue epilogue = DnnlConvEpilogue::kNone;
};

/// Runs `pass` once on `ompThreads` OpenMP threads.
std::optional<Status> runOnce(Pass pass, int ompThreads, const Conv2DGeometry& g, const Buffers& b)
{
    float* image = b.image;
    float* filter = b.filter;
    float* output = b.output;
    // oneDNN sizes its work split from the calling thread's OpenMP thread count, both when a
    // primitive is built and when it runs.
    omp_set_num_threads(ompThreads);
    std::shared_ptr<const Plan> plan = planFor(pass, b.epilogue, ompThreads, g);
    if (!plan)
        return std::nullopt;
    try {
        dnnl::engine& engine = cpuEngine();
        const Descs d = descsFor(g);
        dnnl::stream stream(engine);
        dnnl::memory imageMem(d.image, engine, image);
        dnnl::memory outputMem(d.output, engine, output);
        dnnl::memory userFilter(d.filter, engine, filter);
        dnnl::memory convFilter = plan->reorderFilter ? dnnl::memory(plan->filterDesc, engine) : userFilter;
        dnnl::memory scratchpad(plan->scratchpadDesc, engine);
        switch (pass) {
        case Pass::kForward: {
            if (plan->reorderFilter)
                plan->filterReorder.execute(stream, userFilter, convFilter);
            std::unordered_map<int, dnnl::memory> args{{DNNL_ARG_SRC, imageMem},
                                                       {DNNL_ARG_WEIGHTS, convFilter},
                                                       {DNNL_ARG_DST, outputMem},
                                                       {DNNL_ARG_SCRATCHPAD, scratchpad}};
            if (b.epilogue != DnnlConvEpilogue::kNone) // oneDNN only reads the bias
                args.emplace(DNNL_ARG_BIAS, dnnl::memory(d.bias, engine, const_cast<float*>(b.bias)));
            plan->conv.execute(stream, args);
            break;
        }
        case Pass::kBackpropInput: {
            if (plan->reorderFilter)
                plan->filterReorder.execute(stream, userFilter, convFilter);
            dnnl::memory convOutput = outputMem;
            if (plan->planar) {
                convOutput = dnnl::memory(plan->planarOutputDesc, engine);
                plan->outputReorder.execute(stream, outputMem, convOutput);
                // One channel: the NCHW view of the NHWC input backprop is the same buffer.
                imageMem = dnnl::memory(dnnl::memory::desc(d.image.dims(), dt::f32, tag::nchw), engine, image);
            }
            plan->conv.execute(stream, {{DNNL_ARG_DIFF_SRC, imageMem},
                                        {DNNL_ARG_WEIGHTS, convFilter},
                                        {DNNL_ARG_DIFF_DST, convOutput},
                                        {DNNL_ARG_SCRATCHPAD, scratchpad}});
            break;
        }
        case Pass::kBackpropFilter:
            plan->conv.execute(stream, {{DNNL_ARG_SRC, imageMem},
                                        {DNNL_ARG_DIFF_WEIGHTS, convFilter},
                                        {DNNL_ARG_DIFF_DST, outputMem},
                                        {DNNL_ARG_SCRATCHPAD, scratchpad}});
            if (plan->reorderFilter)
                plan->filterReorder.execute(stream, convFilter, userFilter);
            break;
        }
        stream.wait();
    } catch (const dnnl::error& e) {
        return internalError(std::string("oneDNN convolution failed: ") + e.what());
    } catch (const std::bad_alloc&) {
        return resourceExhaustedError("OOM when allocating oneDNN convolution buffers");
    }
    return Status::ok();
}

/// `g` for a slice of `count` images of its batch.
Conv2DGeometry batchSlice(const Conv2DGeometry& g, std::int64_t count)
{
    Conv2DGeometry slice = g;
    slice.batch = count;
    return slice;
}

/// Runs `pass` on the device's intra-op threads. With a batch of at least as many images as
/// threads, the batch is cut into one slice per thread, each run by oneDNN on one OpenMP thread
/// from the device's own pool: no OpenMP team is ever started, whose spinning workers would
/// compete with the pool for the cores. The filter backprop sums the slices' filter gradients (in
/// slice order, so the result depends only on the thread count). Smaller batches run on an
/// OpenMP team of the device's thread count.
std::optional<Status> run(Pass pass, const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g, const Buffers& b)
{
    if (!dnnlConvEnabled() || !takes(g))
        return std::nullopt;
    const std::int64_t threads = std::max(device.numThreads(), 1);
    if (threads == 1 || g.batch < threads)
        return runOnce(pass, static_cast<int>(threads), g, b);

    const std::int64_t slices = threads;
    const std::int64_t base = g.batch / slices;
    const std::int64_t extra = g.batch % slices; // the first `extra` slices take one image more
    // oneDNN must take both slice sizes, or the whole convolution goes to im2col.
    omp_set_num_threads(1);
    if (!planFor(pass, b.epilogue, 1, batchSlice(g, base)) ||
        (extra > 0 && !planFor(pass, b.epilogue, 1, batchSlice(g, base + 1))))
        return std::nullopt;
    std::vector<float> partials;
    try {
        if (pass == Pass::kBackpropFilter)
            partials.resize(static_cast<std::size_t>((slices - 1) * g.filterSize()));
    } catch (const std::bad_alloc&) {
        return resourceExhaustedError("OOM when allocating the filter gradients of a oneDNN convolution");
    }
    const std::int64_t imageSize = g.rows.input * g.cols.input * g.inDepth;
    const std::int64_t outputSize = g.outputPixels() * g.outDepth;
    std::vector<std::optional<Status>> results(static_cast<std::size_t>(slices));
    const Eigen::TensorOpCost cost(0, 0, 1e12); // one slice per task
    cpuParallelFor(device, slices, cost, [&](Eigen::Index begin, Eigen::Index end) {
        for (Eigen::Index s = begin; s < end; ++s) {
            const std::int64_t first = s * base + std::min<std::int64_t>(s, extra);
            const std::int64_t count = base + (s < extra ? 1 : 0);
            Buffers slice = b;
            if (pass == Pass::kBackpropFilter && s > 0)
                slice.filter = partials.data() + (s - 1) * g.filterSize();
            slice.image = b.image + first * imageSize;
            slice.output = b.output + first * outputSize;
            results[static_cast<std::size_t>(s)] = runOnce(pass, 1, batchSlice(g, count), slice);
        }
    });
    for (const std::optional<Status>& r : results) {
        if (!r)
            return std::nullopt; // a plan evicted and then refused: im2col redoes the whole output
        if (!r->isOk())
            return *r;
    }
    if (pass == Pass::kBackpropFilter) {
        for (std::int64_t s = 1; s < slices; ++s) {
            const float* part = partials.data() + (s - 1) * g.filterSize();
            for (std::int64_t i = 0; i < g.filterSize(); ++i)
                b.filter[i] += part[i];
        }
    }
    return Status::ok();
}

} // namespace

std::optional<Status> dnnlConvForward(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                      const float* input, const float* filter, float* output)
{
    // oneDNN's memory objects take non-const handles; the forward pass only reads input and filter.
    return run(Pass::kForward, device, g, Buffers{const_cast<float*>(input), const_cast<float*>(filter), output});
}

std::optional<Status> dnnlConvForwardFused(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                           const float* input, const float* filter, const float* bias,
                                           DnnlConvEpilogue epilogue, float* output)
{
    return run(Pass::kForward, device, g,
               Buffers{const_cast<float*>(input), const_cast<float*>(filter), output, bias, epilogue});
}

std::optional<Status> dnnlConvBackpropInput(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                            const float* filter, const float* outBackprop, float* inputBackprop)
{
    return run(Pass::kBackpropInput, device, g,
               Buffers{inputBackprop, const_cast<float*>(filter), const_cast<float*>(outBackprop)});
}

std::optional<Status> dnnlConvBackpropFilter(const Eigen::ThreadPoolDevice& device, const Conv2DGeometry& g,
                                             const float* input, const float* outBackprop, float* filterBackprop)
{
    return run(Pass::kBackpropFilter, device, g,
               Buffers{const_cast<float*>(input), filterBackprop, const_cast<float*>(outBackprop)});
}

#else // TSTUDIO_HAVE_DNNL

std::optional<Status> dnnlConvForward(const Eigen::ThreadPoolDevice&, const Conv2DGeometry&, const float*, const float*, float*)
{
    return std::nullopt;
}

std::optional<Status> dnnlConvForwardFused(const Eigen::ThreadPoolDevice&, const Conv2DGeometry&, const float*,
                                           const float*, const float*, DnnlConvEpilogue, float*)
{
    return std::nullopt;
}

std::optional<Status> dnnlConvBackpropInput(const Eigen::ThreadPoolDevice&, const Conv2DGeometry&, const float*, const float*, float*)
{
    return std::nullopt;
}

std::optional<Status> dnnlConvBackpropFilter(const Eigen::ThreadPoolDevice&, const Conv2DGeometry&, const float*, const float*, float*)
{
    return std::nullopt;
}

#endif // TSTUDIO_HAVE_DNNL

} // namespace tstudio::nn
