// GPU kernels of Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter on cuDNN: TensorFlow's checks
// (shared with the CPU kernels), filters permuted from HWIO to cuDNN's layout, asymmetric padding
// (SAME with an odd total, EXPLICIT) applied by padding the input into a temporary (cropping the
// input gradient), and algorithms from cuDNN's heuristics, cached per shape in each kernel.
#include "kernels/nn/conv2d_cuda.h"
#include "kernels/nn/conv2d.h"
#include "kernels/nn/conv_pool_cuda.h"

#include "devices/cuda/cuda_kernel.h"
#include "devices/cuda/cudnn_descriptors.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <array>
#include <map>
#include <mutex>
#include <vector>

namespace tstudio::nn {

namespace {

/// The most workspace one convolution may take (TensorFlow's default cuDNN workspace limit, 4 GiB).
constexpr std::size_t kWorkspaceLimit = std::size_t(4) << 30;

enum class ConvDirection { kForward, kBackwardData, kBackwardFilter };

const char* cudnnCallName(ConvDirection direction)
{
    switch (direction) {
    case ConvDirection::kForward: return "cudnnConvolutionForward";
    case ConvDirection::kBackwardData: return "cudnnConvolutionBackwardData";
    case ConvDirection::kBackwardFilter: return "cudnnConvolutionBackwardFilter";
    }
    return "cudnnConvolution";
}

const void* devicePointer(const Tensor& t)
{
    return t.tensorData().data();
}

void* devicePointer(Tensor& t)
{
    return t.tensorData().data();
}

/// One convolution as cuDNN sees it, in NCHW terms: x [n, c, h, w] already padded by the extra rows
/// and columns of an asymmetric padding, filter [k, c, r, s], y [n, k, outH, outW], symmetric pads.
/// Images and filter are laid out NCHW/KCRS when `nchw`, else NHWC/KRSC.
struct ConvShape {
    ConvDirection direction = ConvDirection::kForward;
    DataType dtype = tensorflow::DT_FLOAT;
    bool nchw = false;
    cudnnMathType_t mathType = CUDNN_DEFAULT_MATH;
    int n = 0, c = 0, h = 0, w = 0;
    int k = 0, r = 0, s = 0;
    int outH = 0, outW = 0;
    int padH = 0, padW = 0, strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
    /// Rows and columns of zeros added before the input (cropped off the input gradient).
    std::int64_t extraTop = 0, extraLeft = 0;

