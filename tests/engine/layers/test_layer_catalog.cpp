// The layer catalogue: each layer node expands to the nodes the engine's layer / loss / optimizer API
// builds (TensorFlow 1.15's names), bad params give the documented errors, and the book's MNIST network
// built from layer nodes matches the forward part of TensorFlow's tf1-mnist-book meta graph and trains.
#include "../../support/book_training.h"
#include "../../support/graph_def_nodes.h"
#include "../../support/model_test_support.h"
#include "../../support/test_files.h"
#include "builder/collections.h"
#include "builder/learning_phase.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "data/mnist.h"
#include "layer_test_support.h"
#include "layers/batch_normalization.h"
#include "layers/conv2d.h"
#include "layers/conv2d_transpose.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/data_source_nodes.h"
#include "layers/flatten.h"
#include "layers/layer_catalog.h"
#include "layers/pooling.h"
#include "losses/losses.h"
#include "model/meta_graph.h"
#include "training/adam.h"
#include "training/global_step.h"
#include "training/gradient_descent.h"

#include <QDir>
#include <QtTest>

#include <functional>
#include <map>
#include <set>
#include <tuple>

using namespace tstudio;
using namespace tstudio::layers;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

using tstudio::testing::dependenciesOf;
using tstudio::testing::describeGraph;

namespace {

tf::AttrValue ints(std::initializer_list<std::int64_t> values)
{
    tf::AttrValue v;
    for (std::int64_t x : values)
        v.mutable_list()->add_i(x);
    return v;
}

} // namespace

class TestLayerCatalog : public QObject {
    Q_OBJECT

private:
    const Registries* m_registries = nullptr;

    /// A builder holding the placeholder "x" of `shape`.
    std::unique_ptr<GraphBuilder> builderWithX(const TensorShape& shape, Output* x)
    {
        auto b = std::make_unique<GraphBuilder>(m_registries->ops);
        auto made = ops::placeholder(*b, tf::DT_FLOAT, shape, "x");
        if (made)
            *x = *made;
        return b;
    }

    /// The layer node against the engine's own API called the same way on the same input.
    void compareWithApi(const QString& what, const TensorShape& shape, const std::string& type, const std::string& name,
                        const Params& params, const std::function<Expected<Output>(GraphBuilder&, const Output&)>& api)
    {
        Output x1, x2;
        auto b1 = builderWithX(shape, &x1);
        auto b2 = builderWithX(shape, &x2);
        auto viaCatalog = expandLayer(*b1, type, name, params, {x1});
        QVERIFY2(viaCatalog, qPrintable(what + ": " + testing::err(viaCatalog)));
        auto viaApi = api(*b2, x2);
        QVERIFY2(viaApi, qPrintable(what + ": " + testing::err(viaApi)));
        QCOMPARE(viaCatalog->size(), std::size_t(1));
        QCOMPARE(viaCatalog->front().name(), viaApi->name());
        QCOMPARE(viaCatalog->front().shape(), viaApi->shape());
        QCOMPARE(describeGraph(b1->graphDef()), describeGraph(b2->graphDef()));
        QVERIFY2(b1->graphDef().node_size() >= 2, qPrintable(what));
    }

    /// Names and ops of the nodes `expandLayer` added after the placeholder "x".
    QStringList expandNodes(const TensorShape& shape, const std::string& type, const std::string& name,
                            const Params& params, std::vector<Output>* outputs = nullptr, int extraInputs = 0)
    {
        Output x;
        auto b = builderWithX(shape, &x);
        std::vector<Output> inputs{x};
        for (int i = 0; i < extraInputs; ++i)
            inputs.push_back(*ops::placeholder(*b, tf::DT_FLOAT, shape, "x" + std::to_string(i + 1)));
        auto out = expandLayer(*b, type, name, params, inputs);
        if (!out)
            return {QString::fromStdString("error: " + out.error().toString())};
        if (outputs)
            *outputs = *out;
        QStringList lines;
        for (const tf::NodeDef& n : b->graphDef().node())
            if (n.op() != "Placeholder")
                lines << QString::fromStdString(n.name() + " " + n.op());
        return lines;
    }

    /// The error text of expanding `type` with `params` on an [?, 4] input.
    std::string expandError(const std::string& type, const std::string& name, const Params& params, int inputCount = 1,
                            const TensorShape& shape = TensorShape{-1, 4})
    {
        Output x;
        auto b = builderWithX(shape, &x);
        std::vector<Output> inputs(static_cast<std::size_t>(inputCount), x);
        auto out = expandLayerNode(*b, type, name, params, inputs);
        return out ? std::string("no error") : out.error().toString();
    }

    /// The error text ("no error" when it builds) of loss `type` named "loss" fed `labels` and `logits`,
    /// picked by name from a fresh builder: placeholders "ids" int64 [?], "idcol" int64 [?,1], "ids2"
    /// int64 [?,10], "ids3" int64 [?,4,10], "onehot" float32 [?,10], "ionehot" int32 [?,10], "fvec"
    /// float32 [?], "ilogits" int32 [?,10], and "dense", a Dense(10) over the placeholder "x" [?,4]
    /// (computed from trainable variables).
    std::string lossError(const std::string& type, const Params& params, const std::string& labels,
                          const std::string& logits)
    {
        Output x;
        auto b = builderWithX(TensorShape{-1, 4}, &x);
        std::map<std::string, Output> tensors;
        const std::vector<std::tuple<std::string, tf::DataType, TensorShape>> placeholders{
            {"ids", tf::DT_INT64, TensorShape{-1}},          {"idcol", tf::DT_INT64, TensorShape{-1, 1}},
            {"ids2", tf::DT_INT64, TensorShape{-1, 10}},     {"ids3", tf::DT_INT64, TensorShape{-1, 4, 10}},
            {"onehot", tf::DT_FLOAT, TensorShape{-1, 10}},   {"ionehot", tf::DT_INT32, TensorShape{-1, 10}},
            {"fvec", tf::DT_FLOAT, TensorShape{-1}},         {"ilogits", tf::DT_INT32, TensorShape{-1, 10}}};
        for (const auto& [name, dtype, shape] : placeholders) {
            auto made = ops::placeholder(*b, dtype, shape, name);
            if (!made)
                return "placeholder " + name + ": " + made.error().toString();
            tensors[name] = *made;
        }
        auto dense = expandLayer(*b, "Dense", "", {{"units", attr::i(10)}}, {x});
        if (!dense)
            return "dense: " + dense.error().toString();
        tensors["dense"] = dense->at(0);
        auto out = expandLayerNode(*b, type, "loss", params, {tensors.at(labels), tensors.at(logits)});
        return out ? std::string("no error") : out.error().toString();
    }

