// Partitioned tensors in V2 checkpoints: slice specs ("4 2 0,2:-") parsed and applied as
// TensorFlow's TensorSlice does, slice keys in TensorFlow's OrderedCode (checked against the
// examples its documentation gives), SaveV2 with shape_and_slices writing the full entry with its
// slices and one entry per piece, RestoreV2 reading a slice of a tensor saved whole and a
// partitioned tensor whole or by slice, also after MergeV2Checkpoints joined pieces saved apart,
// and the errors: shapes that disagree, pieces that do not cover the slice, overlapping pieces.
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/tensor_bundle_index.h"
#include "io/checkpoint/tensor_bundle_merge.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/checkpoint/tensor_slice.h"
#include "io/checkpoint/tensor_slice_key.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "test_files.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tstudio;
using namespace tstudio::testing;
using checkpoint::TensorSlice;
namespace tf = tensorflow;

namespace {

#define REQUIRE_ERROR(expr, expectedCode, text)                                                                        \
    do {                                                                                                               \
        const Status requireStatus = (expr);                                                                           \
        QVERIFY2(requireStatus.code() == (expectedCode), requireStatus.toString().c_str());                            \
        QVERIFY2(requireStatus.message().find(text) != std::string::npos, requireStatus.toString().c_str());           \
    } while (false)

template <typename T> Status statusOf(const Expected<T>& e)
{
    return e ? Status::ok() : e.error();
}

template <typename T> const char* why(const Expected<T>& e)
{
    static thread_local std::string text;
    text = e ? "ok" : e.error().toString();
    return text.c_str();
}

std::string hexOf(std::string_view bytes)
{
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (char c : bytes) {
        if (!out.empty())
            out += ' ';
        out += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
        out += digits[static_cast<unsigned char>(c) & 0xf];
    }
    return out;
}

std::vector<float> floatsOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

tf::NodeDef stringConst(const std::string& name, const std::vector<std::string>& values, bool scalar)
{
    tf::NodeDef n;
    n.set_name(name);
    n.set_op("Const");
    (*n.mutable_attr())["dtype"].set_type(tf::DT_STRING);
    auto* t = (*n.mutable_attr())["value"].mutable_tensor();
    t->set_dtype(tf::DT_STRING);
    if (!scalar)
        t->mutable_tensor_shape()->add_dim()->set_size(static_cast<std::int64_t>(values.size()));
    for (const auto& v : values)
        t->add_string_val(v);
    return n;
}

tf::NodeDef floatConst(const std::string& name, const std::vector<std::int64_t>& dims, const std::vector<float>& values)
{
    tf::NodeDef n;
    n.set_name(name);
    n.set_op("Const");
    (*n.mutable_attr())["dtype"].set_type(tf::DT_FLOAT);
    auto* t = (*n.mutable_attr())["value"].mutable_tensor();
    t->set_dtype(tf::DT_FLOAT);
    for (std::int64_t d : dims)
        t->mutable_tensor_shape()->add_dim()->set_size(d);
    for (float v : values)
        t->add_float_val(v);
    return n;
}

} // namespace

class TestPartitionedCheckpoint : public QObject {
    Q_OBJECT

private:
    CpuAllocator m_cpu;
    std::unique_ptr<Registries> m_registries;

    Tensor floats(const TensorShape& shape, const std::vector<float>& values)
    {
        return Tensor::fromVector<float>(m_cpu, shape, values).value();
    }