    std::array<int, 20> key() const
    {
        return {static_cast<int>(direction),
                static_cast<int>(dtype),
                nchw ? 1 : 0,
                static_cast<int>(mathType),
                n,
                c,
                h,
                w,
                k,
                r,
                s,
                outH,
                outW,
                padH,
                padW,
                strideH,
                strideW,
                dilationH,
                dilationW,
                0};
    }
};

/// The math TensorFlow's numerics allow: float without TF32 only on FMA kernels (cuDNN's default
/// math permits TF32 on Ampere and later), half on tensor cores (accumulating in float).
cudnnMathType_t requestedMathType(DataType dtype, bool allowTf32)
{
    if (dtype == tensorflow::DT_HALF)
        return CUDNN_TENSOR_OP_MATH;
    if (dtype == tensorflow::DT_FLOAT)
        return allowTf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH;
    return CUDNN_DEFAULT_MATH;
}

/// cuDNN's view of a convolution of geometry `g`; int overflow and cuDNN's 2^31-element tensor
/// limit are InvalidArgument.
Expected<ConvShape> convShape(const Conv2DGeometry& g, ConvDirection direction, DataType dtype, bool nchw,
                              bool allowTf32)
{
    ConvShape shape;
    shape.direction = direction;
    shape.dtype = dtype;
    shape.nchw = nchw;
    shape.mathType = requestedMathType(dtype, allowTf32);
    const std::int64_t commonRows = std::min(g.rows.padBefore, g.rows.padAfter);
    const std::int64_t commonCols = std::min(g.cols.padBefore, g.cols.padAfter);
    shape.extraTop = g.rows.padBefore - commonRows;
    shape.extraLeft = g.cols.padBefore - commonCols;
    const std::int64_t paddedRows = g.rows.input + g.rows.padBefore + g.rows.padAfter - 2 * commonRows;
    const std::int64_t paddedCols = g.cols.input + g.cols.padBefore + g.cols.padAfter - 2 * commonCols;
    const std::int64_t xElements = g.batch * g.inDepth * paddedRows * paddedCols;
    const std::int64_t limit = std::int64_t(1) << 31;
    if (xElements >= limit || g.outputSize() >= limit || g.filterSize() >= limit) {
        return unexpected(invalidArgumentError(
            "Conv2D on the GPU supports tensors of fewer than 2^31 elements (cuDNN's limit); the padded input has " +
            std::to_string(xElements) + ", the output " + std::to_string(g.outputSize()) + " and the filter " +
            std::to_string(g.filterSize())));
    }
    const std::pair<int*, std::int64_t> fields[] = {{&shape.n, g.batch},
                                                    {&shape.c, g.inDepth},
                                                    {&shape.h, paddedRows},
                                                    {&shape.w, paddedCols},
                                                    {&shape.k, g.outDepth},
                                                    {&shape.r, g.rows.filter},
                                                    {&shape.s, g.cols.filter},
                                                    {&shape.outH, g.rows.output},
                                                    {&shape.outW, g.cols.output},
                                                    {&shape.padH, commonRows},
                                                    {&shape.padW, commonCols},
                                                    {&shape.strideH, g.rows.stride},
                                                    {&shape.strideW, g.cols.stride},
                                                    {&shape.dilationH, g.rows.dilation},
                                                    {&shape.dilationW, g.cols.dilation}};
    for (const auto& [field, value] : fields) {
        auto v = cuda::cudnnDim(value, "a convolution size");
        if (!v)
            return unexpected(v.error());
        *field = *v;
    }
    return shape;
}

/// An algorithm cuDNN's heuristics proposed, with the math it runs and the workspace it needs.
struct AlgoChoice {
    int algo = 0;
    cudnnMathType_t mathType = CUDNN_DEFAULT_MATH;
    std::size_t workspaceBytes = 0;
    bool deterministic = true; ///< cuDNN says the algorithm gives the same bits every run
};

/// TensorFlow's switches for reproducible GPU results, TF_CUDNN_DETERMINISTIC (1.14) and
/// TF_DETERMINISTIC_OPS (2.1): "1" or "true" keeps only the algorithms cuDNN says are
/// deterministic (some backward algorithms accumulate with atomics, in a different order each run).
bool deterministicAlgorithmsOnly()
{
    static const bool only = [] {
        for (const char* name : {"TF_CUDNN_DETERMINISTIC", "TF_DETERMINISTIC_OPS"}) {
            const char* value = std::getenv(name);
            if (value && (std::string_view(value) == "1" || std::string_view(value) == "true" ||
                          std::string_view(value) == "True" || std::string_view(value) == "TRUE"))
                return true;
        }
        return false;
    }();
    return only;
}

/// The usable algorithms of one shape in cuDNN's order of preference; `preferred` ran last time.
struct AlgoEntry {
    std::vector<AlgoChoice> candidates;
    std::size_t preferred = 0;
};

/// The descriptors of one convolution call.
struct ConvDescriptors {
    cuda::CudnnTensorDescriptor x;
    cuda::CudnnFilterDescriptor w;
    cuda::CudnnTensorDescriptor y;
    cuda::CudnnConvolutionDescriptor conv;
};

Status setDescriptors(const ConvShape& shape, ConvDescriptors& d)
{
    auto type = cuda::cudnnDataTypeOf(shape.dtype);
    if (!type)
        return type.error();
    const cudnnTensorFormat_t format = shape.nchw ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
    const cudnnDataType_t computeType = *type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    if (Status s = d.x.set(*type, format, shape.n, shape.c, shape.h, shape.w); !s.isOk())
        return s;
    if (Status s = d.w.set(*type, format, shape.k, shape.c, shape.r, shape.s); !s.isOk())
        return s;
    if (Status s = d.y.set(*type, format, shape.n, shape.k, shape.outH, shape.outW); !s.isOk())
        return s;
    if (Status s = d.conv.set(shape.padH, shape.padW, shape.strideH, shape.strideW, shape.dilationH, shape.dilationW,
                              computeType, shape.mathType);
        !s.isOk())
        return s;
    // The output size cuDNN derives must be TensorFlow's; anything else is a bug in the padding above.
    int n = 0, k = 0, outH = 0, outW = 0;
    if (Status s = cuda::cudnnStatus(
            cudnnGetConvolution2dForwardOutputDim(d.conv.get(), d.x.get(), d.w.get(), &n, &k, &outH, &outW),
            "cudnnGetConvolution2dForwardOutputDim");
        !s.isOk())
        return s;
    if (n != shape.n || k != shape.k || outH != shape.outH || outW != shape.outW) {
        return internalError("cuDNN computes a convolution output of [" + std::to_string(n) + "," + std::to_string(k) +
                             "," + std::to_string(outH) + "," + std::to_string(outW) +
                             "] (NCHW) where TensorFlow's is [" + std::to_string(shape.n) + "," +
                             std::to_string(shape.k) + "," + std::to_string(shape.outH) + "," +
                             std::to_string(shape.outW) + "]");
    }
    return Status::ok();
}

/// One direction's heuristics: `maxCount(handle, &n)` sizes the list, `query(n, &returned, perf)`
/// fills it in cuDNN's order of preference; the algorithms that cuDNN says can run go to `out`.
template <typename Perf, typename Query>
Status askHeuristics(cudnnHandle_t handle, cudnnStatus_t (*maxCount)(cudnnHandle_t, int*), const char* maxCountName,
                     Query query, const char* queryName, std::vector<AlgoChoice>& out)
{
    int count = 0;
    if (Status s = cuda::cudnnStatus(maxCount(handle, &count), maxCountName); !s.isOk())
        return s;
    std::vector<Perf> perf(static_cast<std::size_t>(std::max(count, 1)));
    int returned = 0;
    if (Status s = cuda::cudnnStatus(query(static_cast<int>(perf.size()), &returned, perf.data()), queryName);
        !s.isOk())
        return s;
    for (int i = 0; i < returned && i < static_cast<int>(perf.size()); ++i) {
        const Perf& p = perf[static_cast<std::size_t>(i)];
        if (p.status == CUDNN_STATUS_SUCCESS)
            out.push_back({static_cast<int>(p.algo), p.mathType, 0, p.determinism == CUDNN_DETERMINISTIC});
    }
    return Status::ok();
}

/// The math an algorithm runs with: FMA stays FMA (no TF32); otherwise what the heuristics chose.
cudnnMathType_t mathFor(const ConvShape& shape, const AlgoChoice& choice)
{
    return shape.mathType == CUDNN_FMA_MATH ? CUDNN_FMA_MATH : choice.mathType;
}

cudnnStatus_t workspaceSize(cudnnHandle_t handle, const ConvShape& shape, const ConvDescriptors& d, int algo,
                            std::size_t* bytes)
{
    switch (shape.direction) {
    case ConvDirection::kForward:
        return cudnnGetConvolutionForwardWorkspaceSize(handle, d.x.get(), d.w.get(), d.conv.get(), d.y.get(),
                                                       static_cast<cudnnConvolutionFwdAlgo_t>(algo), bytes);
    case ConvDirection::kBackwardData:
        return cudnnGetConvolutionBackwardDataWorkspaceSize(handle, d.w.get(), d.y.get(), d.conv.get(), d.x.get(),
                                                            static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), bytes);
    case ConvDirection::kBackwardFilter:
        return cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, d.x.get(), d.y.get(), d.conv.get(), d.w.get(),
                                                              static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo),
                                                              bytes);
    }
    return CUDNN_STATUS_BAD_PARAM;
}

