// Tests for the logging family: Assert's OpDef (TensorFlow 1.15's), its kernel passing on a true
// condition and failing on a false one with TensorFlow's "assertion failed: [..] [..]" text, each
// data tensor summarized to `summarize` elements as Tensor::SummarizeValue prints them.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "framework/op_registry.h"
#include "kernel_harness.h"

#include <QTest>

#include <limits>
#include <string>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    QString err;
    auto h = KernelHarness::create({registerLoggingOps}, {registerLoggingCpuKernels}, &err);
    if (!h)
        qWarning("%s", qPrintable(err));
    return h;
}

/// An Assert node over data of `types`, with `summarize` when given.
std::string assertNode(const std::vector<std::string>& types, std::optional<int> summarize = std::nullopt)
{
    std::string list;
    for (const std::string& t : types)
        list += " type: " + t;
    std::string text = "op: 'Assert' attr { key: 'T' value { list {" + list + " } } }";
    if (summarize)
        text += " attr { key: 'summarize' value { i: " + std::to_string(*summarize) + " } }";
    return text;
}

Tensor condition(KernelHarness& h, bool value, TensorShape shape = TensorShape::scalar())
{
    const auto n = static_cast<std::size_t>(*shape.numElements());
    return tensor<bool>(h.allocator(), shape, std::vector<bool>(n, value));
}

/// The error message of running `node` (empty when it passed).
QString failure(KernelHarness& h, const std::string& node, const std::vector<Tensor>& inputs)
{
    auto out = h.run(node, inputs);
    if (out) {
        if (!out->empty())
            return "unexpected outputs";
        return {};
    }
    if (out.error().code() != StatusCode::kInvalidArgument)
        return "not InvalidArgument: " + QString::fromStdString(out.error().toString());
    return QString::fromStdString(out.error().message());
}

} // namespace

class TestLoggingKernels : public QObject {
    Q_OBJECT
private slots:
    void opDefAsTensorFlow()
    {
        OpRegistry ops;
        QVERIFY(registerLoggingOps(ops).isOk());
        const OpRegistration* r = ops.find("Assert");
        QVERIFY(r);
        const tf::OpDef& def = r->opDef;
        QCOMPARE(def.input_arg_size(), 2);
        QCOMPARE(def.input_arg(0).name(), std::string("condition"));
        QCOMPARE(def.input_arg(0).type(), tf::DT_BOOL);
        QCOMPARE(def.input_arg(1).name(), std::string("data"));
        QCOMPARE(def.input_arg(1).type_list_attr(), std::string("T"));
        QCOMPARE(def.output_arg_size(), 0);
        QVERIFY(def.is_stateful());
        QCOMPARE(def.attr_size(), 2);
        QCOMPARE(def.attr(0).name(), std::string("T"));
        QCOMPARE(def.attr(0).type(), std::string("list(type)"));
        QVERIFY(def.attr(0).has_minimum());
        QCOMPARE(def.attr(0).minimum(), std::int64_t(1));
        QCOMPARE(def.attr(1).name(), std::string("summarize"));
        QCOMPARE(def.attr(1).default_value().i(), std::int64_t(3));
    }

    void trueConditionPasses()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor data = tensor<float>(h->allocator(), {2}, {1.0f, 2.0f});
        QCOMPARE(failure(*h, assertNode({"DT_FLOAT"}), {condition(*h, true), data}), QString());
        // T has minimum 1: at least one data tensor.
        QVERIFY(failure(*h, assertNode({}), {condition(*h, true)}).contains("must be at least minimum 1"));
    }

    void falseConditionSummarizesTheData()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        const Tensor text = tensor<std::string>(a, TensorShape::scalar(), {"weights can not be broadcast."});
        const Tensor ints = tensor<std::int32_t>(a, {2}, {3, 4});
        const Tensor matrix = tensor<float>(a, {2, 2}, {1.0f, 0.5f, -2.0f, 4.0f});
        const Tensor flag = tensor<bool>(a, TensorShape::scalar(), {false});
        const Tensor longVector = tensor<std::int64_t>(a, {5}, {10, 20, 30, 40, 50});
        const std::string node = assertNode({"DT_STRING", "DT_INT32", "DT_FLOAT", "DT_BOOL", "DT_INT64"});
        // Default summarize 3: the matrix stops after its third element, nested as TensorFlow nests it.
        QCOMPARE(failure(*h, node, {condition(*h, false), text, ints, matrix, flag, longVector}),
                 QString("assertion failed: [weights can not be broadcast.] [3 4] [[1 0.5][-2...]...] [0] "
                         "[10 20 30...]"));
        // summarize -1: every element.
        QCOMPARE(failure(*h, assertNode({"DT_FLOAT", "DT_INT64"}, -1), {condition(*h, false), matrix, longVector}),
                 QString("assertion failed: [[1 0.5][-2 4]] [10 20 30 40 50]"));
        // summarize 0: nothing but the cut mark.
        QCOMPARE(failure(*h, assertNode({"DT_INT32"}, 0), {condition(*h, false), ints}),
                 QString("assertion failed: [...]"));
    }

    void numbersAndStringsPrintAsTensorFlow()
    {
        auto h = makeHarness();
        QVERIFY(h);
        Allocator& a = h->allocator();
        // Floats in the shortest form that reads back (%g with 6, else 9 digits), doubles 15 / 17;
        // strings C-escaped.
        const Tensor floats = tensor<float>(a, {3}, {0.1f, 1.0f / 3.0f, std::numeric_limits<float>::infinity()});
        const Tensor doubles = tensor<double>(a, {2}, {0.1, 1.0 / 3.0});
        const Tensor strings = tensor<std::string>(a, {2}, {"a\nb", "tab\there"});
        const Tensor empty = tensor<float>(a, {0}, {});
        QCOMPARE(failure(*h, assertNode({"DT_FLOAT", "DT_DOUBLE", "DT_STRING", "DT_FLOAT"}, 5),
                         {condition(*h, false), floats, doubles, strings, empty}),
                 QString("assertion failed: [0.1 0.333333343 inf] [0.1 0.33333333333333331] [a\\nb tab\\there] []"));
    }

    void conditionMustBeAScalar()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor data = tensor<float>(h->allocator(), {1}, {1.0f});
        QCOMPARE(failure(*h, assertNode({"DT_FLOAT"}), {condition(*h, true, TensorShape{2}), data}),
                 QString("In[0] should be a scalar: [2]"));
    }
};

QTEST_GUILESS_MAIN(TestLoggingKernels)
#include "test_logging_kernels.moc"
