// Shared pieces of the array CPU kernels: dtype lists, index reading, parallel element copies.
#define EIGEN_USE_THREADS

#include "kernels/array/array_kernel_util.h"
#include "devices/cpu/cpu_parallel.h"

#include "framework/node_attrs.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>

namespace tstudio::array {

KernelDef cpuDef(std::string op, std::vector<std::pair<std::string, std::vector<DataType>>> constraints)
{
    KernelDef def;
    def.op = std::move(op);
    def.deviceType = "CPU";
    def.typeConstraints = std::move(constraints);
    return def;
}

std::vector<DataType> podDataTypes()
{
    using namespace tensorflow;
    return {DT_FLOAT, DT_DOUBLE, DT_HALF,   DT_BFLOAT16, DT_INT8, DT_INT16,     DT_INT32,     DT_INT64,
            DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64,   DT_BOOL, DT_COMPLEX64, DT_COMPLEX128};
}

std::vector<DataType> allDataTypes()
{
    auto types = podDataTypes();
    types.push_back(tensorflow::DT_STRING);
    return types;
}

std::vector<DataType> allAndQuantizedDataTypes()
{
    using namespace tensorflow;
    auto types = allDataTypes();
    types.insert(types.end(), {DT_QINT8, DT_QUINT8, DT_QINT16, DT_QUINT16, DT_QINT32});
    return types;
}

std::vector<DataType> indexDataTypes()
{
    return {tensorflow::DT_INT32, tensorflow::DT_INT64};
}

Expected<Paddings> readPaddings(const Tensor& input, const Tensor& paddings, const std::string& separator)
{
    if (paddings.rank() != 2 || paddings.shape().dim(1) != 2)
        return unexpected(
            invalidArgumentError("paddings must be a matrix with 2 columns: " + paddings.shape().toString()));
    if (paddings.shape().dim(0) != input.rank())
        return unexpected(invalidArgumentError("The first dimension of paddings must be the rank of inputs" +
                                               paddings.shape().toString() + separator + input.shape().toString()));
    const std::vector<std::int64_t> values = indexValues(paddings);
    Paddings p;
    for (std::size_t d = 0; d < values.size() / 2; ++d) {
        p.before.push_back(values[2 * d]);
        p.after.push_back(values[2 * d + 1]);
    }
    return p;
}

Expected<int> mirrorPadOffset(const tensorflow::NodeDef& node)
{
    auto mode = attrString(node, "mode");
    if (!mode)
        return unexpected(mode.error());
    if (*mode == "SYMMETRIC")
        return 0;
    if (*mode == "REFLECT")
        return 1;
    return unexpected(invalidArgumentError("mode must be either REFLECT or SYMMETRIC."));
}

Expected<MirrorPadding> mirrorPadding(const Tensor& input, const Tensor& paddings, int offset, bool gradient)
{
    auto read = readPaddings(input, paddings, ", ");
    if (!read)
        return unexpected(read.error());
    const std::vector<std::int64_t> inDims = dimsOf(input.shape());
    const std::string sizeName = gradient ? "output dimension size" : "dimension size";
    MirrorPadding result;
    result.before = read->before;
    for (std::size_t d = 0; d < inDims.size(); ++d) {
        const std::int64_t b = read->before[d];
        const std::int64_t a = read->after[d];
        if (b < 0 || a < 0)
            return unexpected(invalidArgumentError((gradient ? "Paddings" : "paddings") +
                                                   std::string(" must be non-negative: ") + std::to_string(b) +
                                                   (gradient ? ", " : " ") + std::to_string(a)));
        const std::int64_t size = gradient ? inDims[d] - (b + a) : inDims[d];
        const std::string pair = std::to_string(b) + ", " + std::to_string(a);
        if (offset == 0 && (b > size || a > size))
            return unexpected(invalidArgumentError("paddings must be no greater than the " + sizeName + ": " + pair +
                                                   " greater than " + std::to_string(size)));
        if (offset == 1 && (b >= size || a >= size))
            return unexpected(invalidArgumentError("paddings must be less than the " + sizeName + ": " + pair +
                                                   " not less than " + std::to_string(size)));
        result.outDims.push_back(gradient ? size : b + inDims[d] + a);
    }
    return result;
}

std::vector<std::int64_t> indexValues(const Tensor& tensor)
{
    std::vector<std::int64_t> values;
    values.reserve(static_cast<std::size_t>(tensor.numElements()));
    if (tensor.dtype() == tensorflow::DT_INT32) {
        for (std::int32_t v : tensor.values<std::int32_t>())
            values.push_back(v);
    } else {
        for (std::int64_t v : tensor.values<std::int64_t>())
            values.push_back(v);
    }
    return values;
}

std::int64_t indexValue(const Tensor& tensor, std::int64_t i)
{
    const auto at = static_cast<std::size_t>(i);
    if (tensor.dtype() == tensorflow::DT_INT32)
        return tensor.values<std::int32_t>()[at];
    return tensor.values<std::int64_t>()[at];
}

std::vector<std::int64_t> dimsOf(const TensorShape& shape)
{
    return std::vector<std::int64_t>(shape.dims().begin(), shape.dims().end());
}

std::vector<std::int64_t> stridesOf(const std::vector<std::int64_t>& dims)
{
    std::vector<std::int64_t> strides(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;)
        strides[i - 1] = strides[i] * dims[i];
    return strides;
}

std::int64_t product(const std::vector<std::int64_t>& dims, std::size_t begin, std::size_t end)
{
    std::int64_t p = 1;
    for (std::size_t i = begin; i < end && i < dims.size(); ++i)
        p *= dims[i];
    return p;
}

std::string bracketJoin(const std::vector<std::int64_t>& values)
{
    std::string out = "[";
    for (std::size_t i = 0; i < values.size(); ++i)
        out += (i ? "," : "") + std::to_string(values[i]);
    return out + "]";
}

Expected<TensorShape> makeShape(const Tensor& shapeTensor)
{
    // TensorFlow's legacy scalars are only allowed for GraphDefs older than version 6.
    if (shapeTensor.rank() != 1)
        return unexpected(invalidArgumentError("shape must be a vector of {int32,int64}, got shape " +
                                               shapeTensor.shape().toString()));
    const std::vector<std::int64_t> dims = indexValues(shapeTensor);
    for (std::int64_t d : dims) {
        if (d < 0)
            return unexpected(invalidArgumentError("Dimension " + std::to_string(d) + " must be >= 0"));
    }
    auto shape = TensorShape::fromDims(dims);
    if (!shape)
        return shape;
    if (auto count = shape->numElements(); !count)
        return unexpected(count.error());
    return shape;
}

const Eigen::ThreadPoolDevice& cpuDevice(const OpKernelContext& context)
{
    // Kernels registered for "CPU" only run on CPU devices, which always have an Eigen device.
    return *context.device().eigenCpuDevice();
}

void copyElements(const Eigen::ThreadPoolDevice& device, const Tensor& src, Tensor& dst)
{
    if (src.numElements() == 0)
        return;
    const Status status = dispatchByElementBytes(src.dtype(), [&](auto tag) {
        using E = typename decltype(tag)::type;
        const E* in = elementsAs<E>(src);
        E* out = mutableElementsAs<E>(dst);
        const double bytes = static_cast<double>(sizeof(E));
        cpuParallelFor(device, 
            src.numElements(), Eigen::TensorOpCost(bytes, bytes, 1),
            [in, out](Eigen::Index first, Eigen::Index last) { std::copy(in + first, in + last, out + first); });
    });
    (void)status; // every dtype a Tensor can hold has movable elements
}

Status setReshapedOutput(OpKernelContext& context, int index, const Tensor& input, const TensorShape& shape)
{
    auto view = input.reshapedView(shape);
    if (!view)
        return view.error();
    return context.setOutput(index, std::move(*view));
}

} // namespace tstudio::array