/// Asks cuDNN's heuristics for the algorithms of `shape`, keeping those whose workspace cuDNN can
/// size for the math they would run with and that fit kWorkspaceLimit.
Expected<std::vector<AlgoChoice>> queryCandidates(cudnnHandle_t handle, const ConvShape& shape, ConvDescriptors& d)
{
    std::vector<AlgoChoice> found;
    Status s;
    switch (shape.direction) {
    case ConvDirection::kForward:
        s = askHeuristics<cudnnConvolutionFwdAlgoPerf_t>(
            handle, cudnnGetConvolutionForwardAlgorithmMaxCount, "cudnnGetConvolutionForwardAlgorithmMaxCount",
            [&](int requested, int* returned, cudnnConvolutionFwdAlgoPerf_t* perf) {
                return cudnnGetConvolutionForwardAlgorithm_v7(handle, d.x.get(), d.w.get(), d.conv.get(), d.y.get(),
                                                              requested, returned, perf);
            },
            "cudnnGetConvolutionForwardAlgorithm_v7", found);
        break;
    case ConvDirection::kBackwardData:
        s = askHeuristics<cudnnConvolutionBwdDataAlgoPerf_t>(
            handle, cudnnGetConvolutionBackwardDataAlgorithmMaxCount,
            "cudnnGetConvolutionBackwardDataAlgorithmMaxCount",
            [&](int requested, int* returned, cudnnConvolutionBwdDataAlgoPerf_t* perf) {
                return cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, d.w.get(), d.y.get(), d.conv.get(),
                                                                   d.x.get(), requested, returned, perf);
            },
            "cudnnGetConvolutionBackwardDataAlgorithm_v7", found);
        break;
    case ConvDirection::kBackwardFilter:
        s = askHeuristics<cudnnConvolutionBwdFilterAlgoPerf_t>(
            handle, cudnnGetConvolutionBackwardFilterAlgorithmMaxCount,
            "cudnnGetConvolutionBackwardFilterAlgorithmMaxCount",
            [&](int requested, int* returned, cudnnConvolutionBwdFilterAlgoPerf_t* perf) {
                return cudnnGetConvolutionBackwardFilterAlgorithm_v7(handle, d.x.get(), d.y.get(), d.conv.get(),
                                                                     d.w.get(), requested, returned, perf);
            },
            "cudnnGetConvolutionBackwardFilterAlgorithm_v7", found);
        break;
    }
    if (!s.isOk())
        return unexpected(s);
    std::vector<AlgoChoice> usable;
    for (AlgoChoice choice : found) {
        // Down-conversion of float to half is never TensorFlow's float arithmetic.
        if (shape.dtype == tensorflow::DT_FLOAT && choice.mathType == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION)
            continue;
        if (deterministicAlgorithmsOnly() && !choice.deterministic)
            continue;
        const bool duplicate = std::any_of(usable.begin(), usable.end(), [&](const AlgoChoice& u) {
            return u.algo == choice.algo && u.mathType == choice.mathType;
        });
        if (duplicate)
            continue;
        if (!d.conv.setMathType(mathFor(shape, choice)).isOk())
            continue;
        std::size_t bytes = 0;
        if (workspaceSize(handle, shape, d, choice.algo, &bytes) != CUDNN_STATUS_SUCCESS || bytes > kWorkspaceLimit)
            continue;
        choice.workspaceBytes = bytes;
        usable.push_back(choice);
    }
    return usable;
}