    /// A session over SaveV2 "save" (prefix, names, specs, tensors named `inputs`) and RestoreV2
    /// "restore" (prefix, names, specs) of float tensors.
    std::unique_ptr<Session> saveRestoreSession(const std::string& prefix, const std::vector<std::string>& saveNames,
                                                const std::vector<std::string>& saveSpecs,
                                                const std::vector<tf::NodeDef>& inputs,
                                                const std::vector<std::string>& restoreNames,
                                                const std::vector<std::string>& restoreSpecs)
    {
        tf::GraphDef graph;
        *graph.add_node() = stringConst("prefix", {prefix}, true);
        *graph.add_node() = stringConst("save_names", saveNames, false);
        *graph.add_node() = stringConst("save_specs", saveSpecs, false);
        tf::NodeDef save;
        save.set_name("save");
        save.set_op("SaveV2");
        for (const char* in : {"prefix", "save_names", "save_specs"})
            save.add_input(in);
        for (const tf::NodeDef& input : inputs) {
            *graph.add_node() = input;
            save.add_input(input.name());
            (*save.mutable_attr())["dtypes"].mutable_list()->add_type(tf::DT_FLOAT);
        }
        *graph.add_node() = save;
        *graph.add_node() = stringConst("restore_names", restoreNames, false);
        *graph.add_node() = stringConst("restore_specs", restoreSpecs, false);
        tf::NodeDef restore;
        restore.set_name("restore");
        restore.set_op("RestoreV2");
        for (const char* in : {"prefix", "restore_names", "restore_specs"})
            restore.add_input(in);
        for (std::size_t i = 0; i < restoreNames.size(); ++i)
            (*restore.mutable_attr())["dtypes"].mutable_list()->add_type(tf::DT_FLOAT);
        *graph.add_node() = restore;
        auto s = std::make_unique<Session>(SessionOptions{{}, &m_registries->ops, &m_registries->kernels});
        if (Status st = s->create(graph); !st.isOk())
            qFatal("create: %s", st.toString().c_str());
        return s;
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        m_registries = std::move(*registries);
    }

    void slicesParsePrintAndIntersect()
    {
        auto slice = TensorSlice::parse("0,2:-:1,3");
        QVERIFY2(slice, why(slice));
        QCOMPARE(slice->rank(), 3);
        QCOMPARE(slice->toString(), std::string("0,2:-:1,3"));
        QVERIFY(!slice->isFull());
        QVERIFY(slice->isFullAt(1));
        QCOMPARE(slice->sliceShape({4, 5, 6}).value(), (TensorShape{2, 5, 3}));
        // The proto: one Extent per dimension, an empty one for a whole dimension.
        QCOMPARE(hexOf(slice->toProto().SerializeAsString()), std::string("0a 02 10 02 0a 00 0a 04 08 01 10 03"));
        QVERIFY(TensorSlice::fromProto(slice->toProto()).value() == *slice);
        QCOMPARE(TensorSlice::full(2).toString(), std::string("-:-"));
        QCOMPARE(TensorSlice().toString(), std::string(""));

        auto a = TensorSlice::parse("0,3:-").value();
        auto b = TensorSlice::parse("2,2:1,1").value();
        QCOMPARE(a.intersect(b)->toString(), std::string("2,1:1,1"));
        QVERIFY(!a.intersect(TensorSlice::parse("3,1:-").value()));
        QVERIFY(!a.intersect(TensorSlice::parse("-").value())); // another rank

        // TensorFlow's words for bad slices and specs.
        REQUIRE_ERROR(statusOf(TensorSlice::parse("0,2:x")), StatusCode::kInvalidArgument,
                      "Expected a pair of numbers or '-' but got 'x': string = 0,2:x");
        REQUIRE_ERROR(statusOf(TensorSlice::parse("1,0")), StatusCode::kInvalidArgument,
                      "Expected non-negative start and positive length but got start = 1, length = 0");
        tf::TensorSliceProto negative;
        negative.add_extent()->set_start(-1);
        REQUIRE_ERROR(statusOf(TensorSlice::fromProto(negative)), StatusCode::kInvalidArgument,
                      "Expected non-negative start and positive length but got start = -1, length = -1");
        REQUIRE_ERROR(statusOf(a.sliceShape({2, 3})), StatusCode::kInternal,
                      "Extent in dimension 0 out of bounds: shape = [2,3], slice = 0,3:-");
        REQUIRE_ERROR(statusOf(a.sliceShape({2})), StatusCode::kInternal,
                      "Mismatching ranks: shape = [2], slice = 0,3:-");

        auto spec = checkpoint::parseShapeAndSlice("4 2 1,2:-");
        QVERIFY2(spec, why(spec));
        QCOMPARE(spec->fullShape, (TensorShape{4, 2}));
        QCOMPARE(spec->sliceShape, (TensorShape{2, 2}));
        REQUIRE_ERROR(statusOf(checkpoint::parseShapeAndSlice("4")), StatusCode::kInvalidArgument,
                      "Need least two elements in shape_and_slice specification: 4");
        REQUIRE_ERROR(statusOf(checkpoint::parseShapeAndSlice("4 x -")), StatusCode::kInvalidArgument,
                      "Non numerical dimension in shape_and_slice: 4 x -");
        REQUIRE_ERROR(statusOf(checkpoint::parseShapeAndSlice("4 -2 -:-")), StatusCode::kInvalidArgument,
                      "Negative dimension in shape_and_slice: 4 -2 -:-");
        REQUIRE_ERROR(statusOf(checkpoint::parseShapeAndSlice("4 2 3,2:-")), StatusCode::kInternal,
                      "Extent in dimension 0 out of bounds: shape = [4,2], slice = 3,2:-");
    }

