// V1 checkpoints (TensorFlow's legacy tensor-slice tables) built by hand from the public layout:
// metadata under "", one record per slice under OrderedCode keys written here as bytes. They are
// listed and read, a tensor saved as slices across two shard files is assembled whole and by
// slice, and the ops read them through a Session: Restore, RestoreSlice and RestoreV2's fallback
// when PREFIX.index does not exist, Saver.restore and restoreVariablesByName. The Save op writes
// the hand-built file byte for byte. Damaged files (truncated, absurd shapes, missing records,
// newer versions) are errors naming the file and the tensor.
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/tensor_proto_values.h"
#include "builder/variables.h"
#include "io/checkpoint/checkpoint_convert.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/checkpoint/v1_checkpoint_reader.h"
#include "io/checkpoint/v1_checkpoint_writer.h"
#include "io/table_builder.h"
#include "model/meta_graph.h"
#include "model/restore_variables.h"
#include "model/saver.h"
#include "process_run.h"
#include "proto/saved_tensor_slice.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "shape_fn_testing.h"
#include "test_files.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <fstream>

using namespace tstudio;
using namespace tstudio::testing;
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

/// Both shard files ("?????" split so that no trigraph appears in the source).
const QString kShardPattern = QStringLiteral("part-?????"
                                             "-of-00002");

// --- The layout, by hand ----------------------------------------------------------------------

/// A TensorSliceProto: per dimension (start, length), length -1 meaning the whole dimension
/// (an Extent with neither field, as TensorSlice::AsProto writes it).
tf::TensorSliceProto sliceProto(const std::vector<std::pair<std::int64_t, std::int64_t>>& extents)
{
    tf::TensorSliceProto proto;
    for (const auto& [start, length] : extents) {
        auto* extent = proto.add_extent();
        if (length >= 0) {
            extent->set_start(start);
            extent->set_length(length);
        }
    }
    return proto;
}

tf::SavedSliceMeta meta(const std::string& name, const std::vector<std::int64_t>& dims, tf::DataType type,
                        const std::vector<tf::TensorSliceProto>& slices)
{
    tf::SavedSliceMeta m;
    m.set_name(name);
    auto* shape = m.mutable_shape();
    for (std::int64_t d : dims)
        shape->add_dim()->set_size(d);
    m.set_type(type);
    for (const auto& s : slices)
        *m.add_slice() = s;
    return m;
}

/// The "" record: SavedTensorSlices {meta {tensor..., versions {producer 1}}}.
std::string metaRecord(const std::vector<tf::SavedSliceMeta>& tensors, int minConsumer = 0)
{
    tf::SavedTensorSlices record;
    for (const auto& t : tensors)
        *record.mutable_meta()->add_tensor() = t;
    record.mutable_meta()->mutable_versions()->set_producer(1);
    record.mutable_meta()->mutable_versions()->set_min_consumer(minConsumer);
    return record.SerializeAsString();
}

/// A slice record: SavedTensorSlices {data {name, slice, data}} with only the typed field set.
std::string dataRecord(const std::string& name, const tf::TensorSliceProto& slice, const tf::TensorProto& values)
{
    tf::SavedTensorSlices record;
    record.mutable_data()->set_name(name);
    *record.mutable_data()->mutable_slice() = slice;
    *record.mutable_data()->mutable_data() = values;
    return record.SerializeAsString();
}

tf::TensorProto floats(const std::vector<float>& values)
{
    tf::TensorProto p;
    for (float v : values)
        p.add_float_val(v);
    return p;
}

/// Keys in the OrderedCode encoding, spelled out (formats.md 2.11): 00, the name with its 00 01
/// terminator, the rank as an unsigned number (a length byte, then the bytes: 2 -> 01 02, 0 -> 00),
/// then per dimension start and length as signed numbers (0 -> 80, 2 -> 82, -1 -> 7f).
const std::string kKeyW = fromHex("00 77 00 01 01 02 80 7f 80 7f");               // w, rank 2, -:-
const std::string kKeyStep = fromHex("00 73 74 65 70 00 01 00");                  // step, rank 0
const std::string kKeyNames = fromHex("00 6e 61 6d 65 73 00 01 01 01 80 7f");     // names, rank 1, -
const std::string kKeyEmbTop = fromHex("00 65 6d 62 00 01 01 02 80 82 80 7f");    // emb 0,2:-
const std::string kKeyEmbBottom = fromHex("00 65 6d 62 00 01 01 02 82 82 80 7f"); // emb 2,2:-
const std::string kKeyBias = fromHex("00 62 69 61 73 00 01 01 01 80 7f");         // bias -

/// A table of `entries` (sorted here) written with TensorFlow's table parameters.
std::string tableOf(std::vector<std::pair<std::string, std::string>> entries,
                    table::BlockCompression compression = table::BlockCompression::kNone)
{
    std::sort(entries.begin(), entries.end());
    table::BuilderOptions options;
    options.compression = compression;
    table::TableBuilder builder(options);
    for (const auto& [k, v] : entries) {
        if (!builder.add(k, v).isOk())
            qFatal("table: keys out of order");
    }
    return builder.finish().value();
}

