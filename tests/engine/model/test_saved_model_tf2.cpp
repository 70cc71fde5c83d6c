// TensorFlow 2 SavedModels: a Keras Sequential model (Dense(4, relu) -> Dense(3, softmax) on
// [None, 5]) and a tf.function module written in TensorFlow 2's layout (functions called through
// StatefulPartitionedCall, resource variables, object graph, object-based checkpoint), read back
// through the front door and run, with outputs checked against NumPy's (tools/golden/
// tf2_saved_model.py) and closed forms; both ways of restoring; damaged inputs; tstudio inspect
// and run on the written model; ResourceGather and DisableCopyOnRead (Keras Embedding, TensorFlow
// 2.14+ save functions) with ResourceGather's gradient; a real TensorFlow 2 SavedModel from the
// fixtures when there is one.
#include "autodiff/gradients.h"
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/file_kind_detector.h"
#include "io/formats/open_graph.h"
#include "io/formats/saved_model_format.h"
#include "io/npy.h"
#include "layers/keras_sequential.h"
#include "model/object_graph_restore.h"
#include "model/saved_model.h"
#include "model/saved_object_graph.h"
#include "model/tf2_saved_model_writer.h"
#include "proto/example.pb.h"
#include "proto/trackable_object_graph.pb.h"
#include "runtime/session.h"

#include "model_test_support.h"
#include "process_run.h"
#include "shared_registries.h"
#include "test_files.h"

#include <QDirIterator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;
namespace fs = std::filesystem;