cudnnStatus_t runAlgorithm(cudnnHandle_t handle, const ConvShape& shape, const ConvDescriptors& d, int algo,
                           const void* a, const void* b, void* out, void* workspace, std::size_t workspaceBytes)
{
    // alpha = 1, beta = 0: the output is overwritten. Scaling factors are double for double data.
    const float oneF = 1.0f, zeroF = 0.0f;
    const double oneD = 1.0, zeroD = 0.0;
    const bool isDouble = shape.dtype == tensorflow::DT_DOUBLE;
    const void* alpha = isDouble ? static_cast<const void*>(&oneD) : static_cast<const void*>(&oneF);
    const void* beta = isDouble ? static_cast<const void*>(&zeroD) : static_cast<const void*>(&zeroF);
    switch (shape.direction) {
    case ConvDirection::kForward: // a = x, b = filter, out = y
        return cudnnConvolutionForward(handle, alpha, d.x.get(), a, d.w.get(), b, d.conv.get(),
                                       static_cast<cudnnConvolutionFwdAlgo_t>(algo), workspace, workspaceBytes, beta,
                                       d.y.get(), out);
    case ConvDirection::kBackwardData: // a = filter, b = dy, out = dx
        return cudnnConvolutionBackwardData(handle, alpha, d.w.get(), a, d.y.get(), b, d.conv.get(),
                                            static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), workspace, workspaceBytes,
                                            beta, d.x.get(), out);
    case ConvDirection::kBackwardFilter: // a = x, b = dy, out = dw
        return cudnnConvolutionBackwardFilter(handle, alpha, d.x.get(), a, d.y.get(), b, d.conv.get(),
                                              static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), workspace,
                                              workspaceBytes, beta, d.w.get(), out);
    }
    return CUDNN_STATUS_BAD_PARAM;
}

/// A convolution ready to run: its shape, descriptors and candidate algorithms.
struct PreparedConv {
    ConvShape shape;
    ConvDescriptors descriptors;
    AlgoEntry* algorithms = nullptr;
};

/// The kernels' common part: chooses the layout cuDNN computes in and runs convolutions, with
/// the algorithms of each shape cached. The cache is only used under the device's library mutex.
class CudnnConvKernel : public NnKernel {
protected:
    CudnnConvKernel(OpKernelConstruction& c, ConvDirection direction) : NnKernel(c), m_direction(direction)
    {
        read(conv2DParams(c.node()), m_params);
    }

