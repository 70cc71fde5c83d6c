// Tests for the ReverseV2 CPU kernel (engine/kernels/array/reverse_cpu.cpp): every axis subset of
// odd shapes (axes of size 1 among them), every element width and strings, on one and on four
// threads, against an element-by-element reference written here; and TensorFlow's errors.
#include "devices/cpu/cpu_device.h"
#include "kernels/kernels.h"
#include "ops/ops.h"

#include "kernel_harness.h"

#include <QTest>

#include <cstring>
#include <random>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::string reverseNode(const std::string& dtype, const std::string& tidx = "DT_INT32")
{
    return "op: 'ReverseV2' attr { key: 'T' value { type: " + dtype + " } } attr { key: 'Tidx' value { type: " +
           tidx + " } }";
}

/// A tensor of `shape` whose elements are distinct byte patterns (element i holds i + 1 spread over
/// its bytes), or for strings "s<i>".
Tensor patterned(Allocator& allocator, DataType dtype, const TensorShape& shape)
{
    Tensor t = *Tensor::allocate(allocator, dtype, shape);
    const std::int64_t n = t.numElements();
    if (dtype == tensorflow::DT_STRING) {
        for (std::int64_t i = 0; i < n; ++i)
            t.strings()[static_cast<std::size_t>(i)] = "s" + std::to_string(i);
        return t;
    }
    if (dtype == tensorflow::DT_BOOL) {
        for (std::int64_t i = 0; i < n; ++i)
            t.values<bool>()[static_cast<std::size_t>(i)] = (i * 7919 % 3) == 0;
        return t;
    }
    const std::size_t width = static_cast<std::size_t>(dataTypeSize(dtype));
    std::byte* data = t.tensorData().data();
    for (std::int64_t i = 0; i < n; ++i)
        for (std::size_t b = 0; b < width; ++b)
            data[static_cast<std::size_t>(i) * width + b] = static_cast<std::byte>((i + 1) * (b + 3) % 251);
    return t;
}

/// The reference: output element at multi-index j reads the input at j with each reversed axis
/// mirrored, one element at a time.
bool matchesReference(const Tensor& input, const Tensor& output, const std::vector<bool>& reversed)
{
    if (output.shape() != input.shape() || output.dtype() != input.dtype())
        return false;
    const int rank = input.rank();
    const std::int64_t n = input.numElements();
    std::vector<std::int64_t> index(static_cast<std::size_t>(rank), 0);
    const bool isString = input.dtype() == tensorflow::DT_STRING;
    const std::size_t width = isString ? 0 : static_cast<std::size_t>(dataTypeSize(input.dtype()));
    for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t rest = i;
        for (int d = rank; d-- > 0;) {
            index[static_cast<std::size_t>(d)] = rest % input.shape().dim(d);
            rest /= input.shape().dim(d);
        }
        std::int64_t source = 0;
        for (int d = 0; d < rank; ++d) {
            const std::int64_t size = input.shape().dim(d);
            const std::int64_t j = index[static_cast<std::size_t>(d)];
            source = source * size + (reversed[static_cast<std::size_t>(d)] ? size - 1 - j : j);
        }
        if (isString) {
            if (output.strings()[static_cast<std::size_t>(i)] != input.strings()[static_cast<std::size_t>(source)])
                return false;
        } else if (std::memcmp(output.tensorData().data() + static_cast<std::size_t>(i) * width,
                               input.tensorData().data() + static_cast<std::size_t>(source) * width, width) != 0) {
            return false;
        }
    }
    return true;
}

Tensor axesTensor(Allocator& allocator, const std::vector<std::int32_t>& axes)
{
    return *Tensor::fromVector<std::int32_t>(allocator, TensorShape{static_cast<std::int64_t>(axes.size())}, axes);
}

} // namespace

class TestReverseKernels : public QObject {
    Q_OBJECT

private slots:
    void everyAxisSubsetMatchesTheReference()
    {
        auto h = KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
        QVERIFY(h);
        CpuDevice four(1, 4);
        // Element widths 1, 2, 4, 8 and 16 bytes, bool and strings.
        const std::vector<std::pair<DataType, std::string>> dtypes = {
            {tensorflow::DT_UINT8, "DT_UINT8"},         {tensorflow::DT_INT16, "DT_INT16"},
            {tensorflow::DT_HALF, "DT_HALF"},           {tensorflow::DT_FLOAT, "DT_FLOAT"},
            {tensorflow::DT_INT64, "DT_INT64"},         {tensorflow::DT_DOUBLE, "DT_DOUBLE"},
            {tensorflow::DT_COMPLEX128, "DT_COMPLEX128"}, {tensorflow::DT_BOOL, "DT_BOOL"},
            {tensorflow::DT_STRING, "DT_STRING"}};
        // Odd sizes, axes of size 1 between reversed ones, inner blocks of 1..5 elements.
        const std::vector<TensorShape> shapes = {
            TensorShape{7},          TensorShape{5, 3},       TensorShape{3, 1, 5},    TensorShape{2, 7, 3},
            TensorShape{3, 5, 2, 1}, TensorShape{2, 3, 4, 5}, TensorShape{1, 9, 1, 3}, TensorShape{4, 1, 6, 4},
            TensorShape{2, 13, 11, 3}};
        int checked = 0;
        for (const auto& [dtype, name] : dtypes) {
            for (const TensorShape& shape : shapes) {
                const int rank = shape.rank();
                const Tensor input = patterned(h->allocator(), dtype, shape);
                for (int mask = 0; mask < (1 << rank); ++mask) {
                    std::vector<std::int32_t> axes;
                    std::vector<bool> reversed(static_cast<std::size_t>(rank), false);
                    for (int d = 0; d < rank; ++d) {
                        if (mask & (1 << d)) {
                            // Every other subset names its axes negatively.
                            axes.push_back(mask % 2 == 0 ? d - rank : d);
                            reversed[static_cast<std::size_t>(d)] = true;
                        }
                    }
                    const Tensor axis = axesTensor(h->allocator(), axes);
                    for (Device* device : {static_cast<Device*>(&h->device()), static_cast<Device*>(&four)}) {
                        auto out = h->runOn(*device, reverseNode(name), {input, axis});
                        QVERIFY2(out, (name + " " + shape.toString()).c_str());
                        QVERIFY2(matchesReference(input, (*out)[0], reversed),
                                 (name + " " + shape.toString() + " mask " + std::to_string(mask)).c_str());
                        ++checked;
                    }
                }
            }
        }
        QVERIFY(checked > 900);
    }