    void orderedCodeMatchesTensorFlowsExamples()
    {
        // lib/strings/ordered_code.cc's documented examples: 0x424242 -> f0 42 42 42; -0x800 ->
        // 38 00; the string "\x00\x13\xff" -> 00 ff 13 ff 00 00 01; and formats.md 2.11's
        // NumIncreasing 0 -> 00, 2 -> 01 02, one-byte signed numbers 0 -> 80, 3 -> 83, -1 -> 7f.
        std::string out;
        checkpoint::appendOrderedSignedNumber(&out, 0x424242);
        QCOMPARE(hexOf(out), std::string("f0 42 42 42"));
        out.clear();
        checkpoint::appendOrderedSignedNumber(&out, -0x800);
        QCOMPARE(hexOf(out), std::string("38 00"));
        out.clear();
        checkpoint::appendOrderedString(&out, std::string("\x00\x13\xff", 3));
        QCOMPARE(hexOf(out), std::string("00 ff 13 ff 00 00 01"));
        out.clear();
        checkpoint::appendOrderedNumber(&out, 0);
        checkpoint::appendOrderedNumber(&out, 2);
        checkpoint::appendOrderedSignedNumber(&out, 0);
        checkpoint::appendOrderedSignedNumber(&out, 3);
        checkpoint::appendOrderedSignedNumber(&out, -1);
        QCOMPARE(hexOf(out), std::string("00 01 02 80 83 7f"));
        // Encodings sort as the numbers do, across lengths and signs.
        std::vector<std::int64_t> numbers = {std::numeric_limits<std::int64_t>::min(),
                                             -(std::int64_t(1) << 40),
                                             -8193,
                                             -8192,
                                             -65,
                                             -64,
                                             -1,
                                             0,
                                             63,
                                             64,
                                             8191,
                                             8192,
                                             std::int64_t(1) << 55,
                                             std::numeric_limits<std::int64_t>::max()};
        std::string previous;
        for (std::int64_t n : numbers) {
            std::string encoded;
            checkpoint::appendOrderedSignedNumber(&encoded, n);
            QVERIFY2(previous.empty() || previous < encoded, qPrintable(QString::number(n)));
            previous = encoded;
        }
        // A slice key: 00, the name, the rank, start and length per dimension (-1: whole).
        QCOMPARE(hexOf(checkpoint::encodeTensorNameSlice("emb", TensorSlice::parse("2,2:-").value())),
                 std::string("00 65 6d 62 00 01 01 02 82 82 80 7f"));
    }