    /// The book's network (models/book_mnist.cpp) from layer nodes only.
    struct BookNet {
        std::unique_ptr<GraphBuilder> b;
        Output loss;
        Operation train;
    };
    Expected<BookNet> buildBookNetwork()
    {
        BookNet net;
        net.b = std::make_unique<GraphBuilder>(m_registries->ops);
        GraphBuilder& b = *net.b;
        b.setRandomSeed(1);
        const Params input{{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(TensorShape{-1, 784})}};
        TSTUDIO_TRY(x, expandLayer(b, "Input", "x-input", input, {}));
        const Params labels{{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(TensorShape{-1, 10})}};
        TSTUDIO_TRY(y, expandLayer(b, "Input", "y-input", labels, {}));
        TSTUDIO_TRY(hidden, expandLayer(b, "Dense", "layer1", testing::bookDenseParams(500, "relu"), {x[0]}));
        TSTUDIO_TRY(logits, expandLayer(b, "Dense", "layer2", testing::bookDenseParams(10, "none"), {hidden[0]}));
        TSTUDIO_TRY(loss, expandLayer(b, "SoftmaxCrossEntropy", "", {}, {y[0], logits[0]}));
        const Params optimizer = testing::bookOptimizerParams();
        TSTUDIO_TRY(train, expandLayerNode(b, "GradientDescent", "", optimizer, {loss[0]}));
        TSTUDIO_TRY(init, globalVariablesInitializer(b));
        (void)init;
        net.loss = loss[0];
        net.train = train.targets.at(0);
        return net;
    }

private slots:
    void initTestCase()
    {
        m_registries = testing::layerRegistries();
        QVERIFY(m_registries);
    }

    void catalogueIsComplete()
    {
        const std::vector<std::string> expected{"Input",
                                                "Dataset",
                                                "MnistSource",
                                                "SpiralsSource",
                                                "ImageFolderSource",
                                                "NumpySource",
                                                "CsvSource",
                                                "TfRecordSource",
                                                "Dense",
                                                "Embedding",
                                                "RNN",
                                                "Conv2D",
                                                "Conv2DTranspose",
                                                "MaxPool",
                                                "AvgPool",
                                                "BatchNorm",
                                                "Dropout",
                                                "Flatten",
                                                "Reshape",
                                                "Concat",
                                                "Add",
                                                "Cond",
                                                "Relu",
                                                "Relu6",
                                                "Elu",
                                                "Sigmoid",
                                                "Tanh",
                                                "Softmax",
                                                "LeakyRelu",
                                                "SoftmaxCrossEntropy",
                                                "SparseSoftmaxCrossEntropy",
                                                "MeanSquaredError",
                                                "NCELoss",
                                                "SampledSoftmaxLoss",
                                                "SequenceLoss",
                                                "GradientDescent",
                                                "Momentum",
                                                "Adam",
                                                "LazyAdam",
                                                "RMSProp",
                                                "Adagrad",
                                                "ScalarSummary",
                                                "HistogramSummary",
                                                "ImageSummary",
                                                "AudioSummary",
                                                "TextSummary"};
        std::vector<std::string> types;
        const std::set<std::string> categories{"Input", "Layers", "Activations", "Losses", "Training", "Summaries"};
        for (const LayerType& t : layerCatalog()) {
            types.push_back(t.type);
            QVERIFY2(categories.count(t.category), t.type.c_str());
            QVERIFY2(!t.doc.empty(), t.type.c_str());
            QCOMPARE(static_cast<int>(t.outputNames.size()), t.outputs);
            QCOMPARE(static_cast<int>(t.inputNames.size()), t.inputs < 0 ? 1 : t.inputs);
            // Only Input binds to a data source; binding ports follow a fixed number of inputs.
            QCOMPARE(t.bindingNames, t.type == "Input" ? std::vector<std::string>{"data"} : std::vector<std::string>{});
            for (const LayerParam& p : t.params) {
                QVERIFY2(p.defaultValue.value_case() != tf::AttrValue::VALUE_NOT_SET, p.name.c_str());
                if (!p.choices.empty())
                    QVERIFY2(std::count(p.choices.begin(), p.choices.end(), p.defaultValue.s()) == 1, p.name.c_str());
            }
            // The defaults themselves are valid.
            QVERIFY2(validateLayerParams(t.type, "n", {}).isOk(),
                     validateLayerParams(t.type, "n", {}).toString().c_str());
            QCOMPARE(findLayerType(t.type), &t);
        }
        QCOMPARE(types, expected);
        QCOMPARE(findLayerType("dense"), nullptr);
        QCOMPARE(validateLayerParams("Dense2", "x", {}).toString(),
                 std::string("NotFound: unknown layer type 'Dense2'"));
    }