namespace {

const fs::path kGolden = fs::path(TSTUDIO_SOURCE_DIR) / "tests/data/golden/tf2_saved_model";

SessionOptions sessionOptions()
{
    SessionOptions options;
    options.ops = &sharedRegistries().ops;
    options.kernels = &sharedRegistries().kernels;
    return options;
}

std::string readAll(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeAll(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

/// |a - e| <= 1e-6 |e| + 1e-7 for every element (float32 results against float64 NumPy).
bool closeTo(const Tensor& actual, const Tensor& expected, QString* why)
{
    if (expected.dtype() != tf::DT_DOUBLE) {
        *why = QString("the expected values are not float64: %1").arg(QString::fromStdString(expected.debugString()));
        return false;
    }
    return floatsNear(actual, expected.values<double>(), 1e-6, 1e-7, why);
}

/// Mutates the binary saved_model.pb of `dir` in place.
template <typename F> void editSavedModel(const fs::path& dir, F edit)
{
    auto model = formats::readSavedModel(dir);
    QVERIFY2(model.has_value(), err(model));
    edit(*model->mutable_meta_graphs(0));
    writeAll(dir / "saved_model.pb", model->SerializeAsString());
}

void copyDirectory(const fs::path& from, const fs::path& to)
{
    fs::copy(from, to, fs::copy_options::recursive);
}

} // namespace

class TestSavedModelTf2 : public QObject {
    Q_OBJECT

    CpuAllocator m_allocator;
    std::map<std::string, Tensor> m_weights;
    Tensor m_x;
    Tensor m_expected;
    QTemporaryDir m_tmp;
    fs::path m_keras; ///< the Keras model written once in initTestCase

    Expected<Tensor> golden(const std::string& name) { return readNpy(kGolden / (name + ".npy"), m_allocator); }

    static KerasSequentialOptions kerasOptions()
    {
        KerasSequentialOptions options;
        options.inputShape = TensorShape({-1, 5});
        options.layers = {{4, layers::Activation::kRelu}, {3, layers::Activation::kSoftmax}};
        return options;
    }

    Status writeKeras(const fs::path& dir)
    {
        auto spec = kerasSequentialSpec(sharedRegistries().ops, kerasOptions(), m_weights);
        if (!spec)
            return spec.error();
        return writeTf2SavedModel(dir, *spec, sessionOptions());
    }

    /// Loads `dir` as a user does: the front door recognises it, then the loader runs it.
    Expected<std::unique_ptr<SavedModelBundle>> load(const fs::path& dir,
                                                     VariableRestore restore = VariableRestore::kAuto)
    {
        auto report = detectFileKind(dir);
        if (!report)
            return unexpected(report.error());
        if (report->kind != FileKind::kSavedModel)
            return unexpected(invalidArgumentError("not recognised as a SavedModel: " + report->detail));
        SavedModelLoadOptions options;
        options.variableRestore = restore;
        return loadSavedModel(dir, sessionOptions(), options);
    }

    void checkServing(SavedModelBundle& bundle)
    {
        auto outputs = bundle.runSignature("serving_default", {{"dense_input", m_x}});
        QVERIFY2(outputs.has_value(), err(outputs));
        QCOMPARE(outputs->size(), std::size_t(1));
        QVERIFY(outputs->contains("dense_1"));
        QString why;
        QVERIFY2(closeTo(outputs->at("dense_1"), m_expected, &why), qPrintable(why));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        for (const char* name : {"dense/kernel", "dense/bias", "dense_1/kernel", "dense_1/bias"}) {
            std::string file = name;
            std::replace(file.begin(), file.end(), '/', '_');
            auto value = golden(file);
            QVERIFY2(value.has_value(), err(value));
            m_weights.emplace(name, *value);
        }
        auto x = golden("x");
        auto expected = golden("expected");
        QVERIFY2(x && expected, "the golden inputs: run /usr/bin/python3 tools/golden/tf2_saved_model.py");
        m_x = *x;
        m_expected = *expected;
        m_keras = fs::path(m_tmp.path().toStdString()) / "keras";
        const Status written = writeKeras(m_keras);
        QVERIFY2(written.isOk(), err(written));
    }

    void writtenLayoutIsTensorFlow2s()
    {
        QVERIFY(fs::is_regular_file(m_keras / "saved_model.pb"));
        QVERIFY(fs::is_regular_file(m_keras / "variables/variables.index"));
        QVERIFY(fs::is_regular_file(m_keras / "variables/variables.data-00000-of-00001"));
        auto model = formats::readSavedModel(m_keras);
        QVERIFY2(model.has_value(), err(model));
        QCOMPARE(model->saved_model_schema_version(), std::int64_t(1));
        QCOMPARE(model->meta_graphs_size(), 1);
        const tf::MetaGraphDef& meta = model->meta_graphs(0);
        QCOMPARE(meta.meta_info_def().tags_size(), 1);
        QCOMPARE(meta.meta_info_def().tags(0), std::string("serve"));

        // serving_default: the placeholder in, the outer call's output 0 out.
        const tf::SignatureDef& serving = meta.signature_def().at("serving_default");
        QCOMPARE(serving.method_name(), std::string("tensorflow/serving/predict"));
        const tf::TensorInfo& in = serving.inputs().at("dense_input");
        QCOMPARE(in.name(), std::string("serving_default_dense_input:0"));
        QCOMPARE(in.dtype(), tf::DT_FLOAT);
        QCOMPARE(in.tensor_shape().dim_size(), 2);
        QCOMPARE(in.tensor_shape().dim(0).size(), std::int64_t(-1));
        QCOMPARE(in.tensor_shape().dim(1).size(), std::int64_t(5));
        const tf::TensorInfo& out = serving.outputs().at("dense_1");
        QCOMPARE(out.name(), std::string("StatefulPartitionedCall:0"));
        QCOMPARE(out.tensor_shape().dim(1).size(), std::int64_t(3));
        QVERIFY(meta.signature_def().contains("__saved_model_init_op"));
        QCOMPARE(meta.saver_def().filename_tensor_name(), std::string("saver_filename:0"));
        QCOMPARE(meta.saver_def().restore_op_name(), std::string("StatefulPartitionedCall_2"));

        // The outer call -> the signature wrapper -> a StatefulPartitionedCall of the body, which
        // reads its captured resource arguments.
        std::map<std::string, const tf::FunctionDef*> functions;
        for (const tf::FunctionDef& f : meta.graph_def().library().function())
            functions[f.signature().name()] = &f;
        const tf::NodeDef* call = nullptr;
        for (const tf::NodeDef& n : meta.graph_def().node())
            if (n.name() == "StatefulPartitionedCall")
                call = &n;
        QVERIFY(call != nullptr);
        QCOMPARE(call->op(), std::string("StatefulPartitionedCall"));
        QCOMPARE(call->input_size(), 5); // the input and the four variable handles
        QCOMPARE(call->input(1), std::string("dense/kernel"));
        const std::string wrapperName = call->attr().at("f").func().name();
        QVERIFY2(wrapperName.starts_with("__inference_signature_wrapper_"), wrapperName.c_str());
        QVERIFY(functions.contains(wrapperName));
        const tf::FunctionDef& wrapper = *functions[wrapperName];
        QCOMPARE(wrapper.node_def_size(), 1);
        QCOMPARE(wrapper.node_def(0).op(), std::string("StatefulPartitionedCall"));
        const std::string bodyName = wrapper.node_def(0).attr().at("f").func().name();
        QVERIFY2(bodyName.starts_with("__inference___call___"), bodyName.c_str());
        const tf::FunctionDef& body = *functions[bodyName];
        int resources = 0;
        for (const auto& arg : body.signature().input_arg())
            resources += arg.type() == tf::DT_RESOURCE;
        QCOMPARE(resources, 4);
        int reads = 0;
        for (const tf::NodeDef& n : body.node_def())
            reads += n.op() == "ReadVariableOp";
        QCOMPARE(reads, 4);
        QVERIFY(body.signature().is_stateful());
        int handles = 0;
        for (const tf::NodeDef& n : meta.graph_def().node())
            handles += n.op() == "VarHandleOp";
        QCOMPARE(handles, 4);

        // The object graph: root, two layers, four variables; signatures and __call__.
        auto info = readSavedObjectGraph(meta, "saved_model.pb");
        QVERIFY2(info.has_value(), err(info));
        QCOMPARE(info->variables.size(), std::size_t(4));
        QCOMPARE(info->variables[0].name, std::string("dense/kernel"));
        QCOMPARE(variableValueKey(info->variables[0].path),
                 std::string("layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE"));
        QVERIFY(info->variables[3].shape == TensorShape({3}));
        QCOMPARE(info->signatureFunctions.at("serving_default"), wrapperName);
        QCOMPARE(meta.object_graph_def().nodes(0).user_object().identifier(), std::string("_tf_keras_sequential"));
        QCOMPARE(meta.object_graph_def().concrete_functions().at(bodyName).bound_inputs_size(), 4);

        // The checkpoint: object-based keys holding the weights, and the object graph.
        auto reader = CheckpointReader::open((m_keras / "variables/variables").string());
        QVERIFY2(reader.has_value(), err(reader));
        QVERIFY(reader->contains("_CHECKPOINTABLE_OBJECT_GRAPH"));
        auto kernel = reader->read("layer_with_weights-1/kernel/.ATTRIBUTES/VARIABLE_VALUE", m_allocator);
        QVERIFY2(kernel.has_value(), err(kernel));
        QVERIFY(kernel->shape() == TensorShape({4, 3}));
        const auto expectedKernel = m_weights.at("dense_1/kernel").values<float>();
        const auto savedKernel = kernel->values<float>();
        QVERIFY(std::equal(savedKernel.begin(), savedKernel.end(), expectedKernel.begin()));
        auto graph = readCheckpointObjectGraph(*reader);
        QVERIFY2(graph.has_value(), err(graph));
        QCOMPARE(graph->nodes_size(), 7);
    }

    void frontDoorRecognisesIt()
    {
        auto report = detectFileKind(m_keras);
        QVERIFY2(report.has_value(), err(report));
        QCOMPARE(report->kind, FileKind::kSavedModel);
        QVERIFY2(report->detail.find("TensorFlow 2 object graph: 10 objects, 2 concrete functions") !=
                     std::string::npos,
                 report->detail.c_str());
        auto opened = formats::openGraph(*report);
        QVERIFY2(opened.has_value(), err(opened));
        QCOMPARE(opened->graph->library().function_size(), 4);
        QVERIFY(!opened->checkpointPrefix.empty());
    }

    void servingDefaultThroughTheObjectGraph()
    {
        auto bundle = load(m_keras, VariableRestore::kObjectGraph);
        QVERIFY2(bundle.has_value(), err(bundle));
        checkServing(**bundle);
        QCOMPARE((*bundle)->objectGraph().variables.size(), std::size_t(4));
        // Default: the object graph too.
        bundle = load(m_keras);
        QVERIFY2(bundle.has_value(), err(bundle));
        checkServing(**bundle);
    }

    void servingDefaultThroughTheSaverDef()
    {
        // TensorFlow's C++ loader: saver_filename fed, StatefulPartitionedCall_2 (RestoreV2 and
        // AssignVariableOp in __inference__traced_restore_*) run.
        auto bundle = load(m_keras, VariableRestore::kSaverDef);
        QVERIFY2(bundle.has_value(), err(bundle));
        checkServing(**bundle);
    }

    void variablesDirectoryMissing()
    {
        fs::path dir = fs::path(m_tmp.path().toStdString()) / "no_variables";
        copyDirectory(m_keras, dir);
        fs::remove_all(dir / "variables");
        auto bundle = load(dir);
        QVERIFY(!bundle.has_value());
        QVERIFY2(bundle.error().message().find("variables.index' does not exist") != std::string::npos, err(bundle));
    }

    void tfFunctionModule()
    {
        // class M(tf.Module): w = Variable([3]); b = Variable(scalar);
        //   @tf.function(input_signature=[TensorSpec([None, 3])]) def __call__(x): return x * w + b
        GraphBuilder b(sharedRegistries().ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 3}), "x");
        auto w = getVariable(b, "w", TensorShape({3}), tf::DT_FLOAT, Initializer::zeros());
        auto bias = getVariable(b, "b", TensorShape::scalar(), tf::DT_FLOAT, Initializer::zeros());
        // A variable the function does not use (a step counter): saved and restored all the same.
        auto step = getVariable(b, "step", TensorShape::scalar(), tf::DT_INT64, Initializer::zeros());
        QVERIFY(x && w && bias && step);
        auto xw = ops::mul(b, *x, w->value());
        QVERIFY2(xw.has_value(), err(xw));
        auto y = ops::add(b, *xw, bias->value(), "y");
        QVERIFY2(y.has_value(), err(y));
        Tf2SavedModelSpec spec;
        spec.graph = b.toGraphDef(true);
        spec.variables = {
            {"w", {"w"}, Tensor::fromVector<float>(m_allocator, TensorShape({3}), {0.5f, -2.0f, 4.0f}).value(), true},
            {"b", {"b"}, Tensor::fromVector<float>(m_allocator, TensorShape::scalar(), {0.25f}).value(), false},
            {"step",
             {"step"},
             Tensor::fromVector<std::int64_t>(m_allocator, TensorShape::scalar(), {7}).value(),
             false},
        };
        spec.signatures = {{"serving_default", {{"x", "x"}}, {{"output_0", "y:0"}}}};
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "module";
        const Status written = writeTf2SavedModel(dir, spec, sessionOptions());
        QVERIFY2(written.isOk(), err(written));

        for (VariableRestore restore : {VariableRestore::kObjectGraph, VariableRestore::kSaverDef}) {
            auto bundle = load(dir, restore);
            QVERIFY2(bundle.has_value(), err(bundle));
            auto input = Tensor::fromVector<float>(m_allocator, TensorShape({2, 3}), {1, 2, 3, -1, 0, 0.5f});
            auto outputs = (*bundle)->runSignature("serving_default", {{"x", *input}});
            QVERIFY2(outputs.has_value(), err(outputs));
            const auto v = outputs->at("output_0").values<float>();
            const std::vector<float> expected{
                1 * 0.5f + 0.25f, 2 * -2.0f + 0.25f, 3 * 4.0f + 0.25f, -1 * 0.5f + 0.25f, 0.25f, 0.5f * 4.0f + 0.25f};
            QCOMPARE(std::vector<float>(v.begin(), v.end()), expected);
            QCOMPARE((*bundle)->objectGraph().variables[1].trainable, false);
            // The counter came back too (read through a node added to the session).
            tf::GraphDef read;
            tf::NodeDef* node = read.add_node();
            node->set_name("read_step");
            node->set_op("ReadVariableOp");
            node->add_input("step");
            (*node->mutable_attr())["dtype"] = attr::type(tf::DT_INT64);
            QVERIFY((*bundle)->session().extend(read).isOk());
            std::vector<Tensor> values;
            const Status ran = (*bundle)->session().run({}, {"read_step:0"}, {}, &values);
            QVERIFY2(ran.isOk(), err(ran));
            QCOMPARE(values[0].scalar<std::int64_t>(), std::int64_t(7));
        }
    }

