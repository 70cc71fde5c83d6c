// GPU reduction kernels (Sum, Mean, Prod, Max, Min, All, Any, ArgMax, ArgMin) against their CPU
// twins on random inputs; their registrations, the pass plan of the GPU reductions and the host
// int32 kernels are checked on any machine.
#include "devices/gpu_devices.h"
#include "framework/kernel_registry.h"
#include "kernels/kernels.h"
#include "kernels/reduction/reduce_plan.h"
#include "kernels/reduction/reduction_helper.h"
#include "registries/register_all_ops.h"

#include "gpu_kernel_harness.h"
#include "kernel_harness.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
using tensorflow::DT_BFLOAT16;
using tensorflow::DT_BOOL;
using tensorflow::DT_COMPLEX64;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;
using tensorflow::DT_UINT8;

namespace {

std::string reduceNode(const std::string& op, DataType type, DataType index, bool keepDims)
{
    std::string text = "op: '" + op + "'";
    if (op != "All" && op != "Any")
        text += " attr { key: 'T' value { type: " + tensorflow::DataType_Name(type) + " } }";
    return text + " attr { key: 'Tidx' value { type: " + tensorflow::DataType_Name(index) +
           " } } attr { key: 'keep_dims' " + "value { b: " + (keepDims ? "true" : "false") + " } }";
}

std::string argNode(const std::string& op, DataType type, DataType outputType, DataType index = DT_INT32)
{
    return "op: '" + op + "' attr { key: 'T' value { type: " + tensorflow::DataType_Name(type) +
           " } } attr { key: 'Tidx' value { type: " + tensorflow::DataType_Name(index) +
           " } } attr { key: 'output_type' value { type: " + tensorflow::DataType_Name(outputType) + " } }";
}

/// The kernel `registry` picks for `nodeText` on `device`, or nullptr.
const KernelDef* kernelFor(const KernelRegistry& registry, const std::string& nodeText, const std::string& device)
{
    tensorflow::NodeDef node;
    if (!google::protobuf::TextFormat::ParseFromString(nodeText, &node))
        qFatal("bad node text %s", nodeText.c_str());
    node.set_name("n");
    auto found = registry.find(node, device);
    return found ? &(*found)->def : nullptr;
}

Tensor indices(Allocator& allocator, DataType type, const std::vector<std::int64_t>& axes)
{
    const TensorShape shape{static_cast<std::int64_t>(axes.size())};
    if (type == DT_INT32)
        return tensor<std::int32_t>(allocator, shape, std::vector<std::int32_t>(axes.begin(), axes.end()));
    return tensor<std::int64_t>(allocator, shape, axes);
}

/// Shapes and axes that reach every path: scalars, nothing reduced, size-1 runs only, empty inputs
/// (identity values) and outputs, rows, columns, several runs, and lines long enough to be
/// reduced in several chunked passes.
struct ReductionCase {
    TensorShape shape;
    std::vector<std::int64_t> axes;
};
std::vector<ReductionCase> reductionCases()
{
    return {{TensorShape::scalar(), {}},
            {TensorShape{7}, {0}},
            {TensorShape{7}, {}},
            {TensorShape{1, 7}, {0}},
            {TensorShape{1000003}, {0}},
            {TensorShape{2, 1, 3, 1, 5}, {1, 4}},
            {TensorShape{2, 1, 3, 1, 5}, {0, 2}},
            {TensorShape{2, 1, 3, 1, 5}, {-1, -3}},
            {TensorShape{0, 3}, {0}},
            {TensorShape{3, 0}, {1}},
            {TensorShape{4, 0}, {0}},
            {TensorShape{5, 6, 7, 8}, {0, 2}},
            {TensorShape{5, 6, 7, 8}, {1, 3}},
            {TensorShape{5, 6, 7, 8}, {0, 1, 2, 3}},
            {TensorShape{5, 6, 7, 8}, {3}},
            {TensorShape{300001, 3}, {0}},
            {TensorShape{3, 300001}, {1}},
            {TensorShape{64, 33, 65}, {0, 2}}};
}

std::int64_t reducedCount(const ReductionCase& c)
{
    std::int64_t n = 1;
    for (std::int64_t axis : c.axes)
        n *= c.shape.dim(static_cast<int>(axis < 0 ? axis + c.shape.rank() : axis));
    return n;
}

/// A device named GPU whose memory is the host's: runs kernels whose every argument is in host
/// memory (the int32 reductions) without a GPU. Never used for kernels that touch GPU memory.
class HostMemoryGpuStandIn : public Device {
public:
    explicit HostMemoryGpuStandIn(Allocator& allocator) : Device("GPU", 0), m_allocator(allocator) {}
    Allocator& allocator() override { return m_allocator; }

private:
    Allocator& m_allocator;
};

} // namespace