    /// Descriptors and algorithms for geometry `g`, computing in the data format when cuDNN has
    /// an algorithm for it there (always NCHW for double), else in NCHW. Call under the library mutex.
    Expected<std::unique_ptr<PreparedConv>> prepare(CudaDevice& gpu, const Conv2DGeometry& g, DataType dtype)
    {
        const bool nativeNchw = m_params.format == DataFormat::kNchw || dtype == tensorflow::DT_DOUBLE;
        for (bool nchw : {nativeNchw, true}) {
            auto prepared = std::make_unique<PreparedConv>();
            auto shape = convShape(g, m_direction, dtype, nchw, gpu.allowTf32());
            if (!shape)
                return unexpected(shape.error());
            prepared->shape = *shape;
            auto found = m_algorithms.find(prepared->shape.key());
            if (!nchw && found != m_algorithms.end() && found->second.candidates.empty())
                continue; // known: nothing runs in NHWC
            Status s = setDescriptors(prepared->shape, prepared->descriptors);
            if (s.isOk() && found == m_algorithms.end()) {
                auto candidates = queryCandidates(gpu.cudnn(), prepared->shape, prepared->descriptors);
                if (candidates)
                    found = m_algorithms.emplace(prepared->shape.key(), AlgoEntry{std::move(*candidates), 0}).first;
                else
                    s = candidates.error();
            }
            // cuDNN refusing the NHWC layout falls back to NCHW; errors in NCHW are final.
            if (!s.isOk()) {
                if (nchw)
                    return unexpected(s);
                m_algorithms.emplace(prepared->shape.key(), AlgoEntry{});
                continue;
            }
            prepared->algorithms = &found->second;
            if (!found->second.candidates.empty())
                return prepared;
            if (nchw)
                break;
        }
        return unexpected(unimplementedError(
            std::string(cudnnCallName(m_direction)) + ": cuDNN offers no algorithm for this convolution (" +
            dataTypeString(dtype) + ", input [" + std::to_string(g.batch) + "," + std::to_string(g.rows.input) + "," +
            std::to_string(g.cols.input) + "," + std::to_string(g.inDepth) + "], filter [" +
            std::to_string(g.rows.filter) + "," + std::to_string(g.cols.filter) + "," + std::to_string(g.inDepth) +
            "," + std::to_string(g.outDepth) + "])"));
    }

    /// Runs the prepared convolution, trying the candidates from the one that ran last time on;
    /// each gets its workspace from the context's allocator (freed once the work is queued: later
    /// kernels on the compute stream run after it). Call under the library mutex.
    Status run(CudaDevice& gpu, OpKernelContext& ctx, PreparedConv& p, const void* a, const void* b, void* out)
    {
        AlgoEntry& entry = *p.algorithms;
        const std::size_t count = entry.candidates.size();
        Status last = internalError("no cuDNN algorithm to run");
        for (std::size_t t = 0; t < count; ++t) {
            const std::size_t i = (entry.preferred + t) % count;
            const AlgoChoice& choice = entry.candidates[i];
            if (Status s = p.descriptors.conv.setMathType(mathFor(p.shape, choice)); !s.isOk()) {
                last = s;
                continue;
            }
            Tensor workspace;
            void* workspacePointer = nullptr;
            if (choice.workspaceBytes > 0) {
                auto allocated =
                    Tensor::allocateUninitialized(ctx.allocator(), tensorflow::DT_UINT8,
                                                  TensorShape{static_cast<std::int64_t>(choice.workspaceBytes)});
                if (!allocated) {
                    last = allocated.error();
                    continue;
                }
                workspace = std::move(*allocated);
                workspacePointer = devicePointer(workspace);
            }
            const cudnnStatus_t status = runAlgorithm(gpu.cudnn(), p.shape, p.descriptors, choice.algo, a, b, out,
                                                      workspacePointer, choice.workspaceBytes);
            if (status == CUDNN_STATUS_SUCCESS) {
                entry.preferred = i;
                return Status::ok();
            }
            last = cuda::cudnnStatus(status, cudnnCallName(m_direction));
        }
        return last;
    }

    /// `image` (4-D in m_params.format, NHWC sizes n, rows, cols, c) copied into the layout cuDNN
    /// computes in, with the extra rows and columns of zeros the prepared shape asks for; the image
    /// itself when nothing changes. (The output-side copies use copyImage directly.)
    Expected<Tensor> imageForCudnn(OpKernelContext& ctx, cudaStream_t stream, const Tensor& image,
                                   const ConvShape& shape, std::int64_t rows, std::int64_t cols,
                                   std::int64_t paddedRows, std::int64_t paddedCols)
    {
        const bool srcNchw = m_params.format == DataFormat::kNchw;
        if (srcNchw == shape.nchw && rows == paddedRows && cols == paddedCols)
            return image;
        const FormatIndex f = formatIndex(m_params.format);
        return copyImage(ctx, stream, image, srcNchw, image.shape().dim(f.n), image.shape().dim(f.c), rows, cols,
                         shape.nchw, paddedRows, paddedCols, -shape.extraTop, -shape.extraLeft);
    }

