// Tests for the lookup-table kernels: HashTable(V2) initialized from tensors and from vocabulary
// files (TensorFlow 1.15's once-only rule, its error texts for malformed files), the mutable hash
// tables, MutableDenseHashTableV2's bucket layout (computed by hand from TensorFlow's probing
// rule), and the V1 ops' Ref(string) handles and shared tables in a session. Expected values come
// from TensorFlow's API documentation examples or are worked out by hand.
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/tensor_proto_values.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "built_graph.h"
#include "kernel_harness.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

std::string dt(DataType d)
{
    return tf::DataType_Name(d);
}

std::string typeAttr(const char* name, DataType d)
{
    return std::string(" attr { key: '") + name + "' value { type: " + dt(d) + " } }";
}

std::string tableNode(const char* op, DataType key, DataType value, const std::string& extra = {})
{
    return std::string("op: '") + op + "'" + typeAttr("key_dtype", key) + typeAttr("value_dtype", value) + extra;
}

std::string inOut(const char* op, DataType in, DataType out, const char* inName = "Tin", const char* outName = "Tout")
{
    return std::string("op: '") + op + "'" + typeAttr(inName, in) + typeAttr(outName, out);
}

std::string textFileNode(std::int64_t key, std::int64_t value, std::int64_t vocab = -1,
                         const std::string& delim = "\\t")
{
    return "op: 'InitializeTableFromTextFileV2' attr { key: 'key_index' value { i: " + std::to_string(key) +
           " } } attr { key: 'value_index' value { i: " + std::to_string(value) +
           " } } attr { key: 'vocab_size' value { i: " + std::to_string(vocab) +
           " } } attr { key: 'delimiter' value { s: '" + delim + "' } }";
}

template <typename T> std::vector<T> elements(const Tensor& t)
{
    auto v = t.values<T>();
    return {v.begin(), v.end()};
}

bool mentions(const Status& s, std::string_view text)
{
    return s.message().find(text) != std::string::npos;
}

} // namespace

class TestLookupKernels : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<KernelHarness> m_h;
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;

    template <typename T> Tensor vec(const std::vector<T>& v)
    {
        return tensor<T>(m_h->allocator(), TensorShape{static_cast<std::int64_t>(v.size())}, v);
    }
    template <typename T> Tensor scalar(T v) { return tensor<T>(m_h->allocator(), TensorShape::scalar(), {v}); }

    /// A new table's handle (the harness names each kernel's table apart).
    Tensor table(const char* op, DataType key, DataType value, const std::string& extra = {},
                 const std::vector<Tensor>& inputs = {})
    {
        auto out = m_h->run(tableNode(op, key, value, extra), inputs);
        if (!out)
            qFatal("%s", out.error().toString().c_str());
        return (*out)[0];
    }

    Status initialize(const Tensor& handle, const Tensor& keys, const Tensor& values)
    {
        auto out =
            m_h->run(inOut("InitializeTableV2", keys.dtype(), values.dtype(), "Tkey", "Tval"), {handle, keys, values});
        return out ? Status::ok() : out.error();
    }

    Expected<Tensor> find(const Tensor& handle, const Tensor& keys, const Tensor& fallback)
    {
        auto out = m_h->run(inOut("LookupTableFindV2", keys.dtype(), fallback.dtype()), {handle, keys, fallback});
        if (!out)
            return unexpected(out.error());
        return (*out)[0];
    }

    std::int64_t size(const Tensor& handle)
    {
        auto out = m_h->run("op: 'LookupTableSizeV2'", {handle});
        return out ? (*out)[0].scalar<std::int64_t>() : -99;
    }

    Status run(const std::string& node, const std::vector<Tensor>& inputs)
    {
        auto out = m_h->run(node, inputs);
        return out ? Status::ok() : out.error();
    }

    std::string writeFile(const char* name, const std::string& content)
    {
        const std::string path = m_dir.filePath(name).toStdString();
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }

    Status initFromFile(const Tensor& handle, const std::string& path, std::int64_t key, std::int64_t value,
                        std::int64_t vocab = -1, const std::string& delim = "\\t")
    {
        return run(textFileNode(key, value, vocab, delim), {handle, scalar<std::string>(path)});
    }

    std::unique_ptr<Session> session(const GraphBuilder& b)
    {
        return mustSession(m_registries->ops, m_registries->kernels, b);
    }