    void largeImagesMatchTheReference()
    {
        // The shapes random_flip_left_right reverses: an RGB image on its width, a grey batch on
        // its width, and both flips of a batch at once; int64 axes.
        auto h = KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
        QVERIFY(h);
        CpuDevice four(1, 4);
        struct Case {
            TensorShape shape;
            std::vector<std::int64_t> axes;
        };
        const std::vector<Case> cases = {{TensorShape{193, 191, 3}, {1}},
                                         {TensorShape{64, 24, 24, 1}, {2}},
                                         {TensorShape{5, 67, 45, 3}, {1, 2}},
                                         {TensorShape{3, 33, 65, 4}, {-3}}};
        for (const Case& c : cases) {
            const Tensor input = patterned(h->allocator(), tensorflow::DT_UINT8, c.shape);
            const Tensor axis = *Tensor::fromVector<std::int64_t>(
                h->allocator(), TensorShape{static_cast<std::int64_t>(c.axes.size())}, c.axes);
            std::vector<bool> reversed(static_cast<std::size_t>(c.shape.rank()), false);
            for (std::int64_t a : c.axes)
                reversed[static_cast<std::size_t>(a < 0 ? a + c.shape.rank() : a)] = true;
            for (Device* device : {static_cast<Device*>(&h->device()), static_cast<Device*>(&four)}) {
                auto out = h->runOn(*device, reverseNode("DT_UINT8", "DT_INT64"), {input, axis});
                QVERIFY(out);
                QVERIFY2(matchesReference(input, (*out)[0], reversed), c.shape.toString().c_str());
            }
        }
    }

    void rgbRowsOfEveryLengthMatchTheReference()
    {
        // Rows of 3-byte pixels take a byte-shuffle path five pixels at a time with a scalar head
        // and tail: every row length from 1 to 40 pixels, as inner rows and as the whole tensor
        // (whose last bytes end the buffer).
        auto h = KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
        QVERIFY(h);
        for (std::int64_t n = 1; n <= 40; ++n) {
            for (const TensorShape& shape : {TensorShape{3, n, 3}, TensorShape{n, 3}}) {
                const Tensor input = patterned(h->allocator(), tensorflow::DT_UINT8, shape);
                const int axis = shape.rank() - 2;
                auto out = h->run(reverseNode("DT_UINT8"), {input, axesTensor(h->allocator(), {axis})});
                QVERIFY(out);
                std::vector<bool> reversed(static_cast<std::size_t>(shape.rank()), false);
                reversed[static_cast<std::size_t>(axis)] = true;
                QVERIFY2(matchesReference(input, (*out)[0], reversed), shape.toString().c_str());
            }
        }
    }

    void emptyAndScalarInputs()
    {
        auto h = KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
        QVERIFY(h);
        const Tensor empty = *Tensor::allocate(h->allocator(), tensorflow::DT_FLOAT, TensorShape{3, 0, 2});
        auto out = h->run(reverseNode("DT_FLOAT"), {empty, axesTensor(h->allocator(), {1})});
        QVERIFY(out);
        QCOMPARE((*out)[0].shape(), (TensorShape{3, 0, 2}));
        const Tensor scalar = *Tensor::fromVector<float>(h->allocator(), TensorShape::scalar(), {2.5f});
        out = h->run(reverseNode("DT_FLOAT"), {scalar, axesTensor(h->allocator(), {})});
        QVERIFY(out);
        QCOMPARE((*out)[0].values<float>()[0], 2.5f);
    }

    void errorsAsTensorFlow()
    {
        auto h = KernelHarness::createOrWarn({registerArrayOps}, {registerArrayCpuKernels});
        QVERIFY(h);
        const Tensor input = patterned(h->allocator(), tensorflow::DT_FLOAT, TensorShape{2, 3});
        auto out = h->run(reverseNode("DT_FLOAT"), {input, axesTensor(h->allocator(), {2})});
        QVERIFY(!out);
        QCOMPARE(out.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(out.error().message().find("'axis'[0] = 2 is out of valid range [0, 1") != std::string::npos,
                 out.error().message().c_str());
        out = h->run(reverseNode("DT_FLOAT"), {input, axesTensor(h->allocator(), {1, -1})});
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("axis 1 specified more than once.") != std::string::npos,
                 out.error().message().c_str());
        const Tensor matrix = *Tensor::fromVector<std::int32_t>(h->allocator(), TensorShape{1, 1}, {0});
        out = h->run(reverseNode("DT_FLOAT"), {input, matrix});
        QVERIFY(!out);
        QVERIFY2(out.error().message().find("'dims' must be 1-dimension, not 2") != std::string::npos,
                 out.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestReverseKernels)
#include "test_reverse_kernels.moc"