    /// `outBackprop` (the output gradient, in m_params.format) in the layout cuDNN computes in; the
    /// tensor itself when that is its layout.
    Expected<Tensor> gradientForCudnn(OpKernelContext& ctx, cudaStream_t stream, const Tensor& outBackprop,
                                      const ConvShape& shape, const Conv2DGeometry& g)
    {
        const bool formatNchw = m_params.format == DataFormat::kNchw;
        if (shape.nchw == formatNchw)
            return outBackprop;
        return copyImage(ctx, stream, outBackprop, formatNchw, g.batch, g.outDepth, g.rows.output, g.cols.output,
                         shape.nchw, g.rows.output, g.cols.output, 0, 0);
    }

    /// A new image of `batch` x `channels` x dstRows x dstCols (layout dstNchw) holding `src`
    /// shifted by the offsets (gpu::ImageCopy).
    static Expected<Tensor> copyImage(OpKernelContext& ctx, cudaStream_t stream, const Tensor& src, bool srcNchw,
                                      std::int64_t batch, std::int64_t channels, std::int64_t srcRows,
                                      std::int64_t srcCols, bool dstNchw, std::int64_t dstRows, std::int64_t dstCols,
                                      std::int64_t rowOffset, std::int64_t colOffset)
    {
        const TensorShape shape =
            dstNchw ? TensorShape{batch, channels, dstRows, dstCols} : TensorShape{batch, dstRows, dstCols, channels};
        auto dst = Tensor::allocateUninitialized(ctx.allocator(), src.dtype(), shape);
        if (!dst || dst->numElements() == 0)
            return dst;
        Status s = copyImageInto(stream, src, srcNchw, batch, channels, srcRows, srcCols, *dst, dstNchw, dstRows,
                                 dstCols, rowOffset, colOffset);
        if (!s.isOk())
            return unexpected(s);
        return dst;
    }

    static Status copyImageInto(cudaStream_t stream, const Tensor& src, bool srcNchw, std::int64_t batch,
                                std::int64_t channels, std::int64_t srcRows, std::int64_t srcCols, Tensor& dst,
                                bool dstNchw, std::int64_t dstRows, std::int64_t dstCols, std::int64_t rowOffset,
                                std::int64_t colOffset)
    {
        gpu::ImageCopy copy;
        copy.batch = batch;
        copy.channels = channels;
        copy.srcRows = srcRows;
        copy.srcCols = srcCols;
        copy.srcNchw = srcNchw;
        copy.dstRows = dstRows;
        copy.dstCols = dstCols;
        copy.dstNchw = dstNchw;
        copy.rowOffset = rowOffset;
        copy.colOffset = colOffset;
        if (!gpu::launchImageCopy(stream, copy, dataTypeSize(src.dtype()), devicePointer(src), devicePointer(dst)))
            return internalError("image copy for cuDNN: unsupported element size or empty image");
        return cuda::lastLaunchStatus("imageCopyKernel");
    }

    /// The filter (HWIO, [r, s, c, k]) permuted to cuDNN's KRSC (NHWC) or KCRS (NCHW) layout.
    static Expected<Tensor> filterForCudnn(OpKernelContext& ctx, cudaStream_t stream, const Tensor& filter, bool nchw)
    {
        const TensorShape& f = filter.shape();
        const std::int64_t dims[4] = {f.dim(0), f.dim(1), f.dim(2), f.dim(3)};
        const int toKrsc[4] = {3, 0, 1, 2};
        const int toKcrs[4] = {3, 2, 0, 1};
        const int(&perm)[4] = nchw ? toKcrs : toKrsc;
        return permute(ctx, stream, filter, dims, perm);
    }

    /// A new tensor holding `src` (row-major dims `dims`) with its dimensions permuted.
    static Expected<Tensor> permute(OpKernelContext& ctx, cudaStream_t stream, const Tensor& src,
                                    const std::int64_t (&dims)[4], const int (&perm)[4])
    {
        const TensorShape shape{dims[perm[0]], dims[perm[1]], dims[perm[2]], dims[perm[3]]};
        auto dst = Tensor::allocateUninitialized(ctx.allocator(), src.dtype(), shape);
        if (!dst || dst->numElements() == 0)
            return dst;
        if (Status s = permuteInto(stream, src, dims, perm, *dst); !s.isOk())
            return unexpected(s);
        return dst;
    }

    static Status permuteInto(cudaStream_t stream, const Tensor& src, const std::int64_t (&dims)[4],
                              const int (&perm)[4], Tensor& dst)
    {
        if (!gpu::launchPermute4(stream, dims, perm, dataTypeSize(src.dtype()), devicePointer(src), devicePointer(dst)))
            return internalError("filter permutation for cuDNN: unsupported element size or empty filter");
        return cuda::lastLaunchStatus("permute4Kernel");
    }

