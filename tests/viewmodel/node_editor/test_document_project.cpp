// Tests for documentProject / editorState: a document with layer nodes saved as a .tsproj keeps its
// layer nodes and positions, derives training and data from its optimizer, Dataset and data-source
// nodes (and the Input nodes bound to them), refuses what cannot train, falls back to the graph when
// the file was edited elsewhere, and trains.
#include "../../support/book_training.h"
#include "../../support/test_files.h"
#include "../../support/tiny_mnist.h"
#include "node_editor/document_project.h"

#include "builder/attr_values.h"
#include "document/document_commands.h"
#include "node_editor/document_builder.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include "../../support/shared_registries.h"
#include "../../support/document_edits.h"

#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <filesystem>

using namespace tstudio;
using namespace tstudio::node_editor;
namespace tf = tensorflow;
using Params = std::map<std::string, tf::AttrValue>;

namespace {

constexpr auto* registries = &testing::sharedRegistries;

constexpr auto* layer = &testing::addLayerNode;
void link(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot) { testing::connectNodes(doc, from, output, to, slot); }

/// Dataset (one-hot) -> Dense(10) -> softmax cross entropy -> optimizer `optimizerType`.
struct SmallNet {
    DocNodeId data, dense, loss, optimizer;
};

SmallNet makeSmallNet(GraphDocument& doc, const Params& optimizerParams = {})
{
    SmallNet n{};
    n.data = layer(doc, "Dataset", "mnist", {{"labels", attr::s("one_hot")}}, {0, 0});
    n.dense = layer(doc, "Dense", "logits", {{"units", attr::i(10)}}, {220, -20});
    n.loss = layer(doc, "SoftmaxCrossEntropy", "xent", {}, {440, 40});
    n.optimizer = layer(doc, "GradientDescent", "train", optimizerParams, {660, 40});
    link(doc, n.data, 0, n.dense, 0);
    link(doc, n.data, 1, n.loss, 0);
    link(doc, n.dense, 0, n.loss, 1);
    link(doc, n.loss, 0, n.optimizer, 0);
    return n;
}

std::unique_ptr<GraphDocument> newDocument()
{
    auto doc = std::make_unique<GraphDocument>(&registries().ops);
    installLayerPorts(*doc);
    return doc;
}

/// The network a TensorFlow user writes with placeholders, fed by an MNIST source through the Input
/// nodes' "data" ports: input (float32 [-1,784]) and labels (int64 [-1]) bound to mnist's images
/// and labels, then Dense(64, relu), Dense(10), SparseSoftmaxCrossEntropy and Adam.
struct BoundNet {
    DocNodeId mnist, input, labels, hidden, logits, loss, adam;
};

BoundNet makeBoundNet(GraphDocument& doc, const Params& mnistParams)
{
    BoundNet n{};
    n.mnist = layer(doc, "MnistSource", "mnist", mnistParams, {0, 0});
    n.input = layer(doc, "Input", "input",
                    {{"dtype", attr::type(tf::DT_FLOAT)}, {"shape", attr::shape(TensorShape{-1, 784})}}, {200, 0});
    n.labels = layer(doc, "Input", "labels",
                     {{"dtype", attr::type(tf::DT_INT64)}, {"shape", attr::shape(TensorShape{-1})}}, {200, 120});
    n.hidden = layer(doc, "Dense", "hidden", {{"units", attr::i(64)}, {"activation", attr::s("relu")}}, {400, 0});
    n.logits = layer(doc, "Dense", "logits", {{"units", attr::i(10)}}, {600, 0});
    n.loss = layer(doc, "SparseSoftmaxCrossEntropy", "loss", {}, {800, 60});
    n.adam = layer(doc, "Adam", "adam", {}, {1000, 60});
    link(doc, n.mnist, 0, n.input, 0);  // images -> data
    link(doc, n.mnist, 1, n.labels, 0); // labels -> data
    link(doc, n.input, 0, n.hidden, 0);
    link(doc, n.hidden, 0, n.logits, 0);
    link(doc, n.labels, 0, n.loss, 0);
    link(doc, n.logits, 0, n.loss, 1);
    link(doc, n.loss, 0, n.adam, 0);
    return n;
}

/// The placeholders a source feeds, each with its components.
using Feeds = std::map<std::string, std::vector<std::string>>;
const Feeds kBoundFeeds{
    {"input", {"images"}}, {"labels", {"labels"}}, {"mnist/images", {"images"}}, {"mnist/labels", {"labels"}}};

} // namespace

