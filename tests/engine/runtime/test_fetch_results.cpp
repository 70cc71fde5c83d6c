// Tests for the tensors Session::run returns: a value the step made and nothing else holds is
// handed over without a copy, still valid after the session is gone (its CPU allocator waits for
// the last such tensor, then goes); values a constant, a variable, a feed or another fetch also
// hold are copied, so writing to a result never changes the session. This file is built twice: as
// test_fetch_results, and as test_fetch_results_asan against engine_asan, so results that outlive
// their session are also read under AddressSanitizer.
#include "devices/cpu/cpu_device.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <google/protobuf/text_format.h>

#include <QtTest>

#include <memory>

using namespace tstudio;

namespace {

// a = x + x; k a constant; v a variable initialised from k, read by v/read.
const char* kGraph = R"pb(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 3 } } } } }
node { name: "a" op: "Add" input: "x" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "k" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 3 } }
                                           float_val: 1 float_val: 2 float_val: 3 } } } }
node { name: "v" op: "VariableV2" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "shape" value { shape { dim { size: 3 } } } } }
node { name: "v/Assign" op: "Assign" input: "v" input: "k" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "v/read" op: "Identity" input: "v" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "v/double" op: "AssignAdd" input: "v" input: "v/read" attr { key: "T" value { type: DT_FLOAT } } }
versions { producer: 27 }
)pb";

std::vector<float> valuesOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

} // namespace

class TestFetchResults : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void aValueOnlyTheStepHeldIsHandedOver()
    {
        auto session = newSession();
        const Tensor x = floatTensor({1, -2, 3});
        std::vector<Tensor> out;
        QVERIFY(session->run({{"x", x}}, {"a"}, {}, &out).isOk());
        QCOMPARE(out.at(0).bufferAllocator(), &session->devices().at(0)->allocator());
        QCOMPARE(valuesOf(out.at(0)), (std::vector<float>{2, -4, 6}));
        // The next run's result is another buffer: the first one is the caller's.
        std::vector<Tensor> next;
        QVERIFY(session->run({{"x", x}}, {"a"}, {}, &next).isOk());
        QVERIFY(!next.at(0).sharesBufferWith(out.at(0)));
    }

    void aResultOutlivesItsSession()
    {
        // Nothing is left over from earlier tests once a CPU device is made.
        newSession();
        QCOMPARE(CpuDevice::retiredAllocatorCount(), std::size_t{0});
        std::vector<Tensor> out;
        {
            auto session = newSession();
            QVERIFY(session->run({{"x", floatTensor({1, -2, 3})}}, {"a"}, {}, &out).isOk());
            QCOMPARE(out.at(0).bufferAllocator(), &session->devices().at(0)->allocator());
        }
        // The session and its device are gone; the allocator waits for this tensor.
        QCOMPARE(CpuDevice::retiredAllocatorCount(), std::size_t{1});
        QCOMPARE(valuesOf(out.at(0)), (std::vector<float>{2, -4, 6}));
        out.at(0).values<float>()[1] = 5; // still the caller's memory to write
        QCOMPARE(out.at(0).values<float>()[1], 5.0f);
        out.clear();
        // Freed: the next CPU device made (or destroyed) lets the allocator go.
        QCOMPARE(CpuDevice::retiredAllocatorCount(), std::size_t{1});
        newSession();
        QCOMPARE(CpuDevice::retiredAllocatorCount(), std::size_t{0});
    }

    void aSessionWithoutLiveResultsLeavesNothingBehind()
    {
        newSession();
        {
            auto session = newSession();
            std::vector<Tensor> out;
            QVERIFY(session->run({{"x", floatTensor({1, 2, 3})}}, {"a"}, {}, &out).isOk());
        }
        QCOMPARE(CpuDevice::retiredAllocatorCount(), std::size_t{0});
    }

    void valuesHeldElsewhereAreCopied()
    {
        auto session = newSession();
        Allocator& device = session->devices().at(0)->allocator();
        std::vector<Tensor> out;
        QVERIFY(session->run({}, {}, {"v/Assign"}, &out).isOk());
        const Tensor x = floatTensor({1, -2, 3});
        // A constant, a variable's value, a feed, and one value fetched twice.
        QVERIFY(session->run({{"x", x}}, {"k", "v/read", "x", "a", "a"}, {}, &out).isOk());
        QCOMPARE(out.size(), std::size_t{5});
        for (const Tensor& t : out)
            QVERIFY(t.bufferAllocator() != &device);
        QVERIFY(!out[2].sharesBufferWith(x));
        QVERIFY(!out[3].sharesBufferWith(out[4]));
        QCOMPARE(valuesOf(out[3]), (std::vector<float>{2, -4, 6}));
        QCOMPARE(valuesOf(out[4]), (std::vector<float>{2, -4, 6}));

        // Writing to the results changes neither the constant nor the variable.
        out[0].values<float>()[0] = 100;
        const std::vector<float> variableBefore = valuesOf(out[1]);
        out[1].values<float>()[0] = 100;
        std::vector<Tensor> again;
        QVERIFY(session->run({}, {"k", "v/read"}, {}, &again).isOk());
        QCOMPARE(valuesOf(again[0]), (std::vector<float>{1, 2, 3}));
        QCOMPARE(valuesOf(again[1]), variableBefore);

        // The variable changes later; a result read from it earlier does not.
        QVERIFY(session->run({}, {}, {"v/double"}, &again).isOk());
        QVERIFY(session->run({}, {"v/read"}, {}, &again).isOk());
        QCOMPARE(valuesOf(again[0]), (std::vector<float>{2, 4, 6}));
        QCOMPARE(valuesOf(out[1]), (std::vector<float>{100, 2, 3}));
    }

private:
    std::unique_ptr<Session> newSession()
    {
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        (*options.config.mutable_device_count())["GPU"] = 0;
        auto session = std::make_unique<Session>(options);
        tensorflow::GraphDef graph;
        if (!google::protobuf::TextFormat::ParseFromString(kGraph, &graph))
            qFatal("test graph does not parse");
        if (Status s = session->create(graph); !s.isOk())
            qFatal("create: %s", s.toString().c_str());
        return session;
    }

    Tensor floatTensor(const std::vector<float>& values)
    {
        return *Tensor::fromVector(m_allocator, TensorShape{static_cast<std::int64_t>(values.size())}, values);
    }

    std::unique_ptr<Registries> m_registries;
    CpuAllocator m_allocator;
};

QTEST_GUILESS_MAIN(TestFetchResults)
#include "test_fetch_results.moc"