/// model.ckpt: w float [2,3] = 1..6, step int64 scalar 42, names string [2] {"a", "bc"}; the
/// metadata in the order a Save of (w, step, names) adds them.
std::string modelCkpt()
{
    tf::TensorProto step;
    step.add_int64_val(42);
    tf::TensorProto names;
    names.add_string_val("a");
    names.add_string_val("bc");
    return tableOf({{"", metaRecord({meta("w", {2, 3}, tf::DT_FLOAT, {sliceProto({{0, -1}, {0, -1}})}),
                                     meta("step", {}, tf::DT_INT64, {sliceProto({})}),
                                     meta("names", {2}, tf::DT_STRING, {sliceProto({{0, -1}})})})},
                    {kKeyW, dataRecord("w", sliceProto({{0, -1}, {0, -1}}), floats({1, 2, 3, 4, 5, 6}))},
                    {kKeyStep, dataRecord("step", sliceProto({}), step)},
                    {kKeyNames, dataRecord("names", sliceProto({{0, -1}}), names)}});
}

/// part-00000-of-00002: rows 0-1 of emb float [4,2]; part-00001-of-00002: rows 2-3 and bias.
std::pair<std::string, std::string> shardFiles()
{
    const auto top = sliceProto({{0, 2}, {0, -1}});
    const auto bottom = sliceProto({{2, 2}, {0, -1}});
    return {tableOf({{"", metaRecord({meta("emb", {4, 2}, tf::DT_FLOAT, {top})})},
                     {kKeyEmbTop, dataRecord("emb", top, floats({0, 1, 10, 11}))}}),
            tableOf({{"", metaRecord({meta("emb", {4, 2}, tf::DT_FLOAT, {bottom}),
                                      meta("bias", {2}, tf::DT_FLOAT, {sliceProto({{0, -1}})})})},
                     {kKeyEmbBottom, dataRecord("emb", bottom, floats({20, 21, 30, 31}))},
                     {kKeyBias, dataRecord("bias", sliceProto({{0, -1}}), floats({0.5f, -0.5f}))}})};
}

std::vector<float> floatsOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

// --- Graph helpers ------------------------------------------------------------------------------

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

tf::NodeDef opNode(const std::string& name, const std::string& op, const std::vector<std::string>& inputs)
{
    tf::NodeDef n;
    n.set_name(name);
    n.set_op(op);
    for (const auto& i : inputs)
        n.add_input(i);
    return n;
}

void setType(tf::NodeDef& n, const std::string& attr, tf::DataType type)
{
    (*n.mutable_attr())[attr].set_type(type);
}

/// A Const named `name` holding `value`.
Expected<Operation> constOp(GraphBuilder& b, const std::string& name, const Expected<tf::TensorProto>& value)
{
    if (!value)
        return unexpected(value.error());
    return b.op("Const", {}, {{"dtype", attr::type(value->dtype())}, {"value", attr::tensor(*value)}}, name);
}

void setTypes(tf::NodeDef& n, const std::string& attr, const std::vector<tf::DataType>& types)
{
    auto* list = (*n.mutable_attr())[attr].mutable_list();
    for (auto t : types)
        list->add_type(t);
}

} // namespace

class TestV1Checkpoint : public QObject {
    Q_OBJECT

private:
    CpuAllocator m_cpu;
    std::unique_ptr<Registries> m_registries;
    std::unique_ptr<QTemporaryDir> m_dir;

    std::string path(const QString& name) const { return m_dir->filePath(name).toStdString(); }

    std::unique_ptr<Session> session(const tf::GraphDef& graph)
    {
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

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(writeFile(m_dir->filePath("model.ckpt"), modelCkpt()));
        const auto [first, second] = shardFiles();
        QVERIFY(writeFile(m_dir->filePath("part-00000-of-00002"), first));
        QVERIFY(writeFile(m_dir->filePath("part-00001-of-00002"), second));
    }