private slots:
    void initTestCase()
    {
        m_h = KernelHarness::createOrWarn({registerLookupOps}, {registerLookupCpuKernels});
        QVERIFY(m_h);
        auto r = makeDefaultRegistries();
        QVERIFY2(r, r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
        QVERIFY(m_dir.isValid());
    }

    void hashTableFromTensors()
    {
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QCOMPARE(t.dtype(), tf::DT_RESOURCE);
        QCOMPARE(size(t), 0); // 0 until initialized
        QVERIFY(initialize(t, vec<std::string>({"emerson", "lake", "palmer"}), vec<std::int64_t>({0, 1, 2})).isOk());
        QCOMPARE(size(t), 3);
        // index_table_from_tensor's documented example: ["emerson", "lake", "and", "palmer"] -> [0, 1, -1, 2]
        // without out-of-vocabulary buckets.
        auto ids = find(t, vec<std::string>({"emerson", "lake", "and", "palmer"}), scalar<std::int64_t>(-1));
        QVERIFY2(ids, ids ? "" : ids.error().toString().c_str());
        QCOMPARE(elements<std::int64_t>(*ids), (std::vector<std::int64_t>{0, 1, -1, 2}));
        // The values take the keys' shape.
        auto grid = find(t, tensor<std::string>(m_h->allocator(), TensorShape{2, 2}, {"palmer", "x", "lake", ""}),
                         scalar<std::int64_t>(7));
        QVERIFY(grid);
        QCOMPARE(grid->shape(), (TensorShape{2, 2}));
        QCOMPARE(elements<std::int64_t>(*grid), (std::vector<std::int64_t>{2, 7, 1, 7}));
    }

    void hashTableIsInitializedOnce()
    {
        const Tensor t = table("HashTableV2", tf::DT_INT64, tf::DT_STRING);
        auto early = find(t, vec<std::int64_t>({1}), scalar<std::string>("UNK"));
        QVERIFY(!early);
        QCOMPARE(early.error().code(), StatusCode::kFailedPrecondition);
        QVERIFY2(mentions(early.error(), "Table not initialized."), early.error().toString().c_str());
        QVERIFY(initialize(t, vec<std::int64_t>({0, 1}), vec<std::string>({"a", "b"})).isOk());
        for (const Status& again : {initialize(t, vec<std::int64_t>({0, 1}), vec<std::string>({"a", "b"})),
                                    run(inOut("LookupTableImportV2", tf::DT_INT64, tf::DT_STRING),
                                        {t, vec<std::int64_t>({5}), vec<std::string>({"e"})})}) {
            QCOMPARE(again.code(), StatusCode::kFailedPrecondition);
            QVERIFY2(mentions(again, "Table already initialized."), again.toString().c_str());
        }
        auto values = find(t, vec<std::int64_t>({1, 5}), scalar<std::string>("UNK"));
        QVERIFY(values);
        QCOMPARE(elements<std::string>(*values), (std::vector<std::string>{"b", "UNK"}));
        Status insert = run(inOut("LookupTableInsertV2", tf::DT_INT64, tf::DT_STRING),
                            {t, vec<std::int64_t>({9}), vec<std::string>({"z"})});
        QCOMPARE(insert.code(), StatusCode::kUnimplemented);
    }

    void hashTableRejectsConflictingDuplicates()
    {
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        Status s = initialize(t, vec<std::string>({"a", "b", "a"}), vec<std::int64_t>({1, 2, 3}));
        QCOMPARE(s.code(), StatusCode::kFailedPrecondition);
        QVERIFY2(mentions(s, "HashTable has different value for same key. Key a has 1 and trying to add value 3"),
                 s.toString().c_str());
        const Tensor same = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initialize(same, vec<std::string>({"a", "a"}), vec<std::int64_t>({4, 4})).isOk());
        QCOMPARE(size(same), 1);
    }

    void argumentErrorsHaveTensorFlowsWords()
    {
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initialize(t, vec<std::string>({"a"}), vec<std::int64_t>({1})).isOk());
        auto wrongKeys = find(t, vec<std::int64_t>({1}), scalar<std::int64_t>(0));
        QVERIFY(!wrongKeys);
        QVERIFY2(mentions(wrongKeys.error(), "Signature mismatch, have: resource, int64, int64->int64 expected: "
                                             "resource, string, int64->int64"),
                 wrongKeys.error().toString().c_str());
        auto wrongDefault = find(t, vec<std::string>({"a"}), vec<std::int64_t>({0, 0}));
        QVERIFY(!wrongDefault);
        QVERIFY2(mentions(wrongDefault.error(), "Expected shape [] for default value, got [2]"),
                 wrongDefault.error().toString().c_str());
        Status matrix = initialize(table("HashTableV2", tf::DT_STRING, tf::DT_INT64),
                                   tensor<std::string>(m_h->allocator(), TensorShape{1, 1}, {"a"}),
                                   tensor<std::int64_t>(m_h->allocator(), TensorShape{1, 1}, {1}));
        QVERIFY2(mentions(matrix, "Keys must be a vector, but received shape [1,1]"), matrix.toString().c_str());
        Status sizes = initialize(table("HashTableV2", tf::DT_STRING, tf::DT_INT64), vec<std::string>({"a", "b"}),
                                  vec<std::int64_t>({1}));
        QVERIFY2(mentions(sizes, "Keys and values must have the same size 2 vs 1"), sizes.toString().c_str());
        // Not a lookup table handle at all.
        auto notHandle = find(vec<float>({1}), vec<std::string>({"a"}), scalar<std::int64_t>(0));
        QVERIFY(!notHandle);
    }

    void vocabularyFileWholeLineToLineNumber()
    {
        const std::string path = writeFile("vocab.txt", "emerson\nlake\r\npalmer");
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initFromFile(t, path, -2, -1).isOk());
        QCOMPARE(size(t), 3);
        auto ids = find(t, vec<std::string>({"palmer", "lake", "king", "emerson"}), scalar<std::int64_t>(-1));
        QVERIFY(ids);
        QCOMPARE(elements<std::int64_t>(*ids), (std::vector<std::int64_t>{2, 1, -1, 0}));
        // A second initialization from a file leaves the table as it is, without an error.
        const std::string other = writeFile("other.txt", "x\ny\nz\nw\n");
        QVERIFY(initFromFile(t, other, -2, -1).isOk());
        QCOMPARE(size(t), 3);
    }

    void vocabularyFileLineNumberToWholeLine()
    {
        // index_to_string_table_from_file's documented example: [1, 5] -> ["lake", "UNKNOWN"].
        const std::string path = writeFile("vocab2.txt", "emerson\nlake\npalmer\n");
        const Tensor t = table("HashTableV2", tf::DT_INT64, tf::DT_STRING);
        QVERIFY(initFromFile(t, path, -1, -2).isOk());
        auto words = find(t, vec<std::int64_t>({1, 5}), scalar<std::string>("UNKNOWN"));
        QVERIFY(words);
        QCOMPARE(elements<std::string>(*words), (std::vector<std::string>{"lake", "UNKNOWN"}));
    }

    void vocabularyFileColumns()
    {
        // TextFileInitializer's documented example: "emerson 10", ... with key column 0, value column 1.
        const std::string path = writeFile("columns.txt", "emerson 10\nlake 20\npalmer 30\n");
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initFromFile(t, path, 0, 1, -1, " ").isOk());
        auto v = find(t, vec<std::string>({"lake", "palmer", "emerson 10"}), scalar<std::int64_t>(-1));
        QVERIFY(v);
        QCOMPARE(elements<std::int64_t>(*v), (std::vector<std::int64_t>{20, 30, -1}));
        // Whole line as key: "emerson 10" -> 0.
        const Tensor whole = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initFromFile(whole, path, -2, -1, -1, " ").isOk());
        auto w = find(whole, vec<std::string>({"emerson 10", "palmer 30"}), scalar<std::int64_t>(-1));
        QVERIFY(w);
        QCOMPARE(elements<std::int64_t>(*w), (std::vector<std::int64_t>{0, 2}));
        // vocab_size below the line count reads only that many lines.
        const Tensor two = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        QVERIFY(initFromFile(two, path, 0, 1, 2, " ").isOk());
        QCOMPARE(size(two), 2);
    }

    void malformedVocabularyFiles()
    {
        auto init = [&](const std::string& content, std::int64_t key, std::int64_t value, std::int64_t vocab = -1,
                        DataType keyType = tf::DT_STRING, DataType valueType = tf::DT_INT64) {
            static int n = 0;
            const std::string path = writeFile(("bad" + std::to_string(n++) + ".txt").c_str(), content);
            const Tensor t = table("HashTableV2", keyType, valueType);
            return std::pair{initFromFile(t, path, key, value, vocab, " "), path};
        };
        {
            auto [s, path] = init("a\nb\nc\n", -2, -1, 5);
            QCOMPARE(s.code(), StatusCode::kInvalidArgument);
            QVERIFY2(mentions(s, "Invalid vocab_size in " + path + ": expected 5 but got 3"), s.toString().c_str());
        }
        {
            // "emerson\n" is 8 bytes; the empty line ends at byte 9.
            auto [s, path] = init("emerson\n\nlake\n", -2, -1);
            QVERIFY2(mentions(s, "Invalid content in " + path + ": empty line found at position 9."),
                     s.toString().c_str());
        }
        {
            auto [s, path] = init("a 1\nb\n", 0, 1);
            QVERIFY2(mentions(s, "Invalid number of columns in " + path + " line 1 (b) : expected 1 got 1"),
                     s.toString().c_str());
        }
        {
            auto [s, path] = init("a 1\nb x\n", 0, 1);
            QVERIFY2(mentions(s, "Field x in line 1 is not a valid int64."), s.toString().c_str());
        }
        {
            auto [s, path] = init("a\nb\na\n", -2, -1);
            QCOMPARE(s.code(), StatusCode::kFailedPrecondition);
            QVERIFY2(mentions(s, "HashTable has different value for same key. Key a has 0 and trying to add value 2"),
                     s.toString().c_str());
        }
        {
            auto [s, path] = init("a\n", -1, -2);
            QVERIFY2(mentions(s, "Key index for line number requires table key dtype of int64, got string"),
                     s.toString().c_str());
        }
        {
            auto [s, path] = init("", -2, -1);
            QCOMPARE(s.code(), StatusCode::kOutOfRange);
        }
        const Tensor t = table("HashTableV2", tf::DT_STRING, tf::DT_INT64);
        Status missing = initFromFile(t, m_dir.filePath("missing.txt").toStdString(), -2, -1);
        QCOMPARE(missing.code(), StatusCode::kNotFound);
        Status delimiter = initFromFile(t, writeFile("d.txt", "a\n"), -2, -1, -1, "ab");
        QVERIFY2(mentions(delimiter, "delimiter should be only 1 char"), delimiter.toString().c_str());
        Status notInitializable =
            initFromFile(table("MutableHashTableV2", tf::DT_STRING, tf::DT_INT64), writeFile("e.txt", "a\n"), -2, -1);
        QVERIFY2(mentions(notInitializable, "is not initializable"), notInitializable.toString().c_str());
    }

    void mutableHashTable()
    {
        const Tensor t = table("MutableHashTableV2", tf::DT_STRING, tf::DT_FLOAT);
        const std::string insert = inOut("LookupTableInsertV2", tf::DT_STRING, tf::DT_FLOAT);
        QVERIFY(run(insert, {t, vec<std::string>({"a", "b", "c"}), vec<float>({1, 2, 3})}).isOk());
        QVERIFY(run(insert, {t, vec<std::string>({"b"}), vec<float>({20})}).isOk()); // overwrites
        QVERIFY(run("op: 'LookupTableRemoveV2' attr { key: 'Tin' value { type: DT_STRING } }",
                    {t, vec<std::string>({"c", "zz"})})
                    .isOk());
        QCOMPARE(size(t), 2);
        auto v = find(t, vec<std::string>({"a", "b", "c"}), scalar<float>(-1));
        QVERIFY(v);
        QCOMPARE(elements<float>(*v), (std::vector<float>{1, 20, -1}));
        auto exported = m_h->run(inOut("LookupTableExportV2", tf::DT_STRING, tf::DT_FLOAT, "Tkeys", "Tvalues"), {t});
        QVERIFY2(exported, exported ? "" : exported.error().toString().c_str());
        std::map<std::string, float> contents;
        for (std::size_t i = 0; i < 2; ++i)
            contents[(*exported)[0].strings()[i]] = (*exported)[1].values<float>()[i];
        QCOMPARE(contents, (std::map<std::string, float>{{"a", 1}, {"b", 20}}));
        // Import replaces everything.
        QVERIFY(run(inOut("LookupTableImportV2", tf::DT_STRING, tf::DT_FLOAT),
                    {t, vec<std::string>({"q"}), vec<float>({5})})
                    .isOk());
        QCOMPARE(size(t), 1);
        Status shape = run(insert, {t, vec<std::string>({"a", "b"}), vec<float>({1})});
        QVERIFY2(mentions(shape, "Expected shape [2] for value, got [1]"), shape.toString().c_str());
    }

    void mutableHashTableOfTensors()
    {
        const std::string shape2 = " attr { key: 'value_shape' value { shape { dim { size: 2 } } } }";
        const Tensor t = table("MutableHashTableOfTensorsV2", tf::DT_INT64, tf::DT_FLOAT, shape2);
        QVERIFY(run(inOut("LookupTableInsertV2", tf::DT_INT64, tf::DT_FLOAT),
                    {t, vec<std::int64_t>({3, 4}), tensor<float>(m_h->allocator(), TensorShape{2, 2}, {1, 2, 3, 4})})
                    .isOk());
        auto v = find(t, vec<std::int64_t>({4, 9, 3}), vec<float>({-1, -2}));
        QVERIFY2(v, v ? "" : v.error().toString().c_str());
        QCOMPARE(v->shape(), (TensorShape{3, 2}));
        QCOMPARE(elements<float>(*v), (std::vector<float>{3, 4, -1, -2, 1, 2}));
        auto scalarDefault = find(t, vec<std::int64_t>({4}), scalar<float>(0));
        QVERIFY(!scalarDefault);
        QVERIFY(mentions(scalarDefault.error(), "Expected shape [2] for default value, got []"));
    }

    void denseHashTableLayoutFollowsTensorFlow()
    {
        const std::string attrs = " attr { key: 'initial_num_buckets' value { i: 4 } }";
        const Tensor t = table("MutableDenseHashTableV2", tf::DT_INT64, tf::DT_INT64, attrs,
                               {scalar<std::int64_t>(-1), scalar<std::int64_t>(-2)});
        const std::string insert = inOut("LookupTableInsertV2", tf::DT_INT64, tf::DT_INT64);
        QVERIFY(run(insert, {t, vec<std::int64_t>({1, 2, 3, 4, 5}), vec<std::int64_t>({10, 20, 30, 40, 50})}).isOk());
        QCOMPARE(size(t), 5);
        // 5 entries > 4 buckets * 0.8: the table doubled to 8 buckets before inserting. An int64 key
        // hashes to itself, so key k sits in bucket k & 7; empty buckets hold the empty key -1.
        auto exported = m_h->run(inOut("LookupTableExportV2", tf::DT_INT64, tf::DT_INT64, "Tkeys", "Tvalues"), {t});
        QVERIFY2(exported, exported ? "" : exported.error().toString().c_str());
        QCOMPARE((*exported)[0].shape(), (TensorShape{8, 1}));
        QCOMPARE(elements<std::int64_t>((*exported)[0]), (std::vector<std::int64_t>{-1, 1, 2, 3, 4, 5, -1, -1}));
        QCOMPARE(elements<std::int64_t>((*exported)[1]), (std::vector<std::int64_t>{0, 10, 20, 30, 40, 50, 0, 0}));
        // 9 collides with 1 (9 & 7 = 1): one probe on, bucket 2 is taken, then (2 + 2) & 7 = 4, then
        // (4 + 3) & 7 = 7, which is free.
        QVERIFY(run(insert, {t, vec<std::int64_t>({9}), vec<std::int64_t>({90})}).isOk());
        auto again = m_h->run(inOut("LookupTableExportV2", tf::DT_INT64, tf::DT_INT64, "Tkeys", "Tvalues"), {t});
        QVERIFY(again);
        QCOMPARE(elements<std::int64_t>((*again)[0]), (std::vector<std::int64_t>{-1, 1, 2, 3, 4, 5, -1, 9}));
        // Remove leaves the deleted key in the bucket; lookups probe past it.
        QVERIFY(
            run("op: 'LookupTableRemoveV2' attr { key: 'Tin' value { type: DT_INT64 } }", {t, vec<std::int64_t>({2})})
                .isOk());
        auto found = find(t, vec<std::int64_t>({9, 2, 5, 6}), scalar<std::int64_t>(0));
        QVERIFY(found);
        QCOMPARE(elements<std::int64_t>(*found), (std::vector<std::int64_t>{90, 0, 50, 0}));
        QCOMPARE(size(t), 5);
        // The buckets import into another table as they are.
        auto afterRemove = m_h->run(inOut("LookupTableExportV2", tf::DT_INT64, tf::DT_INT64, "Tkeys", "Tvalues"), {t});
        QVERIFY(afterRemove);
        QCOMPARE(elements<std::int64_t>((*afterRemove)[0]), (std::vector<std::int64_t>{-1, 1, -2, 3, 4, 5, -1, 9}));
        const Tensor copy = table("MutableDenseHashTableV2", tf::DT_INT64, tf::DT_INT64, attrs,
                                  {scalar<std::int64_t>(-1), scalar<std::int64_t>(-2)});
        QVERIFY(
            run(inOut("LookupTableImportV2", tf::DT_INT64, tf::DT_INT64), {copy, (*afterRemove)[0], (*afterRemove)[1]})
                .isOk());
        QCOMPARE(size(copy), 5);
        auto copied = find(copy, vec<std::int64_t>({9, 4, 2}), scalar<std::int64_t>(-7));
        QVERIFY(copied);
        QCOMPARE(elements<std::int64_t>(*copied), (std::vector<std::int64_t>{90, 40, -7}));
        auto empty = find(t, vec<std::int64_t>({-1}), scalar<std::int64_t>(0));
        QVERIFY(!empty);
        QVERIFY(mentions(empty.error(), "Using the empty_key as a table key is not allowed"));
    }

    void denseHashTableConfigurationErrors()
    {
        auto make = [&](const std::string& attrs, std::int64_t empty, std::int64_t deleted) {
            auto out = m_h->run(tableNode("MutableDenseHashTableV2", tf::DT_INT64, tf::DT_FLOAT, attrs),
                                {scalar<std::int64_t>(empty), scalar<std::int64_t>(deleted)});
            return out ? Status::ok() : out.error();
        };
        Status load = make(" attr { key: 'max_load_factor' value { f: 1 } }", -1, -2);
        QVERIFY2(mentions(load, "max_load_factor must be between 0 and 1, got: 1"), load.toString().c_str());
        Status buckets = make(" attr { key: 'initial_num_buckets' value { i: 6 } }", -1, -2);
        QVERIFY2(mentions(buckets, "Number of buckets must be at least 4 and a power of 2, got: 6"),
                 buckets.toString().c_str());
        Status equal = make("", -1, -1);
        QVERIFY2(mentions(equal, "Empty and deleted keys cannot be equal"), equal.toString().c_str());
    }

    void v1RefHandlesInASession()
    {
        GraphBuilder b(m_registries->ops);
        auto t = mustOp(b.op("HashTable", {},
                             {{"key_dtype", attr::type(tf::DT_STRING)},
                              {"value_dtype", attr::type(tf::DT_INT64)},
                              {"shared_name", attr::s("vocab")}},
                             "table"));
        QCOMPARE(t.output(0).dtype(), tf::DT_STRING_REF);
        QCOMPARE(t.output(0).shape(), (TensorShape{2}));
        const std::vector<std::string> words{"emerson", "lake", "palmer"};
        auto keys = makeStringTensorProto(TensorShape{3}, std::span<const std::string>(words));
        QVERIFY(keys);
        auto keyConst = ops::constant(b, *keys, "keys");
        auto values = ops::constantInts(b, {0, 1, 2}, TensorShape{3}, tf::DT_INT64, "values");
        QVERIFY(keyConst && values);
        mustOp(b.op("InitializeTable", {t.output(0), *keyConst, *values}, {}, "init"));
        auto query = ops::placeholder(b, tf::DT_STRING, TensorShape{-1}, "query");
        auto fallback = ops::constantInts(b, {-1}, TensorShape::scalar(), tf::DT_INT64, "fallback");
        QVERIFY(query && fallback);
        mustOp(b.op("LookupTableFind", {t.output(0), *query, *fallback}, {}, "find"));
        mustOp(b.op("LookupTableSize", {t.output(0)}, {}, "size"));
        auto s = session(b);
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {}, {"init"}, &out).isOk());
        Status st = s->run({{"query", vec<std::string>({"lake", "and"})}}, {"find:0", "size:0", "table:0"}, {}, &out);
        QVERIFY2(st.isOk(), st.toString().c_str());
        QCOMPARE(elements<std::int64_t>(out[0]), (std::vector<std::int64_t>{1, -1}));
        QCOMPARE(out[1].scalar<std::int64_t>(), 3);
        // The V1 handle is the pair [container, shared_name].
        QCOMPARE(elements<std::string>(out[2]), (std::vector<std::string>{"localhost", "vocab"}));
        Status twice = s->run({}, {}, {"init"}, &out);
        QCOMPARE(twice.code(), StatusCode::kFailedPrecondition);
    }

    void sharedNameSharesOneTable()
    {
        GraphBuilder b(m_registries->ops);
        const AttrMap attrs = {{"key_dtype", attr::type(tf::DT_INT64)},
                               {"value_dtype", attr::type(tf::DT_INT64)},
                               {"shared_name", attr::s("counts")}};
        auto writer = mustOp(b.op("MutableHashTableV2", {}, attrs, "writer"));
        auto reader = mustOp(b.op("MutableHashTableV2", {}, attrs, "reader"));
        auto k = ops::constantInts(b, {7}, TensorShape{1}, tf::DT_INT64, "k");
        auto v = ops::constantInts(b, {70}, TensorShape{1}, tf::DT_INT64, "v");
        auto d = ops::constantInts(b, {0}, TensorShape::scalar(), tf::DT_INT64, "d");
        QVERIFY(k && v && d);
        mustOp(b.op("LookupTableInsertV2", {writer.output(0), *k, *v}, {}, "insert"));
        mustOp(b.op("LookupTableFindV2", {reader.output(0), *k, *d}, {}, "find"));
        auto other = mustOp(b.op("MutableHashTableV2", {},
                                 {{"key_dtype", attr::type(tf::DT_INT64)},
                                  {"value_dtype", attr::type(tf::DT_STRING)},
                                  {"shared_name", attr::s("counts")}},
                                 "conflict"));
        (void)other;
        auto s = session(b);
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {}, {"insert"}, &out).isOk());
        QVERIFY(s->run({}, {"find:0"}, {}, &out).isOk());
        QCOMPARE(elements<std::int64_t>(out[0]), (std::vector<std::int64_t>{70}));
        Status st = s->run({}, {"conflict:0"}, {}, &out);
        QVERIFY2(mentions(st, "Conflicting key/value dtypes int64->string with int64-int64 for table counts"),
                 st.toString().c_str());
    }

    void shapeFunctions()
    {
        GraphBuilder b(m_registries->ops);
        auto v2 = mustOp(b.op("HashTableV2", {},
                              {{"key_dtype", attr::type(tf::DT_STRING)}, {"value_dtype", attr::type(tf::DT_INT64)}}));
        QCOMPARE(v2.output(0).shape(), TensorShape::scalar());
        auto keys = ops::placeholder(b, tf::DT_STRING, TensorShape{2, 2}, "k");
        auto badDefault = ops::placeholder(b, tf::DT_INT64, TensorShape{2, 2}, "d");
        QVERIFY(keys && badDefault);
        auto find = b.op("LookupTableFindV2", {v2.output(0), *keys, *badDefault});
        QVERIFY(!find);
        QVERIFY2(mentions(find.error(), "Shape must be at most rank 1 but is rank 2"), find.error().toString().c_str());
        auto init = b.op("InitializeTableV2", {v2.output(0), *keys, *badDefault});
        QVERIFY(!init);
        auto size = mustOp(b.op("LookupTableSizeV2", {v2.output(0)}));
        QCOMPARE(size.output(0).shape(), TensorShape::scalar());
    }
};

QTEST_GUILESS_MAIN(TestLookupKernels)
#include "test_lookup_kernels.moc"