    void tfLayersTypesExpandAsTheLayerApi()
    {
        compareWithApi("dense", TensorShape{-1, 4}, "Dense", "",
                       {{"units", attr::i(5)}, {"activation", attr::s("relu")}}, [](GraphBuilder& b, const Output& x) {
                           DenseOptions o;
                           o.units = 5;
                           o.activation = Activation::kRelu;
                           return dense(b, x, o);
                       });
        compareWithApi("dense rank 3, named, l2", TensorShape{2, 3, 4}, "Dense", "fc",
                       {{"units", attr::i(3)}, {"kernel_regularizer_l2", attr::f(0.5f)}, {"use_bias", attr::b(false)}},
                       [](GraphBuilder& b, const Output& x) {
                           DenseOptions o;
                           o.units = 3;
                           o.name = "fc";
                           o.useBias = false;
                           o.kernelRegularizer = l2Regularizer(0.5);
                           return dense(b, x, o);
                       });
        compareWithApi("conv2d", TensorShape{-1, 8, 8, 3}, "Conv2D", "",
                       {{"filters", attr::i(4)},
                        {"kernel_size", attr::i(3)},
                        {"padding", attr::s("same")},
                        {"strides", ints({2, 1})},
                        {"activation", attr::s("tanh")}},
                       [](GraphBuilder& b, const Output& x) {
                           Conv2DOptions o;
                           o.filters = 4;
                           o.kernelSize = {3, 3};
                           o.strides = {2, 1};
                           o.padding = "same";
                           o.activation = Activation::kTanh;
                           return conv2d(b, x, o);
                       });
        compareWithApi("conv2d_transpose", TensorShape{-1, 4, 4, 3}, "Conv2DTranspose", "up",
                       {{"filters", attr::i(2)},
                        {"kernel_size", attr::i(3)},
                        {"padding", attr::s("same")},
                        {"strides", attr::i(2)},
                        {"activation", attr::s("relu")}},
                       [](GraphBuilder& b, const Output& x) {
                           Conv2DTransposeOptions o;
                           o.filters = 2;
                           o.kernelSize = {3, 3};
                           o.strides = {2, 2};
                           o.padding = "same";
                           o.activation = Activation::kRelu;
                           o.name = "up";
                           return conv2dTranspose(b, x, o);
                       });
        compareWithApi("max pool", TensorShape{-1, 8, 8, 3}, "MaxPool", "pool1", {{"pool_size", ints({3, 3})}},
                       [](GraphBuilder& b, const Output& x) {
                           return maxPooling2d(b, x, {.poolSize = {3, 3}, .strides = {2, 2}, .name = "pool1"});
                       });
        compareWithApi("avg pool", TensorShape{-1, 8, 8, 3}, "AvgPool", "", {{"padding", attr::s("same")}},
                       [](GraphBuilder& b, const Output& x) {
                           return averagePooling2d(b, x, {.poolSize = {2, 2}, .strides = {2, 2}, .padding = "same"});
                       });
        compareWithApi("batch norm", TensorShape{-1, 4, 4, 3}, "BatchNorm", "bn",
                       {{"learning_phase", attr::b(false)}, {"training", attr::b(true)}, {"momentum", attr::f(0.9f)}},
                       [](GraphBuilder& b, const Output& x) {
                           BatchNormalizationOptions o;
                           o.momentum = static_cast<double>(0.9f);
                           o.name = "bn";
                           return batchNormalization(b, x, o, true);
                       });
        compareWithApi(
            "dropout", TensorShape{-1, 4}, "Dropout", "",
            {{"learning_phase", attr::b(false)}, {"training", attr::b(true)}, {"rate", attr::f(0.25f)}},
            [](GraphBuilder& b, const Output& x) { return dropout(b, x, {.rate = static_cast<double>(0.25f)}, true); });
        // By default BatchNorm and Dropout follow the graph's learning phase (a cond on "learning_phase").
        compareWithApi("batch norm, learning phase", TensorShape{-1, 4, 4, 3}, "BatchNorm", "bn",
                       {{"momentum", attr::f(0.9f)}}, [](GraphBuilder& b, const Output& x) -> Expected<Output> {
                           TSTUDIO_TRY(phase, learningPhase(b));
                           BatchNormalizationOptions o;
                           o.momentum = static_cast<double>(0.9f);
                           o.name = "bn";
                           return batchNormalization(b, x, o, phase);
                       });
        compareWithApi("dropout, learning phase", TensorShape{-1, 4}, "Dropout", "", {{"rate", attr::f(0.25f)}},
                       [](GraphBuilder& b, const Output& x) -> Expected<Output> {
                           TSTUDIO_TRY(phase, learningPhase(b));
                           return dropout(b, x, {.rate = static_cast<double>(0.25f)}, phase);
                       });
        compareWithApi("flatten", TensorShape{-1, 2, 3, 4}, "Flatten", "", {},
                       [](GraphBuilder& b, const Output& x) { return flatten(b, x); });
    }