    void listsAndReadsEveryTensor()
    {
        auto reader = CheckpointReader::open(path("model.ckpt"));
        QVERIFY2(reader, why(reader));
        QCOMPARE(reader->format(), CheckpointFormat::kV1);
        QCOMPARE(reader->files(), std::vector<std::string>{path("model.ckpt")});
        const std::vector<BundleTensorInfo> tensors = reader->tensors();
        QCOMPARE(tensors.size(), std::size_t(3));
        QCOMPARE(tensors[0].name, std::string("names"));
        QCOMPARE(tensors[0].dtype, tf::DT_STRING);
        QCOMPARE(tensors[0].shape, (TensorShape{2}));
        QCOMPARE(tensors[1].name, std::string("step"));
        QCOMPARE(tensors[1].dtype, tf::DT_INT64);
        QCOMPARE(tensors[1].shape, TensorShape::scalar());
        QCOMPARE(tensors[2].name, std::string("w"));
        QCOMPARE(tensors[2].shape, (TensorShape{2, 3}));
        QCOMPARE(tensors[2].size, std::int64_t(24));
        for (const auto& t : tensors)
            QCOMPARE(t.numSlices, 0);

        auto w = reader->read("w", m_cpu);
        QVERIFY2(w, why(w));
        QCOMPARE(w->shape(), (TensorShape{2, 3}));
        QCOMPARE(floatsOf(*w), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        auto step = reader->read("step", m_cpu);
        QVERIFY2(step, why(step));
        QCOMPARE(step->scalar<std::int64_t>(), std::int64_t(42));
        auto names = reader->read("names", m_cpu);
        QVERIFY2(names, why(names));
        QCOMPARE(names->strings()[1], std::string("bc"));
        // A slice of a tensor stored whole: column 1 of w.
        auto column = reader->readSlice("w", checkpoint::TensorSlice::parse("-:1,1").value(), m_cpu);
        QVERIFY2(column, why(column));
        QCOMPARE(column->shape(), (TensorShape{2, 1}));
        QCOMPARE(floatsOf(*column), (std::vector<float>{2, 5}));

        REQUIRE_ERROR(statusOf(reader->read("nope", m_cpu)), StatusCode::kNotFound,
                      "Tensor name \"nope\" not found in checkpoint files " + path("model.ckpt"));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(path("none"))), StatusCode::kNotFound,
                      "Failed to find any matching files for " + path("none"));
        REQUIRE_ERROR(statusOf(V1CheckpointReader::open(path("none"))), StatusCode::kNotFound,
                      "Unsuccessful TensorSliceReader constructor: Failed to find any matching files for");
    }

    void writerMatchesTheLayoutByteForByte()
    {
        V1CheckpointWriter writer(path("written"));
        const Tensor w = Tensor::fromVector<float>(m_cpu, {2, 3}, {1, 2, 3, 4, 5, 6}).value();
        const Tensor step = Tensor::fromVector<std::int64_t>(m_cpu, TensorShape::scalar(), {42}).value();
        const Tensor names = Tensor::fromVector<std::string>(m_cpu, {2}, {"a", "bc"}).value();
        QVERIFY(writer.add("w", w.shape(), checkpoint::TensorSlice::full(2), w).isOk());
        QVERIFY(writer.add("step", step.shape(), checkpoint::TensorSlice::full(0), step).isOk());
        QVERIFY(writer.add("names", names.shape(), checkpoint::TensorSlice::full(1), names).isOk());
        auto bytes = writer.encode();
        QVERIFY2(bytes, why(bytes));
        QVERIFY(*bytes == modelCkpt());
        QVERIFY(writer.finish().isOk());
        QFile written(m_dir->filePath("written"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().toStdString() == modelCkpt());

        // Slices of one tensor: the same meta entry, one record each; overlaps are refused.
        V1CheckpointWriter sliced(path("sliced"));
        const Tensor rows = Tensor::fromVector<float>(m_cpu, {2, 2}, {0, 1, 10, 11}).value();
        QVERIFY(sliced.add("emb", {4, 2}, checkpoint::TensorSlice::parse("0,2:-").value(), rows).isOk());
        REQUIRE_ERROR(sliced.add("emb", {4, 2}, checkpoint::TensorSlice::parse("1,2:-").value(), rows),
                      StatusCode::kInvalidArgument, "overlaps slice '0,2:-'");
        REQUIRE_ERROR(sliced.add("emb", {5, 2}, checkpoint::TensorSlice::parse("2,2:-").value(), rows),
                      StatusCode::kInternal, "Mismatching shapes: existing tensor = [4,2], trying to add name emb");
        REQUIRE_ERROR(sliced.add("emb", {4, 2}, checkpoint::TensorSlice::parse("2,1:-").value(), rows),
                      StatusCode::kInvalidArgument, "has shape [1,2] but the tensor to save has shape [2,2]");
        const Tensor bf = Tensor::allocate(m_cpu, tf::DT_BFLOAT16, {1}).value();
        REQUIRE_ERROR(sliced.add("b", {1}, checkpoint::TensorSlice::full(1), bf), StatusCode::kUnimplemented,
                      "Saving data type bfloat16 not yet supported");
    }

    void slicesAcrossTwoShardFilesAreAssembled()
    {
        for (const std::string& pattern : {path(kShardPattern), path("part")}) {
            auto reader = CheckpointReader::open(pattern);
            QVERIFY2(reader, why(reader));
            QCOMPARE(reader->files().size(), std::size_t(2));
            const auto tensors = reader->tensors();
            QCOMPARE(tensors.size(), std::size_t(2));
            QCOMPARE(tensors[1].name, std::string("emb"));
            QCOMPARE(tensors[1].numSlices, 2);
            QCOMPARE(tensors[1].shape, (TensorShape{4, 2}));
            auto emb = reader->read("emb", m_cpu);
            QVERIFY2(emb, why(emb));
            QCOMPARE(floatsOf(*emb), (std::vector<float>{0, 1, 10, 11, 20, 21, 30, 31}));
            // Rows 1-2 take one row from each file; column 1 of rows 1-3 likewise.
            auto middle = reader->readSlice("emb", checkpoint::TensorSlice::parse("1,2:-").value(), m_cpu);
            QVERIFY2(middle, why(middle));
            QCOMPARE(floatsOf(*middle), (std::vector<float>{10, 11, 20, 21}));
            auto column = reader->readSlice("emb", checkpoint::TensorSlice::parse("1,3:1,1").value(), m_cpu);
            QVERIFY2(column, why(column));
            QCOMPARE(column->shape(), (TensorShape{3, 1}));
            QCOMPARE(floatsOf(*column), (std::vector<float>{11, 21, 31}));
            auto bias = reader->read("bias", m_cpu);
            QVERIFY2(bias, why(bias));
            QCOMPARE(floatsOf(*bias), (std::vector<float>{0.5f, -0.5f}));
        }
        // With only the first file, the bottom rows are missing.
        auto first = V1CheckpointReader::open(path(QStringLiteral("part-00000-of-?????")));
        QVERIFY2(first, why(first));
        REQUIRE_ERROR(statusOf(first->read("emb", m_cpu)), StatusCode::kInvalidArgument,
                      "Does not have sufficient slices for partitioned tensor emb to restore in slice_spec: -:-");
        auto top = first->readSlice("emb", checkpoint::TensorSlice::parse("0,2:-").value(), m_cpu);
        QVERIFY2(top, why(top));
        QCOMPARE(floatsOf(*top), (std::vector<float>{0, 1, 10, 11}));
    }

    void restoreOpsReadThroughASession()
    {
        tf::GraphDef graph;
        *graph.add_node() = stringConst("file", {path("model.ckpt")}, true);
        *graph.add_node() = stringConst("shards", {path(kShardPattern)}, true);
        *graph.add_node() = stringConst("prefix", {path("part")}, true);
        *graph.add_node() = stringConst("w_name", {"w"}, true);
        *graph.add_node() = stringConst("emb_name", {"emb"}, true);
        *graph.add_node() = stringConst("emb_spec", {"4 2 1,2:-"}, true);
        *graph.add_node() = stringConst("bad_spec", {"5 2 1,2:-"}, true);
        *graph.add_node() = stringConst("nope_name", {"nope"}, true);
        tf::NodeDef restore = opNode("restore_w", "Restore", {"file", "w_name"});
        setType(restore, "dt", tf::DT_FLOAT);
        *graph.add_node() = restore;
        tf::NodeDef wrongType = opNode("restore_w_int", "Restore", {"file", "w_name"});
        setType(wrongType, "dt", tf::DT_INT32);
        *graph.add_node() = wrongType;
        tf::NodeDef missing = opNode("restore_nope", "Restore", {"file", "nope_name"});
        setType(missing, "dt", tf::DT_FLOAT);
        *graph.add_node() = missing;
        tf::NodeDef slice = opNode("restore_emb", "RestoreSlice", {"shards", "emb_name", "emb_spec"});
        setType(slice, "dt", tf::DT_FLOAT);
        *graph.add_node() = slice;
        tf::NodeDef badSlice = opNode("restore_emb_bad", "RestoreSlice", {"shards", "emb_name", "bad_spec"});
        setType(badSlice, "dt", tf::DT_FLOAT);
        *graph.add_node() = badSlice;
        // RestoreV2 on prefixes without .index: the V1 read path, whole tensors and a slice.
        *graph.add_node() = stringConst("v2_names", {"step", "w"}, false);
        *graph.add_node() = stringConst("v2_specs", {"", ""}, false);
        tf::NodeDef v2 = opNode("restore_v2", "RestoreV2", {"file", "v2_names", "v2_specs"});
        setTypes(v2, "dtypes", {tf::DT_INT64, tf::DT_FLOAT});
        *graph.add_node() = v2;
        *graph.add_node() = stringConst("v2_emb", {"emb"}, false);
        *graph.add_node() = stringConst("v2_emb_spec", {"4 2 2,2:1,1"}, false);
        tf::NodeDef v2Slice = opNode("restore_v2_emb", "RestoreV2", {"prefix", "v2_emb", "v2_emb_spec"});
        setTypes(v2Slice, "dtypes", {tf::DT_FLOAT});
        *graph.add_node() = v2Slice;

        auto s = session(graph);
        std::vector<Tensor> out;
        Status ran =
            s->run({}, {"restore_w:0", "restore_emb:0", "restore_v2:0", "restore_v2:1", "restore_v2_emb:0"}, {}, &out);
        QVERIFY2(ran.isOk(), ran.toString().c_str());
        QCOMPARE(floatsOf(out[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(out[1].shape(), (TensorShape{2, 2}));
        QCOMPARE(floatsOf(out[1]), (std::vector<float>{10, 11, 20, 21}));
        QCOMPARE(out[2].scalar<std::int64_t>(), std::int64_t(42));
        QCOMPARE(floatsOf(out[3]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(out[4].shape(), (TensorShape{2, 1}));
        QCOMPARE(floatsOf(out[4]), (std::vector<float>{21, 31}));

        REQUIRE_ERROR(
            s->run({}, {"restore_w_int:0"}, {}, &out), StatusCode::kInvalidArgument,
            "Expected to restore a tensor of type int32, got a tensor of type float instead: tensor_name = w");
        REQUIRE_ERROR(s->run({}, {"restore_nope:0"}, {}, &out), StatusCode::kNotFound,
                      "Tensor name \"nope\" not found in checkpoint files " + path("model.ckpt"));
        REQUIRE_ERROR(s->run({}, {"restore_emb_bad:0"}, {}, &out), StatusCode::kInvalidArgument,
                      "Shape in shape_and_slice spec does not match the shape in the save file: [5,2], save file "
                      "shape: [4,2]");
    }

    void saveOpsWriteWhatTensorFlowWrites()
    {
        // Save of (w, step, names) writes the hand-built model.ckpt byte for byte.
        GraphBuilder b(m_registries->ops);
        const auto strings = [](const TensorShape& shape, std::vector<std::string> values) {
            return makeStringTensorProto(shape, values);
        };
        auto file = constOp(b, "file", strings(TensorShape::scalar(), {path("saved")}));
        auto names = constOp(b, "names", strings({3}, {"w", "step", "names"}));
        auto w = constOp(b, "w", makeTensorProto(tf::DT_FLOAT, {2, 3}, std::vector<double>{1, 2, 3, 4, 5, 6}));
        auto step = constOp(b, "step", makeTensorProto(tf::DT_INT64, TensorShape::scalar(), std::vector<double>{42}));
        auto values = constOp(b, "strings", strings({2}, {"a", "bc"}));
        QVERIFY(file && names && w && step && values);
        auto save = b.op("Save",
                         {file->output(0), names->output(0),
                          OpInput(std::vector<Output>{w->output(0), step->output(0), values->output(0)})},
                         {}, "save");
        QVERIFY2(save, why(save));
        // SaveSlices: rows 2-3 of a [4,2] tensor.
        auto sliceFile = constOp(b, "slice_file", strings(TensorShape::scalar(), {path("slices")}));
        auto sliceNames = constOp(b, "slice_names", strings({1}, {"emb"}));
        auto sliceSpecs = constOp(b, "slice_specs", strings({1}, {"4 2 2,2:-"}));
        auto rows = constOp(b, "rows", makeTensorProto(tf::DT_FLOAT, {2, 2}, std::vector<double>{20, 21, 30, 31}));
        QVERIFY(sliceFile && sliceNames && sliceSpecs && rows);
        auto saveSlices = b.op("SaveSlices",
                               {sliceFile->output(0), sliceNames->output(0), sliceSpecs->output(0),
                                OpInput(std::vector<Output>{rows->output(0)})},
                               {}, "save_slices");
        QVERIFY2(saveSlices, why(saveSlices));

        auto s = session(b.graphDef());
        std::vector<Tensor> none;
        const Status saved = s->run({}, {}, {"save", "save_slices"}, &none);
        QVERIFY2(saved.isOk(), saved.toString().c_str());
        QFile written(m_dir->filePath("saved"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().toStdString() == modelCkpt());

        auto slices = CheckpointReader::open(path("slices"));
        QVERIFY2(slices, why(slices));
        QCOMPARE(slices->tensors().at(0).numSlices, 1);
        auto bottom = slices->readSlice("emb", checkpoint::TensorSlice::parse("2,2:-").value(), m_cpu);
        QVERIFY2(bottom, why(bottom));
        QCOMPARE(floatsOf(*bottom), (std::vector<float>{20, 21, 30, 31}));
        // The record is keyed exactly as the hand-built one of the shard file.
        std::ifstream in(path("slices"), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(bytes.find(kKeyEmbBottom) != std::string::npos);
    }

    void savedVariablesRestoreFromV1()
    {
        // A graph with variables w, step and names and a (V2) saver: Saver.restore and
        // restoreVariablesByName both read the V1 file.
        GraphBuilder b(m_registries->ops);
        auto w = variable(b, makeTensorProto(tf::DT_FLOAT, {2, 3}, std::vector<double>(6, 0.0)).value(), "w");
        auto step =
            variable(b, makeTensorProto(tf::DT_INT64, TensorShape::scalar(), std::vector<double>{0}).value(), "step");
        QVERIFY2(w, why(w));
        QVERIFY2(step, why(step));
        auto saver = Saver::create(b, std::vector<Variable>{*w, *step});
        QVERIFY2(saver, why(saver));
        auto s = session(b.graphDef());
        const Status restored = saver->restore(*s, path("model.ckpt"));
        QVERIFY2(restored.isOk(), restored.toString().c_str());
        std::vector<Tensor> out;
        QVERIFY(s->run({}, {"w:0", "step:0"}, {}, &out).isOk());
        QCOMPARE(floatsOf(out[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(out[1].scalar<std::int64_t>(), std::int64_t(42));
        REQUIRE_ERROR(saver->restore(*s, path("none")), StatusCode::kNotFound,
                      "The passed save_path is not a valid checkpoint: " + path("none"));

        auto fresh = session(b.graphDef());
        auto byName = restoreVariablesByName(*fresh, path("model.ckpt"));
        QVERIFY2(byName, why(byName));
        QCOMPARE(byName->restored, (std::vector<std::string>{"w", "step"}));
        QVERIFY(fresh->run({}, {"w:0"}, {}, &out).isOk());
        QCOMPARE(floatsOf(out[0]), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    }

    /// convertCheckpointToV2 (tstudio convert-checkpoint) on the hand-built files: a V2 bundle with the
    /// same tensors and values, the partitioned tensor of the shards written whole; and the command
    /// line as a user runs it: `tstudio run META --checkpoint V1FILE` restores through the MetaGraph's
    /// saver (RestoreV2 falling back to the V1 file), then `convert-checkpoint` and the same run on
    /// the V2 result.
    void convertsToV2WithIdenticalValues()
    {
        auto converted = convertCheckpointToV2(path("model.ckpt"), path("v2/model"));
        QVERIFY2(converted, why(converted));
        QCOMPARE(converted->sourceFormat, std::string("V1"));
        QCOMPARE(converted->tensors, std::int64_t(3));
        auto v2 = TensorBundleReader::open(path("v2/model"));
        QVERIFY2(v2, why(v2));
        QCOMPARE(v2->tensors().size(), std::size_t(3));
        auto w = v2->read("w", m_cpu);
        QVERIFY2(w, why(w));
        QCOMPARE(w->shape(), (TensorShape{2, 3}));
        QCOMPARE(floatsOf(*w), (std::vector<float>{1, 2, 3, 4, 5, 6}));
        QCOMPARE(v2->read("step", m_cpu)->scalar<std::int64_t>(), std::int64_t(42));
        QCOMPARE(v2->read("names", m_cpu)->strings()[1], std::string("bc"));

        auto shards = convertCheckpointToV2(path(kShardPattern), path("v2/shards"));
        QVERIFY2(shards, why(shards));
        QVERIFY(shards->partitioned > 0);
        auto fromShards = CheckpointReader::open(path("v2/shards"));
        auto original = CheckpointReader::open(path(kShardPattern));
        QVERIFY(fromShards && original);
        QCOMPARE(fromShards->format(), CheckpointFormat::kV2);
        for (const BundleTensorInfo& t : original->tensors()) {
            auto a = original->read(t.name, m_cpu);
            auto b = fromShards->read(t.name, m_cpu);
            QVERIFY2(a && b, t.name.c_str());
            QCOMPARE(b->shape(), a->shape());
            QVERIFY2(std::equal(a->tensorData().begin(), a->tensorData().end(), b->tensorData().begin(),
                                b->tensorData().end()),
                     t.name.c_str());
        }
        // Converting onto itself is refused before anything is written.
        auto onto = convertCheckpointToV2(path("v2/model"), path("v2/model"));
        QVERIFY(!onto);
        QCOMPARE(onto.error().code(), StatusCode::kInvalidArgument);

        // The command line: a MetaGraph with a saver over w and step.
        GraphBuilder b(m_registries->ops);
        auto wVar = variable(b, makeTensorProto(tf::DT_FLOAT, {2, 3}, std::vector<double>(6, 0.0)).value(), "w");
        auto step =
            variable(b, makeTensorProto(tf::DT_INT64, TensorShape::scalar(), std::vector<double>{0}).value(), "step");
        QVERIFY(wVar && step);
        auto saver = Saver::create(b, std::vector<Variable>{*wVar, *step});
        QVERIFY2(saver, why(saver));
        MetaGraphExportOptions options;
        options.saverDef = saver->saverDef();
        auto meta = exportMetaGraph(b, options);
        QVERIFY2(meta, why(meta));
        QVERIFY(writeMetaGraphFile(path("model.meta"), *meta).isOk());
        const QString tstudio = QStringLiteral(TSTUDIO_TSTUDIO_EXE);
        auto runW = [&](const std::string& checkpoint) {
            return testing::runProcess(tstudio, {"run", QString::fromStdString(path("model.meta")), "--checkpoint",
                                                 QString::fromStdString(checkpoint), "--fetch", "w:0", "--fetch",
                                                 "step:0"});
        };
        const testing::ProcessRun fromV1 = runW(path("model.ckpt"));
        QVERIFY2(fromV1.exitCode == 0, qPrintable(fromV1.err));
        QVERIFY2(fromV1.out.contains(QStringLiteral("\"values\":[1.0,2.0,3.0,4.0,5.0,6.0]")) ||
                     fromV1.out.contains(QStringLiteral("\"values\":[1,2,3,4,5,6]")),
                 qPrintable(fromV1.out));
        QVERIFY2(fromV1.out.contains(QStringLiteral("\"values\":[42]")), qPrintable(fromV1.out));
        const testing::ProcessRun convert = testing::runProcess(
            tstudio, {"convert-checkpoint", QString::fromStdString(path("model.ckpt")),
                      QString::fromStdString(path("cli/model.ckpt"))});
        QVERIFY2(convert.exitCode == 0, qPrintable(convert.err));
        QVERIFY2(convert.out.contains(QStringLiteral("Wrote 3 tensors")), qPrintable(convert.out));
        QVERIFY(QFile::exists(QString::fromStdString(path("cli/model.ckpt.index"))));
        const testing::ProcessRun fromV2 = runW(path("cli/model.ckpt"));
        QVERIFY2(fromV2.exitCode == 0, qPrintable(fromV2.err));
        QCOMPARE(fromV2.out, fromV1.out);
        const testing::ProcessRun missing =
            testing::runProcess(tstudio, {"convert-checkpoint", QString::fromStdString(path("nope.ckpt")),
                                          QString::fromStdString(path("out"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QString::fromStdString(path("nope.ckpt"))), qPrintable(missing.err));
    }

    void v1OpsDefinitionsAndShapes()
    {
        // TensorFlow 1.15's OpDefs: attrs and defaults.
        const OpRegistration* restore = m_registries->ops.find("RestoreSlice");
        QVERIFY(restore);
        QCOMPARE(restore->opDef.input_arg_size(), 3);
        QCOMPARE(restore->opDef.input_arg(2).name(), std::string("shape_and_slice"));
        QCOMPARE(restore->opDef.attr_size(), 2);
        QCOMPARE(restore->opDef.attr(1).name(), std::string("preferred_shard"));
        QCOMPARE(restore->opDef.attr(1).default_value().i(), std::int64_t(-1));
        QCOMPARE(m_registries->ops.find("SaveSlices")->opDef.input_arg(2).name(), std::string("shapes_and_slices"));
        QCOMPARE(m_registries->ops.find("Save")->opDef.attr(0).name(), std::string("T"));

        const OpRegistry& r = m_registries->ops;
        INFER_OK(r, "Save", "T=[float,int32]", "[];[2];[3,4];[]", "");
        INFER_ERROR(r, "Dimension must be 1 but is 2", "Save", "T=[float]", "[];[2];[]");
        INFER_OK(r, "SaveSlices", "T=[float]", "[];[1];[1];[2,2]", "");
        INFER_ERROR(r, "Shape must be rank 1 but is rank 0", "SaveSlices", "T=[float]", "[];[1];[];[2,2]");
        INFER_OK(r, "Restore", "dt=float", "[];[]", "?");
        INFER_ERROR(r, "Shape must be rank 0 but is rank 1", "Restore", "dt=float", "[];[2]");
        INFER_OK(r, "RestoreSlice", "dt=float", "[];[];[]", "?");
        // A known shape_and_slice gives the slice's shape.
        GraphBuilder b(m_registries->ops);
        auto file = constOp(b, "file", makeStringTensorProto(TensorShape::scalar(), std::vector<std::string>{"f"}));
        auto name = constOp(b, "name", makeStringTensorProto(TensorShape::scalar(), std::vector<std::string>{"emb"}));
        auto spec =
            constOp(b, "spec", makeStringTensorProto(TensorShape::scalar(), std::vector<std::string>{"4 2 1,2:-"}));
        QVERIFY(file && name && spec);
        auto sliced = b.op("RestoreSlice", {file->output(0), name->output(0), spec->output(0)},
                           {{"dt", attr::type(tf::DT_FLOAT)}});
        QVERIFY2(sliced, why(sliced));
        QCOMPARE(sliced->output(0).shape(), (TensorShape{2, 2}));
    }

    void damagedFilesNameTheFileAndTheTensor()
    {
        const std::string bad = path("bad");
        const QString badPath = m_dir->filePath("bad");
        const std::string whole = modelCkpt();
        // Truncated: the footer is gone.
        QVERIFY(writeFile(badPath, whole.substr(0, whole.size() - 10)));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad + "' is damaged");
        QVERIFY(writeFile(badPath, whole.substr(0, 30)));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad + "' is damaged: it has 30 bytes, fewer than a table's 48-byte footer");

        const auto full = sliceProto({{0, -1}});
        // Absurd shapes: a negative dimension, an element count beyond int64.
        QVERIFY(writeFile(badPath, tableOf({{"", metaRecord({meta("w", {-5, 3}, tf::DT_FLOAT, {})})}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad + "' is damaged: tensor 'w' has an invalid shape");
        const std::int64_t huge = std::int64_t(1) << 40;
        QVERIFY(writeFile(badPath, tableOf({{"", metaRecord({meta("w", {huge, huge}, tf::DT_FLOAT, {})})}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad + "' is damaged: tensor 'w' has an invalid shape");
        // A huge shape whose record holds 3 values: refused before anything that size is allocated.
        QVERIFY(writeFile(badPath,
                          tableOf({{"", metaRecord({meta("v", {huge}, tf::DT_FLOAT, {full})})},
                                   {fromHex("00 76 00 01 01 01 80 7f"), dataRecord("v", full, floats({1, 2, 3}))}})));
        auto reader = CheckpointReader::open(bad);
        QVERIFY2(reader, why(reader));
        REQUIRE_ERROR(statusOf(reader->read("v", m_cpu)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad +
                          "' is damaged: the record of slice '-' of tensor 'v' holds 3 values, "
                          "expected 1099511627776");
        // The metadata lists a slice whose record is missing; a record of another tensor.
        QVERIFY(writeFile(badPath, tableOf({{"", metaRecord({meta("v", {3}, tf::DT_FLOAT, {full})})}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)->read("v", m_cpu)), StatusCode::kDataLoss,
                      "checkpoint file '" + bad + "' is damaged: it has no record for slice '-' of tensor 'v'");
        QVERIFY(writeFile(badPath,
                          tableOf({{"", metaRecord({meta("v", {3}, tf::DT_FLOAT, {full})})},
                                   {fromHex("00 76 00 01 01 01 80 7f"), dataRecord("u", full, floats({1, 2, 3}))}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)->read("v", m_cpu)), StatusCode::kDataLoss,
                      "the record of slice '-' of tensor 'v' is named 'u'");
        // Overlapping slices, a newer format, no metadata at all.
        QVERIFY(writeFile(
            badPath,
            tableOf({{"", metaRecord({meta("v", {4}, tf::DT_FLOAT, {sliceProto({{0, 2}}), sliceProto({{1, 2}})})})}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kDataLoss,
                      "Overlapping slices: existing slice = 0,2, new slice = 1,2");
        QVERIFY(writeFile(badPath, tableOf({{"", metaRecord({}, 2)}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kInvalidArgument,
                      "Checkpoint min consumer version 2 above current version 1");
        QVERIFY(writeFile(badPath, tableOf({{kKeyW, dataRecord("w", full, floats({1}))}})));
        REQUIRE_ERROR(statusOf(CheckpointReader::open(bad)), StatusCode::kInternal,
                      "Failed to find the saved tensor slices at the beginning of the checkpoint file: " + bad);
    }

    void snappyBlocksAndTheProbe()
    {
        // A V1 table whose blocks are Snappy-compressed (LevelDB's default) reads the same.
        std::vector<float> zeros(256, 0.0f);
        zeros[7] = 7.0f;
        const auto full = sliceProto({{0, -1}});
        const std::string compressed =
            tableOf({{"", metaRecord({meta("z", {256}, tf::DT_FLOAT, {full})})},
                     {fromHex("00 7a 00 01 01 01 80 7f"), dataRecord("z", full, floats(zeros))}},
                    table::BlockCompression::kSnappy);
        QVERIFY(compressed.size() < 256 * 4);
        QVERIFY(writeFile(m_dir->filePath("snappy"), compressed));
        auto reader = CheckpointReader::open(path("snappy"));
        QVERIFY2(reader, why(reader));
        auto z = reader->read("z", m_cpu);
        QVERIFY2(z, why(z));
        QCOMPARE(floatsOf(*z), zeros);

        // The probe the file-kind detector can use: V1 files, patterns and shard prefixes.
        QVERIFY(looksLikeV1Checkpoint(path("model.ckpt")));
        QVERIFY(looksLikeV1Checkpoint(path("snappy")));
        QVERIFY(looksLikeV1Checkpoint(path("part")));
        QVERIFY(looksLikeV1Checkpoint(path(kShardPattern)));
        QVERIFY(!looksLikeV1Checkpoint(path("none")));
        QVERIFY(writeFile(m_dir->filePath("text"), std::string(100, 'x')));
        QVERIFY(!looksLikeV1Checkpoint(path("text")));
        {
            auto writer = TensorBundleWriter::create(path("v2"));
            QVERIFY(writer);
            QVERIFY((*writer)->add("x", Tensor::fromVector<float>(m_cpu, {1}, {1}).value()).isOk());
            QVERIFY((*writer)->finish().isOk());
        }
        QVERIFY(!looksLikeV1Checkpoint(path("v2.index")));
        auto v2 = CheckpointReader::open(path("v2"));
        QVERIFY2(v2, why(v2));
        QCOMPARE(v2->format(), CheckpointFormat::kV2);
        QVERIFY(v2->bundle() != nullptr);
        // The V2 reader alone still says what a V1 checkpoint is.
        REQUIRE_ERROR(statusOf(TensorBundleReader::open(path("model.ckpt"))), StatusCode::kUnimplemented,
                      "is a V1 checkpoint");
    }
};

QTEST_GUILESS_MAIN(TestV1Checkpoint)
#include "test_v1_checkpoint.moc"
