// Tests for the graph viewer tab: first view, find, selection, tracing, expansion by mouse and keys, bad input, export.
#include "graph_viewer/graph_canvas.h"
#include "graph_viewer/graph_search.h"
#include "graph_viewer/graph_viewer.h"
#include "graph_viewer/node_properties_panel.h"
#include "graph_viewer/signatures_view.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "tensor_view/tensor_inspector.h"
#include "tensor_view/tensor_table_model.h"
#include "io/events/event_file_writer.h"
#include "proto/config.pb.h"
#include "proto/saved_model.pb.h"
#include "proto/step_stats.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include "../../support/graph_def_nodes.h"
#include "../../support/test_files.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QLabel>
#include <QTabWidget>
#include <QTreeWidget>
#include <QListWidget>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <initializer_list>
#include <set>

using namespace tstudio;
using namespace tstudio::graph_viewer;

namespace {

/// A node with the dtype attrs its op needs (all float32) and a [4,4] shape for variables and placeholders.
void addTypedNode(tensorflow::GraphDef& g, const std::string& name, const std::string& op,
                  std::initializer_list<std::string> inputs = {})
{
    auto* n = tstudio::testing::addNode(g, name, op, inputs);
    if (op == "Placeholder" || op == "VariableV2" || op == "Const")
        (*n->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    else if (op != "NoOp")
        (*n->mutable_attr())["T"].set_type(tensorflow::DT_FLOAT);
    if (op == "VariableV2" || op == "Placeholder") {
        auto* shape = (*n->mutable_attr())["shape"].mutable_shape();
        shape->add_dim()->set_size(4);
        shape->add_dim()->set_size(4);
    }
}

/// Two dense layers and a loss, in name scopes.
tensorflow::GraphDef twoLayers()
{
    tensorflow::GraphDef g;
    addTypedNode(g, "input/x", "Placeholder");
    for (const std::string layer : {"layer1", "layer2"}) {
        const std::string in = layer == "layer1" ? "input/x" : "layer1/Relu";
        addTypedNode(g, layer + "/W", "VariableV2");
        addTypedNode(g, layer + "/W/read", "Identity", {layer + "/W"});
        addTypedNode(g, layer + "/MatMul", "MatMul", {in, layer + "/W/read"});
        addTypedNode(g, layer + "/Relu", "Relu", {layer + "/MatMul"});
    }
    addTypedNode(g, "loss/Sum", "Neg", {"layer2/Relu"});
    addTypedNode(g, "init", "NoOp", {"^layer1/W", "^layer2/W"});
    return g;
}

/// A float32 Const holding `values` in `shape`.
tensorflow::NodeDef* addConst(tensorflow::GraphDef& g, const std::string& name, std::initializer_list<int> shape,
                              const std::vector<float>& values)
{
    auto* node = tstudio::testing::addNode(g, name, "Const");
    (*node->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    auto* tensor = (*node->mutable_attr())["value"].mutable_tensor();
    tensor->set_dtype(tensorflow::DT_FLOAT);
    for (int d : shape)
        tensor->mutable_tensor_shape()->add_dim()->set_size(d);
    for (float v : values)
        tensor->add_float_val(v);
    return node;
}

/// A frozen dense layer: the weights are Consts named like the scopes of their reads, as freeze_graph leaves them.
tensorflow::GraphDef frozenDense()
{
    tensorflow::GraphDef g;
    addTypedNode(g, "X", "Placeholder");
    std::vector<float> kernel;
    for (int i = 0; i < 12; ++i)
        kernel.push_back(0.5f * static_cast<float>(i));
    addConst(g, "dense/kernel", {4, 3}, kernel);
    addTypedNode(g, "dense/kernel/read", "Identity", {"dense/kernel"});
    addTypedNode(g, "dense/MatMul", "MatMul", {"X", "dense/kernel/read"});
    addConst(g, "dense/bias", {3}, {0.25f, -1.0f, 2.0f}); // no scope of that name: drawn on its consumer
    addTypedNode(g, "dense/BiasAdd", "BiasAdd", {"dense/MatMul", "dense/bias"});
    return g;
}

tensorflow::SignatureDef signature(const std::string& method, std::map<std::string, std::string> inputs,
                                   std::map<std::string, std::string> outputs)
{
    tensorflow::SignatureDef sig;
    sig.set_method_name(method);
    auto fill = [](auto& map, const std::map<std::string, std::string>& tensors) {
        for (const auto& [key, name] : tensors) {
            tensorflow::TensorInfo& info = map[key];
            info.set_name(name);
            info.set_dtype(tensorflow::DT_FLOAT);
            info.mutable_tensor_shape()->add_dim()->set_size(-1);
            info.mutable_tensor_shape()->add_dim()->set_size(4);
        }
    };
    fill(*sig.mutable_inputs(), inputs);
    fill(*sig.mutable_outputs(), outputs);
    return sig;
}

QTreeWidgetItem* findItem(QTreeWidget* tree, int column, const QString& text)
{
    for (QTreeWidgetItemIterator it(tree); *it; ++it)
        if ((*it)->text(column) == text)
            return *it;
    return nullptr;
}

class TestGraphViewer : public QObject {
    Q_OBJECT

    std::unique_ptr<Registries> m_registries;

    std::unique_ptr<GraphViewer> show(tensorflow::GraphDef graph)
    {
        auto viewer = std::make_unique<GraphViewer>(m_registries.get());
        viewer->resize(1000, 700);
        viewer->show();
        QSignalSpy loaded(viewer.get(), &GraphViewer::loaded);
        QSignalSpy facts(viewer.get(), &GraphViewer::factsFinished);
        viewer->showGraph(std::move(graph), "test");
        if (!loaded.wait(10000) || !loaded.at(0).at(0).toBool())
            return nullptr;
        if (!viewer->factsReady() && !facts.wait(10000))
            return nullptr;
        return viewer;
    }

    static bool waitForLayout(GraphViewer& viewer)
    {
        return QTest::qWaitFor([&] { return !viewer.layoutPending(); }, 10000);
    }

    static QString selectedName(const GraphViewer& viewer)
    {
        const int node = viewer.canvas()->selected();
        if (node < 0)
            return {};
        const auto& n = viewer.hierarchy()->node(node);
        return QString::fromStdString(n.nodeName.empty() ? n.name : n.nodeName);
    }

private slots:
    void initTestCase()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries.has_value());
        m_registries = std::move(*registries);
    }

    void scopeNamedConstIsSelectableWithItsValue()
    {
        auto viewer = show(frozenDense());
        QVERIFY(viewer);
        const GraphHierarchy& h = *viewer->hierarchy();
        // The Const is drawn inside the scope of its own name, as TensorBoard draws "(kernel)".
        const int kernel = h.findOp("dense/kernel");
        QVERIFY(kernel >= 0);
        QCOMPARE(h.node(kernel).name, std::string("dense/kernel/(kernel)"));
        const int scope = h.find("dense/kernel");
        QCOMPARE(h.node(scope).kind, HierarchyNodeKind::kGroup);

        // Its name selects the node, not the scope, and the panel shows its dtype, shape and values.
        QVERIFY(viewer->selectNodeNamed(QStringLiteral("dense/kernel")));
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(viewer->canvas()->selected(), kernel);
        NodePropertiesPanel* panel = viewer->properties();
        QCOMPARE(panel->shownNode(), 1);
        auto* value = panel->findChild<QLabel*>(QStringLiteral("valueLabel"));
        QVERIFY(value && value->isVisibleTo(panel));
        QVERIFY2(value->text().contains(QStringLiteral("float32 [4, 3] · 12 value(s)")), qPrintable(value->text()));
        QVERIFY2(value->text().contains(QStringLiteral("[0, 0.5, 1, 1.5, 2,")), qPrintable(value->text()));
        TensorValueDialog* dialog = panel->showValues();
        QVERIFY(dialog);
        const auto* cells = dialog->inspector()->tableModel();
        QCOMPARE(cells->rowCount(), 4);
        QCOMPARE(cells->columnCount(), 3);
        QCOMPARE(cells->index(3, 2).data().toString().toDouble(), 5.5);
        dialog->close();

        // The scope itself offers its node of the same name; following the link selects the node again.
        viewer->selectNode(scope);
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(viewer->canvas()->selected(), scope);
        auto* group = panel->findChild<QTreeWidget*>(QStringLiteral("groupTree"));
        QVERIFY(group && group->topLevelItemCount() > 0);
        QTreeWidgetItem* link = group->topLevelItem(0);
        QCOMPARE(link->data(0, NodePropertiesPanel::kNodeNameRole).toString(), QStringLiteral("dense/kernel"));
        emit group->itemClicked(link, 0);
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(viewer->canvas()->selected(), kernel);

        // A Const drawn on its consumer: its name selects the consumer and the panel describes the Const.
        QCOMPARE(h.findOp("dense/bias"), -1);
        const int biasAdd = h.findOp("dense/BiasAdd");
        QCOMPARE(h.embeddingHost("dense/bias"), biasAdd);
        QVERIFY(viewer->selectNodeNamed(QStringLiteral("dense/bias")));
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(viewer->canvas()->selected(), biasAdd);
        QCOMPARE(panel->shownNode(), 4);
        QVERIFY2(value->text().contains(QStringLiteral("[0.25, -1, 2]")), qPrintable(value->text()));
        // Selecting the consumer itself describes the consumer.
        viewer->canvas()->setSelected(-1);
        viewer->selectNode(biasAdd);
        QCOMPARE(panel->shownNode(), 5);
        QVERIFY(!value->isVisibleTo(panel));
    }

    void savedModelSignaturesSelectTheirNodes()
    {
        QTemporaryDir dir;
        tensorflow::SavedModel model;
        model.set_saved_model_schema_version(1);
        tensorflow::MetaGraphDef* meta = model.add_meta_graphs();
        meta->mutable_meta_info_def()->add_tags("serve");
        *meta->mutable_graph_def() = twoLayers();
        (*meta->mutable_signature_def())["serving_default"] =
            signature("tensorflow/serving/predict", {{"x", "input/x:0"}}, {{"scores", "layer2/Relu:0"}});
        (*meta->mutable_signature_def())["hidden"] =
            signature("tensorflow/serving/predict", {{"x", "input/x:0"}}, {{"features", "layer1/Relu:0"}});
        QFile file(dir.filePath(QStringLiteral("saved_model.pb")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        const std::string bytes = model.SerializeAsString();
        file.write(bytes.data(), static_cast<qint64>(bytes.size()));
        file.close();

        GraphViewer viewer(m_registries.get());
        viewer.resize(1000, 700);
        viewer.show();
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(dir.path());
        QVERIFY(loaded.wait(10000));
        QVERIFY(loaded.at(0).at(0).toBool());
        SignaturesView* signatures = viewer.signaturesView();
        QVERIFY(signatures);
        // Shown first: how to call the model is what a SavedModel is for.
        auto* tabs = viewer.findChild<QTabWidget*>(QStringLiteral("graphSideTabs"));
        QVERIFY(tabs);
        QCOMPARE(tabs->currentWidget(), signatures);
        QCOMPARE(signatures->signatures().size(), std::size_t(2));
        QTreeWidget* tree = signatures->tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("hidden")); // sorted by key
        QTreeWidgetItem* serving = tree->topLevelItem(1);
        QCOMPARE(serving->text(0), QStringLiteral("serving_default"));
        QVERIFY(findItem(tree, 0, QStringLiteral("Method: tensorflow/serving/predict")));
        QTreeWidgetItem* scores = findItem(tree, SignaturesView::kTensor, QStringLiteral("layer2/Relu:0"));
        QVERIFY(scores);
        QCOMPARE(scores->text(SignaturesView::kKey), QStringLiteral("scores"));
        QCOMPARE(scores->text(SignaturesView::kType), QStringLiteral("float32 [?,4]"));
        QCOMPARE(scores->toolTip(SignaturesView::kKey), QStringLiteral("scores"));

        emit tree->itemClicked(scores, SignaturesView::kTensor);
        QVERIFY(waitForLayout(viewer));
        QCOMPARE(selectedName(viewer), QStringLiteral("layer2/Relu"));
        QTreeWidgetItem* input = findItem(tree, SignaturesView::kTensor, QStringLiteral("input/x:0"));
        QVERIFY(input);
        emit tree->itemActivated(input, 0);
        QVERIFY(waitForLayout(viewer));
        QCOMPARE(selectedName(viewer), QStringLiteral("input/x"));

        // Another file kind drops the tab.
        viewer.showGraph(twoLayers(), QStringLiteral("plain"));
        QTRY_VERIFY_WITH_TIMEOUT(viewer.signaturesView() == nullptr, 10000);
    }

    void savedModelFixtureSignatures()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString path = fixtures + "/tf2-keras-cppflow/multi_input_output/model";
        if (fixtures.isEmpty() || !QFile::exists(path + "/saved_model.pb"))
            QSKIP("fixture tf2-keras-cppflow/multi_input_output/model not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        GraphViewer viewer(m_registries.get());
        viewer.resize(1000, 700);
        viewer.show();
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(path);
        QVERIFY(loaded.wait(20000));
        QVERIFY(loaded.at(0).at(0).toBool());
        QVERIFY(viewer.signaturesView());
        // As the fixture's README lists them (saved_model_cli's view).
        std::vector<std::string> keys;
        for (const SignatureInfo& s : viewer.signaturesView()->signatures())
            keys.push_back(s.key);
        QCOMPARE(keys, (std::vector<std::string>{"__saved_model_init_op", "serving_default"}));
        const SignatureInfo& serving = viewer.signaturesView()->signatures()[1];
        QCOMPARE(serving.methodName, std::string("tensorflow/serving/predict"));
        QCOMPARE(serving.inputs.size(), std::size_t(2));
        QCOMPARE(serving.inputs[0].key, std::string("my_input_1"));
        QCOMPARE(serving.inputs[0].tensorName, std::string("serving_default_my_input_1:0"));
        QCOMPARE(serving.outputs[1].tensorName, std::string("StatefulPartitionedCall:1"));
        QTreeWidget* tree = viewer.signaturesView()->tree();
        QTreeWidgetItem* input = findItem(tree, SignaturesView::kTensor, QStringLiteral("serving_default_my_input_2:0"));
        QVERIFY(input);
        QCOMPARE(input->text(SignaturesView::kType), QStringLiteral("float32 [?,5]"));
        emit tree->itemClicked(input, SignaturesView::kTensor);
        QVERIFY(waitForLayout(viewer));
        QCOMPARE(selectedName(viewer), QStringLiteral("serving_default_my_input_2"));
    }

    void firstViewIsTheCollapsedTopLevel()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        const LayoutSnapshot* s = viewer->canvas()->snapshot();
        QVERIFY(s);
        std::set<std::string> shown;
        for (const auto& item : s->items) {
            QCOMPARE(viewer->hierarchy()->node(item.node).parent, viewer->hierarchy()->root());
            QVERIFY(!item.expanded);
            shown.insert(viewer->hierarchy()->node(item.node).name);
        }
        QCOMPARE(shown, (std::set<std::string>{"input", "layer1", "layer2", "loss", "init"}));
        // Facts arrived: a valid graph has no problems.
        QCOMPARE(viewer->problemsList()->count(), 0);
    }

    void findSelectsAndCyclesThroughMatches()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        QCOMPARE(viewer->find("MatMul", SearchMode::kOpType), 2);
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(selectedName(*viewer), QString("layer1/MatMul"));
        // The match was revealed: its group is expanded and the op is an item of the view.
        const int matmul = viewer->hierarchy()->find("layer1/MatMul");
        QVERIFY(viewer->canvas()->itemIndexOf(matmul) >= 0);
        viewer->findNext();
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(selectedName(*viewer), QString("layer2/MatMul"));
        QCOMPARE(viewer->findCurrent(), 1);
        viewer->findNext();
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(viewer->findCurrent(), 0);
        viewer->findPrevious();
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(selectedName(*viewer), QString("layer2/MatMul"));

        QCOMPARE(viewer->find("relu", SearchMode::kName), 2);
        QCOMPARE(viewer->find("^layer\\d/W$", SearchMode::kRegex), 2);
        QCOMPARE(viewer->find("(", SearchMode::kRegex), 0);
        QCOMPARE(viewer->find("nothing-like-this", SearchMode::kName), 0);
        QCOMPARE(viewer->findMatchCount(), 0);
    }

