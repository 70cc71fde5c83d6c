// Tests for StringToHashBucket, StringToHashBucketFast, StringToHashBucketStrong, Bucketize and
// BucketizeWithInputBoundaries: the hash values and buckets TensorFlow's own tests and API docs
// print (string_to_hash_bucket_op_test.py, tf.strings.to_hash_bucket_* examples, the contrib
// quantile ops' tests), and buckets computed by hand for the bucketize ops.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "kernel_harness.h"

#include <QTest>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

constexpr std::int64_t kMaxBuckets = std::numeric_limits<std::int64_t>::max();

std::string hashNode(const std::string& op, std::int64_t buckets, const std::string& extra = {})
{
    return "op: '" + op + "' attr { key: 'num_buckets' value { i: " + std::to_string(buckets) + " } }" + extra;
}

/// A uint64 hash reduced as the op reduces it with num_buckets = 2^63 - 1 (so the test sees all
/// but the top bit of TensorFlow's printed hash).
std::int64_t modMax(std::uint64_t hash)
{
    return static_cast<std::int64_t>(hash % static_cast<std::uint64_t>(kMaxBuckets));
}

template <typename T> std::vector<T> elements(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

} // namespace

class TestHashBucketKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<KernelHarness> m_h;

    Tensor strings(const std::vector<std::string>& values, TensorShape shape = {})
    {
        if (shape.isUnknownRank())
            shape = TensorShape{static_cast<std::int64_t>(values.size())};
        return tensor<std::string>(m_h->allocator(), shape, values);
    }

    std::vector<std::int64_t> buckets(const std::string& node, const std::vector<std::string>& input)
    {
        auto out = m_h->run(node, {strings(input)});
        if (!out) {
            qWarning("%s", out.error().toString().c_str());
            return {};
        }
        return elements<std::int64_t>((*out)[0]);
    }

    template <typename T>
    Expected<std::vector<Tensor>> bucketize(const std::vector<T>& input, const TensorShape& shape,
                                            const std::string& boundaries)
    {
        const std::string node =
            "op: 'Bucketize' attr { key: 'T' value { type: " + tensorflow::DataType_Name(kDataTypeOf<T>) +
            " } } attr { key: 'boundaries' value { list { " + boundaries + " } } }";
        return m_h->run(node, {tensor<T>(m_h->allocator(), shape, input)});
    }

