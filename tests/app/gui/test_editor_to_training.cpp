// The product's core loop as a new user meets it, driven through the real widgets with QTest
// events: a new graph, nodes from the palette (the placeholders a TensorFlow user writes, Dense
// layers, a loss and an optimizer), their settings typed in, ports wired by dragging, an MNIST t10k
// source the test writes wired into the placeholders' data ports, Train, Start, the dashboard's
// falling loss, Stop, Save, and the saved project reopened as the same document.
#include "../../support/tiny_mnist.h"
#include "app_settings.h"
#include "dashboard/dashboard_view.h"
#include "dashboard/projector_view.h"
#include "dashboard/scalar_chart.h"
#include "dashboard/scalars_view.h"
#include "document/graph_document.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "language_manager.h"
#include "main_window.h"
#include "node_editor/attr_editor.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "node_editor/node_item.h"
#include "node_editor/node_palette.h"
#include "node_editor/source_preview_view.h"
#include "tensor_view/tensor_image_grid.h"
#include "training/training_panel.h"
#include "common/empty_state.h"
#include "project/format/project_file.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QStatusBar>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

#include <cstdint>
#include <map>
#include <tuple>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

/// What a document is, for comparing one with its reopened self: per node its type, attrs and
/// data inputs (by source name and output).
using Shape = std::map<std::string, std::tuple<std::string, std::string, std::vector<std::pair<std::string, int>>>>;
Shape shapeOf(const GraphDocument& doc)
{
    Shape out;
    for (DocNodeId id : doc.nodes()) {
        const DocNode* n = doc.node(id);
        std::string attrs;
        for (const auto& [key, value] : n->attrs)
            attrs += key + "=" + value.ShortDebugString() + ";";
        std::vector<std::pair<std::string, int>> inputs;
        for (const InputSlot& slot : n->inputs)
            inputs.emplace_back(slot.isConnected() ? doc.node(slot.source)->name : std::string(), slot.output);
        out[n->name] = {n->type, attrs, inputs};
    }
    return out;
}

} // namespace

class TestEditorToTraining : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> m_qsettings;
    std::unique_ptr<AppSettings> m_settings;
    LanguageManager m_languages;
    std::unique_ptr<MainWindow> m_window;

    NodeEditor* editor() const { return qobject_cast<NodeEditor*>(m_window->documents()->currentWidget()); }

    /// Types `type` into the palette's search line and presses Enter: the first entry is placed.
    DocNodeId addFromPalette(const QString& type)
    {
        NodeEditor* e = editor();
        QLineEdit* search = e->palette()->searchLine();
        search->clear();
        QTest::keyClicks(search, type);
        const std::vector<DocNodeId> before = e->document()->nodes();
        QTest::keyClick(search, Qt::Key_Return);
        for (DocNodeId id : e->document()->nodes())
            if (std::find(before.begin(), before.end(), id) == before.end())
                return id;
        return kNoNode;
    }

    /// The view position of a node's port.
    QPoint portPoint(DocNodeId id, int port, bool output)
    {
        NodeItem* item = editor()->scene()->nodeItem(id);
        return editor()->view()->mapFromScene(output ? item->outputPos(port) : item->inputPos(port)); // scene positions
    }

    /// Drags from an output port to an input port, as the user wires two nodes.
    void wire(DocNodeId from, int output, DocNodeId to, int slot)
    {
        QWidget* viewport = editor()->view()->viewport();
        const QPoint a = portPoint(from, output, true);
        const QPoint b = portPoint(to, slot, false);
        QTest::mousePress(viewport, Qt::LeftButton, {}, a);
        QTest::mouseMove(viewport, (a + b) / 2);
        QTest::mouseMove(viewport, b);
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, b);
    }

    /// Clicks a node's title so that the attribute editor shows it.
    void select(DocNodeId id)
    {
        NodeItem* item = editor()->scene()->nodeItem(id);
        const QPoint title = editor()->view()->mapFromScene(item->mapToScene(item->boundingRect().topLeft() + QPointF(12, 8)));
        QTest::mouseClick(editor()->view()->viewport(), Qt::LeftButton, {}, title);
    }

    /// Clicks the editor toolbar's button for the action called `text`.
    bool clickToolBar(const QString& text)
    {
        auto* toolBar = editor()->findChild<QToolBar*>(QStringLiteral("editorToolBar"));
        for (QAction* a : toolBar ? toolBar->actions() : QList<QAction*>{})
            if (a->text() == text) {
                QWidget* button = toolBar->widgetForAction(a);
                if (!button || !button->isVisible())
                    return false; // in the overflow menu: the toolbar does not fit
                QTest::mouseClick(button, Qt::LeftButton);
                return true;
            }
        return false;
    }

    QWidget* attr(const QString& name) { return editor()->attrEditor()->editor(name); }

    /// Renames the selected node in the attribute page's name field.
    void rename(const QString& name)
    {
        auto* edit = editor()->findChild<QLineEdit*>(QStringLiteral("nodeNameEdit"));
        QVERIFY(edit);
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, name);
        QTest::keyClick(edit, Qt::Key_Return);
    }

    void typeInto(const QString& name, const QString& text)
    {
        QWidget* w = attr(name);
        QVERIFY2(w, qPrintable(name));
        w->setFocus();
        if (auto* edit = qobject_cast<QLineEdit*>(w))
            edit->selectAll();
        else if (auto* spin = qobject_cast<QSpinBox*>(w))
            spin->selectAll();
        QTest::keyClicks(w, text);
        QTest::keyClick(w, Qt::Key_Return);
    }

    /// Picks a choice in a combo box by typing its first letters, as keyboard users do.
    void choose(const QString& name, const QString& text)
    {
        auto* combo = qobject_cast<QComboBox*>(attr(name));
        QVERIFY2(combo, qPrintable(name));
        combo->setFocus();
        QTest::keyClicks(combo, text);
        QCOMPARE(combo->currentText(), text);
    }