    Conv2DParams m_params;

private:
    ConvDirection m_direction;
    std::map<std::array<int, 20>, AlgoEntry> m_algorithms;
};

/// The padded spatial sizes cuDNN's x has for `shape` (input sizes plus the extra zeros).
std::pair<std::int64_t, std::int64_t> paddedSize(const ConvShape& shape)
{
    return {shape.h, shape.w};
}

class Conv2DGpuOp : public CudnnConvKernel {
public:
    explicit Conv2DGpuOp(OpKernelConstruction& c) : CudnnConvKernel(c, ConvDirection::kForward) {}

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        auto problem = conv2DForwardProblem(m_params, ctx);
        if (!problem)
            return problem.error();
        const TensorShape& outShape = problem->outputShape;
        const Conv2DGeometry& g = problem->geometry;
        const Tensor& input = ctx.input(0);
        const Tensor& filter = ctx.input(1);
        if (g.outputSize() == 0 || input.numElements() == 0 || filter.numElements() == 0) {
            auto out = ctx.allocateZeroedOutput(0, outShape); // zeros: a sum over nothing
            return out ? Status::ok() : out.error();
        }
        const cudaStream_t stream = (*gpu)->computeStream();
        std::lock_guard lock((*gpu)->libraryMutex());
        auto prepared = prepare(**gpu, g, input.dtype());
        if (!prepared)
            return prepared.error();
        const ConvShape& shape = (*prepared)->shape;
        const auto [paddedRows, paddedCols] = paddedSize(shape);
        auto x = imageForCudnn(ctx, stream, input, shape, g.rows.input, g.cols.input, paddedRows, paddedCols);
        if (!x)
            return x.error();
        auto w = filterForCudnn(ctx, stream, filter, shape.nchw);
        if (!w)
            return w.error();
        const bool direct = shape.nchw == (m_params.format == DataFormat::kNchw);
        const TensorShape yShape = direct ? outShape
                                          : imageShape(shape.nchw ? DataFormat::kNchw : DataFormat::kNhwc, g.batch,
                                                       g.rows.output, g.cols.output, g.outDepth);
        auto y = Tensor::allocateUninitialized(ctx.allocator(), input.dtype(), yShape);
        if (!y)
            return y.error();
        if (Status s = run(**gpu, ctx, **prepared, devicePointer(*x), devicePointer(*w), devicePointer(*y)); !s.isOk())
            return s;
        if (direct)
            return ctx.setOutput(0, std::move(*y));
        auto out = copyImage(ctx, stream, *y, shape.nchw, g.batch, g.outDepth, g.rows.output, g.cols.output,
                             m_params.format == DataFormat::kNchw, g.rows.output, g.cols.output, 0, 0);
        if (!out)
            return out.error();
        return ctx.setOutput(0, std::move(*out));
    }
};

class Conv2DBackpropInputGpuOp : public CudnnConvKernel {
public:
    explicit Conv2DBackpropInputGpuOp(OpKernelConstruction& c) : CudnnConvKernel(c, ConvDirection::kBackwardData) {}

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        auto problem = conv2DBackpropProblem(m_params, ctx, false); // input_sizes in host memory
        if (!problem)
            return problem.error();
        const TensorShape& inputShape = problem->outputShape;
        const Conv2DGeometry& g = problem->geometry;
        const Tensor& filter = ctx.input(1);
        const Tensor& outBackprop = ctx.input(2);
        if (g.inputSize() == 0 || filter.numElements() == 0 || outBackprop.numElements() == 0) {
            auto out = ctx.allocateZeroedOutput(0, inputShape); // zeros: no output depends on the input
            return out ? Status::ok() : out.error();
        }
        const cudaStream_t stream = (*gpu)->computeStream();
        std::lock_guard lock((*gpu)->libraryMutex());
        auto prepared = prepare(**gpu, g, filter.dtype());
        if (!prepared)
            return prepared.error();
        const ConvShape& shape = (*prepared)->shape;
        const auto [paddedRows, paddedCols] = paddedSize(shape);
        const bool formatNchw = m_params.format == DataFormat::kNchw;
        auto dy = gradientForCudnn(ctx, stream, outBackprop, shape, g);
        if (!dy)
            return dy.error();
        auto w = filterForCudnn(ctx, stream, filter, shape.nchw);
        if (!w)
            return w.error();
        const bool direct = shape.nchw == formatNchw && paddedRows == g.rows.input && paddedCols == g.cols.input;
        const TensorShape dxShape = direct ? inputShape
                                           : imageShape(shape.nchw ? DataFormat::kNchw : DataFormat::kNhwc, g.batch,
                                                        paddedRows, paddedCols, g.inDepth);
        auto dx = Tensor::allocateUninitialized(ctx.allocator(), filter.dtype(), dxShape);
        if (!dx)
            return dx.error();
        if (Status s = run(**gpu, ctx, **prepared, devicePointer(*w), devicePointer(*dy), devicePointer(*dx));
            !s.isOk())
            return s;
        if (direct)
            return ctx.setOutput(0, std::move(*dx));
        // Crop the extra zeros' gradient off and return to the data format.
        auto out = copyImage(ctx, stream, *dx, shape.nchw, g.batch, g.inDepth, paddedRows, paddedCols, formatNchw,
                             g.rows.input, g.cols.input, shape.extraTop, shape.extraLeft);
        if (!out)
            return out.error();
        return ctx.setOutput(0, std::move(*out));
    }
};