private slots:
    void initTestCase()
    {
        m_h = KernelHarness::createOrWarn({registerHashBucketOps}, {registerHashBucketCpuKernels});
        QVERIFY(m_h);
    }

    void fastHashIsFingerprint64()
    {
        // string_to_hash_bucket_op_test.py: Fingerprint64('a') -> 12917804110809363939 -> mod 10 -> 9, ...
        QCOMPARE(buckets(hashNode("StringToHashBucketFast", 10), {"a", "b", "c", "d"}),
                 (std::vector<std::int64_t>{9, 2, 2, 5}));
        QCOMPARE(buckets(hashNode("StringToHashBucketFast", kMaxBuckets), {"a", "b", "c", "d"}),
                 (std::vector<std::int64_t>{modMax(12917804110809363939ULL), modMax(11795596070477164822ULL),
                                            modMax(11430444447143000872ULL), modMax(4470636696479570465ULL)}));
        // tf.strings.to_hash_bucket_fast(["Hello", "TensorFlow", "2.x"], 3).numpy() -> array([0, 2, 2])
        // (TensorFlow's API docs).
        QCOMPARE(buckets(hashNode("StringToHashBucketFast", 3), {"Hello", "TensorFlow", "2.x"}),
                 (std::vector<std::int64_t>{0, 2, 2}));
    }

    void legacyHashIsTensorFlowsHash64()
    {
        // Hash64('a') -> 2996632905371535868 -> mod 10 -> 8, 'b' -> 5795986006276551370 -> 0,
        // 'c' -> 14899841994519054197 -> 7.
        QCOMPARE(buckets(hashNode("StringToHashBucket", 10), {"a", "b", "c"}), (std::vector<std::int64_t>{8, 0, 7}));
        QCOMPARE(buckets(hashNode("StringToHashBucket", kMaxBuckets), {"a", "b", "c"}),
                 (std::vector<std::int64_t>{modMax(2996632905371535868ULL), modMax(5795986006276551370ULL),
                                            modMax(14899841994519054197ULL)}));
    }

    void strongHashIsKeyedSipHash()
    {
        const std::string key = " attr { key: 'key' value { list { i: 98765 i: 132 } } }";
        // StrongKeyedHash([98765, 132], 'a') -> 7157389809176466784 -> mod 10 -> 4, ...
        QCOMPARE(buckets(hashNode("StringToHashBucketStrong", 10, key), {"a", "b", "c"}),
                 (std::vector<std::int64_t>{4, 2, 8}));
        QCOMPARE(buckets(hashNode("StringToHashBucketStrong", kMaxBuckets, key), {"a", "b", "c"}),
                 (std::vector<std::int64_t>{modMax(7157389809176466784ULL), modMax(15805638358933211562ULL),
                                            modMax(18100027895074076528ULL)}));
        // tf.strings.to_hash_bucket_strong(["Hello", "TF"], 3, [1, 2]) -> [2, 0] (API docs).
        QCOMPARE(buckets(hashNode("StringToHashBucketStrong", 3, " attr { key: 'key' value { list { i: 1 i: 2 } } }"),
                         {"Hello", "TF"}),
                 (std::vector<std::int64_t>{2, 0}));
    }

    void strongHashKeyMustHaveTwoElements()
    {
        auto out =
            m_h->run(hashNode("StringToHashBucketStrong", 10, " attr { key: 'key' value { list { i: 98765 } } }"),
                     {strings({"a"})});
        QVERIFY(!out);
        QCOMPARE(out.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(out.error().message().find("Key must have 2 elements") != std::string::npos,
                 out.error().toString().c_str());
    }

    void oneBucketAndShapeKept()
    {
        for (const char* op : {"StringToHashBucket", "StringToHashBucketFast"}) {
            auto out = m_h->run(hashNode(op, 1), {strings({"a", "b", "", "d"}, TensorShape{2, 2})});
            QVERIFY2(out, out ? "" : out.error().toString().c_str());
            QCOMPARE((*out)[0].shape(), (TensorShape{2, 2}));
            QCOMPARE(elements<std::int64_t>((*out)[0]), (std::vector<std::int64_t>{0, 0, 0, 0}));
        }
    }

    void zeroBucketsIsRefusedByTheOpDef()
    {
        auto out = m_h->run(hashNode("StringToHashBucketFast", 0), {strings({"a"})});
        QVERIFY(!out);
    }

    void bucketizeDocExample()
    {
        // tf.raw_ops.Bucketize: boundaries [0, 10, 100], input [[-5, 10000], [150, 10], [5, 100]]
        // -> [[0, 3], [3, 2], [1, 3]].
        auto out = bucketize<std::int32_t>({-5, 10000, 150, 10, 5, 100}, TensorShape{3, 2}, "f: 0 f: 10 f: 100");
        QVERIFY2(out, out ? "" : out.error().toString().c_str());
        QCOMPARE((*out)[0].dtype(), tensorflow::DT_INT32);
        QCOMPARE((*out)[0].shape(), (TensorShape{3, 2}));
        QCOMPARE(elements<std::int32_t>((*out)[0]), (std::vector<std::int32_t>{0, 3, 3, 2, 1, 3}));
    }

    void bucketizeIsLowerInclusiveForEveryType()
    {
        // Boundaries 0, 3, 8, 11: a value equal to a boundary starts the next bucket.
        const std::string b = "f: 0 f: 3 f: 8 f: 11";
        const std::vector<std::int32_t> expected{0, 1, 1, 2, 2, 3, 3, 4, 4};
        auto i32 = bucketize<std::int32_t>({-5, 0, 2, 3, 5, 8, 10, 11, 12}, TensorShape{9}, b);
        auto i64 = bucketize<std::int64_t>({-5, 0, 2, 3, 5, 8, 10, 11, 12}, TensorShape{9}, b);
        auto f32 = bucketize<float>({-5, 0, 2.5f, 3, 5, 8, 10, 11, 12}, TensorShape{9}, b);
        auto f64 = bucketize<double>({-5, 0, 2, 3, 5, 7.999, 10, 11, 1e300}, TensorShape{9}, b);
        QVERIFY(i32 && i64 && f32 && f64);
        QCOMPARE(elements<std::int32_t>((*i32)[0]), expected);
        QCOMPARE(elements<std::int32_t>((*i64)[0]), expected);
        QCOMPARE(elements<std::int32_t>((*f32)[0]), expected);
        QCOMPARE(elements<std::int32_t>((*f64)[0]), (std::vector<std::int32_t>{0, 1, 1, 2, 2, 2, 3, 4, 4}));
        // A float boundary between integers: 2 < 2.5 <= 3.
        auto half = bucketize<std::int32_t>({2, 3}, TensorShape{2}, "f: 2.5");
        QVERIFY(half);
        QCOMPARE(elements<std::int32_t>((*half)[0]), (std::vector<std::int32_t>{0, 1}));
        // No boundaries: one bucket.
        auto none = bucketize<float>({-1, 0, 1}, TensorShape{3}, "");
        QVERIFY(none);
        QCOMPARE(elements<std::int32_t>((*none)[0]), (std::vector<std::int32_t>{0, 0, 0}));
    }

    void bucketizeNeedsSortedBoundaries()
    {
        auto out = bucketize<std::int32_t>({-5, 0}, TensorShape{2}, "f: 0 f: 8 f: 3 f: 11");
        QVERIFY(!out);
        QCOMPARE(out.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(out.error().message().find("Expected sorted boundaries") != std::string::npos,
                 out.error().toString().c_str());
    }

    void bucketizeWithInputBoundaries()
    {
        const std::string node = "op: 'BucketizeWithInputBoundaries' attr { key: 'T' value { type: DT_INT32 } }";
        const Tensor input = tensor<std::int32_t>(m_h->allocator(), TensorShape{5}, {1, 2, 3, 4, 5});
        // The contrib quantile ops' tests: boundaries [3] -> [0, 0, 1, 1, 1]; [2, 4] -> [0, 1, 1, 2, 2].
        auto three = m_h->run(node, {input, tensor<float>(m_h->allocator(), TensorShape{1}, {3})});
        auto twoFour = m_h->run(node, {input, tensor<float>(m_h->allocator(), TensorShape{2}, {2, 4})});
        QVERIFY(three && twoFour);
        QCOMPARE(elements<std::int32_t>((*three)[0]), (std::vector<std::int32_t>{0, 0, 1, 1, 1}));
        QCOMPARE(elements<std::int32_t>((*twoFour)[0]), (std::vector<std::int32_t>{0, 1, 1, 2, 2}));
        // Boundaries become the input's type first: 2.5 is 2 for int32 input, so 2 is in bucket 1.
        auto truncated = m_h->run(node, {input, tensor<float>(m_h->allocator(), TensorShape{1}, {2.5f})});
        QVERIFY(truncated);
        QCOMPARE(elements<std::int32_t>((*truncated)[0]), (std::vector<std::int32_t>{0, 1, 1, 1, 1}));
        auto unsorted = m_h->run(node, {input, tensor<float>(m_h->allocator(), TensorShape{2}, {4, 2})});
        QVERIFY(!unsorted);
        QVERIFY(unsorted.error().message().find("Expected sorted boundaries") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestHashBucketKernels)
#include "test_hash_bucket_kernels.moc"