    void searchAndTraceOnGraphDef()
    {
        const auto g = twoLayers();
        const SearchResult bad = searchGraph(g, "([", SearchMode::kRegex);
        QVERIFY(bad.matches.empty());
        QVERIFY(bad.error.contains("offset"));
        QCOMPARE(searchGraph(g, "W/read", SearchMode::kName).matches, (std::vector<int>{2, 6}));
        // Ancestors of layer2/MatMul (index 7): its inputs, transitively; not loss or init.
        QCOMPARE(traceInputs(g, 7), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(traceInputs(g, 0), std::vector<int>{});
        QCOMPARE(traceInputs(g, 10, true), (std::vector<int>{1, 5}));
        QCOMPARE(traceInputs(g, 10, false), std::vector<int>{});
    }

    void traceInputsHighlightsAncestorsOnly()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        QVERIFY(viewer->selectNodeNamed("layer2/MatMul"));
        QVERIFY(waitForLayout(*viewer));
        QCOMPARE(selectedName(*viewer), QString("layer2/MatMul"));
        viewer->traceInputs(true);
        std::set<std::string> traced;
        for (int node : viewer->tracedNodes())
            traced.insert(viewer->hierarchy()->node(node).name);
        QVERIFY(traced.count("input/x"));
        QVERIFY(traced.count("layer1/MatMul"));
        QVERIFY(traced.count("layer2/W/read"));
        QVERIFY(traced.count("layer1")); // groups on the path stay lit
        QVERIFY(!traced.count("loss/Sum"));
        QVERIFY(!traced.count("layer2/Relu"));
        viewer->traceInputs(false);
        QVERIFY(viewer->tracedNodes().empty());
    }