    void writerRefusesBadSpecs()
    {
        auto spec = kerasSequentialSpec(sharedRegistries().ops, kerasOptions(), m_weights);
        QVERIFY2(spec.has_value(), err(spec));
        Tf2SavedModelSpec orphan = *spec;
        orphan.variables[0].path = {"nope", "kernel"};
        auto built = tf2MetaGraph(orphan, sharedRegistries().ops);
        QVERIFY(!built.has_value());
        QVERIFY2(built.error().message().find("'nope/kernel': its parent 'nope' is not an object of the SavedModel") !=
                     std::string::npos,
                 err(built));
        Tf2SavedModelSpec notPlaceholder = *spec;
        notPlaceholder.signatures[0].inputs[0].second = "dense/MatMul";
        built = tf2MetaGraph(notPlaceholder, sharedRegistries().ops);
        QVERIFY(!built.has_value());
        QVERIFY2(built.error().message().find("input 'dense_input' is 'dense/MatMul', which is not a Placeholder") !=
                     std::string::npos,
                 err(built));
        Tf2SavedModelSpec missingVariable = *spec;
        missingVariable.variables.pop_back(); // dense_1/bias, which the signature reads
        built = tf2MetaGraph(missingVariable, sharedRegistries().ops);
        QVERIFY(!built.has_value());
        QVERIFY2(built.error().message().find("uses variable node 'dense_1/bias', which is not among") !=
                     std::string::npos,
                 err(built));
        Tf2SavedModelSpec wrongValue = *spec;
        wrongValue.variables[1].value = m_weights.at("dense_1/bias");
        built = tf2MetaGraph(wrongValue, sharedRegistries().ops);
        QVERIFY(!built.has_value());
        QVERIFY2(built.error().message().find("variable 'dense/bias' has shape [4] but its value has shape [3]") !=
                     std::string::npos,
                 err(built));
    }

