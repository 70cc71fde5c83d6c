// The editor's optimizer nodes: var_list (minimize(var_list=...)) chooses what trains.
#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "layers/dense.h"
#include "layers/layer_catalog.h"
#include "losses/losses.h"
#include "registries/default_registries.h"

#include <QtTest>

using namespace tstudio;
namespace tf = tensorflow;

class TestOptimizerVarList : public QObject {
    Q_OBJECT
    std::unique_ptr<Registries> m_registries;

    /// x [?,3] -> layer1 (dense 4) -> layer2 (dense 1) -> MSE: the loss.
    Output network(GraphBuilder& b)
    {
        auto x = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 3}), "x");
        auto y = ops::placeholder(b, tf::DT_FLOAT, TensorShape({-1, 1}), "y");
        layers::DenseOptions first;
        first.units = 4;
        first.name = "layer1";
        auto h = layers::dense(b, *x, first);
        layers::DenseOptions second;
        second.units = 1;
        second.name = "layer2";
        auto p = layers::dense(b, *h, second);
        auto loss = losses::meanSquaredError(b, *y, *p);
        if (!loss)
            qFatal("%s", loss.error().toString().c_str());
        return *loss;
    }

    /// The variables some Apply* op of the graph updates.
    static std::set<std::string> updated(const tf::GraphDef& graph)
    {
        std::set<std::string> vars;
        for (const tf::NodeDef& n : graph.node())
            if (n.op().starts_with("Apply"))
                vars.insert(n.input(0));
        return vars;
    }

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY(r);
        m_registries = std::move(*r);
    }

    void varListChoosesWhatTrains()
    {
        for (const char* type : {"GradientDescent", "Adam"}) {
            GraphBuilder b(m_registries->ops);
            const Output loss = network(b);
            std::map<std::string, tf::AttrValue> params{{"var_list", attr::s("layer2/")}};
            auto train = layers::expandLayerNode(b, type, "", params, {loss});
            QVERIFY2(train, train ? "" : train.error().toString().c_str());
            QCOMPARE(updated(b.graphDef()), (std::set<std::string>{"layer2/bias", "layer2/kernel"}));
        }
        // Empty: everything trains (the default, as before).
        GraphBuilder all(m_registries->ops);
        const Output loss = network(all);
        QVERIFY(layers::expandLayerNode(all, "GradientDescent", "", {}, {loss}));
        QCOMPARE(updated(all.graphDef()).size(), std::size_t(4));
    }

    void badVarListsSayWhy()
    {
        GraphBuilder b(m_registries->ops);
        const Output loss = network(b);
        auto none = layers::expandLayerNode(b, "GradientDescent", "sgd", {{"var_list", attr::s("layer3")}}, {loss});
        QVERIFY(!none);
        QVERIFY2(none.error().message().find("param 'var_list'") != std::string::npos &&
                     none.error().message().find("'layer3' matches none of the trainable variables (layer1/kernel, "
                                                 "layer1/bias, layer2/kernel, layer2/bias)") != std::string::npos,
                 none.error().message().c_str());
        auto invalid = layers::expandLayerNode(b, "GradientDescent", "sgd", {{"var_list", attr::s("(layer")}}, {loss});
        QVERIFY(!invalid);
        QVERIFY2(invalid.error().message().find("is not a regular expression") != std::string::npos, invalid.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestOptimizerVarList)
#include "test_optimizer_var_list.moc"
