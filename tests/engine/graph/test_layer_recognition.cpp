// recogniseLayers: the scopes of a graph built as TensorFlow 1.x builds it (tf.layers, tf.losses,
// tf.train.AdamOptimizer, tf.train.Saver) told apart by their patterns; look-alikes are not layers.
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "graph/layer_recognition.h"
#include "layers/batch_normalization.h"
#include "layers/conv2d.h"
#include "layers/dense.h"
#include "layers/dropout.h"
#include "layers/flatten.h"
#include "layers/pooling.h"
#include "losses/losses.h"
#include "model/saver_graph.h"
#include "registries/default_registries.h"
#include "training/adam.h"

#include <QtTest>

using namespace tstudio;
namespace tf = tensorflow;

namespace {

std::string describeAt(const std::map<std::string, RecognisedLayer>& found, const std::string& scope)
{
    const auto it = found.find(scope);
    return it == found.end() ? std::string("<not recognised>") : it->second.describe();
}

std::string listed(const std::map<std::string, RecognisedLayer>& found)
{
    std::string text;
    for (const auto& [scope, layer] : found)
        text += scope + " = " + layer.describe() + "\n";
    return text;
}

} // namespace

class TestLayerRecognition : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<Registries> m_registries;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY2(r.has_value(), r ? "" : r.error().toString().c_str());
        m_registries = std::move(*r);
    }

    void aTrainedConvNetByScope()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 28, 28, 1}, "x");
        auto labels = ops::placeholder(b, tf::DT_INT64, TensorShape{-1}, "labels");
        QVERIFY(x && labels);
        layers::Conv2DOptions conv;
        conv.filters = 32;
        conv.kernelSize = {5, 5};
        conv.padding = "same";
        conv.activation = layers::Activation::kRelu;
        auto c1 = layers::conv2d(b, *x, conv);
        QVERIFY2(c1, c1 ? "" : c1.error().toString().c_str());
        layers::Pooling2DOptions pool;
        pool.poolSize = {2, 2};
        pool.strides = {2, 2};
        auto p1 = layers::maxPooling2d(b, *c1, pool);
        QVERIFY(p1);
        auto bn = layers::batchNormalization(b, *p1, {}, true);
        QVERIFY2(bn, bn ? "" : bn.error().toString().c_str());
        auto flat = layers::flatten(b, *bn);
        QVERIFY(flat);
        layers::DenseOptions hidden;
        hidden.units = 64;
        hidden.activation = layers::Activation::kRelu;
        auto h = layers::dense(b, *flat, hidden);
        QVERIFY(h);
        auto dropped = layers::dropout(b, *h, {}, true);
        QVERIFY(dropped);
        layers::DenseOptions out;
        out.units = 10;
        out.useBias = false;
        auto logits = layers::dense(b, *dropped, out);
        QVERIFY(logits);
        auto loss = losses::sparseSoftmaxCrossEntropy(b, *labels, *logits);
        QVERIFY2(loss, loss ? "" : loss.error().toString().c_str());
        training::AdamOptimizer adam;
        auto train = adam.minimize(b, *loss);
        QVERIFY2(train, train ? "" : train.error().toString().c_str());
        auto saveables = saveablesByName(globalVariables(b));
        QVERIFY(saveables);
        QVERIFY(buildSaverGraph(b, *saveables));

        const auto found = recogniseLayers(b.graphDef());
        const std::string all = listed(found);
        QVERIFY2(describeAt(found, "conv2d") == "Conv2D(32, 5x5, same, relu)", all.c_str());
        QVERIFY2(describeAt(found, "max_pooling2d") == "MaxPool(2x2)", all.c_str());
        QVERIFY2(describeAt(found, "batch_normalization") == "BatchNorm(epsilon 0.001)", all.c_str());
        QVERIFY2(describeAt(found, "flatten") == "Flatten", all.c_str());
        QVERIFY2(describeAt(found, "dense") == "Dense(64, relu)", all.c_str());
        QVERIFY2(describeAt(found, "dropout") == "Dropout", all.c_str());
        QVERIFY2(describeAt(found, "dense_1") == "Dense(10, no bias)", all.c_str());
        QVERIFY2(describeAt(found, "sparse_softmax_cross_entropy_loss") == "SparseSoftmaxCrossEntropy", all.c_str());
        QVERIFY2(describeAt(found, "Adam") == "Adam", all.c_str());
        QVERIFY2(describeAt(found, "gradients") == "Gradients", all.c_str());
        QVERIFY2(describeAt(found, "save") == "Saver", all.c_str());
        QVERIFY2(describeAt(found, "dense/kernel") == "Variable 6272x64", all.c_str());
        QVERIFY2(describeAt(found, "conv2d/kernel") == "Variable 5x5x1x32", all.c_str());
        // The params in TensorFlow's names.
        const RecognisedLayer& dense = found.at("dense");
        QCOMPARE(dense.params.size(), std::size_t(2));
        QCOMPARE(dense.params[0], (std::pair<std::string, std::string>("units", "64")));
        QCOMPARE(dense.params[1], (std::pair<std::string, std::string>("activation", "relu")));
        // Mirrors and repeats are not layers: tf.gradients' scope of a layer, the optimizer's
        // per-variable scopes, the loss's inner xentropy scope, dropout's inner dropout scope.
        QVERIFY2(!found.count("gradients/dense/MatMul_grad"), all.c_str());
        QVERIFY2(!found.count("gradients/dense"), all.c_str());
        QVERIFY2(!found.count("Adam/update_dense/kernel"), all.c_str());
        QVERIFY2(!found.count("sparse_softmax_cross_entropy_loss/xentropy"), all.c_str());
        QVERIFY2(!found.count("dropout/dropout"), all.c_str());
    }

    /// Batch norm and dropout on a training tensor (the learning phase): the layer holds a tf.cond,
    /// whose scope is no layer of its own.
    void layersOnATrainingTensor()
    {
        GraphBuilder b(m_registries->ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape{-1, 8, 8, 3}, "x");
        auto training = ops::placeholder(b, tf::DT_BOOL, TensorShape::scalar(), "training");
        QVERIFY(x && training);
        auto bn = layers::batchNormalization(b, *x, {}, *training);
        QVERIFY2(bn, bn ? "" : bn.error().toString().c_str());
        auto flat = layers::flatten(b, *bn);
        QVERIFY(flat);
        auto bn2 = layers::batchNormalization(b, *flat, {}, *training);
        QVERIFY2(bn2, bn2 ? "" : bn2.error().toString().c_str());
        auto dropped = layers::dropout(b, *bn2, {}, *training);
        QVERIFY2(dropped, dropped ? "" : dropped.error().toString().c_str());

        const auto found = recogniseLayers(b.graphDef());
        const std::string all = listed(found);
        QVERIFY2(describeAt(found, "batch_normalization") == "BatchNorm(epsilon 0.001)", all.c_str());
        QVERIFY2(describeAt(found, "batch_normalization_1") == "BatchNorm", all.c_str());
        QVERIFY2(describeAt(found, "dropout") == "Dropout", all.c_str());
        for (const char* mirror : {"batch_normalization/cond", "batch_normalization/cond_1",
                                   "batch_normalization_1/cond_2", "dropout/cond", "dropout/cond/dropout"})
            QVERIFY2(!found.count(mirror), (std::string(mirror) + "\n" + all).c_str());
    }

    void frozenWeightsAndKerasReads()
    {
        // A frozen graph: the kernel is a Const inside the scope; Keras reads a resource variable.
        tf::GraphDef graph;
        auto add = [&graph](const std::string& name, const std::string& op, std::vector<std::string> inputs) {
            tf::NodeDef* n = graph.add_node();
            n->set_name(name);
            n->set_op(op);
            for (auto& input : inputs)
                n->add_input(input);
            return n;
        };
        add("x", "Placeholder", {});
        tf::NodeDef* w = add("fc/weights", "Const", {});
        auto* shape = (*w->mutable_attr())["value"].mutable_tensor()->mutable_tensor_shape();
        shape->add_dim()->set_size(784);
        shape->add_dim()->set_size(500);
        add("fc/MatMul", "MatMul", {"x", "fc/weights"});
        add("fc/b", "Const", {});
        add("fc/add", "AddV2", {"fc/MatMul", "fc/b"});
        add("fc/Sigmoid", "Sigmoid", {"fc/add"});
        tf::NodeDef* k = add("keras/dense/kernel", "VarHandleOp", {});
        auto* kshape = (*k->mutable_attr())["shape"].mutable_shape();
        kshape->add_dim()->set_size(500);
        kshape->add_dim()->set_size(10);
        (*add("keras/dense/MatMul/ReadVariableOp", "ReadVariableOp", {"keras/dense/kernel"})->mutable_attr())["dtype"].set_type(tf::DT_FLOAT);
        add("keras/dense/MatMul", "MatMul", {"fc/Sigmoid", "keras/dense/MatMul/ReadVariableOp"});
        // Look-alikes: a MatMul of two placeholders, a MatMul reading a weight of another scope.
        add("y", "Placeholder", {});
        add("product/MatMul", "MatMul", {"x", "y"});
        add("product/Relu", "Relu", {"product/MatMul"});
        add("reuse/MatMul", "MatMul", {"x", "fc/weights"});
        // Odd input never breaks recognition.
        add("odd/MatMul", "MatMul", {"missing:7", "^nothing"});
        add("odd/Bad", "BiasAdd", {""});

        const auto found = recogniseLayers(graph);
        const std::string all = listed(found);
        QVERIFY2(describeAt(found, "fc") == "Dense(500, sigmoid)", all.c_str());
        QVERIFY2(describeAt(found, "keras/dense") == "Dense(10, no bias)", all.c_str());
        QVERIFY2(!found.count("keras"), all.c_str());
        QVERIFY2(!found.count("product"), all.c_str());
        QVERIFY2(!found.count("reuse"), all.c_str());
        QVERIFY2(!found.count("odd"), all.c_str());
    }
};

QTEST_GUILESS_MAIN(TestLayerRecognition)
#include "test_layer_recognition.moc"