    void objectGraphListing()
    {
        auto model = formats::readSavedModel(m_keras);
        QVERIFY2(model.has_value(), err(model));
        auto info = readSavedObjectGraph(model->meta_graphs(0), "saved_model.pb");
        QVERIFY2(info.has_value(), err(info));
        const SavedObjectFunction* call = nullptr;
        for (const SavedObjectFunction& f : info->functions)
            if (f.path == "__call__")
                call = &f;
        QVERIFY(call != nullptr);
        QCOMPARE(call->concreteFunctions.size(), std::size_t(1));
        const auto& arguments = call->concreteFunctions[0].arguments;
        QCOMPARE(arguments.size(), std::size_t(1));
        QCOMPARE(arguments[0].first, std::string("Argument #1"));
        QCOMPARE(arguments[0].second.at(0),
                 std::string("dense_input: TensorSpec(shape=(None, 5), dtype=tf.float32, name='dense_input')"));
        QCOMPARE(call->concreteFunctions[0].outputSignature,
                 std::string("TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)"));
        QCOMPARE(info->paths[1], std::string("layer_with_weights-0"));
    }

    void structuredValuesAsPython()
    {
        tf::StructuredValue none;
        none.mutable_none_value();
        tf::StructuredValue flag;
        flag.set_bool_value(false);
        tf::StructuredValue number;
        number.set_float64_value(0.5);
        tf::StructuredValue whole;
        whole.set_float64_value(2);
        tf::StructuredValue tuple;
        *tuple.mutable_tuple_value()->add_values() = flag;
        QCOMPARE(structuredValueRepr(tuple), std::string("(False,)"));
        *tuple.mutable_tuple_value()->add_values() = none;
        QCOMPARE(structuredValueRepr(tuple), std::string("(False, None)"));
        tf::StructuredValue dict;
        (*dict.mutable_dict_value()->mutable_fields())["b"] = number;
        (*dict.mutable_dict_value()->mutable_fields())["a"] = whole;
        QCOMPARE(structuredValueRepr(dict), std::string("{'a': 2.0, 'b': 0.5}"));
        tf::StructuredValue dtype;
        dtype.set_tensor_dtype_value(tf::DT_INT64);
        QCOMPARE(structuredValueRepr(dtype), std::string("tf.int64"));
        tf::StructuredValue text;
        text.set_string_value("it's");
        QCOMPARE(structuredValueRepr(text), std::string("'it\\'s'"));
        tf::StructuredValue shape;
        shape.mutable_tensor_shape_value()->add_dim()->set_size(-1);
        QCOMPARE(structuredValueRepr(shape), std::string("TensorShape([None])"));
        QCOMPARE(objectAttributeKey({"a.b", "c/d"}, "VARIABLE_VALUE"),
                 std::string("a..b/c.Sd/.ATTRIBUTES/VARIABLE_VALUE"));
    }