    void saveV2WithSpecsWritesPartitionedEntries()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("p").toStdString();
        auto s = saveRestoreSession(prefix, {"emb", "emb", "w"}, {"4 2 0,2:-", "4 2 2,2:-", ""},
                                    {floatConst("top", {2, 2}, {0, 1, 10, 11}),
                                     floatConst("bottom", {2, 2}, {20, 21, 30, 31}),
                                     floatConst("wv", {3, 4}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23})},
                                    {"emb", "emb", "emb", "w"}, {"", "4 2 1,2:-", "4 2 -:1,1", "3 4 1,2:1,3"});
        std::vector<Tensor> out;
        Status ran = s->run({}, {}, {"save"}, &out);
        QVERIFY2(ran.isOk(), ran.toString().c_str());

        // The index: the two pieces under their slice keys (first: they start with 00), then the
        // partitioned tensor with dtype, full shape and its slices, then w.
        auto index = bundle::readBundleIndex(prefix);
        QVERIFY2(index, why(index));
        std::vector<std::string> keys;
        for (const auto& [key, entry] : index->entries)
            keys.push_back(hexOf(key));
        QCOMPARE(keys, (std::vector<std::string>{"00 65 6d 62 00 01 01 02 80 82 80 7f",
                                                 "00 65 6d 62 00 01 01 02 82 82 80 7f", "65 6d 62", "77"}));
        QCOMPARE(
            hexOf(index->entries.at("emb").SerializeAsString()),
            std::string("08 01 12 08 12 02 08 04 12 02 08 02 3a 06 0a 02 10 02 0a 00 3a 08 0a 04 08 02 10 02 0a 00"));
        const tf::BundleEntryProto& bottom = index->entries.at(fromHex("00 65 6d 62 00 01 01 02 82 82 80 7f"));
        QCOMPARE(bottom.offset(), std::int64_t(16));
        QCOMPARE(bottom.size(), std::int64_t(16));
        QCOMPARE(bottom.shape().dim_size(), 2);

        auto reader = TensorBundleReader::open(prefix);
        QVERIFY2(reader, why(reader));
        QCOMPARE(reader->tensors().size(), std::size_t(2));
        QCOMPARE(reader->tensors()[0].numSlices, 2);
        auto emb = reader->read("emb", m_cpu);
        QVERIFY2(emb, why(emb));
        QCOMPARE(floatsOf(*emb), (std::vector<float>{0, 1, 10, 11, 20, 21, 30, 31}));

        // RestoreV2: the whole partitioned tensor, rows 1-2 (one from each piece), column 1, and a
        // slice of w, which was saved whole.
        ran = s->run({}, {"restore:0", "restore:1", "restore:2", "restore:3"}, {}, &out);
        QVERIFY2(ran.isOk(), ran.toString().c_str());
        QCOMPARE(floatsOf(out[0]), (std::vector<float>{0, 1, 10, 11, 20, 21, 30, 31}));
        QCOMPARE(out[1].shape(), (TensorShape{2, 2}));
        QCOMPARE(floatsOf(out[1]), (std::vector<float>{10, 11, 20, 21}));
        QCOMPARE(out[2].shape(), (TensorShape{4, 1}));
        QCOMPARE(floatsOf(out[2]), (std::vector<float>{1, 11, 21, 31}));
        QCOMPARE(out[3].shape(), (TensorShape{2, 3}));
        QCOMPARE(floatsOf(out[3]), (std::vector<float>{11, 12, 13, 21, 22, 23}));
    }

    void restoreErrorsInTensorFlowsWords()
    {
        QTemporaryDir dir;
        const std::string prefix = dir.filePath("q").toStdString();
        // Only the top rows are saved.
        auto s = saveRestoreSession(prefix, {"emb"}, {"4 2 0,2:-"}, {floatConst("top", {2, 2}, {0, 1, 10, 11})},
                                    {"emb"}, {"5 2 0,2:-"});
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {}, {"save"}, &out).isOk());
        REQUIRE_ERROR(s->run({}, {"restore:0"}, {}, &out), StatusCode::kInvalidArgument,
                      "tensor_name = emb; shape in shape_and_slice spec [5,2] does not match the shape stored in "
                      "checkpoint: [4,2]");
        auto reader = CheckpointReader::open(prefix);
        QVERIFY2(reader, why(reader));
        REQUIRE_ERROR(statusOf(reader->read("emb", m_cpu)), StatusCode::kInvalidArgument,
                      "Does not have sufficient slices for partitioned tensor emb to restore in slice_spec: -:-");
        REQUIRE_ERROR(statusOf(reader->readSlice("emb", TensorSlice::parse("1,2:-").value(), m_cpu)),
                      StatusCode::kInvalidArgument, "slice_spec: 1,2:-");
        auto top = reader->readSlice("emb", TensorSlice::parse("0,1:-").value(), m_cpu);
        QVERIFY2(top, why(top));
        QCOMPARE(floatsOf(*top), (std::vector<float>{0, 1}));

        // SaveV2's checks: the tensor must have the slice's shape.
        auto mismatch = saveRestoreSession(prefix, {"emb"}, {"4 2 0,3:-"}, {floatConst("top", {2, 2}, {0, 1, 2, 3})},
                                           {"emb"}, {""});
        REQUIRE_ERROR(mismatch->run({}, {}, {"save"}, &out), StatusCode::kInvalidArgument,
                      "Slice in shape_and_slice specification does not match the shape of the tensor to save: 4 2 "
                      "0,3:-, tensor: [2,2]");

        // The writer refuses overlapping pieces and a tensor saved both whole and in pieces.
        auto writer = TensorBundleWriter::create(dir.filePath("r").toStdString());
        QVERIFY(writer);
        const Tensor rows = floats({2, 2}, {0, 1, 2, 3});
        QVERIFY((*writer)->addSlice("emb", {4, 2}, TensorSlice::parse("0,2:-").value(), rows).isOk());
        REQUIRE_ERROR((*writer)->addSlice("emb", {4, 2}, TensorSlice::parse("1,2:-").value(), rows),
                      StatusCode::kInvalidArgument,
                      "slice '1,2:-' of tensor 'emb' overlaps slice '0,2:-' saved before");
        REQUIRE_ERROR((*writer)->add("emb", rows), StatusCode::kInvalidArgument, "Adding duplicate key: emb");
        QVERIFY((*writer)->add("whole", rows).isOk());
        REQUIRE_ERROR((*writer)->addSlice("whole", {4, 2}, TensorSlice::parse("2,2:-").value(), rows),
                      StatusCode::kInvalidArgument, "Adding duplicate key: whole");
        QVERIFY((*writer)->finish().isOk());

        // An index whose partitioned entry lists a piece it has no entry for is damaged.
        auto index = bundle::readBundleIndex(dir.filePath("r").toStdString());
        QVERIFY(index);
        *index->entries.at("emb").add_slices() = TensorSlice::parse("2,2:-").value().toProto();
        auto bytes = bundle::encodeBundleIndex(index->header, index->entries);
        QVERIFY(writeFile(dir.filePath("r.index"), *bytes));
        auto damaged = TensorBundleReader::open(dir.filePath("r").toStdString());
        QVERIFY2(damaged, why(damaged));
        REQUIRE_ERROR(statusOf(damaged->read("emb", m_cpu)), StatusCode::kDataLoss,
                      "partitioned tensor 'emb' lists slice '2,2:-' but the index has no entry for it");
    }

    void piecesSavedApartAreJoinedByTheMerge()
    {
        // A partitioned variable on two devices: each SaveV2 writes one piece into its own
        // bundle, MergeV2Checkpoints joins their slice lists.
        QTemporaryDir dir;
        const std::string part0 = dir.filePath("tmp/part-00000-of-00002").toStdString();
        const std::string part1 = dir.filePath("tmp/part-00001-of-00002").toStdString();
        for (const auto& [part, spec, values] : {std::tuple{part0, "0,2:-", std::vector<float>{0, 1, 10, 11}},
                                                 std::tuple{part1, "2,2:-", std::vector<float>{20, 21, 30, 31}}}) {
            auto writer = TensorBundleWriter::create(part);
            QVERIFY2(writer, why(writer));
            QVERIFY(
                (*writer)->addSlice("emb", {4, 2}, TensorSlice::parse(spec).value(), floats({2, 2}, values)).isOk());
            QVERIFY((*writer)->finish().isOk());
        }
        const std::string merged = dir.filePath("model.ckpt").toStdString();
        const Status status = mergeBundles({part0, part1}, merged);
        QVERIFY2(status.isOk(), status.toString().c_str());
        auto reader = TensorBundleReader::open(merged);
        QVERIFY2(reader, why(reader));
        QCOMPARE(reader->numShards(), 2);
        QCOMPARE(reader->tensors().at(0).numSlices, 2);
        auto emb = reader->read("emb", m_cpu);
        QVERIFY2(emb, why(emb));
        QCOMPARE(floatsOf(*emb), (std::vector<float>{0, 1, 10, 11, 20, 21, 30, 31}));
        auto middle = reader->readSlice("emb", TensorSlice::parse("1,2:1,1").value(), m_cpu);
        QVERIFY2(middle, why(middle));
        QCOMPARE(floatsOf(*middle), (std::vector<float>{11, 21}));
    }
};

QTEST_GUILESS_MAIN(TestPartitionedCheckpoint)
#include "test_partitioned_checkpoint.moc"