class TestDocumentProject : public QObject {
    Q_OBJECT

private slots:
    /// Training, data and the editor state come from the document's nodes.
    void projectFromTheDocument()
    {
        auto doc = newDocument();
        const SmallNet n = makeSmallNet(*doc);
        const DocumentBuild build = buildDocument(*doc, registries().ops, false);
        QVERIFY(build.problems.empty());
        auto p = documentProject(*doc, registries().ops, newProject("small"));
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->name, std::string("small"));
        QCOMPARE(p->logdir, std::string("runs/small"));
        QVERIFY(p->graph.file.empty());
        QVERIFY(p->graph.pbtxt.find("name: \"logits/MatMul\"") != std::string::npos);
        QCOMPARE(p->training.trainOp.value_or(""), build.targets.at(0));
        QCOMPARE(p->training.loss, build.tensors.at(n.loss).at(0));
        QVERIFY(!p->training.optimizer);
        QVERIFY(!p->training.globalStep); // "global_step", found by name
        QCOMPARE(p->training.initOp.value_or(""), std::string("init"));
        QCOMPARE(p->sources.size(), std::size_t(1));
        const auto* mnist = std::get_if<project::MnistParams>(&p->sources[0].params);
        QVERIFY(mnist);
        QCOMPARE(mnist->labels, std::string("one_hot"));
        QCOMPARE(p->sources[0].feeds.at("mnist/images"), std::vector<std::string>{"images"});
        QCOMPARE(p->sources[0].feeds.at("mnist/labels"), std::vector<std::string>{"labels"});
        const auto& editor = p->settings.at(kEditorSettingsKey);
        QCOMPARE(editor.at("version").get<int>(), kEditorSettingsVersion);
        QCOMPARE(editor.at("positions").at("logits").at(0).get<double>(), 220.0);
        QCOMPARE(editor.at("positions").at("logits").at(1).get<double>(), -20.0);
        QVERIFY(editor.at("document").get<std::string>().find("_tstudio_layer") != std::string::npos);