class Conv2DBackpropFilterGpuOp : public CudnnConvKernel {
public:
    explicit Conv2DBackpropFilterGpuOp(OpKernelConstruction& c) : CudnnConvKernel(c, ConvDirection::kBackwardFilter) {}

    Status compute(OpKernelContext& ctx) override
    {
        auto gpu = cuda::gpuOf(ctx);
        if (!gpu)
            return gpu.error();
        auto problem = conv2DBackpropProblem(m_params, ctx, true); // filter_sizes in host memory
        if (!problem)
            return problem.error();
        const TensorShape& filterShape = problem->outputShape;
        const Conv2DGeometry& g = problem->geometry;
        const Tensor& input = ctx.input(0);
        const Tensor& outBackprop = ctx.input(2);
        if (g.filterSize() == 0 || input.numElements() == 0 || outBackprop.numElements() == 0) {
            auto out = ctx.allocateZeroedOutput(0, filterShape); // zeros: a sum over nothing
            return out ? Status::ok() : out.error();
        }
        const cudaStream_t stream = (*gpu)->computeStream();
        std::lock_guard lock((*gpu)->libraryMutex());
        auto prepared = prepare(**gpu, g, input.dtype());
        if (!prepared)
            return prepared.error();
        const ConvShape& shape = (*prepared)->shape;
        const auto [paddedRows, paddedCols] = paddedSize(shape);
        auto x = imageForCudnn(ctx, stream, input, shape, g.rows.input, g.cols.input, paddedRows, paddedCols);
        if (!x)
            return x.error();
        auto dy = gradientForCudnn(ctx, stream, outBackprop, shape, g);
        if (!dy)
            return dy.error();
        // cuDNN's filter gradient: [k, r, s, c] (KRSC) or [k, c, r, s] (KCRS), permuted back to HWIO.
        const std::int64_t k = g.outDepth, r = g.rows.filter, s = g.cols.filter, c = g.inDepth;
        const TensorShape dwShape = shape.nchw ? TensorShape{k, c, r, s} : TensorShape{k, r, s, c};
        auto dw = Tensor::allocateUninitialized(ctx.allocator(), input.dtype(), dwShape);
        if (!dw)
            return dw.error();
        if (Status st = run(**gpu, ctx, **prepared, devicePointer(*x), devicePointer(*dy), devicePointer(*dw));
            !st.isOk())
            return st;
        const std::int64_t krsc[4] = {k, r, s, c};
        const std::int64_t kcrs[4] = {k, c, r, s};
        const int fromKrsc[4] = {1, 2, 3, 0};
        const int fromKcrs[4] = {2, 3, 1, 0};
        auto out = shape.nchw ? permute(ctx, stream, *dw, kcrs, fromKcrs) : permute(ctx, stream, *dw, krsc, fromKrsc);
        if (!out)
            return out.error();
        return ctx.setOutput(0, std::move(*out));
    }
};

} // namespace

Status registerConv2DGpuKernels(KernelRegistry& registry)
{
    // TensorFlow 1.15 registers half, float and double on the GPU, with the sizes in host memory.
    const std::vector<DataType> types{tensorflow::DT_HALF, tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE};
    KernelAdder r(registry);
    r.add<Conv2DGpuOp>(gpuKernelDef("Conv2D", types))
        .add<Conv2DBackpropInputGpuOp>(gpuKernelDef("Conv2DBackpropInput", types, {"input_sizes"}))
        .add<Conv2DBackpropFilterGpuOp>(gpuKernelDef("Conv2DBackpropFilter", types, {"filter_sizes"}));
    return r.status();
}

} // namespace tstudio::nn
