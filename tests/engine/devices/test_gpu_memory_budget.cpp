// Tests for the GPU memory budget (TF 1.15's fraction and system reserve) and visible_device_list parsing.
#include "devices/gpu_memory_budget.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace tstudio;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;
constexpr std::uint64_t kGiB = std::uint64_t(1) << 30;

tensorflow::GPUOptions withFraction(double fraction)
{
    tensorflow::GPUOptions options;
    options.set_per_process_gpu_memory_fraction(fraction);
    return options;
}

std::uint64_t limitOf(const tensorflow::GPUOptions& options, std::uint64_t total, std::uint64_t free)
{
    auto budget = gpuMemoryBudget(options, total, free);
    if (!budget) {
        qWarning("%s", budget.error().toString().c_str());
        return 0;
    }
    return budget->limitBytes;
}

bool contains(const std::string& text, const char* part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class TestGpuMemoryBudget : public QObject {
    Q_OBJECT
private slots:
    void fractionOfTotalMemory()
    {
        // Values from Python's float arithmetic: int(total * fraction).
        QCOMPARE(limitOf(withFraction(0.9), 80 * kGiB, 1 * kGiB), std::uint64_t(77309411328));
        QCOMPARE(limitOf(withFraction(0.3333), 85520809984, 80 * kGiB), std::uint64_t(28504085967));
        QCOMPARE(limitOf(withFraction(0.7), 16 * kGiB, 0), std::uint64_t(12025908428)); // free memory plays no part
        QCOMPARE(limitOf(withFraction(1.0), 80 * kGiB, 10 * kGiB), 80 * kGiB);
    }

    void defaultReserveBelowTwoGiB()
    {
        const tensorflow::GPUOptions options;
        QCOMPARE(gpuSystemMemoryReserve(1 * kGiB), 225 * kMiB);
        QCOMPARE(gpuSystemMemoryReserve(2 * kGiB - 1), 225 * kMiB);
        QCOMPARE(limitOf(options, 4 * kGiB, 1 * kGiB), 1024 * kMiB - 225 * kMiB);
        QCOMPARE(limitOf(options, 4 * kGiB, 2 * kGiB - 1), 2 * kGiB - 1 - 225 * kMiB);
        // No more free than the reserve: TF takes all of it rather than none.
        QCOMPARE(limitOf(options, 4 * kGiB, 200 * kMiB), 200 * kMiB);
        QCOMPARE(limitOf(options, 4 * kGiB, 225 * kMiB), 225 * kMiB);
    }

    void defaultReserveFromTwoGiB()
    {
        const tensorflow::GPUOptions options;
        QCOMPARE(gpuSystemMemoryReserve(2 * kGiB), 300 * kMiB);               // 5% would be 102.4 MiB
        QCOMPARE(gpuSystemMemoryReserve(6 * kGiB), std::uint64_t(322122547)); // int(6 GiB * 0.05)
        QCOMPARE(gpuSystemMemoryReserve(80 * kGiB), 4 * kGiB);                // 5% of 80 GiB
        QCOMPARE(limitOf(options, 4 * kGiB, 2 * kGiB), 2048 * kMiB - 300 * kMiB);
        QCOMPARE(limitOf(options, 80 * kGiB, 80 * kGiB), 76 * kGiB);
        QCOMPARE(limitOf(options, 80 * kGiB, 79 * kGiB), std::uint64_t(80584323892)); // 79 GiB - int(79 GiB * 0.05)
    }

    void growthFlag()
    {
        tensorflow::GPUOptions options;
        auto fixed = gpuMemoryBudget(options, 8 * kGiB, 8 * kGiB);
        QVERIFY(fixed);
        QVERIFY(!fixed->allowGrowth);
        options.set_allow_growth(true);
        auto growing = gpuMemoryBudget(options, 8 * kGiB, 8 * kGiB);
        QVERIFY(growing);
        QVERIFY(growing->allowGrowth);
        QCOMPARE(growing->limitBytes, fixed->limitBytes); // the limit is the same; only regions differ
    }

    void invalidFractions()
    {
        auto negative = gpuMemoryBudget(withFraction(-0.25), 8 * kGiB, 8 * kGiB);
        QVERIFY(!negative);
        QCOMPARE(negative.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(negative.error().message(), "per_process_gpu_memory_fraction must be between 0 and 1, got "
                                                      "-0.25"),
                 negative.error().message().c_str());

        auto nan = gpuMemoryBudget(withFraction(std::numeric_limits<double>::quiet_NaN()), 8 * kGiB, 8 * kGiB);
        QVERIFY(!nan);
        QCOMPARE(nan.error().code(), StatusCode::kInvalidArgument);

        auto over = gpuMemoryBudget(withFraction(1.5), 8 * kGiB, 8 * kGiB);
        QVERIFY(!over);
        QCOMPARE(over.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(over.error().message(), "per_process_gpu_memory_fraction is 1.5") &&
                     contains(over.error().message(), "unified (managed) memory"),
                 over.error().message().c_str());

        tensorflow::GPUOptions unified;
        unified.mutable_experimental()->set_use_unified_memory(true);
        auto managed = gpuMemoryBudget(unified, 8 * kGiB, 8 * kGiB);
        QVERIFY(!managed);
        QCOMPARE(managed.error().code(), StatusCode::kInvalidArgument);
        QVERIFY(contains(managed.error().message(), "use_unified_memory"));

        // Virtual devices are laid out by planGpuDevices; the budget of the GPU itself is unchanged.
        tensorflow::GPUOptions virtualGpus;
        virtualGpus.mutable_experimental()->add_virtual_devices()->add_memory_limit_mb(1024);
        QCOMPARE(limitOf(virtualGpus, 8 * kGiB, 8 * kGiB), limitOf(tensorflow::GPUOptions(), 8 * kGiB, 8 * kGiB));
    }

    /// TF 1.15's virtual_device_configuration: several TF GPUs on one physical GPU, numbered in
    /// order, each with memory_limit_mb MiB; an entry without limits uses its GPU whole.
    void virtualDevicesSplitOneGpu()
    {
        const auto plan = [](const tensorflow::GPUOptions& options, std::vector<int> ordinals, int maxCount) {
            return planGpuDevices(options, ordinals, maxCount);
        };
        // Without virtual devices: one device per visible GPU, capped by device_count.
        auto plain = plan(tensorflow::GPUOptions(), {1, 0, 2}, 2);
        QVERIFY(plain);
        QCOMPARE(plain->size(), std::size_t(2));
        QCOMPARE((*plain)[0].ordinal, 1);
        QCOMPARE((*plain)[1].ordinal, 0);
        QVERIFY(!(*plain)[0].memoryLimitBytes && !(*plain)[1].memoryLimitBytes);
        QCOMPARE(plan(tensorflow::GPUOptions(), {0, 1}, -1)->size(), std::size_t(2));
        QCOMPARE(plan(tensorflow::GPUOptions(), {}, -1)->size(), std::size_t(0));

        // Two virtual devices on one GPU: GPU:0 and GPU:1 share CUDA device 0.
        tensorflow::GPUOptions two;
        auto* first = two.mutable_experimental()->add_virtual_devices();
        first->add_memory_limit_mb(1024);
        first->add_memory_limit_mb(512.5f);
        auto split = plan(two, {0}, -1);
        QVERIFY2(split, split ? "" : split.error().toString().c_str());
        QCOMPARE(split->size(), std::size_t(2));
        QCOMPARE((*split)[0].ordinal, 0);
        QCOMPARE((*split)[1].ordinal, 0);
        QCOMPARE(*(*split)[0].memoryLimitBytes, 1024 * kMiB);
        QCOMPARE(*(*split)[1].memoryLimitBytes, 512 * kMiB + kMiB / 2);

        // visible_device_list "1,0" with entries {1 GiB, 2 GiB} and {}: GPU:0 and GPU:1 on CUDA
        // device 1, GPU:2 on CUDA device 0 using it whole (TensorFlow's documented example).
        tensorflow::GPUOptions listed;
        listed.set_visible_device_list("1,0");
        auto* onOne = listed.mutable_experimental()->add_virtual_devices();
        onOne->add_memory_limit_mb(1024);
        onOne->add_memory_limit_mb(2048);
        listed.mutable_experimental()->add_virtual_devices();
        auto three = plan(listed, {1, 0}, -1);
        QVERIFY(three);
        QCOMPARE(three->size(), std::size_t(3));
        QCOMPARE((*three)[0].ordinal, 1);
        QCOMPARE((*three)[1].ordinal, 1);
        QCOMPARE((*three)[2].ordinal, 0);
        QCOMPARE(*(*three)[1].memoryLimitBytes, 2048 * kMiB);
        QVERIFY(!(*three)[2].memoryLimitBytes);
    }

    void badVirtualDevicesAreRefused()
    {
        tensorflow::GPUOptions withFractionToo;
        withFractionToo.set_per_process_gpu_memory_fraction(0.5);
        withFractionToo.mutable_experimental()->add_virtual_devices()->add_memory_limit_mb(100);
        auto both = planGpuDevices(withFractionToo, {0}, -1);
        QVERIFY(!both);
        QCOMPARE(both.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(both.error().message(),
                 std::string("It's invalid to set per_process_gpu_memory_fraction when virtual_devices is set."));

        tensorflow::GPUOptions twoEntries;
        twoEntries.mutable_experimental()->add_virtual_devices()->add_memory_limit_mb(100);
        twoEntries.mutable_experimental()->add_virtual_devices()->add_memory_limit_mb(100);
        auto tooFew = planGpuDevices(twoEntries, {0}, -1);
        QVERIFY(!tooFew);
        QCOMPARE(tooFew.error().code(), StatusCode::kUnknown);
        QCOMPARE(tooFew.error().message(),
                 std::string("Not enough GPUs to create virtual devices. num_gpus_to_use: 1 #virtual_devices: 2"));
        // device_count["GPU"] caps the physical GPUs the entries describe.
        QVERIFY(!planGpuDevices(twoEntries, {0, 1}, 1));
        QVERIFY(planGpuDevices(twoEntries, {0, 1}, -1));

        tensorflow::GPUOptions oneEntry;
        oneEntry.mutable_experimental()->add_virtual_devices()->add_memory_limit_mb(100);
        auto unlisted = planGpuDevices(oneEntry, {0, 1}, -1);
        QVERIFY(!unlisted);
        QVERIFY2(contains(unlisted.error().message(), "#valid GPUs: 2 virtual_devices.size(): 1"),
                 unlisted.error().message().c_str());
        oneEntry.set_visible_device_list("0,1");
        auto listed = planGpuDevices(oneEntry, {0, 1}, -1);
        QVERIFY(!listed);
        QCOMPARE(listed.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(contains(listed.error().message(), "#GPUs in visible_device_list: 2 virtual_devices.size(): 1"),
                 listed.error().message().c_str());

        tensorflow::GPUOptions negative;
        auto* entry = negative.mutable_experimental()->add_virtual_devices();
        entry->add_memory_limit_mb(100);
        entry->add_memory_limit_mb(-5);
        auto bad = planGpuDevices(negative, {0}, -1);
        QVERIFY(!bad);
        QCOMPARE(bad.error().message(), std::string("GPUOptions.experimental.virtual_devices[0].memory_limit_mb[1] must "
                                                    "be a positive number of MiB, got -5"));
    }

    void nothingToAllocate()
    {
        auto none = gpuMemoryBudget(tensorflow::GPUOptions(), 80 * kGiB, 0);
        QVERIFY(!none);
        QCOMPARE(none.error().code(), StatusCode::kResourceExhausted);
        QVERIFY2(contains(none.error().message(), "the GPU has 0.0 MiB free of 81920.0 MiB total"),
                 none.error().message().c_str());
        QCOMPARE(none.error().withContext("GPU:0").message().rfind("GPU:0: no GPU memory", 0), std::size_t(0));

        auto tiny = gpuMemoryBudget(withFraction(1e-12), 1 * kGiB, 1 * kGiB);
        QVERIFY(!tiny);
        QCOMPARE(tiny.error().code(), StatusCode::kResourceExhausted);
        QVERIFY2(contains(tiny.error().message(), "per_process_gpu_memory_fraction 1e-12 of 1024.0 MiB total"),
                 tiny.error().message().c_str());

        QCOMPARE(limitOf(tensorflow::GPUOptions(), 1 * kGiB, 256), std::uint64_t(256)); // the least that works
    }

    void visibleDeviceListDefaultsAndOrder()
    {
        QCOMPARE(visibleGpuOrdinals("", 3).value(), (std::vector<int>{0, 1, 2}));
        QCOMPARE(visibleGpuOrdinals("", 0).value(), std::vector<int>{});
        QCOMPARE(visibleGpuOrdinals("1,0", 2).value(), (std::vector<int>{1, 0}));
        QCOMPARE(visibleGpuOrdinals("2", 4).value(), std::vector<int>{2});
        QCOMPARE(visibleGpuOrdinals(" 3 , 1\t", 4).value(), (std::vector<int>{3, 1})); // spaces as safe_strto32
    }

    void visibleDeviceListErrors_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("message");
        QTest::newRow("duplicate") << "0,0" << 2 << "visible_device_list contained a duplicate entry: 0,0";
        QTest::newRow("duplicate later") << "1,0,1" << 2 << "visible_device_list contained a duplicate entry: 1,0,1";
        QTest::newRow("out of range") << "2" << 2
                                      << "'visible_device_list' listed an invalid GPU id '2' but visible "
                                         "device count is 2";
        QTest::newRow("negative") << "0,-1" << 2
                                  << "'visible_device_list' listed an invalid GPU id '-1' but "
                                     "visible device count is 2";
        QTest::newRow("no GPU") << "0" << 0
                                << "'visible_device_list' listed an invalid GPU id '0' but visible "
                                   "device count is 0";
        QTest::newRow("word") << "gpu0" << 2
                              << "Could not parse entry in 'visible_device_list': 'gpu0'. "
                                 "visible_device_list = gpu0";
        QTest::newRow("empty entry") << "0," << 2
                                     << "Could not parse entry in 'visible_device_list': ''. "
                                        "visible_device_list = 0,";
        QTest::newRow("plus sign") << "+1" << 2
                                   << "Could not parse entry in 'visible_device_list': '+1'. "
                                      "visible_device_list = +1";
        QTest::newRow("overflow") << "1,99999999999" << 2
                                  << "Could not parse entry in 'visible_device_list': "
                                     "'99999999999'. visible_device_list = 1,99999999999";
        QTest::newRow("fraction") << "1.0" << 2
                                  << "Could not parse entry in 'visible_device_list': '1.0'. "
                                     "visible_device_list = 1.0";
    }

    void visibleDeviceListErrors()
    {
        QFETCH(QString, list);
        QFETCH(int, count);
        QFETCH(QString, message);
        auto result = visibleGpuOrdinals(list.toStdString(), count);
        QVERIFY(!result);
        QCOMPARE(result.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(QString::fromStdString(result.error().message()), message);
    }
};

QTEST_GUILESS_MAIN(TestGpuMemoryBudget)
#include "test_gpu_memory_budget.moc"