class TestGpuReductionKernels : public QObject {
    Q_OBJECT
private slots:
    void registeredAsTensorFlow()
    {
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        if (!h->kernels().hasKernelFor("Sum", "GPU"))
            QSKIP("this build has no GPU kernels (no CUDA support compiled in)");
        QStringList failures;
        const std::vector<std::string> deviceMemory{"reduction_indices"};
        const std::vector<std::string> allHost{"input", "reduction_indices", "output"};
        auto expect = [&](const std::string& node, const std::vector<std::string>* hostArgs) {
            const KernelDef* def = kernelFor(h->kernels(), node, "GPU");
            if (!hostArgs && def)
                failures << QString::fromStdString("unexpected GPU kernel: " + node);
            else if (hostArgs && !def)
                failures << QString::fromStdString("no GPU kernel: " + node);
            else if (hostArgs && def->hostMemoryArgs != *hostArgs)
                failures << QString::fromStdString("wrong host-memory args: " + node);
        };
        for (DataType index : {DT_INT32, DT_INT64}) {
            for (bool keep : {false, true}) {
                for (DataType t : {DT_HALF, DT_FLOAT, DT_DOUBLE}) {
                    for (const char* op : {"Sum", "Mean", "Prod", "Max", "Min"})
                        expect(reduceNode(op, t, index, keep), &deviceMemory);
                }
                expect(reduceNode("Sum", DT_INT64, index, keep), &deviceMemory);
                expect(reduceNode("Max", DT_INT64, index, keep), &deviceMemory);
                expect(reduceNode("Prod", DT_INT32, index, keep), &deviceMemory);
                expect(reduceNode("Sum", DT_INT32, index, keep), &allHost);
                expect(reduceNode("Max", DT_INT32, index, keep), &allHost);
                expect(reduceNode("Min", DT_INT32, index, keep), &allHost);
                expect(reduceNode("All", DT_BOOL, index, keep), &deviceMemory);
                expect(reduceNode("Any", DT_BOOL, index, keep), &deviceMemory);
                // TensorFlow 1.15 has no GPU kernel for these: they stay on the CPU.
                expect(reduceNode("Mean", DT_INT32, index, keep), nullptr);
                expect(reduceNode("Mean", DT_INT64, index, keep), nullptr);
                expect(reduceNode("Prod", DT_INT64, index, keep), nullptr);
                expect(reduceNode("Min", DT_INT64, index, keep), nullptr);
                expect(reduceNode("Sum", DT_BFLOAT16, index, keep), nullptr);
                expect(reduceNode("Sum", DT_COMPLEX64, index, keep), nullptr);
            }
        }
        const std::vector<std::string> dimensionHost{"dimension"};
        for (const char* op : {"ArgMax", "ArgMin"}) {
            for (DataType out : {DT_INT32, DT_INT64}) {
                for (DataType t : {DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32})
                    expect(argNode(op, t, out), &dimensionHost);
                expect(argNode(op, DT_INT64, out), nullptr);
                expect(argNode(op, DT_UINT8, out), nullptr);
            }
            // Only an int32 `dimension` has a GPU kernel in TensorFlow 1.15.
            expect(argNode(op, DT_FLOAT, DT_INT64, DT_INT64), nullptr);
        }
        // Range on a GPU device: the CPU kernel with every argument in host memory, as TensorFlow.
        const std::vector<std::string> rangeHost{"start", "limit", "delta", "output"};
        for (DataType t : {DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64})
            expect("op: 'Range' attr { key: 'Tidx' value { type: " + tensorflow::DataType_Name(t) + " } }", &rangeHost);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void planComputesTheReduction()
    {
        // The GPU kernels' pass plan executed on the host with the kernels' index arithmetic must
        // give every sum exactly (int64) for collapsed views of all the shapes above.
        std::mt19937 random(11);
        int multiPass = 0;
        for (const ReductionCase& c : reductionCases()) {
            CpuAllocator allocator;
            auto axes = Tensor::fromVector<std::int64_t>(allocator,
                                                         TensorShape{static_cast<std::int64_t>(c.axes.size())}, c.axes);
            QVERIFY(axes);
            reduction::ReductionHelper helper;
            QVERIFY(helper.simplify(c.shape, *axes, false).isOk());
            const std::int64_t n = *c.shape.numElements();
            const std::int64_t outCount = *helper.outShape().numElements();
            if (n == 0 || outCount == 0 || helper.ndims() == 0 || (helper.ndims() == 1 && !helper.reduceFirstAxis()))
                continue; // the kernels copy or fill these without a plan
            std::vector<std::int64_t> input(static_cast<std::size_t>(n));
            std::uniform_int_distribution<std::int64_t> draw(-1000, 1000);
            for (auto& v : input)
                v = draw(random);

            // Reference: every input element added to its output element (kept runs' coordinates).
            const std::vector<std::int64_t>& runs = helper.dataReshape();
            std::vector<std::int64_t> expected(static_cast<std::size_t>(outCount), 0);
            std::vector<std::int64_t> index(runs.size(), 0);
            for (std::int64_t e = 0; e < n; ++e) {
                std::int64_t at = 0;
                for (std::size_t d = 0; d < runs.size(); ++d) {
                    if ((d % 2 == 0) != helper.reduceFirstAxis())
                        at = at * runs[d] + index[d];
                }
                expected[static_cast<std::size_t>(at)] += input[static_cast<std::size_t>(e)];
                for (std::size_t d = runs.size(); d-- > 0;) {
                    if (++index[d] < runs[d])
                        break;
                    index[d] = 0;
                }
            }

            const reduction::ReducePlan plan = reduction::planReduction(runs, helper.reduceFirstAxis());
            QCOMPARE(plan.reducedElements, n / outCount);
            std::vector<std::vector<std::int64_t>> temporaries;
            for (std::int64_t size : plan.temporaries)
                temporaries.emplace_back(static_cast<std::size_t>(size), std::numeric_limits<std::int64_t>::min());
            std::vector<std::int64_t> output(static_cast<std::size_t>(outCount),
                                             std::numeric_limits<std::int64_t>::min());
            auto buffer = [&](int i) -> std::vector<std::int64_t>& {
                return i == reduction::ReducePass::kInput    ? input
                       : i == reduction::ReducePass::kOutput ? output
                                                             : temporaries[static_cast<std::size_t>(i)];
            };
            std::size_t reducedRuns = 0;
            for (std::size_t d = 0; d < runs.size(); ++d)
                reducedRuns += (d % 2 == 0) == helper.reduceFirstAxis() ? 1 : 0;
            if (plan.passes.size() > reducedRuns)
                ++multiPass;
            for (const reduction::ReducePass& p : plan.passes) {
                const std::vector<std::int64_t>& source = buffer(p.source);
                std::vector<std::int64_t>& target = buffer(p.target);
                QCOMPARE(static_cast<std::int64_t>(source.size()), p.outer * p.R * p.inner);
                QCOMPARE(static_cast<std::int64_t>(target.size()), p.outer * p.chunks * p.inner);
                QVERIFY(p.chunks >= 1 && p.chunks <= p.R);
                const std::int64_t chunkSize = (p.R + p.chunks - 1) / p.chunks;
                for (std::int64_t task = 0; task < p.outer * p.chunks * p.inner; ++task) {
                    const std::int64_t i = task % p.inner, o = task / p.inner / p.chunks,
                                       chunk = task / p.inner % p.chunks;
                    std::int64_t sum = 0;
                    for (std::int64_t r = chunk * chunkSize; r < std::min(p.R, (chunk + 1) * chunkSize); ++r)
                        sum += source[static_cast<std::size_t>((o * p.R + r) * p.inner + i)];
                    target[static_cast<std::size_t>(task)] = sum;
                }
            }
            QVERIFY(!plan.passes.empty() && plan.passes.back().last && plan.passes.back().target == -2);
            QVERIFY2(output == expected, qPrintable(QString::fromStdString(c.shape.toString())));
        }
        QVERIFY2(multiPass >= 3, "the long lines should take several chunked passes");
    }

    void hostInt32KernelsMatchCpu()
    {
        // Sum, Max and Min of int32 keep every argument in host memory and compute on the host:
        // they run here on a stand-in GPU device whose memory is the host's.
        QString error;
        auto h = registrationHarness(&error);
        QVERIFY2(h, qPrintable(error));
        if (!h->kernels().hasKernelFor("Sum", "GPU"))
            QSKIP("this build has no GPU kernels (no CUDA support compiled in)");
        HostMemoryGpuStandIn standIn(h->allocator());
        std::mt19937 random(5);
        QStringList failures;
        int compared = 0;
        for (const ReductionCase& c : reductionCases()) {
            if (*c.shape.numElements() > 100000)
                continue;
            const Tensor input = randomTensor(h->allocator(), DT_INT32, c.shape, random, -1000, 1000);
            for (const char* op : {"Sum", "Max", "Min"}) {
                for (DataType index : {DT_INT32, DT_INT64}) {
                    for (bool keep : {false, true}) {
                        const std::string node = reduceNode(op, DT_INT32, index, keep);
                        const std::vector<Tensor> inputs{input, indices(h->allocator(), index, c.axes)};
                        auto cpu = h->run(node, inputs);
                        auto gpu = h->runOn(standIn, node, inputs);
                        if (!cpu || !gpu) {
                            failures << QString::fromStdString(node + ": " + (cpu ? "" : cpu.error().toString()) +
                                                               (gpu ? "" : gpu.error().toString()));
                            continue;
                        }
                        const std::string difference = compareTensors((*gpu)[0], (*cpu)[0], 0, 0);
                        if (!difference.empty())
                            failures << QString::fromStdString(node + " " + c.shape.toString() + ": " + difference);
                        ++compared;
                    }
                }
            }
        }
        // Bad axes fail as on the CPU.
        const Tensor x = randomTensor(h->allocator(), DT_INT32, TensorShape{3}, random, -5, 5);
        auto bad = h->runOn(standIn, reduceNode("Sum", DT_INT32, DT_INT32, false),
                            {x, indices(h->allocator(), DT_INT32, {5})});
        QVERIFY(!bad);
        QCOMPARE(QString::fromStdString(bad.error().message()),
                 QString("Invalid reduction dimension (5 for input with 1 dimension(s)"));
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QVERIFY(compared > 150);
    }

    void sumMeanProdMatchCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(1);
        QStringList failures;
        for (const ReductionCase& c : reductionCases()) {
            const std::int64_t count = reducedCount(c);
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT64, DT_INT32}) {
                // Half sums are compared over short lines only: the CPU adds halves in half.
                if (type == DT_HALF && count > 4096)
                    continue;
                const Tensor input = randomTensor(h.allocator(), type, c.shape, random, -1, 1);
                const Tensor near1 = randomTensor(h.allocator(), type, c.shape, random, 0.9, 1.1);
                const Tensor smallInts = randomTensor(h.allocator(), type, c.shape, random, -2, 2);
                const double cnt = static_cast<double>(count);
                double rtol = 1e-4, atol = 1e-5 + 3e-7 * cnt;
                if (type == DT_DOUBLE)
                    rtol = 1e-10, atol = 1e-12 * cnt;
                else if (type == DT_HALF)
                    rtol = 2e-2, atol = 2e-2 + 2e-3 * cnt;
                else if (type == DT_INT32 || type == DT_INT64)
                    rtol = 0, atol = 0;
                for (DataType index : {DT_INT32, DT_INT64}) {
                    for (bool keep : {false, true}) {
                        const std::vector<Tensor> axes{indices(h.allocator(), index, c.axes)};
                        auto run = [&](const std::string& op, const Tensor& x, double r, double a) {
                            const std::string f =
                                h.compareWithCpu(reduceNode(op, type, index, keep), {x, axes[0]}, r, a);
                            if (!f.empty())
                                failures << QString::fromStdString(c.shape.toString() + " " + f);
                        };
                        run("Sum", type == DT_INT64 || type == DT_INT32 ? smallInts : input, rtol, atol);
                        if (type == DT_FLOAT || type == DT_DOUBLE || type == DT_HALF)
                            run("Mean", input, rtol, type == DT_HALF ? 2e-2 : atol / std::max(1.0, cnt));
                        // Products of many factors overflow or vanish: short lines only.
                        if (count <= 40 && type != DT_INT64)
                            run("Prod", type == DT_INT32 ? smallInts : near1, type == DT_HALF ? 2e-2 : rtol,
                                type == DT_HALF ? 1e-2 : atol);
                    }
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void maxMinAllAnyMatchCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(2);
        QStringList failures;
        for (const ReductionCase& c : reductionCases()) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT64, DT_BOOL}) {
                Tensor input = randomTensor(h.allocator(), type, c.shape, random, -100, 100);
                if (type == DT_FLOAT && input.numElements() > 10) {
                    // NaN wins (both devices propagate it), infinities are ordinary values.
                    input.data<float>()[3] = std::numeric_limits<float>::quiet_NaN();
                    input.data<float>()[input.numElements() - 2] = -std::numeric_limits<float>::infinity();
                }
                for (DataType index : {DT_INT32, DT_INT64}) {
                    for (bool keep : {false, true}) {
                        const Tensor axes = indices(h.allocator(), index, c.axes);
                        for (const char* op : {"Max", "Min", "All", "Any"}) {
                            if ((type == DT_BOOL) != (op[0] == 'A') || (type == DT_INT64 && op == std::string("Min")))
                                continue; // int64 Min has no GPU kernel
                            const std::string f =
                                h.compareWithCpu(reduceNode(op, type, index, keep), {input, axes}, 0, 0);
                            if (!f.empty())
                                failures << QString::fromStdString(c.shape.toString() + " " + f);
                        }
                    }
                }
            }
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void argMinMaxMatchCpu()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(3);
        QStringList failures;
        struct ArgCase {
            TensorShape shape;
            std::int32_t dimension;
        };
        const std::vector<ArgCase> cases{{TensorShape{1}, 0},          {TensorShape{7}, 0},
                                         {TensorShape{1000003}, 0},    {TensorShape{3, 5}, 1},
                                         {TensorShape{3, 5}, 0},       {TensorShape{3, 5}, -1},
                                         {TensorShape{2, 3, 4, 5}, 2}, {TensorShape{0, 4}, 1},
                                         {TensorShape{4, 100001}, 1},  {TensorShape{100001, 4}, 0}};
        for (const ArgCase& c : cases) {
            for (DataType type : {DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32}) {
                // Few distinct values: many ties, which must go to the lowest index.
                Tensor input = randomTensor(h.allocator(), type, c.shape, random, -3, 3);
                if (type == DT_FLOAT) {
                    for (std::int64_t i = 0; i < input.numElements(); i += 7)
                        input.data<float>()[i] = std::round(input.data<float>()[i]);
                    if (input.numElements() > 5) {
                        input.data<float>()[1] = std::numeric_limits<float>::quiet_NaN();
                        input.data<float>()[4] = -std::numeric_limits<float>::infinity();
                    }
                }
                const Tensor dim = tensor<std::int32_t>(h.allocator(), TensorShape::scalar(), {c.dimension});
                for (const char* op : {"ArgMax", "ArgMin"}) {
                    for (DataType out : {DT_INT32, DT_INT64}) {
                        const std::string f = h.compareWithCpu(argNode(op, type, out), {input, dim}, 0, 0);
                        if (!f.empty())
                            failures << QString::fromStdString(c.shape.toString() + " " + f);
                    }
                }
            }
        }
        // A slice of NaNs and -inf only answers 0 on both devices.
        const Tensor odd = tensor<float>(h.allocator(), TensorShape{1, 4},
                                         {std::numeric_limits<float>::quiet_NaN(), -INFINITY, NAN, -INFINITY});
        const Tensor one = tensor<std::int32_t>(h.allocator(), TensorShape::scalar(), {1});
        for (const char* op : {"ArgMax", "ArgMin"}) {
            addFailure(failures, h.compareWithCpu(argNode(op, DT_FLOAT, DT_INT64), {odd, one}, 0, 0));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }

    void badInputsFailOnBothDevices()
    {
        GPU_HARNESS_OR_SKIP(h);
        std::mt19937 random(4);
        QStringList failures;
        const Tensor x = randomTensor(h.allocator(), DT_FLOAT, TensorShape{3, 4}, random);
        auto check = [&](const std::string& node, const std::vector<Tensor>& inputs) {
            addFailure(failures, h.compareWithCpu(node, inputs, 0, 0, /*sameErrorOk=*/true));
            if (h.runOnGpu(node, inputs))
                failures << QString::fromStdString("GPU accepted " + node);
        };
        for (const char* op : {"Sum", "Mean", "Max"}) {
            check(reduceNode(op, DT_FLOAT, DT_INT32, false), {x, indices(h.allocator(), DT_INT32, {2})});
            check(reduceNode(op, DT_FLOAT, DT_INT64, false), {x, indices(h.allocator(), DT_INT64, {-3})});
            check(reduceNode(op, DT_FLOAT, DT_INT32, true), {x, indices(h.allocator(), DT_INT32, {1, -1})});
        }
        const Tensor empty = randomTensor(h.allocator(), DT_FLOAT, TensorShape{0, 4}, random);
        for (const char* op : {"ArgMax", "ArgMin"}) {
            check(argNode(op, DT_FLOAT, DT_INT64),
                  {x, tensor<std::int32_t>(h.allocator(), TensorShape::scalar(), {2})});
            check(argNode(op, DT_FLOAT, DT_INT64), {x, tensor<std::int32_t>(h.allocator(), TensorShape{1}, {0})});
            check(argNode(op, DT_FLOAT, DT_INT64),
                  {empty, tensor<std::int32_t>(h.allocator(), TensorShape::scalar(), {0})});
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestGpuReductionKernels)
#include "test_gpu_reduction_kernels.moc"