    void mouseAndKeysExpandAndCollapse()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        GraphCanvas* canvas = viewer->canvas();
        const int layer1 = viewer->hierarchy()->find("layer1");
        const LayoutSnapshot* s = canvas->snapshot();
        const ViewItem item = s->items[static_cast<std::size_t>(canvas->itemIndexOf(layer1))];
        const QPointF centre((item.x + item.width / 2) * canvas->zoom() + canvas->offset().x(),
                             (item.y + item.height / 2) * canvas->zoom() + canvas->offset().y());
        QCOMPARE(canvas->nodeAt(centre), layer1);
        QTest::mouseClick(canvas, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QCOMPARE(canvas->selected(), layer1);
        QTest::mouseDClick(canvas, Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(waitForLayout(*viewer));
        auto expanded = [&] {
            const int i = canvas->itemIndexOf(layer1);
            return i >= 0 && canvas->snapshot()->items[static_cast<std::size_t>(i)].expanded;
        };
        QVERIFY(expanded());
        QVERIFY(canvas->itemIndexOf(viewer->hierarchy()->find("layer1/MatMul")) >= 0);
        canvas->setFocus();
        QTest::keyClick(canvas, Qt::Key_Minus);
        QVERIFY(waitForLayout(*viewer));
        QVERIFY(!expanded());
        QCOMPARE(canvas->itemIndexOf(viewer->hierarchy()->find("layer1/MatMul")), -1);
        QTest::keyClick(canvas, Qt::Key_Plus);
        QVERIFY(waitForLayout(*viewer));
        QVERIFY(expanded());
        QTest::keyClick(canvas, Qt::Key_Return);
        QVERIFY(waitForLayout(*viewer));
        QVERIFY(!expanded());
    }

    void badGraphsStillDisplayWithProblemsListed()
    {
        tensorflow::GraphDef g;
        addTypedNode(g, "x", "Placeholder");
        addTypedNode(g, "loop/a", "Identity", {"loop/b"});
        addTypedNode(g, "loop/b", "Identity", {"loop/a"});
        addTypedNode(g, "dangling", "Identity", {"not_there"});
        addTypedNode(g, "strange", "FrobnicateOp", {"x"});
        auto viewer = show(g);
        QVERIFY(viewer);
        QVERIFY(viewer->canvas()->snapshot()->items.size() >= 4);
        QStringList rows;
        for (int i = 0; i < viewer->problemsList()->count(); ++i)
            rows << viewer->problemsList()->item(i)->text();
        const QString all = rows.join('\n');
        QVERIFY2(all.contains("Op type not registered 'FrobnicateOp'"), qPrintable(all));
        QVERIFY2(all.contains("not_there"), qPrintable(all));
        QVERIFY2(all.contains("cycle"), qPrintable(all));
        // A problem row selects its node.
        for (int i = 0; i < viewer->problemsList()->count(); ++i) {
            QListWidgetItem* item = viewer->problemsList()->item(i);
            if (item->data(Qt::UserRole).toString() == "strange") {
                emit viewer->problemsList()->itemActivated(item);
                QVERIFY(waitForLayout(*viewer));
                QCOMPARE(selectedName(*viewer), QString("strange"));
            }
        }
    }

    void loadingCanBeCancelled()
    {
        // A text GraphDef big enough that reading it takes a while; Cancel right after open().
        QTemporaryDir dir;
        QFile file(dir.filePath("big.pbtxt"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 60000; ++i)
            file.write(QStringLiteral("node { name: \"scope_%1/n%2\" op: \"NoOp\" }\n").arg(i % 50).arg(i).toUtf8());
        file.close();
        GraphViewer viewer(m_registries.get());
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(file.fileName());
        QVERIFY(viewer.isLoading());
        viewer.cancelLoading();
        QVERIFY(loaded.wait(30000));
        QCOMPARE(loaded.at(0).at(0).toBool(), false);
        QVERIFY(!viewer.isReady());
        QVERIFY2(viewer.errorText().contains("cancelled"), qPrintable(viewer.errorText()));
        // Opening again after a cancel works.
        viewer.open(file.fileName());
        QVERIFY(loaded.wait(30000));
        QCOMPARE(loaded.at(1).at(0).toBool(), true);
        QCOMPARE(viewer.graph()->node_size(), 60000);
    }

    void runMetadataStepsColourByComputeTime()
    {
        // A graph run by our Session with FULL_TRACE, written to an event file with its RunMetadata, as a
        // training run in this IDE (or TensorFlow's summary writer) leaves it.
        tensorflow::GraphDef g;
        auto* k = tstudio::testing::addNode(g, "k", "Const");
        (*k->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
        auto* value = (*k->mutable_attr())["value"].mutable_tensor();
        value->set_dtype(tensorflow::DT_FLOAT);
        value->mutable_tensor_shape()->add_dim()->set_size(64);
        for (int i = 0; i < 64; ++i)
            value->add_float_val(float(i) - 30.f);
        addTypedNode(g, "s/relu", "Relu", {"k"});
        addTypedNode(g, "s/mul", "Mul", {"s/relu", "k"});
        SessionOptions options;
        options.ops = &m_registries->ops;
        options.kernels = &m_registries->kernels;
        Session session(options);
        QVERIFY(session.create(g).isOk());
        tensorflow::RunOptions runOptions;
        runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        tensorflow::RunMetadata metadata;
        std::vector<Tensor> out;
        QVERIFY(session.run(runOptions, {}, {"s/mul"}, {}, &out, &metadata).isOk());
        QTemporaryDir dir;
        auto writer = events::EventFileWriter::open(dir.path().toStdString());
        QVERIFY(writer.has_value());
        QVERIFY((*writer)->addGraph(g).isOk());
        QVERIFY((*writer)->addRunMetadata(metadata, "step_7", 7).isOk());
        QVERIFY((*writer)->close().isOk());

        GraphViewer viewer(m_registries.get());
        QSignalSpy loaded(&viewer, &GraphViewer::loaded);
        viewer.open(QString::fromStdString((*writer)->path()));
        QVERIFY(loaded.wait(10000));
        QVERIFY(loaded.at(0).at(0).toBool());
        auto* steps = viewer.findChild<QComboBox*>("stepCombo");
        QVERIFY(steps);
        QCOMPARE(steps->count(), 2); // "(none)" and the one step
        QVERIFY(steps->itemText(1).contains("step_7"));
        steps->setCurrentIndex(1);
        emit steps->activated(1);
        QCOMPARE(viewer.colourMode(), ColourMode::kComputeTime);
        const GraphColouring* colouring = viewer.colouring();
        QVERIFY(colouring);
        const GraphHierarchy& h = *viewer.hierarchy();
        const double relu = colouring->value(h.find("s/relu"));
        const double mul = colouring->value(h.find("s/mul"));
        QVERIFY(relu >= 0 && mul >= 0);
        QCOMPARE(colouring->value(h.find("s")), relu + mul); // a group sums its ops
        viewer.setColourMode(ColourMode::kMemory);
        QVERIFY(viewer.colouring()->value(h.find("s/mul")) >= 64 * 4); // it produced a float [64]
    }

    void exportsPngAndSvg()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        viewer->setExpanded(viewer->hierarchy()->find("layer1"), true);
        QVERIFY(waitForLayout(*viewer));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(viewer->exportImage(dir.filePath("g.png"), &error), qPrintable(error));
        QImage image(dir.filePath("g.png"));
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 100 && image.height() > 100);
        QVERIFY2(viewer->exportImage(dir.filePath("g.svg"), &error), qPrintable(error));
        QFile svg(dir.filePath("g.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("MatMul")); // labels are text, not pixels
        QVERIFY(!viewer->exportImage(dir.filePath("no/such/dir/g.png"), &error));
        QVERIFY(!error.isEmpty());
    }

    void screenEdgesDrawAsTheExportDraws()
    {
        // On screen edges are stroked in pixels (a cosmetic pen, straight pieces where the curve is within a
        // quarter pixel of them); exports stroke them in world units. Both must give the same picture.
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        viewer->setExpanded(viewer->hierarchy()->find("layer1"), true);
        viewer->setExpanded(viewer->hierarchy()->find("layer2"), true);
        QVERIFY(waitForLayout(*viewer));
        GraphCanvas* canvas = viewer->canvas();
        const LayoutSnapshot* s = canvas->snapshot();
        QVERIFY(s && !s->edges.empty());
        for (const double zoom : {1.0, 0.35}) {
            const QSize size(900, 650);
            const QPointF offset = QPointF(size.width() / 2.0, size.height() / 2.0) -
                                   QPointF(s->size.width / 2, s->size.height / 2) * zoom;
            canvas->setView(zoom, offset);
            canvas->settle(); // a settled view: antialiased edges on screen as in the export
            const QRectF world((QPointF(0, 0) - offset) / zoom, QSizeF(size.width() / zoom, size.height() / zoom));
            auto draw = [&](bool screen) {
                QImage image(size, QImage::Format_ARGB32_Premultiplied);
                image.fill(Qt::white);
                QPainter painter(&image);
                painter.translate(offset);
                painter.scale(zoom, zoom);
                canvas->renderScene(painter, world, zoom, screen);
                return image;
            };
            const QImage screen = draw(true), exported = draw(false);
            qint64 inked = 0, differing = 0;
            for (int y = 0; y < size.height(); ++y)
                for (int x = 0; x < size.width(); ++x) {
                    const QRgb a = screen.pixel(x, y), b = exported.pixel(x, y);
                    inked += qGray(b) < 250 ? 1 : 0;
                    const int d = std::max({std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
                    differing += d > 64 ? 1 : 0;
                }
            QVERIFY2(inked > 2000, qPrintable(QStringLiteral("zoom %1: %2 inked pixels").arg(zoom).arg(inked)));
            // Identical here (0 pixels apart at both zooms); edges three times as wide on screen differ in
            // 0.5-0.9% of the inked pixels.
            QVERIFY2(differing * 1000 <= inked, qPrintable(QStringLiteral("zoom %1: %2 of %3 inked pixels differ").arg(zoom).arg(differing).arg(inked)));
        }
    }

    void zoomedOutScreenDrawingLosesNoEdge()
    {
        // Many edges on screen: edges that fall on the same pixels in the same pen are drawn once. Every pixel the
        // export inks must still be inked on screen.
        // Names without numbers, so that no series folds the scopes or their ops.
        auto letters = [](int i) { return std::string{char('a' + i / 26), char('a' + i % 26)}; };
        tensorflow::GraphDef g;
        addTypedNode(g, "x", "Placeholder");
        constexpr int kScopes = 30, kChain = 17;
        for (int i = 0; i < kScopes; ++i) {
            const std::string scope = "scope_" + letters(i);
            // A chain: every op reads the one before it.
            for (int j = 0; j < kChain; ++j)
                addTypedNode(g, scope + "/op_" + letters(j), "Identity", {j == 0 ? std::string("x") : scope + "/op_" + letters(j - 1)});
        }
        auto viewer = show(g);
        QVERIFY(viewer);
        for (int i = 0; i < kScopes; ++i)
            viewer->setExpanded(viewer->hierarchy()->find("scope_" + letters(i)), true);
        QVERIFY(waitForLayout(*viewer));
        GraphCanvas* canvas = viewer->canvas();
        QVERIFY2(canvas->snapshot()->edges.size() > 400, qPrintable(QString::number(canvas->snapshot()->edges.size())));
        canvas->resize(900, 650);
        canvas->zoomToFit();
        canvas->settle();
        const double zoom = canvas->zoom();
        auto draw = [&](bool screen) {
            QImage image(canvas->size(), QImage::Format_ARGB32_Premultiplied);
            image.fill(Qt::white);
            QPainter painter(&image);
            painter.translate(canvas->offset());
            painter.scale(zoom, zoom);
            canvas->renderScene(painter, canvas->visibleWorldRect(), zoom, screen);
            return image;
        };
        const QImage screen = draw(true), exported = draw(false);
        qint64 inked = 0, lost = 0;
        for (int y = 0; y < screen.height(); ++y)
            for (int x = 0; x < screen.width(); ++x) {
                // Where the export inks strongly (an edge's core, a box): on screen edges are aliased here (many
                // on screen), so their faint antialiased fringes are not compared.
                if (qGray(exported.pixel(x, y)) >= 140)
                    continue;
                ++inked;
                lost += qGray(screen.pixel(x, y)) >= 245 ? 1 : 0;
            }
        QVERIFY2(inked > 2000, qPrintable(QString::number(inked)));
        // 18 of 21,731 here; an edge key that ignored the points lost 12,967.
        QVERIFY2(lost * 200 <= inked, qPrintable(QStringLiteral("%1 of %2 inked pixels lost").arg(lost).arg(inked)));
    }

    void debuggerMarksAndBreakpointToggle()
    {
        auto viewer = show(twoLayers());
        QVERIFY(viewer);
        GraphCanvas* canvas = viewer->canvas();
        const GraphHierarchy& h = *viewer->hierarchy();
        // Paused in the collapsed group layer1; two ops ran; a breakpoint inside layer2; unknown names ignored.
        viewer->setDebugMarks("layer1/MatMul", {"input/x", "layer1/W", "no/such/node"}, {"layer2/Relu"});
        QCOMPARE(canvas->debugMarks(h.find("layer1/MatMul")), int(GraphCanvas::kPausedMark));
        QCOMPARE(canvas->debugMarks(h.find("layer1")), int(GraphCanvas::kContainsPausedMark));
        QCOMPARE(canvas->debugMarks(h.find("input/x")), int(GraphCanvas::kExecutedMark));
        // The VariableV2 "layer1/W" is the op "layer1/W/(W)" inside the group "layer1/W" (it has "layer1/W/read").
        const auto& nodes = h.nodes();
        const auto variable = std::find_if(nodes.begin(), nodes.end(), [](const HierarchyNode& n) {
            return n.kind == HierarchyNodeKind::kOp && n.nodeName == "layer1/W";
        });
        QVERIFY(variable != nodes.end());
        QCOMPARE(canvas->debugMarks(variable->id), int(GraphCanvas::kExecutedMark));
        QCOMPARE(canvas->debugMarks(h.find("layer1/W")), 0); // the group
        QCOMPARE(canvas->debugMarks(h.find("input")), 0); // executed marks stay on ops
        QCOMPARE(canvas->debugMarks(h.find("layer2/Relu")), int(GraphCanvas::kBreakpointMark));
        QCOMPARE(canvas->debugMarks(h.find("layer2")), int(GraphCanvas::kContainsBreakpointMark));
        QCOMPARE(canvas->debugMarks(h.find("loss/Sum")), 0);

        // Drawn: the collapsed layer1 box carries the paused op's violet outline, layer2 the red ring.
        const auto countNear = [&](const std::string& name, QColor colour) {
            const QImage image = canvas->grab().toImage();
            const ViewItem& item = canvas->snapshot()->items[static_cast<std::size_t>(canvas->itemIndexOf(h.find(name)))];
            const QRectF world(item.x - 8, item.y - 8, item.width + 16, item.height + 16);
            const QRect r = QRectF(world.topLeft() * canvas->zoom() + canvas->offset(), world.size() * canvas->zoom())
                                .toAlignedRect()
                                .intersected(image.rect());
            int count = 0;
            for (int y = r.top(); y <= r.bottom(); ++y)
                for (int x = r.left(); x <= r.right(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    count += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) +
                                     std::abs(c.blue() - colour.blue()) <
                                 30
                                 ? 1
                                 : 0;
                }
            return count;
        };
        const QColor violet(0x7b, 0x1f, 0xa2);
        const QColor red(0xd3, 0x2f, 0x2f);
        QVERIFY(countNear("layer1", violet) > 20);
        QVERIFY(countNear("layer2", red) > 5);
        QCOMPARE(countNear("layer2", violet), 0);

        // Empty arguments clear.
        viewer->setDebugMarks({}, {}, {});
        for (const auto& node : h.nodes())
            QCOMPARE(canvas->debugMarks(node.id), 0);
        QCOMPARE(countNear("layer1", violet), 0);

        // Toggle Breakpoint (F9) on the selected op; disabled on a group.
        QAction* toggle = viewer->toggleBreakpointAction();
        QCOMPARE(toggle->shortcut(), QKeySequence(Qt::Key_F9));
        QSignalSpy requested(viewer.get(), &GraphViewer::breakpointToggleRequested);
        QVERIFY(viewer->selectNodeNamed("layer1/MatMul"));
        QVERIFY(waitForLayout(*viewer));
        QVERIFY(toggle->isEnabled());
        toggle->trigger();
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.at(0).at(0).toString(), QString("layer1/MatMul"));
        canvas->setSelected(h.find("layer2"));
        QVERIFY(!toggle->isEnabled());
        toggle->trigger();
        QCOMPARE(requested.count(), 1);
    }
};

} // namespace

QTEST_MAIN(TestGraphViewer)
#include "test_graph_viewer.moc"