    void opTypesHaveTensorFlowsNames()
    {
        // tf.reshape(x, [-1, 2, 2], name="r"): the shape Const converts inside the op's scope.
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Reshape", "r", {{"shape", ints({-1, 2, 2})}}),
                 QStringList({"r/shape Const", "r Reshape"}));
        std::vector<Output> out;
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Reshape", "", {{"shape", ints({-1, 2, 2})}}, &out),
                 QStringList({"Reshape/shape Const", "Reshape Reshape"}));
        QCOMPARE(out.at(0).shape(), (TensorShape{-1, 2, 2}));
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Concat", "", {}, &out, 1),
                 QStringList({"concat/axis Const", "concat ConcatV2"}));
        QCOMPARE(out.at(0).shape(), (TensorShape{-1, 8}));
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Add", "", {}, &out, 2), QStringList({"AddN AddN"}));
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Add", "sum", {{"op", attr::s("Add")}}, &out, 1),
                 QStringList({"sum Add"}));
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Add", "", {}, &out), QStringList());
        QCOMPARE(out.at(0).name(), std::string("x:0")); // tf.add_n([x]) is x
        for (const char* type : {"Relu", "Relu6", "Elu", "Sigmoid", "Tanh", "Softmax", "LeakyRelu"})
            QCOMPARE(expandNodes(TensorShape{-1, 4}, type, "", {}), QStringList(QString(type) + " " + type));
        QCOMPARE(expandNodes(TensorShape{-1, 4}, "Relu", "act", {}), QStringList("act Relu"));

        // LeakyRelu's alpha is the op's attr.
        Output x;
        auto b = builderWithX(TensorShape{-1, 4}, &x);
        QVERIFY(expandLayer(*b, "LeakyRelu", "", {{"alpha", attr::f(0.3f)}}, {x}));
        QCOMPARE(b->findNode("LeakyRelu")->attr().at("alpha").f(), 0.3f);

        // Input and Dataset are placeholders.
        auto in = expandLayer(*b, "Input", "images",
                              {{"dtype", attr::type(tf::DT_INT32)}, {"shape", attr::shape(TensorShape{-1, 3})}}, {});
        QVERIFY2(in, testing::err(in));
        QCOMPARE(in->at(0).name(), std::string("images:0"));
        QCOMPARE(in->at(0).dtype(), tf::DT_INT32);
        QCOMPARE(in->at(0).shape(), (TensorShape{-1, 3}));
        auto data = expandLayer(*b, "Dataset", "mnist", {{"labels", attr::s("one_hot")}}, {});
        QVERIFY2(data, testing::err(data));
        QCOMPARE(data->size(), std::size_t(2));
        QCOMPARE(data->at(0).name(), std::string("mnist/images:0"));
        QCOMPARE(data->at(0).shape(), (TensorShape{-1, 784}));
        QCOMPARE(data->at(1).name(), std::string("mnist/labels:0"));
        QCOMPARE(data->at(1).dtype(), tf::DT_FLOAT);
        QCOMPARE(data->at(1).shape(), (TensorShape{-1, 10}));
        auto sparse = expandLayer(*b, "Dataset", "", {}, {});
        QVERIFY2(sparse, testing::err(sparse));
        QCOMPARE(sparse->at(1).name(), std::string("dataset/labels:0"));
        QCOMPARE(sparse->at(1).dtype(), tf::DT_INT64);
        QCOMPARE(sparse->at(1).shape(), (TensorShape{-1}));
    }

    /// Each data-source node is one placeholder "<name>/<component>" per component, dtype and shape
    /// from its params alone (the files named are never opened), ports named after the components.
    void dataSourceNodesExpandToPlaceholders()
    {
        struct Case {
            std::string type;
            Params params;
            std::vector<std::tuple<std::string, tf::DataType, TensorShape>> placeholders;
        };
        const std::vector<Case> cases{
            {"MnistSource",
             {{"set", attr::s("t10k")}, {"labels", attr::s("one_hot")}, {"dir", attr::s("/nowhere")}},
             {{"images", tf::DT_FLOAT, TensorShape{-1, 784}}, {"labels", tf::DT_FLOAT, TensorShape{-1, 10}}}},
            {"MnistSource",
             {{"scale", attr::b(false)}},
             {{"images", tf::DT_UINT8, TensorShape{-1, 784}}, {"labels", tf::DT_INT64, TensorShape{-1}}}},
            {"SpiralsSource",
             {{"labels", attr::s("one_hot")}},
             {{"points", tf::DT_FLOAT, TensorShape{-1, 2}}, {"labels", tf::DT_FLOAT, TensorShape{-1, 2}}}},
            {"ImageFolderSource",
             {{"dir", attr::s("flowers")}, {"height", attr::i(32)}, {"width", attr::i(48)}, {"channels", attr::i(1)},
              {"labels", attr::s("one_hot")}, {"classes", attr::i(5)}},
             {{"images", tf::DT_FLOAT, TensorShape{-1, 32, 48, 1}}, {"labels", tf::DT_FLOAT, TensorShape{-1, 5}}}},
            {"NumpySource",
             {{"files", attr::s("a.npy, b.npy, c.npy")}, {"components", attr::s("a:float64:28x28x1, b:int32, c:uint8:3")}},
             {{"a", tf::DT_DOUBLE, TensorShape{-1, 28, 28, 1}},
              {"b", tf::DT_INT32, TensorShape{-1}},
              {"c", tf::DT_UINT8, TensorShape{-1, 3}}}},
            {"CsvSource",
             {{"files", attr::s("d.csv")}, {"columns", attr::s("age:int64=0, name:string, h:float64")}},
             {{"age", tf::DT_INT64, TensorShape{-1}},
              {"name", tf::DT_STRING, TensorShape{-1}},
              {"h", tf::DT_DOUBLE, TensorShape{-1}}}},
            {"TfRecordSource",
             {{"files", attr::s("d.tfrecord")}, {"features", attr::s("image:float32:784, label:int64=-1")}},
             {{"image", tf::DT_FLOAT, TensorShape{-1, 784}}, {"label", tf::DT_INT64, TensorShape{-1}}}},
        };
        for (const Case& c : cases) {
            auto b = std::make_unique<GraphBuilder>(m_registries->ops);
            auto made = expandLayerNode(*b, c.type, "data", c.params, {});
            QVERIFY2(made, (c.type + ": " + testing::err(made)).c_str());
            QVERIFY(made->targets.empty());
            QCOMPARE(made->outputs.size(), c.placeholders.size());
            std::vector<std::string> ports;
            for (std::size_t k = 0; k < c.placeholders.size(); ++k) {
                const auto& [component, dtype, shape] = c.placeholders[k];
                const Output& out = made->outputs[k];
                QCOMPARE(out.name(), "data/" + component + ":0");
                QCOMPARE(out.dtype(), dtype);
                QCOMPARE(out.shape(), shape);
                QCOMPARE(b->findNode("data/" + component)->op(), std::string("Placeholder"));
                ports.push_back(component);
            }
            QCOMPARE(layerOutputNames(*findLayerType(c.type), c.params), ports);
            QCOMPARE(b->nodeCount(), static_cast<int>(c.placeholders.size()));
        }
        // Without a name, the scope is the kind's ("mnist", "numpy", ...).
        auto b = std::make_unique<GraphBuilder>(m_registries->ops);
        auto unnamed = expandLayer(*b, "NumpySource", "", {}, {});
        QVERIFY2(unnamed, testing::err(unnamed));
        QCOMPARE(unnamed->at(0).name(), std::string("numpy/x:0"));
        QCOMPARE(unnamed->at(0).shape(), (TensorShape{-1, 784}));
        // The component lists and ranges are checked by validateLayerParams and the expansion alike.
        const std::vector<std::pair<std::pair<std::string, Params>, std::string>> bad{
            {{"NumpySource", {{"components", attr::s("x:float32, y:int65")}}},
             "layer 'data' (NumpySource): param 'components' entry 2 ('y:int65'): unknown dtype 'int65' (expected "
             "one of float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64, bool)"},
            {{"NumpySource", {{"components", attr::s("x:float32, x:int64")}}},
             "layer 'data' (NumpySource): param 'components': 'x' is named twice"},
            {{"NumpySource", {{"components", attr::s("x:float32:28by28")}}},
             "layer 'data' (NumpySource): param 'components' entry 1 ('x:float32:28by28'): shape '28by28' is not "
             "sizes joined by x (e.g. 28x28)"},
            {{"NumpySource", {{"components", attr::s(" , ")}}},
             "layer 'data' (NumpySource): param 'components' is empty; expected comma-separated name:dtype[:shape] "
             "entries, the shape's sizes joined by x (28x28x1; none for a scalar)"},
            {{"CsvSource", {{"columns", attr::s("a:float32:3")}}},
             "layer 'data' (CsvSource): param 'columns' entry 1 ('a:float32:3'): columns are scalars; no shape is "
             "taken"},
            {{"CsvSource", {{"field_delim", attr::s(";;")}}},
             "layer 'data' (CsvSource): param 'field_delim' must be one character, got ';;'"},
            {{"TfRecordSource", {{"features", attr::s("x:float32:2=0")}}},
             "layer 'data' (TfRecordSource): param 'features' entry 1 ('x:float32:2=0'): only scalar entries take a "
             "default"},
            {{"ImageFolderSource", {{"labels", attr::s("one_hot")}}},
             "layer 'data' (ImageFolderSource): param 'classes' must be positive for one_hot labels (the number of "
             "class folders), got 0"},
            {{"ImageFolderSource", {{"channels", attr::i(4)}}},
             "layer 'data' (ImageFolderSource): param 'channels' must be 1 (grey) or 3 (RGB), got 4"},
            {{"MnistSource", {{"take", attr::i(0)}}},
             "layer 'data' (MnistSource): param 'take' must be -1 (all) or positive, got 0"},
            {{"MnistSource", {{"set", attr::s("test")}}},
             "layer 'data' (MnistSource): param 'set' must be one of train, t10k; got 'test'"},
        };
        for (const auto& [typed, message] : bad) {
            const auto& [type, params] = typed;
            QCOMPARE(validateLayerParams(type, "data", params).message(), message);
            auto b2 = std::make_unique<GraphBuilder>(m_registries->ops);
            auto made = expandLayer(*b2, type, "data", params, {});
            QVERIFY(!made);
            QCOMPARE(made.error().message(), message);
        }
    }

    /// An Input bound to a data-source component: the same dtype, and known dimensions that agree
    /// with [?] + the example shape. One line per case: Input dtype and shape; component dtype and
    /// example shape; "" when it fits, else the message.
    void sourceBindingsFitByDtypeAndKnownDims()
    {
        const auto f32 = tf::DT_FLOAT;
        const auto u8 = tf::DT_UINT8;
        const auto i64 = tf::DT_INT64;
        const std::string tail = ": bound to it through port 'data', the Input needs dtype ";
        const std::vector<std::tuple<tf::DataType, TensorShape, tf::DataType, TensorShape, std::string>> cases{
            {f32, TensorShape{-1, 784}, f32, TensorShape{784}, ""},
            {f32, TensorShape{100, 784}, f32, TensorShape{784}, ""}, // the batch is checked when training starts
            {f32, TensorShape{-1, -1}, f32, TensorShape{784}, ""},
            {f32, TensorShape::unknown(), f32, TensorShape{28, 28, 1}, ""},
            {i64, TensorShape{-1}, i64, TensorShape::scalar(), ""},
            {f32, TensorShape{-1, 784}, u8, TensorShape{784},
             "Input 'input' is float32 [?,784] but port 'images' of 'mnist' is uint8 [?,784]" + tail +
                 "uint8 and a shape that fits [?,784], such as [-1,784]"},
            {f32, TensorShape{-1, 28, 28, 1}, f32, TensorShape{784},
             "Input 'input' is float32 [?,28,28,1] but port 'images' of 'mnist' is float32 [?,784]" + tail +
                 "float32 and a shape that fits [?,784], such as [-1,784]"},
            {f32, TensorShape{-1, 10}, f32, TensorShape{784},
             "Input 'input' is float32 [?,10] but port 'images' of 'mnist' is float32 [?,784]" + tail +
                 "float32 and a shape that fits [?,784], such as [-1,784]"},
            {f32, TensorShape{-1}, i64, TensorShape::scalar(),
             "Input 'input' is float32 [?] but port 'images' of 'mnist' is int64 [?]" + tail +
                 "int64 and a shape that fits [?], such as [-1]"},
        };
        for (const auto& [dtype, shape, componentDtype, example, message] : cases) {
            SourceComponent component{"images", componentDtype, example, ""};
            const Status s = checkSourceBinding("input", dtype, shape, "mnist", component);
            QCOMPARE(s.isOk() ? std::string() : s.message(), message);
        }
    }

    void denseVariantsRenameAsAsked()
    {
        // tf.layers naming with the book's pieces: LayerScope, add_weight's regularizer scope.
        QCOMPARE(
            expandNodes(TensorShape{-1, 4}, "Dense", "",
                        {{"units", attr::i(2)},
                         {"bias_op", attr::s("Add")},
                         {"kernel_name", attr::s("w")},
                         {"kernel_initializer", attr::s("zeros")},
                         {"kernel_regularizer_l2", attr::f(0.1f)}}),
            QStringList({"dense/w/Initializer/zeros Const", "dense/w VariableV2", "dense/w/Assign Assign",
                         "dense/w/read Identity", "dense/w/Regularizer/l2_regularizer/scale Const",
                         "dense/w/Regularizer/l2_regularizer/L2Loss L2Loss", "dense/w/Regularizer/l2_regularizer Mul",
                         "dense/bias/Initializer/zeros Const", "dense/bias VariableV2", "dense/bias/Assign Assign",
                         "dense/bias/read Identity", "dense/MatMul MatMul", "dense/add Add"}));
        // The book's tf.variable_scope form: the penalty in the scope, in the "losses" collection.
        Output x;
        auto b = builderWithX(TensorShape{-1, 4}, &x);
        auto y = expandLayer(*b, "Dense", "layer1",
                             {{"units", attr::i(3)},
                              {"scope", attr::s("variable_scope")},
                              {"kernel_name", attr::s("weights")},
                              {"bias_name", attr::s("biases")},
                              {"bias_op", attr::s("Add")},
                              {"activation", attr::s("relu")},
                              {"kernel_regularizer_l2", attr::f(0.01f)},
                              {"bias_initializer", attr::s("constant")}},
                             {x});
        QVERIFY2(y, testing::err(y));
        QCOMPARE(y->at(0).name(), std::string("layer1/Relu:0"));
        QCOMPARE(y->at(0).shape(), (TensorShape{-1, 3}));
        for (const char* n :
             {"layer1/weights", "layer1/biases", "layer1/l2_regularizer", "layer1/biases/Initializer/Const"})
            QVERIFY2(b->findNode(n), n);
        QCOMPARE(b->findNode("layer1/add")->input(1), std::string("layer1/biases/read"));
        const auto losses = b->collections().get(graph_keys::kLosses);
        QCOMPARE(losses.size(), std::size_t(1));
        QCOMPARE(collectionItemName(losses[0]), std::string("layer1/l2_regularizer:0"));
        QVERIFY(b->collections().get(graph_keys::kRegularizationLosses).empty());
    }

    void lossesAndOptimizersUseTheirApis()
    {
        Output x1, x2;
        auto b1 = builderWithX(TensorShape{-1, 3}, &x1);
        auto b2 = builderWithX(TensorShape{-1, 3}, &x2);
        auto labels1 = ops::placeholder(*b1, tf::DT_INT64, TensorShape{-1}, "labels");
        auto labels2 = ops::placeholder(*b2, tf::DT_INT64, TensorShape{-1}, "labels");
        QVERIFY(labels1 && labels2);
        auto logits1 = expandLayer(*b1, "Dense", "", {{"units", attr::i(3)}}, {x1});
        QVERIFY2(logits1, testing::err(logits1));
        auto loss1 = expandLayer(*b1, "SoftmaxCrossEntropy", "xent",
                                 {{"sparse", attr::b(true)}, {"reduction", attr::s("weighted_mean")}},
                                 {*labels1, logits1->at(0)});
        QVERIFY2(loss1, testing::err(loss1));
        auto train1 = expandLayerNode(*b1, "Adam", "", {{"learning_rate", attr::f(0.01f)}}, {loss1->at(0)});
        QVERIFY2(train1, testing::err(train1));
        QVERIFY(train1->outputs.empty());
        QCOMPARE(train1->targets.size(), std::size_t(1));
        QCOMPARE(train1->targets[0].name(), std::string("Adam"));
        QCOMPARE(train1->targets[0].type(), std::string("AssignAdd"));

        DenseOptions o;
        o.units = 3;
        auto logits2 = dense(*b2, x2, o);
        QVERIFY(logits2);
        losses::LossOptions lo;
        lo.scope = "xent";
        lo.reduction = losses::Reduction::kMean;
        auto loss2 = losses::sparseSoftmaxCrossEntropy(*b2, *labels2, *logits2, lo);
        QVERIFY(loss2);
        auto total2 = losses::getTotalLoss(*b2);
        QVERIFY(total2);
        auto step2 = training::getOrCreateGlobalStep(*b2);
        QVERIFY(step2);
        training::AdamOptimizer adam(static_cast<double>(0.01f));
        auto train2 = adam.minimize(*b2, *total2, *step2);
        QVERIFY2(train2, testing::err(train2));
        QCOMPARE(loss1->at(0).name(), std::string("total_loss:0"));
        QCOMPARE(describeGraph(b1->graphDef()), describeGraph(b2->graphDef()));
        QVERIFY(b1->findNode("dense/kernel/Adam_1"));

        // Without total_loss the loss itself; MeanSquaredError; each optimizer builds its updates.
        for (const char* type : {"GradientDescent", "Momentum", "RMSProp", "Adagrad", "LazyAdam"}) {
            Output x;
            auto b = builderWithX(TensorShape{-1, 3}, &x);
            auto pred = expandLayer(*b, "Dense", "", {{"units", attr::i(1)}}, {x});
            auto target = ops::placeholder(*b, tf::DT_FLOAT, TensorShape{-1, 1}, "target");
            QVERIFY(pred && target);
            auto mse =
                expandLayer(*b, "MeanSquaredError", "", {{"total_loss", attr::b(false)}}, {*target, pred->at(0)});
            QVERIFY2(mse, testing::err(mse));
            QCOMPARE(mse->at(0).name(), std::string("mean_squared_error/value:0"));
            auto train = expandLayerNode(*b, type, "opt", {{"global_step", attr::s("none")}}, {mse->at(0)});
            QVERIFY2(train, testing::err(train));
            QCOMPARE(train->targets.at(0).name(), std::string("opt"));
            QCOMPARE(train->targets.at(0).type(), std::string("NoOp"));
            // LazyAdam's dense updates are Adam's (only IndexedSlices gradients differ).
            const std::string apply = type == std::string("LazyAdam") ? "Adam" : type;
            QVERIFY2(b->findNode("opt/update_dense/kernel/Apply" + apply), type);
        }
    }

    void badParamsGiveTheDocumentedErrors()
    {
        QVERIFY(expandError("Dense", "fc", {{"unit", attr::i(3)}})
                    .starts_with("InvalidArgument: layer 'fc' (Dense): unknown param 'unit'; expected one of units, "
                                 "activation, use_bias, kernel_initializer,"));
        QCOMPARE(expandError("Dense", "fc", {{"units", attr::s("3")}}),
                 std::string("InvalidArgument: layer 'fc' (Dense): param 'units' expects an int, got a string"));
        QCOMPARE(expandError("Dense", "fc", {{"units", attr::i(0)}}),
                 std::string("InvalidArgument: layer 'fc' (Dense): param 'units' must be positive, got 0"));
        QVERIFY(expandError("Dense", "", {{"activation", attr::s("rleu")}})
                    .starts_with("InvalidArgument: layer (Dense): param 'activation' must be one of none, relu, relu6, "
                                 "elu,"));
        QVERIFY(expandError("Dense", "", {{"activation", attr::s("rleu")}}).ends_with("; got 'rleu'"));
        QCOMPARE(expandError("Dropout", "d", {{"rate", attr::f(1.0f)}}),
                 std::string("InvalidArgument: layer 'd' (Dropout): param 'rate' must be in [0, 1), got 1"));
        QCOMPARE(expandError("Dropout", "d", {{"rate", attr::i(0)}}), std::string("no error")); // an int for a float
        QCOMPARE(expandError("MaxPool", "p", {{"pool_size", ints({2, 2, 2})}}, 1, TensorShape{1, 4, 4, 1}),
                 std::string("InvalidArgument: layer 'p' (MaxPool): param 'pool_size' must be one int or a list of 2 "
                             "ints, got 3 ints"));
        QCOMPARE(expandError("Conv2D", "c", {{"strides", ints({1, 0})}}, 1, TensorShape{1, 4, 4, 1}),
                 std::string("InvalidArgument: layer 'c' (Conv2D): param 'strides' must hold positive ints, got 0"));
        QCOMPARE(expandError("Reshape", "r", {{"shape", ints({-1, -1})}}),
                 std::string("InvalidArgument: layer 'r' (Reshape): param 'shape' may hold one -1 at most"));
        QCOMPARE(expandError("Relu", "r", {}, 2),
                 std::string("InvalidArgument: layer 'r' (Relu): expected 1 input, got 2"));
        QCOMPARE(expandError("Concat", "c", {}, 1),
                 std::string("InvalidArgument: layer 'c' (Concat): expected at least 2 inputs, got 1"));
        QCOMPARE(expandError("Add", "a", {{"op", attr::s("Add")}}, 3),
                 std::string("InvalidArgument: layer 'a' (Add): op Add expects exactly 2 inputs, got 3"));
        QCOMPARE(expandError("Flatten", "f", {}, 1, TensorShape::scalar()),
                 std::string("InvalidArgument: layer 'f' (Flatten): Input 0 of layer f is incompatible with the "
                             "layer: : expected min_ndim=1, found ndim=0. Full shape received: []"));
        QCOMPARE(expandError("Dense", "fc", {{"scope", attr::s("variable_scope")}}, 1, TensorShape{2, 3, 4}),
                 std::string("InvalidArgument: layer 'fc' (Dense): renamed variables, bias_op Add and scope "
                             "variable_scope need a rank-2 input with a known last dimension; got [2, 3, 4]"));
        QCOMPARE(
            expandError("SoftmaxCrossEntropy", "l", {{"sparse", attr::b(true)}, {"label_smoothing", attr::f(0.1f)}}, 2),
            std::string("InvalidArgument: layer 'l' (SoftmaxCrossEntropy): param 'label_smoothing' is not "
                        "available with sparse labels (tf.losses has none for them)"));
        QCOMPARE(expandError("Adam", "opt", {{"global_step", attr::s("none")}, {"lr_decay", attr::s("exponential")}}),
                 std::string("InvalidArgument: layer 'opt' (Adam): param 'lr_decay' 'exponential' needs a global "
                             "step; global_step is 'none'"));
        QCOMPARE(expandError("Nope", "n", {}), std::string("NotFound: unknown layer type 'Nope'"));
        // An input from another graph.
        Output x;
        auto b = builderWithX(TensorShape{-1, 4}, &x);
        GraphBuilder other(m_registries->ops);
        auto res = expandLayer(other, "Relu", "r", {}, {x});
        QCOMPARE(res ? std::string() : res.error().toString(),
                 std::string("InvalidArgument: layer 'r' (Relu): input 0 ('x:0') is not a tensor of this graph"));
    }

    /// SparseSoftmaxCrossEntropy is tf.losses.sparse_softmax_cross_entropy, as SoftmaxCrossEntropy with sparse.
    void sparseSoftmaxCrossEntropyIsTheSparseLoss()
    {
        auto build = [&](const std::string& type, const Params& params) {
            Output x;
            auto b = builderWithX(TensorShape{-1, 3}, &x);
            auto labels = ops::placeholder(*b, tf::DT_INT32, TensorShape{-1}, "labels");
            auto logits = expandLayer(*b, "Dense", "", {{"units", attr::i(3)}}, {x});
            if (!labels || !logits)
                return QStringList{"setup failed"};
            auto loss = expandLayer(*b, type, "xent", params, {*labels, logits->at(0)});
            if (!loss)
                return QStringList{QString::fromStdString(loss.error().toString())};
            return QStringList{QString::fromStdString(loss->at(0).name())} + describeGraph(b->graphDef());
        };
        const QStringList sparse = build("SparseSoftmaxCrossEntropy", {{"total_loss", attr::b(false)}});
        QCOMPARE(sparse, build("SoftmaxCrossEntropy", {{"sparse", attr::b(true)}, {"total_loss", attr::b(false)}}));
        QCOMPARE(sparse.at(0), QString("xent/value:0"));
        QVERIFY2(sparse.join('\n').contains("SparseSoftmaxCrossEntropyWithLogits"), qPrintable(sparse.join('\n')));
        const LayerType* type = findLayerType("SparseSoftmaxCrossEntropy");
        QVERIFY(type);
        QCOMPARE(type->category, std::string("Losses"));
        QCOMPARE(type->inputNames, (std::vector<std::string>{"labels", "logits"}));
        QCOMPARE(type->outputNames, std::vector<std::string>{"loss"});
    }

    /// Loss ports are checked before building, one case each, with the layer and the port named.
    void lossPortsOfTheWrongKindAreRefused()
    {
        const std::string xent = "InvalidArgument: layer 'loss' (SoftmaxCrossEntropy): ";
        const std::string sparse = "InvalidArgument: layer 'loss' (SparseSoftmaxCrossEntropy): ";
        // Integer labels into the dense loss: class ids belong to the sparse one.
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "ids", "dense"),
                 xent + "port 'labels' takes float one-hot rows [batch, classes]; got int64 [?]: class ids go to "
                        "SparseSoftmaxCrossEntropy");
        // Float labels of the wrong rank into the dense loss.
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "fvec", "dense"),
                 xent + "port 'labels' takes float one-hot rows [batch, classes]; got float32 [?]");
        // Float labels into the sparse loss, and into the old sparse form.
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "onehot", "dense"),
                 sparse + "port 'labels' takes int32 or int64 class ids [batch]; got float32 [?,10]: one-hot rows go "
                          "to SoftmaxCrossEntropy");
        QCOMPARE(lossError("SoftmaxCrossEntropy", {{"sparse", attr::b(true)}}, "onehot", "dense"),
                 xent + "port 'labels' takes int32 or int64 class ids [batch]; got float32 [?,10]: one-hot rows go "
                        "to SoftmaxCrossEntropy with sparse off");
        // Logits of an integer dtype.
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "ids", "ilogits"),
                 sparse + "port 'logits' takes float scores [batch, classes]; got int32 [?,10]");
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "onehot", "ilogits"),
                 xent + "port 'logits' takes float scores [batch, classes]; got int32 [?,10]");
        // Sparse labels must have the logits' rank less one.
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "ids2", "dense"),
                 sparse + "port 'labels' takes int32 or int64 class ids of rank 1, one less than logits [?,10]; got "
                          "int64 [?,10]: one-hot rows go to SoftmaxCrossEntropy");
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "ids3", "dense"),
                 sparse + "port 'labels' takes int32 or int64 class ids of rank 1, one less than logits [?,10]; got "
                          "int64 [?,4,10]");
    }

    /// Swapped ports of the same shape and dtype: the labels are computed by the network (they depend on
    /// a trainable variable) while the logits / predictions come straight from a placeholder.
    void swappedLossPortsAreRefused()
    {
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "dense", "onehot"),
                 std::string("InvalidArgument: layer 'loss' (SoftmaxCrossEntropy): port 'labels' is computed by the "
                             "network (from trainable variable 'dense/bias') while port 'logits' is data (from "
                             "placeholder 'onehot'): labels and logits look swapped"));
        QCOMPARE(lossError("MeanSquaredError", {}, "dense", "onehot"),
                 std::string("InvalidArgument: layer 'loss' (MeanSquaredError): port 'labels' is computed by the "
                             "network (from trainable variable 'dense/bias') while port 'predictions' is data (from "
                             "placeholder 'onehot'): labels and predictions look swapped"));
        // Swapped with different kinds: the swap is what is named.
        QVERIFY(lossError("SparseSoftmaxCrossEntropy", {}, "dense", "ids")
                    .ends_with("port 'labels' is computed by the network (from trainable variable 'dense/bias') "
                               "while port 'logits' is data (from placeholder 'ids'): labels and logits look swapped"));
    }

    /// What TensorFlow accepts is still accepted.
    void rightLossPortsBuild()
    {
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "onehot", "dense"), std::string("no error"));
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "ionehot", "dense"), std::string("no error")); // cast, as TF
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "ids", "dense"), std::string("no error"));
        QCOMPARE(lossError("SparseSoftmaxCrossEntropy", {}, "idcol", "dense"), std::string("no error")); // squeezed
        QCOMPARE(lossError("SoftmaxCrossEntropy", {{"sparse", attr::b(true)}}, "ids", "dense"), std::string("no error"));
        QCOMPARE(lossError("MeanSquaredError", {}, "onehot", "dense"), std::string("no error"));
        // Both sides computed (a teacher's outputs as labels): nothing looks swapped.
        QCOMPARE(lossError("MeanSquaredError", {}, "dense", "dense"), std::string("no error"));
        // Both sides data: nothing to tell them apart.
        QCOMPARE(lossError("SoftmaxCrossEntropy", {}, "onehot", "onehot"), std::string("no error"));
    }

    /// Issue #8's check: the forward part (every node layer2/add depends on) of the book's network
    /// built from layer nodes and exported as a MetaGraphDef equals the fixture's: names, op types,
    /// inputs, variable shapes and dtypes, placeholder shapes.
    void bookMnistForwardMatchesTheFixture()
    {
        auto fixture = testing::readMetaGraphFixture("tf1-mnist-book/mnist_model-29001.meta");
        if (!fixture)
            QSKIP("no ../shared/fixtures (or $TSTUDIO_FIXTURES) with tf1-mnist-book: not compared with TensorFlow's");
        auto net = buildBookNetwork();
        QVERIFY2(net, testing::err(net));
        auto meta = exportMetaGraph(*net->b);
        QVERIFY2(meta, testing::err(meta));

        const std::set<std::string> theirs = dependenciesOf(fixture->graph_def(), "layer2/add");
        const std::set<std::string> ours = dependenciesOf(meta->graph_def(), "layer2/add");
        QCOMPARE(theirs.size(), std::size_t(14));
        QCOMPARE(ours, theirs);
        std::map<std::string, const tf::NodeDef*> mine;
        for (const tf::NodeDef& n : meta->graph_def().node())
            mine[n.name()] = &n;
        for (const tf::NodeDef& n : fixture->graph_def().node()) {
            if (!theirs.count(n.name()))
                continue;
            const tf::NodeDef& m = *mine.at(n.name());
            QCOMPARE(m.op(), n.op());
            QCOMPARE(std::vector<std::string>(m.input().begin(), m.input().end()),
                     std::vector<std::string>(n.input().begin(), n.input().end()));
            for (const char* key : {"shape", "dtype", "T", "transpose_a", "transpose_b"}) {
                if (!n.attr().count(key))
                    continue;
                QVERIFY2(m.attr().count(key), qPrintable(QString::fromStdString(n.name()) + " lacks " + key));
                QVERIFY2(m.attr().at(key).SerializeAsString() == n.attr().at(key).SerializeAsString(),
                         qPrintable(QString::fromStdString(n.name()) + ": attr " + key + " differs"));
            }
            // "_output_shapes" as TensorFlow wrote them.
            QVERIFY2(m.attr().at("_output_shapes").SerializeAsString() ==
                         n.attr().at("_output_shapes").SerializeAsString(),
                     qPrintable(QString::fromStdString(n.name()) + ": _output_shapes differ"));
        }
        // The trainable variables, in order.
        auto names = [](const tf::MetaGraphDef& g) {
            std::vector<std::string> out;
            for (const std::string& bytes : g.collection_def().at("trainable_variables").bytes_list().value()) {
                tf::VariableDef def;
                def.ParseFromString(bytes);
                out.push_back(def.variable_name());
            }
            return out;
        };
        QCOMPARE(names(*meta), names(*fixture));
        QCOMPARE(names(*meta), (std::vector<std::string>{"layer1/weights:0", "layer1/biases:0", "layer2/weights:0",
                                                         "layer2/biases:0"}));
        // The penalties are in "losses" as the book's, with the same nodes.
        for (const char* n : {"layer1/l2_regularizer", "layer2/l2_regularizer/L2Loss", "Variable"})
            QVERIFY2(mine.count(n), n);
    }

    /// The same network trains with the engine on MNIST test images: the loss falls.
    void bookMnistFromLayerNodesTrains()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("no ../shared/fixtures and no $TSTUDIO_FIXTURES: no MNIST images to train on");
        auto net = buildBookNetwork();
        QVERIFY2(net, testing::err(net));
        auto run = testing::trainBookMnist(net->b->graphDef(), net->loss.name(), net->train.name(), *m_registries,
                                           QDir(fixtures).filePath("mnist").toStdString());
        QVERIFY2(run, testing::err(run));
        const std::vector<float>& losses = run->losses;
        QCOMPARE(run->globalStep, 30);
        qInfo("loss %.4f -> %.4f after 30 steps", losses.front(), losses.back());
        QVERIFY(std::isfinite(losses.back()));
        QVERIFY2(losses.back() < 0.5f * losses.front(), "the loss did not fall");
    }
};

QTEST_GUILESS_MAIN(TestLayerCatalog)
#include "test_layer_catalog.moc"