    void signatureNamingAMissingFunction()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "missing_function";
        copyDirectory(m_keras, dir);
        std::string removed;
        editSavedModel(dir, [&](tf::MetaGraphDef& meta) {
            auto* functions = meta.mutable_graph_def()->mutable_library()->mutable_function();
            for (int i = 0; i < functions->size(); ++i)
                if ((*functions)[i].signature().name().starts_with("__inference_signature_wrapper_")) {
                    removed = (*functions)[i].signature().name();
                    functions->DeleteSubrange(i, 1);
                    break;
                }
        });
        QVERIFY(!removed.empty());
        auto bundle = load(dir);
        QVERIFY(!bundle.has_value());
        const std::string message = bundle.error().message();
        QCOMPARE(bundle.error().code(), StatusCode::kNotFound);
        QVERIFY2(message.find("saved_model.pb") != std::string::npos, message.c_str());
        QVERIFY2(message.find("which calls function '" + removed + "'") != std::string::npos, message.c_str());
    }

    void saveFunctionWithAnOpThisBuildLacks()
    {
        // TensorFlow instantiates a function when a run reaches its call: a SavedModel whose saver
        // function uses an op this build lacks (as real exports' savers use string ops) still
        // loads and serves; only running the saver meets the missing op, by name.
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "saver_lacks_an_op";
        copyDirectory(m_keras, dir);
        std::string saver;
        editSavedModel(dir, [&](tf::MetaGraphDef& meta) {
            for (tf::FunctionDef& f : *meta.mutable_graph_def()->mutable_library()->mutable_function()) {
                if (!f.signature().name().starts_with("__inference__traced_save_"))
                    continue;
                saver = f.signature().name();
                tf::NodeDef* odd = f.add_node_def();
                odd->set_name("odd");
                odd->set_op("NoSuchSaverOpInThisBuild");
                odd->add_input(f.signature().input_arg(0).name());
            }
        });
        QVERIFY(!saver.empty());
        auto bundle = load(dir);
        QVERIFY2(bundle.has_value(), err(bundle));
        checkServing(**bundle);
        const tf::SaverDef& saverDef = (*bundle)->metaGraph().saver_def();
        Tensor prefix = Tensor::allocate(m_allocator, tf::DT_STRING, TensorShape({})).value();
        prefix.strings()[0] = (fs::path(m_tmp.path().toStdString()) / "resaved" / "ckpt").string();
        std::vector<Tensor> out;
        const Status s = (*bundle)->session().run({{saverDef.filename_tensor_name(), prefix}},
                                                  {saverDef.save_tensor_name()}, {}, &out);
        QVERIFY(!s.isOk());
        QVERIFY2(s.message().find("function '" + saver + "'") != std::string::npos, s.message().c_str());
        QVERIFY2(s.message().find("NoSuchSaverOpInThisBuild") != std::string::npos, s.message().c_str());
    }

    void variableMissingFromTheCheckpoint()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "missing_variable";
        copyDirectory(m_keras, dir);
        // The same checkpoint without one key (its object graph still names it).
        const std::string dropped = "layer_with_weights-1/bias/.ATTRIBUTES/VARIABLE_VALUE";
        {
            auto reader = CheckpointReader::open((m_keras / "variables/variables").string());
            QVERIFY2(reader.has_value(), err(reader));
            auto writer = TensorBundleWriter::create((dir / "variables/variables").string());
            QVERIFY2(writer.has_value(), err(writer));
            for (const BundleTensorInfo& t : reader->tensors()) {
                if (t.name == dropped)
                    continue;
                auto value = reader->read(t.name, m_allocator);
                QVERIFY2(value.has_value(), err(value));
                QVERIFY((*writer)->add(t.name, *value).isOk());
            }
            QVERIFY((*writer)->finish().isOk());
        }
        auto bundle = load(dir, VariableRestore::kObjectGraph);
        QVERIFY(!bundle.has_value());
        const std::string message = bundle.error().message();
        QCOMPARE(bundle.error().code(), StatusCode::kNotFound);
        QVERIFY2(message.find("variable 'dense_1/bias' (object graph node 6, path 'layer_with_weights-1/bias'): key '" +
                              dropped + "' is missing from checkpoint") != std::string::npos,
                 message.c_str());
        // Through the saver_def the RestoreV2 inside the restore function names the key.
        bundle = load(dir, VariableRestore::kSaverDef);
        QVERIFY(!bundle.has_value());
        QVERIFY2(bundle.error().message().find(dropped) != std::string::npos, err(bundle));
    }

    void nodeIdOutOfRange()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "bad_node_id";
        copyDirectory(m_keras, dir);
        editSavedModel(dir, [](tf::MetaGraphDef& meta) {
            meta.mutable_object_graph_def()->mutable_nodes(1)->mutable_children(0)->set_node_id(42);
        });
        auto bundle = load(dir);
        QVERIFY(!bundle.has_value());
        QCOMPARE(bundle.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(bundle.error().message().find("saved_model.pb': object graph node 1 has child 'kernel' with node id "
                                               "42, but the object graph has 10 nodes") != std::string::npos,
                 err(bundle));
        // A captured input out of range too.
        editSavedModel(dir, [](tf::MetaGraphDef& meta) {
            meta.mutable_object_graph_def()->mutable_nodes(1)->mutable_children(0)->set_node_id(3);
            auto& functions = *meta.mutable_object_graph_def()->mutable_concrete_functions();
            functions.begin()->second.set_bound_inputs(0, -7);
        });
        bundle = load(dir);
        QVERIFY(!bundle.has_value());
        QVERIFY2(bundle.error().message().find("captures object graph node -7") != std::string::npos, err(bundle));
    }

    void truncatedSavedModelPb()
    {
        const fs::path dir = fs::path(m_tmp.path().toStdString()) / "truncated";
        copyDirectory(m_keras, dir);
        const std::string bytes = readAll(dir / "saved_model.pb");
        writeAll(dir / "saved_model.pb", bytes.substr(0, bytes.size() / 2));
        auto read = formats::readSavedModel(dir);
        QVERIFY(!read.has_value());
        QCOMPARE(read.error().code(), StatusCode::kDataLoss);
        QVERIFY2(read.error().message().find("saved_model.pb") != std::string::npos &&
                     read.error().message().find("truncated or corrupted") != std::string::npos,
                 err(read));
        auto bundle = loadSavedModel(dir, sessionOptions());
        QVERIFY(!bundle.has_value());
        QCOMPARE(bundle.error().code(), StatusCode::kDataLoss);
        // The front door names the damage instead of claiming a SavedModel.
        auto report = detectFileKind(dir);
        QVERIFY2(report.has_value(), err(report));
        QVERIFY2(report->kind != FileKind::kSavedModel, report->detail.c_str());
        QVERIFY2(report->detail.find("saved_model.pb is not a valid SavedModel") != std::string::npos,
                 report->detail.c_str());
    }

    void tstudioInspectAndRun()
    {
        const QString exe = QStringLiteral(TSTUDIO_TSTUDIO_EXE);
        const QString dir = QString::fromStdString(m_keras.string());
        ProcessRun r = runProcess(exe, {"inspect", dir});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("\nMetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:\n\n"
                                "signature_def['__saved_model_init_op']:\n"),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains("signature_def['serving_default']:\n"
                                "  The given SavedModel SignatureDef contains the following input(s):\n"
                                "    inputs['dense_input'] tensor_info:\n        dtype: DT_FLOAT\n"
                                "        shape: (-1, 5)\n        name: serving_default_dense_input:0\n"
                                "  The given SavedModel SignatureDef contains the following output(s):\n"
                                "    outputs['dense_1'] tensor_info:\n        dtype: DT_FLOAT\n"
                                "        shape: (-1, 3)\n        name: StatefulPartitionedCall:0\n"
                                "  Method name is: tensorflow/serving/predict\n"),
                 qPrintable(r.out));
        QVERIFY2(r.out.endsWith("\nConcrete Functions:\n  Function Name: '__call__'\n    Option #1\n"
                                "      Callable with:\n        Argument #1\n"
                                "          dense_input: TensorSpec(shape=(None, 5), dtype=tf.float32, "
                                "name='dense_input')\n"),
                 qPrintable(r.out));

        r = runProcess(exe, {"inspect", dir, "--json"});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject metaGraph = QJsonDocument::fromJson(r.out.toUtf8())
                                          .object()["saved_model"]
                                          .toObject()["meta_graphs"]
                                          .toArray()[0]
                                          .toObject();
        QString servingFunction;
        for (const QJsonValue& s : metaGraph["signatures"].toArray())
            if (s.toObject()["key"].toString() == "serving_default")
                servingFunction = s.toObject()["concrete_function"].toString();
        QVERIFY2(servingFunction.startsWith("__inference_signature_wrapper_"), qPrintable(r.out));
        const QJsonObject call = metaGraph["concrete_functions"].toArray()[0].toObject();
        QCOMPARE(call["name"].toString(), QString("__call__"));
        QCOMPARE(call["options"].toArray()[0].toObject()["bound_inputs"].toArray().size(), 4);

        // Row 0 of the golden batch through the signature.
        const auto x = m_x.values<float>();
        QString row = "[[";
        for (int i = 0; i < 5; ++i)
            row += (i ? "," : "") + QString::number(double(x[static_cast<std::size_t>(i)]), 'g', 9);
        row += "]]";
        r = runProcess(exe, {"run", dir, "--signature", "serving_default", "--feed", "dense_input=" + row});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray values = QJsonDocument::fromJson(r.out.toUtf8())
                                      .object()["fetches"]
                                      .toObject()["dense_1"]
                                      .toObject()["values"]
                                      .toArray();
        QCOMPARE(values.size(), 3);
        const auto expected = m_expected.values<double>();
        for (int i = 0; i < 3; ++i)
            QVERIFY2(std::fabs(values[i].toDouble() - expected[static_cast<std::size_t>(i)]) <=
                         1e-6 * std::fabs(expected[static_cast<std::size_t>(i)]) + 1e-7,
                     qPrintable(r.out));
        r = runProcess(exe, {"run", dir, "--signature", "serving_default", "--feed", "x=" + row});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("signature 'serving_default' has no input 'x'; its inputs: dense_input"),
                 qPrintable(r.err));
    }

    void resourceGatherAndItsGradient()
    {
        // table = VarHandleOp [4, 2] with rows r * 10 + {0, 1}; Keras Embedding reads it with
        // ResourceGather; d(sum(gather(table, ids)))/d(table) counts how often each row was picked.
        GraphBuilder b(sharedRegistries().ops);
        auto table = b.op("VarHandleOp", {},
                          {{"dtype", attr::type(tf::DT_FLOAT)},
                           {"shape", attr::shape(TensorShape({4, 2}))},
                           {"shared_name", attr::s("table")}},
                          "table");
        QVERIFY2(table.has_value(), err(table));
        auto init = ops::placeholder(b, tf::DT_FLOAT, TensorShape({4, 2}), "init");
        auto ids = ops::placeholder(b, tf::DT_INT64, TensorShape::unknown(), "ids");
        auto ids32 = ops::placeholder(b, tf::DT_INT32, TensorShape::unknown(), "ids32");
        QVERIFY(init && ids && ids32);
        auto assign =
            b.op("AssignVariableOp", {table->output(0), *init}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "assign");
        QVERIFY2(assign.has_value(), err(assign));
        auto gathered =
            b.op("ResourceGather", {table->output(0), *ids}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "gather");
        QVERIFY2(gathered.has_value(), err(gathered));
        auto gathered32 =
            b.op("ResourceGather", {table->output(0), *ids32}, {{"dtype", attr::type(tf::DT_FLOAT)}}, "gather32");
        QVERIFY2(gathered32.has_value(), err(gathered32));
        auto disable = b.op("DisableCopyOnRead", {table->output(0)}, {}, "disable");
        QVERIFY2(disable.has_value(), err(disable));
        auto loss = ops::sum(b, gathered->output(0), *ops::constantInts(b, {0, 1}, TensorShape({2})));
        QVERIFY2(loss.has_value(), err(loss));
        auto grads = addSymbolicGradients(b, {*loss}, {table->output(0)});
        QVERIFY2(grads.has_value(), err(grads));
        QVERIFY((*grads)[0].has_value());

        Session session(sessionOptions());
        QVERIFY2(session.create(b.toGraphDef()).isOk(), "create");
        std::vector<Tensor> out;
        // Before the variable exists, DisableCopyOnRead says so, as TensorFlow's lookup does.
        Status s = session.run({}, {}, {"disable"}, &out);
        QVERIFY2(!s.isOk() && s.code() == StatusCode::kNotFound, err(s));
        std::vector<float> rows;
        for (int r = 0; r < 4; ++r)
            rows.insert(rows.end(), {float(r * 10), float(r * 10 + 1)});
        s = session.run({{"init", Tensor::fromVector<float>(m_allocator, TensorShape({4, 2}), rows).value()}}, {},
                        {"assign"}, &out);
        QVERIFY2(s.isOk(), err(s));
        QVERIFY2(session.run({}, {}, {"disable"}, &out).isOk(), "DisableCopyOnRead on an existing variable");

        const Tensor picks = Tensor::fromVector<std::int64_t>(m_allocator, TensorShape({2, 2}), {3, 0, 1, 1}).value();
        s = session.run({{"ids", picks}},
                        {"gather:0", (*grads)[0]->node() + ":" + std::to_string((*grads)[0]->index())}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QVERIFY(out[0].shape() == TensorShape({2, 2, 2}));
        const auto g = out[0].values<float>();
        QCOMPARE(std::vector<float>(g.begin(), g.end()), (std::vector<float>{30, 31, 0, 1, 10, 11, 10, 11}));
        QVERIFY(out[1].shape() == TensorShape({4, 2}));
        const auto d = out[1].values<float>();
        QCOMPARE(std::vector<float>(d.begin(), d.end()), (std::vector<float>{1, 1, 2, 2, 0, 0, 1, 1}));

        s = session.run({{"ids32", Tensor::fromVector<std::int32_t>(m_allocator, TensorShape({1}), {2}).value()}},
                        {"gather32:0"}, {}, &out);
        QVERIFY2(s.isOk(), err(s));
        QCOMPARE(out[0].values<float>()[1], 21.0f);
        s = session.run({{"ids", Tensor::fromVector<std::int64_t>(m_allocator, TensorShape({2}), {1, 4}).value()}},
                        {"gather:0"}, {}, &out);
        QVERIFY(!s.isOk());
        QVERIFY2(s.message().find("indices[1] = 4 is not in [0, 4)") != std::string::npos, err(s));
    }

    void realTensorFlow2SavedModel()
    {
        const QString fixtures = fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: no TensorFlow 2 SavedModel to check");
        std::vector<fs::path> found;
        QDirIterator it(fixtures, {"saved_model.pb"}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const fs::path dir = fs::path(it.next().toStdString()).parent_path();
            auto model = formats::readSavedModel(dir);
            if (model && model->meta_graphs_size() > 0 && hasObjectGraph(model->meta_graphs(0)))
                found.push_back(dir);
        }
        if (found.empty())
            QSKIP("the fixtures hold no TensorFlow 2 SavedModel (no saved_model.pb with an object graph)");
        bool sawClassify = false;
        for (const fs::path& dir : found) {
            // Every export loads (its saver functions use ops that only the saver's own call
            // reaches) and each of its signatures runs on zeros of its inputs' shapes (unknown
            // dimensions 1; strings empty, an empty tf.Example for the serving models), giving
            // finite outputs. The values themselves are checked in test_saved_model_fixtures, and
            // the classify model's (map_fn over TensorLists in a StatelessWhile) below.
            auto bundle = load(dir);
            QVERIFY2(bundle.has_value(), qPrintable(QString::fromStdString(dir.string() + ": " + err(bundle))));
            int ran = 0;
            for (const SignatureInfo& signature : (*bundle)->signatures()) {
                if (signature.key == "__saved_model_init_op")
                    continue;
                std::map<std::string, Tensor> inputs;
                for (const SignatureTensor& t : signature.inputs) {
                    std::vector<std::int64_t> dims;
                    for (int d = 0; d < t.shape.rank(); ++d)
                        dims.push_back(t.shape.dim(d) < 0 ? 1 : t.shape.dim(d));
                    auto zeros = Tensor::allocate(m_allocator, t.dtype, TensorShape(dims));
                    QVERIFY2(zeros.has_value(), err(zeros));
                    inputs.emplace(t.key, *zeros);
                }
                auto outputs = (*bundle)->runSignature(signature.key, inputs);
                QVERIFY2(outputs.has_value(),
                         qPrintable(QString::fromStdString(dir.string() + " " + signature.key + ": " + err(outputs))));
                for (const auto& [key, value] : *outputs)
                    if (value.dtype() == tf::DT_FLOAT)
                        for (float v : value.values<float>())
                            QVERIFY2(std::isfinite(v), key.c_str());
                ++ran;
            }
            QVERIFY2(ran > 0, dir.string().c_str());
            if (dir.parent_path().filename() != "classify_model")
                continue;
            // tf2-module-serving/classify_model (fixtures README): ParseExampleV2 of `picture`
            // (784 floats, default zeros), Sum over axis 1, then map_fn whose step answers "HotDog"
            // when the sum is > 100 and "Not Hotdog" otherwise. 784 ones and an empty Example are
            // the README's cases; 100 and 101 ones sit on either side of the threshold.
            sawClassify = true;
            auto example = [](int ones) {
                tf::Example e;
                if (ones >= 0) {
                    tf::Feature& picture = (*e.mutable_features()->mutable_feature())["picture"];
                    for (int i = 0; i < 784; ++i)
                        picture.mutable_float_list()->add_value(i < ones ? 1.0f : 0.0f);
                }
                return e.SerializeAsString();
            };
            const std::vector<std::string> examples = {example(784), example(-1), example(100), example(101)};
            auto batch = Tensor::fromVector<std::string>(m_allocator, TensorShape({4}), examples);
            QVERIFY2(batch.has_value(), err(batch));
            auto classes = (*bundle)->runSignature("classify_signature", {{"inputs", *batch}});
            QVERIFY2(classes.has_value(), err(classes));
            const Tensor& out = classes->at("classes");
            QCOMPARE(int(out.dtype()), int(tf::DT_STRING));
            QVERIFY2(out.shape() == TensorShape({4, 1}), out.shape().toString().c_str());
            const auto got = out.values<std::string>();
            QCOMPARE(std::vector<std::string>(got.begin(), got.end()),
                     (std::vector<std::string>{"HotDog", "Not Hotdog", "Not Hotdog", "HotDog"}));
            // An empty batch maps to an empty [0, 1] result (the stacked list's element shape is known).
            auto none = Tensor::fromVector<std::string>(m_allocator, TensorShape({0}), {});
            QVERIFY2(none.has_value(), err(none));
            auto empty = (*bundle)->runSignature("classify_signature", {{"inputs", *none}});
            QVERIFY2(empty.has_value(), err(empty));
            QVERIFY2(empty->at("classes").shape() == TensorShape({0, 1}),
                     empty->at("classes").shape().toString().c_str());
        }
        if (fs::exists(fs::path(fixtures.toStdString()) / "tf2-module-serving/classify_model/1/saved_model.pb"))
            QVERIFY2(sawClassify, "tf2-module-serving/classify_model/1 exists but was not found as a TF 2 export");
    }
};

QTEST_GUILESS_MAIN(TestSavedModelTf2)
#include "test_saved_model_tf2.moc"