        // A source the project already has for those placeholders is kept, not doubled.
        project::Project base = newProject("small");
        project::DataSource custom;
        project::MnistParams t10k;
        t10k.set = "t10k";
        custom.params = t10k;
        custom.feeds = {{"mnist/images", {"images"}}, {"mnist/labels", {"labels"}}};
        base.sources.push_back(custom);
        auto again = documentProject(*doc, registries().ops, base);
        QVERIFY(again.has_value());
        QCOMPARE(again->sources.size(), std::size_t(1));
        QCOMPARE(std::get<project::MnistParams>(again->sources[0].params).set, std::string("t10k"));
    }

    /// Saved and loaded back: the same layer nodes, connections, attrs and positions.
    void roundTripKeepsLayersAndPositions()
    {
        QTemporaryDir dir;
        auto doc = newDocument();
        makeSmallNet(*doc);
        auto p = documentProject(*doc, registries().ops, newProject("small"));
        QVERIFY(p.has_value());
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "small.tsproj";
        QVERIFY(project::saveProject(*p, file).isOk());
        auto loaded = project::loadProject(file);
        QVERIFY2(loaded.has_value(), loaded ? "" : loaded.error().toString().c_str());
        auto state = editorState(*loaded, registries().ops);
        QVERIFY2(state.has_value(), state ? "" : state.error().toString().c_str());
        QVERIFY(state->warnings.empty());
        QVERIFY(state->layersKept);
        QCOMPARE(state->positions, doc->positions());

        auto reopened = newDocument();
        auto warnings = reopened->fromGraphDef(state->graph, state->positions);
        QVERIFY(warnings.has_value() && warnings->empty());
        QCOMPARE(reopened->nodeCount(), doc->nodeCount());
        for (DocNodeId id : doc->nodes()) {
            const DocNode* a = doc->node(id);
            const DocNode* b = reopened->node(reopened->findByName(a->name));
            QVERIFY(b);
            QCOMPARE(b->kind, a->kind);
            QCOMPARE(b->type, a->type);
            QCOMPARE(b->position, a->position);
            QCOMPARE(b->attrs.size(), a->attrs.size());
        }
        QCOMPARE(reopened->connections().size(), doc->connections().size());
        // The reopened document saves the same project again, byte for byte.
        auto resaved = documentProject(*reopened, registries().ops, *loaded);
        QVERIFY(resaved.has_value());
        QCOMPARE(project::projectToJson(*resaved), project::projectToJson(*loaded));
    }

    /// Each data-source node becomes the project source of its kind feeding "<node>/<component>";
    /// the project's JSON parses back to the same, and editorState gives the node back with its
    /// params, taking path edits made in the project (Training panel, --set) into the node.
    void dataSourceNodesBecomeProjectSources()
    {
        struct Case {
            std::string type;
            Params params;
            std::string sourceType;
            std::vector<std::string> components;
            std::string pathParam;   ///< the param that holds the paths
            std::string pathJsonKey; ///< its key in the source's JSON
        };
        const std::vector<Case> cases{
            {"MnistSource",
             {{"dir", attr::s("mnist-data")}, {"set", attr::s("t10k")}, {"skip", attr::i(100)}, {"take", attr::i(500)},
              {"labels", attr::s("one_hot")}},
             "mnist", {"images", "labels"}, "dir", "dir"},
            {"SpiralsSource", {{"points_per_class", attr::i(50)}, {"noise", attr::f(0.1f)}, {"labels", attr::s("one_hot")}},
             "two_spirals", {"points", "labels"}, "", ""},
            {"ImageFolderSource",
             {{"dir", attr::s("flowers")}, {"height", attr::i(32)}, {"width", attr::i(32)}, {"labels", attr::s("one_hot")},
              {"classes", attr::i(5)}},
             "image_folder", {"images", "labels"}, "dir", "dir"},
            {"NumpySource",
             {{"files", attr::s("x.npy, y.npy")}, {"components", attr::s("x:float32:28x28, y:int64")}, {"skip", attr::i(2)}},
             "numpy", {"x", "y"}, "files", "files"},
            {"NumpySource", {{"files", attr::s("mnist.npz")}, {"components", attr::s("images:uint8:28x28, labels:uint8")}},
             "numpy", {"images", "labels"}, "files", "files"},
            {"CsvSource",
             {{"files", attr::s("a.csv, b.csv")}, {"header", attr::b(true)}, {"columns", attr::s("f:float32=0.5, name:string=none, k:int64")}},
             "csv", {"f", "name", "k"}, "files", "files"},
            {"TfRecordSource",
             {{"files", attr::s("train.tfrecord")}, {"compression", attr::s("gzip")},
              {"features", attr::s("image:float32:784, label:int64=-1")}},
             "tfrecord", {"image", "label"}, "files", "files"},
        };
        for (const Case& c : cases) {
            const QByteArray what = QByteArray::fromStdString(c.type + " " + c.sourceType);
            auto doc = newDocument();
            const DocNodeId data = layer(*doc, c.type, "data", c.params, {0, 0});
            QCOMPARE(doc->node(data)->outputs, static_cast<int>(c.components.size()));
            project::Project base = newProject("d");
            base.training.optimizer = project::OptimizerSpec{};
            base.training.loss = "data/" + c.components.front() + ":0";
            auto p = documentProject(*doc, registries().ops, base);
            QVERIFY2(p.has_value(), p ? what.constData() : p.error().toString().c_str());
            QCOMPARE(p->sources.size(), std::size_t(1));
            const project::DataSource& source = p->sources[0];
            QCOMPARE(source.type(), c.sourceType);
            QCOMPARE(source.feeds.size(), c.components.size());
            for (const std::string& component : c.components)
                QCOMPARE(source.feeds.at("data/" + component), std::vector<std::string>{component});

            // JSON and back: the same project, byte for byte.
            const std::string text = project::projectToJson(*p);
            auto parsed = project::parseProject(text, "d.tsproj");
            QVERIFY2(parsed.has_value(), parsed ? "" : parsed.error().toString().c_str());
            QCOMPARE(project::projectToJson(*parsed), text);

            // editorState: the node with the params it was saved with.
            auto state = editorState(*parsed, registries().ops);
            QVERIFY2(state.has_value(), state ? "" : state.error().toString().c_str());
            QVERIFY2(state->layersKept, what.constData());
            QVERIFY(state->warnings.empty());
            const tf::NodeDef* node = nullptr;
            for (const tf::NodeDef& n : state->graph.node())
                if (n.name() == "data")
                    node = &n;
            QVERIFY(node);
            QCOMPARE(node->op(), c.type);
            for (const auto& [name, value] : c.params)
                QVERIFY2(node->attr().at(name).DebugString() == value.DebugString(), (what + " " + name.c_str()).constData());

            // A path changed in the project shows in the node; the document saves it back.
            if (c.pathParam.empty())
                continue;
            nlohmann::json doc2 = nlohmann::json::parse(text);
            auto& entry = doc2["data"]["sources"][0][c.pathJsonKey];
            std::string expectedParam;
            if (entry.is_array()) {
                std::vector<std::string> files = entry.get<std::vector<std::string>>();
                for (std::string& f : files)
                    f = "/moved/" + f;
                entry = files;
                for (const std::string& f : files)
                    expectedParam += (expectedParam.empty() ? "" : ", ") + f;
            } else {
                entry = "/moved/data";
                expectedParam = "/moved/data";
            }
            auto moved = project::parseProject(doc2.dump(), "d.tsproj");
            QVERIFY2(moved.has_value(), moved ? "" : moved.error().toString().c_str());
            auto movedState = editorState(*moved, registries().ops);
            QVERIFY(movedState.has_value());
            QVERIFY2(movedState->layersKept && movedState->warnings.empty(), what.constData());
            std::string shown;
            for (const tf::NodeDef& n : movedState->graph.node())
                if (n.name() == "data")
                    shown = n.attr().at(c.pathParam).s();
            QCOMPARE(shown, expectedParam);
            auto reopened = newDocument();
            QVERIFY(reopened->fromGraphDef(movedState->graph, movedState->positions).has_value());
            auto resaved = documentProject(*reopened, registries().ops, *moved);
            QVERIFY(resaved.has_value());
            const nlohmann::json resavedData = nlohmann::json::parse(project::projectToJson(*resaved)).at("data");
            const nlohmann::json movedData = nlohmann::json::parse(project::projectToJson(*moved)).at("data");
            QVERIFY2(resavedData == movedData, (resavedData.dump() + " vs " + movedData.dump()).c_str());
        }

        // What the project needs and the node lacks is refused by name.
        auto doc = newDocument();
        layer(*doc, "NumpySource", "data", {{"files", attr::s("a.npy, b.npy")}}, {0, 0});
        project::Project base = newProject("d");
        base.training.optimizer = project::OptimizerSpec{};
        base.training.loss = "data/x:0";
        auto refused = documentProject(*doc, registries().ops, base);
        QVERIFY(!refused.has_value());
        QCOMPARE(refused.error().message(),
                 std::string("node 'data' (NumpySource): file 'a.npy' gives the component 'a' but param 'components' "
                             "names 'x' in its place"));
        auto empty = newDocument();
        layer(*empty, "CsvSource", "data", {}, {0, 0});
        auto noFiles = documentProject(*empty, registries().ops, base);
        QVERIFY(!noFiles.has_value());
        QCOMPARE(noFiles.error().message(),
                 std::string("node 'data' (CsvSource): param 'files' is empty; set the files to read"));
    }

    /// Input nodes bound to an MnistSource through their "data" ports: plain placeholders in the
    /// graph, fed by the source (beside its own placeholders) in the project; the binding is saved
    /// in the editor state and comes back, also after the project's paths were changed (--set,
    /// the Training panel's data folder); an unbound Input is as before.
    void inputsBoundToASourceAreFedByIt()
    {
        auto doc = newDocument();
        const BoundNet n = makeBoundNet(*doc, {{"set", attr::s("t10k")}});
        QCOMPARE(doc->node(n.input)->inputs.size(), std::size_t(1));
        QCOMPARE(doc->slotName(n.input, 0), std::string("data"));

        const DocumentBuild build = buildDocument(*doc, registries().ops, false);
        QVERIFY2(build.problems.empty(), build.problems.empty() ? "" : build.problems.begin()->second.c_str());
        QCOMPARE(build.bindings.size(), std::size_t(2));
        QCOMPARE(build.bindings[0].placeholder, std::string("input:0"));
        QCOMPARE(build.bindings[0].component, std::string("images"));
        QCOMPARE(build.bindings[1].placeholder, std::string("labels:0"));
        QCOMPARE(build.bindings[1].component, std::string("labels"));

        auto p = documentProject(*doc, registries().ops, newProject("bound"));
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->sources.size(), std::size_t(1));
        QCOMPARE(p->sources[0].type(), std::string("mnist"));
        QCOMPARE(p->sources[0].feeds, kBoundFeeds);
        // Not an edge of the graph: the Inputs are the Placeholders their params say, with no input.
        auto graph = project::readProjectGraph(*p);
        QVERIFY(graph.has_value());
        for (const std::string name : {"input", "labels"}) {
            const tf::NodeDef* node = nullptr;
            for (const tf::NodeDef& x : graph->node())
                if (x.name() == name)
                    node = &x;
            QVERIFY2(node, name.c_str());
            QCOMPARE(node->op(), std::string("Placeholder"));
            QCOMPARE(node->input_size(), 0);
        }

        // Saved, loaded and opened again: the same bindings, and the same project byte for byte.
        QTemporaryDir dir;
        const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / "bound.tsproj";
        QVERIFY(project::saveProject(*p, file).isOk());
        // The document editorState gives back, or nullptr (with the reason) when it is not the saved one.
        const auto reopen = [&](const project::Project& loaded) -> std::unique_ptr<GraphDocument> {
            auto state = editorState(loaded, registries().ops);
            if (!state || !state->layersKept || !state->warnings.empty()) {
                qWarning("editorState: %s", !state                    ? state.error().toString().c_str()
                                            : state->warnings.empty() ? "layers not kept"
                                                                      : state->warnings.front().c_str());
                return nullptr;
            }
            auto reopened = newDocument();
            if (!reopened->fromGraphDef(state->graph, state->positions))
                return nullptr;
            return reopened;
        };
        auto loaded = project::loadProject(file);
        QVERIFY2(loaded.has_value(), loaded ? "" : loaded.error().toString().c_str());
        auto reopened = reopen(*loaded);
        QVERIFY(reopened);
        const DocNode* input = reopened->node(reopened->findByName("input"));
        const DocNode* labels = reopened->node(reopened->findByName("labels"));
        QVERIFY(input && labels);
        QCOMPARE(input->inputs.at(0), (InputSlot{reopened->findByName("mnist"), 0}));
        QCOMPARE(labels->inputs.at(0), (InputSlot{reopened->findByName("mnist"), 1}));
        QCOMPARE(reopened->connections().size(), doc->connections().size());
        auto resaved = documentProject(*reopened, registries().ops, *loaded);
        QVERIFY(resaved.has_value());
        QCOMPARE(project::projectToJson(*resaved), project::projectToJson(*loaded));

        // --set data.dir (what the Training panel's data folder sets) and a moved source folder:
        // the bindings stay, the node shows the folder, and saving again feeds the same placeholders.
        for (const project::Override& o :
             {project::Override{"data.dir", "/data/mnist"}, project::Override{"data.sources.0.dir", "/moved/mnist"}}) {
            auto changed = project::loadProject(file, {o});
            QVERIFY2(changed.has_value(), changed ? "" : changed.error().toString().c_str());
            auto again = reopen(*changed);
            QVERIFY(again);
            const DocNode* bound = again->node(again->findByName("input"));
            QVERIFY(bound);
            QCOMPARE(bound->inputs.at(0), (InputSlot{again->findByName("mnist"), 0}));
            auto saved = documentProject(*again, registries().ops, *changed);
            QVERIFY2(saved.has_value(), saved ? "" : saved.error().toString().c_str());
            QCOMPARE(saved->sources.size(), std::size_t(1));
            QCOMPARE(saved->sources[0].feeds, kBoundFeeds);
            const auto& mnist = std::get<project::MnistParams>(saved->sources[0].params);
            QCOMPARE(mnist.dir.value_or(""), o.path == "data.dir" ? std::string() : std::string("/moved/mnist"));
            QCOMPARE(saved->dataDir.value_or(""), o.path == "data.dir" ? std::string("/data/mnist") : std::string());
        }

        // A feed of a bound Input in another source of base (fed by hand before) goes; the rest of
        // that source stays.
        project::Project base = newProject("bound");
        project::DataSource byHand;
        byHand.params = project::TwoSpiralsParams{};
        byHand.feeds = {{"input:0", {"points"}}, {"other", {"labels"}}};
        base.sources.push_back(byHand);
        auto merged = documentProject(*doc, registries().ops, base);
        QVERIFY(merged.has_value());
        QCOMPARE(merged->sources.size(), std::size_t(2));
        QCOMPARE(merged->sources[0].feeds, (Feeds{{"other", {"labels"}}}));
        QCOMPARE(merged->sources[1].feeds, kBoundFeeds);

        // Unbound, an Input is what it was: a placeholder the source does not feed, and no problem.
        link(*doc, n.mnist, 0, n.hidden, 0); // hidden now reads the source's own placeholder
        auto command = DisconnectCommand::create(doc.get(), {n.mnist, 0, n.input, 0});
        QVERIFY(command.has_value());
        doc->undoStack()->push(command->release());
        const DocumentBuild unbound = buildDocument(*doc, registries().ops, true);
        QVERIFY(!unbound.problems.count(n.input));
        QCOMPARE(unbound.bindings.size(), std::size_t(1));
        auto partly = documentProject(*doc, registries().ops, newProject("bound"));
        QVERIFY2(partly.has_value(), partly ? "" : partly.error().toString().c_str());
        QCOMPARE(partly->sources[0].feeds,
                 (Feeds{{"labels", {"labels"}}, {"mnist/images", {"images"}}, {"mnist/labels", {"labels"}}}));
    }

    /// A binding whose dtype or known dimensions disagree, or that does not come from a data-source
    /// node, is the Input's problem, naming both nodes and ports; the nodes after it still build.
    void mismatchedBindingsAreRefused()
    {
        const std::string tail = ": bound to it through port 'data', the Input needs dtype ";
        {
            auto doc = newDocument();
            const BoundNet n = makeBoundNet(*doc, {{"scale", attr::b(false)}}); // uint8 images
            const DocumentBuild build = buildDocument(*doc, registries().ops, true);
            QCOMPARE(build.problems.size(), std::size_t(1));
            QCOMPARE(build.problems.at(n.input),
                     "Input 'input' is float32 [?,784] but port 'images' of 'mnist' is uint8 [?,784]" + tail +
                         "uint8 and a shape that fits [?,784], such as [-1,784]");
            QVERIFY(build.tensors.count(n.hidden) && build.tensors.count(n.input)); // still built
            QCOMPARE(build.bindings.size(), std::size_t(1));                        // labels only
            auto p = documentProject(*doc, registries().ops, newProject("bad"));
            QVERIFY(!p.has_value());
            QCOMPARE(p.error().message(), "node 'input' cannot be built: " + build.problems.at(n.input));
        }
        {
            auto doc = newDocument();
            const BoundNet n = makeBoundNet(*doc, {});
            auto command = SetAttrCommand::create(doc.get(), n.labels, "shape", attr::shape(TensorShape{-1, 10}));
            QVERIFY(command.has_value());
            doc->undoStack()->push(command->release());
            const DocumentBuild build = buildDocument(*doc, registries().ops, true);
            QCOMPARE(build.problems.at(n.labels),
                     "Input 'labels' is int64 [?,10] but port 'labels' of 'mnist' is int64 [?]" + tail +
                         "int64 and a shape that fits [?], such as [-1]");
        }
        {
            auto doc = newDocument();
            const BoundNet n = makeBoundNet(*doc, {});
            const DocNodeId other =
                layer(*doc, "Input", "other", {{"shape", attr::shape(TensorShape{-1, 784})}}, {0, 300});
            link(*doc, other, 0, n.input, 0);
            const DocumentBuild build = buildDocument(*doc, registries().ops, true);
            QCOMPARE(build.problems.at(n.input),
                     std::string("port 'data' takes a component of a data-source node (MnistSource, SpiralsSource, "
                                 "ImageFolderSource, NumpySource, CsvSource, TfRecordSource); 'other' (Input) is not "
                                 "one"));
        }
    }

    /// The bound project trains with the runner on a tiny MNIST the test writes: the Input
    /// placeholders are fed (an unfed one would stop the first step), the loss is finite and falls.
    void boundInputsTrain()
    {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        QVERIFY(test::writeTinyMnist(root, 300));
        auto doc = newDocument();
        makeBoundNet(*doc, {{"set", attr::s("t10k")}, {"dir", attr::s(root.string())}});
        auto p = documentProject(*doc, registries().ops, newProject("bound"));
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        p->location = root / "bound.tsproj";
        p->batchSize = 50;
        p->steps = 40;
        std::vector<double> losses;
        project::TrainRunOptions options;
        options.progressEverySteps = 1;
        options.onProgress = [&](const project::TrainProgress& progress) {
            if (progress.loss)
                losses.push_back(*progress.loss);
        };
        auto result = project::trainProject(*p, registries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(40));
        QVERIFY(losses.size() >= 10);
        for (double loss : losses)
            QVERIFY(std::isfinite(loss));
        QVERIFY2(losses.back() < 0.7 * losses.front(),
                 (std::to_string(losses.front()) + " -> " + std::to_string(losses.back())).c_str());
    }

    /// A graph changed outside the editor wins over the saved document, and says so.
    void editedGraphFallsBackToItsOps()
    {
        auto doc = newDocument();
        makeSmallNet(*doc);
        auto p = documentProject(*doc, registries().ops, newProject("small"));
        QVERIFY(p.has_value());
        const std::string marker = "name: \"logits/MatMul\"";
        p->graph.pbtxt.replace(p->graph.pbtxt.find(marker), marker.size(), "name: \"logits/MatMul2\"");
        auto state = editorState(*p, registries().ops);
        QVERIFY(state.has_value());
        QVERIFY(!state->layersKept);
        QCOMPARE(state->warnings.size(), std::size_t(1));
        QVERIFY(state->warnings[0].find("differs") != std::string::npos);
        bool renamed = false;
        for (const tf::NodeDef& node : state->graph.node())
            renamed = renamed || node.name() == "logits/MatMul2";
        QVERIFY(renamed);

        // Damaged positions are reported and skipped; an inline graph that does not parse is an error.
        p->settings[kEditorSettingsKey]["positions"]["logits"] = "left";
        state = editorState(*p, registries().ops);
        QVERIFY(state.has_value());
        QVERIFY(!state->positions.count("logits"));
        QVERIFY(state->positions.count("xent"));
        p->graph.pbtxt = "node { name: ";
        state = editorState(*p, registries().ops);
        QVERIFY(!state.has_value());
        QVERIFY2(state.error().message().find("graph.pbtxt") != std::string::npos, state.error().toString().c_str());
    }

    /// What cannot train is refused with the reason.
    void refusals()
    {
        auto none = newDocument();
        layer(*none, "Input", "x", {{"shape", attr::shape(TensorShape{-1, 3})}}, {0, 0});
        auto p = documentProject(*none, registries().ops, newProject("n"));
        QVERIFY(!p.has_value());
        QVERIFY2(p.error().message().find("no optimizer node") != std::string::npos, p.error().toString().c_str());

        auto noStep = newDocument();
        makeSmallNet(*noStep, {{"global_step", attr::s("none")}});
        p = documentProject(*noStep, registries().ops, newProject("n"));
        QVERIFY(!p.has_value());
        QVERIFY2(p.error().message().find("global_step 'none'") != std::string::npos, p.error().toString().c_str());

        auto two = newDocument();
        const SmallNet n = makeSmallNet(*two);
        const DocNodeId second = layer(*two, "Adam", "adam", {}, {660, 200});
        link(*two, n.loss, 0, second, 0);
        p = documentProject(*two, registries().ops, newProject("n"));
        QVERIFY(!p.has_value());
        QVERIFY2(p.error().message().find("2 optimizer nodes ('train', 'adam')") != std::string::npos,
                 p.error().toString().c_str());

        // Without an optimizer node, the project's own set-up must still name nodes of the graph.
        project::Project base = newProject("n");
        base.training.loss = "gone:0";
        base.training.optimizer = project::OptimizerSpec{};
        p = documentProject(*none, registries().ops, base);
        QVERIFY(!p.has_value());
        QVERIFY2(p.error().message().find("'gone:0' is not in the graph") != std::string::npos, p.error().toString().c_str());
    }

    /// The book's optimizer steps its int32 "Variable": the project names it as the global step,
    /// and the project trains with the built-in runner (MNIST fixture).
    void bookStyleProjectTrains()
    {
        auto doc = newDocument();
        const DocNodeId data = layer(*doc, "Dataset", "mnist", {{"labels", attr::s("one_hot")}}, {0, 0});
        const DocNodeId l1 = layer(*doc, "Dense", "layer1", testing::bookDenseParams(50, "relu"), {200, 0});
        const DocNodeId l2 = layer(*doc, "Dense", "layer2", testing::bookDenseParams(10, "none"), {400, 0});
        const DocNodeId loss = layer(*doc, "SoftmaxCrossEntropy", "xent", {}, {600, 0});
        const DocNodeId train = layer(*doc, "GradientDescent", "GradientDescent", testing::bookOptimizerParams(), {800, 0});
        link(*doc, data, 0, l1, 0);
        link(*doc, l1, 0, l2, 0);
        link(*doc, data, 1, loss, 0);
        link(*doc, l2, 0, loss, 1);
        link(*doc, loss, 0, train, 0);
        auto p = documentProject(*doc, registries().ops, newProject("book"));
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->training.globalStep.value_or(""), std::string("Variable:0"));

        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("MNIST fixture not found (../shared/fixtures or $TSTUDIO_FIXTURES); the training half is skipped");
        QTemporaryDir dir;
        p->location = std::filesystem::path(dir.path().toStdString()) / "book.tsproj";
        p->dataDir = (fixtures + "/mnist").toStdString();
        auto& mnist = std::get<project::MnistParams>(p->sources.at(0).params);
        mnist.set = "t10k";
        mnist.take = 500;
        p->batchSize = 50;
        p->steps = 20;
        auto result = project::trainProject(*p, registries());
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(20));
        QVERIFY(result->finalLoss && std::isfinite(*result->finalLoss));
        QVERIFY(std::filesystem::exists(std::filesystem::path(dir.path().toStdString()) / "runs/book/checkpoint"));
    }

    /// A project whose graph is a MetaGraphDef file, opened and not changed, keeps the file: its
    /// while-loop contexts are what gradients through dynamic_decode's loop need (seq2seq-reverse).
    void unchangedMetaGraphFileStays()
    {
        const auto file = std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples/projects/seq2seq-reverse.tsproj";
        auto loaded = project::loadProject(file);
        QVERIFY2(loaded.has_value(), loaded ? "" : loaded.error().toString().c_str());
        auto state = editorState(*loaded, registries().ops);
        QVERIFY2(state.has_value(), state ? "" : state.error().toString().c_str());
        auto doc = newDocument();
        QVERIFY(doc->fromGraphDef(state->graph, state->positions).has_value());
        auto p = documentProject(*doc, registries().ops, *loaded);
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        QCOMPARE(p->graph.file, std::string("seq2seq_reverse.meta.pbtxt"));
        QVERIFY(p->graph.pbtxt.empty());
        // Trained from the editor's project, the loops' gradients are there.
        p->steps = 2;
        QTemporaryDir dir;
        project::TrainRunOptions options;
        options.logdir = dir.path().toStdString();
        auto result = project::trainProject(*p, registries(), options);
        QVERIFY2(result.has_value(), result ? "" : result.error().toString().c_str());
        QCOMPARE(result->lastStep, std::int64_t(2));

        // Changed in the editor, it is written inline (the collections cannot follow an edit).
        QVERIFY(doc->removeNode(doc->findByName("accuracy")).isOk()); // the accuracy's summary
        auto edited = documentProject(*doc, registries().ops, *loaded);
        QVERIFY2(edited.has_value(), edited ? "" : edited.error().toString().c_str());
        QVERIFY(edited->graph.file.empty());
        QVERIFY(!edited->graph.pbtxt.empty());
    }
};

QTEST_GUILESS_MAIN(TestDocumentProject)
#include "test_document_project.moc"