private slots:
    void initTestCase()
    {
        // New graphs train under the user's data folder: the test's own.
        QStandardPaths::setTestModeEnabled(true);
    }

    void init()
    {
        QVERIFY(m_dir.isValid());
        m_qsettings = std::make_unique<QSettings>(m_dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        m_settings = std::make_unique<AppSettings>(m_qsettings.get());
        m_window = std::make_unique<MainWindow>(m_settings.get(), &m_languages);
        m_window->setPersistLayout(false);
        m_window->resize(1280, 800);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    }

    void cleanup()
    {
        m_window.reset();
        m_settings.reset();
        m_qsettings.reset();
    }

    void fromThePaletteToATrainedModel()
    {
        const QString data = m_dir.filePath(QStringLiteral("mnist"));
        QVERIFY(QDir().mkpath(data));
        QVERIFY(test::writeTinyMnist(data.toStdString(), 300));

        // File ▸ New Graph.
        QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
        QVERIFY(editor());

        // The network, from the palette: each new node lands beside the one before it.
        const DocNodeId source = addFromPalette(QStringLiteral("MnistSource"));
        QVERIFY(source != kNoNode);
        choose(QStringLiteral("set"), QStringLiteral("t10k"));
        typeInto(QStringLiteral("dir"), data);
        if (QTest::currentTestFailed())
            return;
        // The source previews its first examples: images shown as images, labels as numbers.
        auto* preview = editor()->findChild<SourcePreviewView*>(QStringLiteral("sourcePreview"));
        QVERIFY(preview);
        QTRY_VERIFY_WITH_TIMEOUT(preview->isVisible() && !preview->isLoading() && preview->table()->rowCount() == 2, 20000);
        QVERIFY2(preview->images()->isVisible(),
                 qPrintable(preview->table()->item(0, 1)->text() + QLatin1Char(' ') + preview->table()->item(0, 2)->text() +
                            QLatin1Char(' ') + preview->table()->item(0, 3)->text()));
        QCOMPARE(preview->images()->totalImages(), SourcePreviewView::kExamples);
        QCOMPARE(preview->table()->item(1, 0)->text(), QStringLiteral("labels"));
        QVERIFY2(preview->table()->item(1, 3)->text().startsWith(QStringLiteral("0, 1, 2, 3")),
                 qPrintable(preview->table()->item(1, 3)->text()));
        // The placeholders, as tf.placeholder(tf.float32, [None, 784], name="input") and
        // tf.placeholder(tf.int64, [None], name="labels").
        const DocNodeId images = addFromPalette(QStringLiteral("Input"));
        QVERIFY(images != kNoNode);
        typeInto(QStringLiteral("shape"), QStringLiteral("[-1, 784]"));
        const DocNodeId labels = addFromPalette(QStringLiteral("Input"));
        QVERIFY(labels != kNoNode);
        rename(QStringLiteral("labels"));
        choose(QStringLiteral("dtype"), QStringLiteral("int64"));
        typeInto(QStringLiteral("shape"), QStringLiteral("[-1]"));
        if (QTest::currentTestFailed())
            return;
        const DocNodeId hidden = addFromPalette(QStringLiteral("Dense"));
        QVERIFY(hidden != kNoNode);
        typeInto(QStringLiteral("units"), QStringLiteral("64"));
        choose(QStringLiteral("activation"), QStringLiteral("relu"));
        const DocNodeId logits = addFromPalette(QStringLiteral("Dense"));
        QVERIFY(logits != kNoNode);
        typeInto(QStringLiteral("units"), QStringLiteral("10"));
        if (QTest::currentTestFailed())
            return;
        const DocNodeId loss = addFromPalette(QStringLiteral("SparseSoftmaxCrossEntropy"));
        QVERIFY(loss != kNoNode);
        const DocNodeId adam = addFromPalette(QStringLiteral("Adam"));
        QVERIFY(adam != kNoNode);
        GraphDocument* doc = editor()->document();
        const std::vector<DocNodeId> all{source, images, labels, hidden, logits, loss, adam};
        for (DocNodeId a : all)
            for (DocNodeId b : all)
                if (a < b) // never stacked on top of each other
                    QVERIFY(!editor()->scene()->nodeItem(a)->sceneBoundingRect().intersects(
                        editor()->scene()->nodeItem(b)->sceneBoundingRect()));
        QCOMPARE(doc->node(images)->type, std::string("Input"));
        QCOMPARE(doc->node(images)->name, std::string("input"));
        QCOMPARE(doc->node(images)->attrs.at("shape").shape().dim(1).size(), std::int64_t(784));
        QCOMPARE(doc->node(labels)->name, std::string("labels"));
        QCOMPARE(doc->node(labels)->attrs.at("dtype").type(), tensorflow::DT_INT64);
        QCOMPARE(doc->node(labels)->attrs.at("shape").shape().dim_size(), 1);
        QCOMPARE(doc->node(hidden)->attrs.at("units").i(), 64);
        QCOMPARE(doc->node(hidden)->attrs.at("activation").s(), std::string("relu"));
        QCOMPARE(doc->node(source)->attrs.at("set").s(), std::string("t10k"));

        // Wired by dragging from output ports to input ports: the source into the placeholders'
        // data ports, the placeholders into the network.
        QVERIFY(clickToolBar(QStringLiteral("Fit")));
        QCOMPARE(doc->slotName(images, 0), std::string("data"));
        wire(source, 0, images, 0); // images -> data
        wire(source, 1, labels, 0); // labels -> data
        wire(images, 0, hidden, 0); // output -> inputs
        wire(hidden, 0, logits, 0);
        wire(labels, 0, loss, 0); // output -> labels
        wire(logits, 0, loss, 1); // output -> logits
        wire(loss, 0, adam, 0);
        QCOMPARE(doc->node(images)->inputs.at(0), (InputSlot{source, 0}));
        QCOMPARE(doc->node(labels)->inputs.at(0), (InputSlot{source, 1}));
        QCOMPARE(doc->node(hidden)->inputs.at(0).source, images);
        QCOMPARE(doc->node(loss)->inputs.at(0).source, labels);
        QCOMPARE(doc->node(loss)->inputs.at(1).source, logits);
        QCOMPARE(doc->node(adam)->inputs.at(0).source, loss);
        editor()->refreshFeedback();
        QVERIFY2(editor()->problemsList()->count() == 0,
                 qPrintable(editor()->problemsList()->count() ? editor()->problemsList()->item(0)->text() : QString()));

        // Train: the Training panel shows the settings; nothing runs before Start.
        QVERIFY(clickToolBar(QStringLiteral("Train")));
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        QVERIFY(panel->isVisible());
        QVERIFY(!panel->isRunning());
        const QString logdir = m_dir.filePath(QStringLiteral("runs/first"));
        panel->logDirectoryEdit()->selectAll();
        QTest::keyClicks(panel->logDirectoryEdit(), logdir);
        panel->stepsBox()->selectAll();
        QTest::keyClicks(panel->stepsBox(), QStringLiteral("100000"));
        QSignalSpy finished(panel, &training_panel::TrainingPanel::runFinished);
        QTest::mouseClick(panel->startButton(), Qt::LeftButton);
        QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));

        // The dashboard follows the run; its loss falls.
        dashboard::DashboardView* dashboard = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dashboard = qobject_cast<dashboard::DashboardView*>(m_window->documents()->currentWidget())),
                                 60000);
        dashboard::ScalarChart* chart = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((chart = dashboard->scalars()->chart(QStringLiteral("loss"))), 60000);
        // The log directory's own run: "." as TensorBoard names it, or its folder's name ("first").
        auto runPoints = [chart] {
            const QList<QPointF> named = chart->rawPoints(QStringLiteral("first"));
            return named.isEmpty() ? chart->rawPoints(QStringLiteral(".")) : named;
        };
        QTRY_VERIFY_WITH_TIMEOUT(runPoints().size() >= 4, 120000);
        const QList<QPointF> points = runPoints();
        QVERIFY2(points.back().y() < 0.7 * points.front().y(),
                 qPrintable(QStringLiteral("loss %1 at step %2, %3 at step %4")
                                .arg(points.front().y())
                                .arg(points.front().x())
                                .arg(points.back().y())
                                .arg(points.back().x())));

        // Stop: a final checkpoint.
        QTest::mouseClick(panel->stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.front().at(0).toBool(), true);
        const std::int64_t last = panel->lastProgress().step;
        QVERIFY(QFile::exists(logdir + QStringLiteral("/model.ckpt-%1.index").arg(last)));

        // Save (Ctrl+S) in the editor's tab: it has no file yet, so Save As asks; a project is offered.
        int editorTab = -1;
        for (int i = 0; i < m_window->documents()->count(); ++i)
            if (qobject_cast<NodeEditor*>(m_window->documents()->widget(i)))
                editorTab = i;
        QVERIFY(editorTab >= 0);
        QTest::mouseClick(m_window->documents()->tabBar(), Qt::LeftButton, {},
                          m_window->documents()->tabBar()->tabRect(editorTab).center());
        QVERIFY(editor());
        const Shape before = shapeOf(*editor()->document());
        const QString file = m_dir.filePath(QStringLiteral("first.tsproj"));
        QString offeredFilter;
        m_window->setSaveFileChooser([&](const QString&, const QString& filter) {
            offeredFilter = filter;
            return file;
        });
        QVERIFY(m_window->documents()->tabText(editorTab).endsWith(QStringLiteral(" *")));
        QTest::keyClick(editor()->view()->viewport(), Qt::Key_S, Qt::ControlModifier);
        QVERIFY(QFile::exists(file));
        QVERIFY(offeredFilter.contains(QStringLiteral("*.tsproj")));
        QVERIFY(!editor()->isModified());
        QCOMPARE(m_window->documents()->tabText(editorTab), QStringLiteral("first.tsproj"));

        // Closed and opened again: the same document, the same project.
        const QKeyCombination close = QKeySequence(QKeySequence::Close)[0]; // Ctrl+W or Ctrl+F4, by platform
        QTest::keyClick(editor()->view()->viewport(), close.key(), close.keyboardModifiers());
        for (int i = 0; i < m_window->documents()->count(); ++i)
            QVERIFY(!qobject_cast<NodeEditor*>(m_window->documents()->widget(i)));
        m_window->openPath(file);
        QTRY_VERIFY_WITH_TIMEOUT(m_window->pendingOpens() == 0 && editor(), 20000);
        QCOMPARE(shapeOf(*editor()->document()), before);
        QVERIFY(editor()->project().has_value());
        QCOMPARE(editor()->project()->name, std::string("first"));
        QCOMPARE(editor()->project()->sources.size(), std::size_t(1));
        QCOMPARE(editor()->project()->sources[0].type(), std::string("mnist"));
        const auto& feeds = editor()->project()->sources[0].feeds;
        QCOMPARE(feeds.at("input"), std::vector<std::string>{"images"});
        QCOMPARE(feeds.at("labels"), std::vector<std::string>{"labels"});
        // What the dock trained is what was saved: its log directory and steps.
        QCOMPARE(editor()->project()->logdir, logdir.toStdString());
        QCOMPARE(editor()->project()->steps, std::int64_t(100000));
        QCOMPARE(panel->logDirectoryEdit()->text(), logdir);
        QCOMPARE(panel->stepsBox()->value(), 100000);
    }

    /// Each tab has its own training state in the dock: a new graph its own runs/untitled-N,
    /// Continue and Debug per document; a closed tab leaves the dock empty.
    /// An Embedding layer opens in the Projector: without a checkpoint in the document's log directory
    /// the status line says to train first; with one holding its variable, a dashboard on that folder
    /// shows the variable in its Projector tab.
    void embeddingOpensInProjector()
    {
        QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
        QVERIFY(editor());
        const DocNodeId embedding = addFromPalette(QStringLiteral("Embedding"));
        QVERIFY(embedding != kNoNode);
        const std::string variable = editor()->document()->node(embedding)->name + "/embeddings";
        auto* button = editor()->findChild<QPushButton*>(QStringLiteral("openInProjector"));
        QVERIFY(button);
        QVERIFY(button->isVisible());
        const QString logdir = m_dir.filePath(QStringLiteral("projector-run"));
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        panel->logDirectoryEdit()->selectAll();
        QTest::keyClicks(panel->logDirectoryEdit(), logdir);
        QTest::keyClick(panel->logDirectoryEdit(), Qt::Key_Return);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("train the project first")),
                 qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(editor()); // no dashboard opened

        // The checkpoint a training run would write: the table [5, 3].
        QVERIFY(QDir().mkpath(logdir));
        const std::filesystem::path prefix = std::filesystem::path(logdir.toStdString()) / "model.ckpt-3";
        CpuAllocator cpu;
        auto writer = TensorBundleWriter::create(prefix.string());
        QVERIFY(writer);
        std::vector<float> values(15);
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = static_cast<float>(i) * 0.5f - 3.0f;
        QVERIFY((*writer)->add(variable, Tensor::fromVector<float>(cpu, TensorShape{5, 3}, values).value()).isOk());
        QVERIFY((*writer)->finish().isOk());
        QVERIFY(writeCheckpointState(prefix.parent_path(), prefix, {}).isOk());
        QTest::mouseClick(button, Qt::LeftButton);
        auto* view = qobject_cast<dashboard::DashboardView*>(m_window->documents()->currentWidget());
        QVERIFY2(view, qPrintable(m_window->statusBar()->currentMessage()));
        QCOMPARE(view->currentTab(), QStringLiteral("projector"));
        dashboard::ProjectorView* projector = view->projector();
        QTRY_VERIFY_WITH_TIMEOUT(!projector->isLoading() && projector->values(), 20000);
        QCOMPARE(projector->values()->rows, std::size_t(5));
        QCOMPARE(projector->values()->dims, std::size_t(3));
        QCOMPARE(projector->values()->values[14], 4.0f);
        QVERIFY2(projector->statusText().contains(QStringLiteral("5 points")), qPrintable(projector->statusText()));
    }

    void documentsOwnTheirTrainingState()
    {
        training_panel::TrainingPanel* panel = m_window->trainingPanel();
        const QString runs =
            QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("runs"));
        QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
        NodeEditor* first = editor();
        QVERIFY(first);
        const QString firstDir = panel->logDirectoryEdit()->text();
        QVERIFY2(firstDir.startsWith(runs + QStringLiteral("/untitled-")), qPrintable(firstDir));
        QTest::keyClick(m_window.get(), Qt::Key_N, Qt::ControlModifier);
        NodeEditor* second = editor();
        QVERIFY(second && second != first);
        const QString secondDir = panel->logDirectoryEdit()->text();
        QVERIFY2(secondDir.startsWith(runs + QStringLiteral("/untitled-")), qPrintable(secondDir));
        QVERIFY(secondDir != firstDir);
        panel->resumeBox()->setChecked(true);
        panel->setDebugging(true);

        // The other tab: its own toggles and folder; and back.
        m_window->documents()->setCurrentWidget(first);
        QCOMPARE(panel->logDirectoryEdit()->text(), firstDir);
        QVERIFY(!panel->resumeBox()->isChecked());
        QVERIFY(!panel->isDebugging());
        m_window->documents()->setCurrentWidget(second);
        QCOMPARE(panel->logDirectoryEdit()->text(), secondDir);
        QVERIFY(panel->resumeBox()->isChecked());
        QVERIFY(panel->isDebugging());

        // Closing the tabs: the dock offers neither graph any more.
        auto* empty = panel->findChild<EmptyState*>();
        QVERIFY(empty);
        QVERIFY(empty->isHidden());
        emit m_window->documents()->tabCloseRequested(m_window->documents()->indexOf(second));
        QCOMPARE(editor(), first);
        QCOMPARE(panel->logDirectoryEdit()->text(), firstDir);
        QVERIFY(!panel->resumeBox()->isChecked());
        emit m_window->documents()->tabCloseRequested(m_window->documents()->indexOf(first));
        QVERIFY(!empty->isHidden());
        QVERIFY(!panel->startButton()->isEnabled());
        QVERIFY(!panel->start());
    }
};

QTEST_MAIN(TestEditorToTraining)
#include "test_editor_to_training.moc"
