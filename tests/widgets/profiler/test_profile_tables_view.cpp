// Tests for the profiler's tables tab: the three views and the advice of a trace, header-click sorting, the
// regex filter (red when invalid) and thresholds, nodeActivated on double-click, CSV export, steps, the
// worker path, and a real traced MNIST training step grabbed as PNG.
#include "profiler/profile_table_model.h"
#include "profiler/profile_tables_view.h"
#include "profiler/tfprof_view.h"
#include "profiler/tfprof_view_tab.h"

#include "../../engine/profiler/profile_trace_maker.h"

#include "book_mnist.h"
#include "framework/allocator.h"
#include "profiler/trace_builder.h"
#include "proto/graph.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace tstudio;
using namespace tstudio::profiler;
using namespace tstudio::profiler::tables;
using tstudio::testing::TraceMaker;

namespace {

/// A real double click: press and release, then the double-click press and its release.
void doubleClick(QWidget* viewport, QPoint at)
{
    QTest::mouseClick(viewport, Qt::LeftButton, {}, at);
    QTest::mouseDClick(viewport, Qt::LeftButton, {}, at);
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, at);
}

const std::string kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";

/// Two steps on one CPU: x -> layer1/MatMul (with layer1/w) -> layer2/add -> loss/Mean.
std::shared_ptr<const ProfileTrace> smallTrace()
{
    TraceMaker m;
    const auto lane = m.lane(m.device(kCpu));
    const auto x = m.node("x", "Identity");
    const auto w = m.node("layer1/w", "VariableV2");
    const auto mm = m.node("layer1/MatMul", "MatMul", {"x", "layer1/w"});
    const auto add = m.node("layer2/add", "AddV2", {"layer1/MatMul", "b"});
    const auto mean = m.node("loss/Mean", "Mean", {"layer2/add", "axes"});
    for (std::uint32_t s = 0; s < 2; ++s) {
        const auto step = m.step(s + 1);
        const std::int64_t t = s * 1'000'000;
        m.event(lane, x, step, t, 5'000, {800, 800, 0}, {{10, 20}});
        m.event(lane, w, step, t + 10'000, 10'000, {}, {{20, 30}});
        m.event(lane, mm, step, t + 30'000, 300'000 + s * 100'000, {1200, 1200, 1200}, {{10, 30}});
        m.event(lane, add, step, t + 450'000, 50'000, {1200, 1200, 0}, {{10, 30}});
        m.event(lane, mean, step, t + 520'000, 20'000, {4, 4, 4}, {{}});
    }
    return std::make_shared<const ProfileTrace>(m.finish());
}

std::shared_ptr<const tensorflow::GraphDef> smallGraph()
{
    auto graph = std::make_shared<tensorflow::GraphDef>();
    auto* w = graph->add_node();
    w->set_name("layer1/w");
    w->set_op("VariableV2");
    (*w->mutable_attr())["dtype"].set_type(tensorflow::DT_FLOAT);
    for (int d : {20, 30})
        (*w->mutable_attr())["shape"].mutable_shape()->add_dim()->set_size(d);
    return graph;
}

int rowOf(const QAbstractItemModel* model, const QString& name, const QModelIndex& parent = {})
{
    for (int r = 0; r < model->rowCount(parent); ++r)
        if (model->index(r, 0, parent).data(ProfileTableModel::kValueRole).toString() == name)
            return r;
    return -1;
}

QStringList namesOf(const QAbstractItemModel* model)
{
    QStringList out;
    for (int r = 0; r < model->rowCount(); ++r)
        out << model->index(r, 0).data(ProfileTableModel::kValueRole).toString();
    return out;
}

QString cell(const QAbstractItemModel* model, int row, int column)
{
    return model->index(row, column).data(Qt::DisplayRole).toString();
}

int column(const ProfileTablesView& view, ProfileTablesView::Tab tab, ProfileColumn c, bool self = false)
{
    return static_cast<const ProfileTableModel*>(view.model(tab))->columnOf(c, self);
}

void clickHeader(QTreeView* view, int section)
{
    QHeaderView* header = view->header();
    QTest::mouseClick(
        header->viewport(), Qt::LeftButton, {},
        QPoint(header->sectionViewportPosition(section) + header->sectionSize(section) / 2, header->height() / 2));
}

Tensor zeros(tensorflow::DataType dtype, const TensorShape& shape)
{
    static CpuAllocator allocator;
    auto t = Tensor::allocate(allocator, dtype, shape);
    std::span<std::byte> bytes = t->tensorData();
    std::fill(bytes.begin(), bytes.end(), std::byte{0});
    return *t;
}

} // namespace

class TestProfileTablesView : public QObject {
    Q_OBJECT

private slots:
    void tablesShowTheTrace()
    {
        ProfileTablesView view;
        QSignalSpy ready(&view, &ProfileTablesView::tablesReady);
        view.setTrace(smallTrace(), smallGraph());
        QCOMPARE(ready.count(), 1);
        QVERIFY(!view.isBusy());

        QAbstractItemModel* ops = view.model(ProfileTablesView::kOpTypes);
        QCOMPARE(ops->rowCount(), 5);
        QCOMPARE(ops->headerData(0, Qt::Horizontal).toString(), QString("Op type"));
        // Sorted by time, largest first: MatMul averages (300 + 400) / 2 us.
        QCOMPARE(namesOf(ops).first(), QString("MatMul"));
        const int time = column(view, ProfileTablesView::kOpTypes, ProfileColumn::Time);
        QCOMPARE(cell(ops, 0, time), QString("350.0 us"));
        QCOMPARE(ops->index(0, time).data(ProfileTableModel::kValueRole).toLongLong(), 350'000);
        // MatMul: 2 * 20 * (10 * 30) = 12,000 float ops; AddV2 300, Mean 300 - 1 + 0 = 300.
        const int flops = column(view, ProfileTablesView::kOpTypes, ProfileColumn::FloatOps);
        QCOMPARE(cell(ops, 0, flops), QString("12.00 k"));
        const int params = column(view, ProfileTablesView::kOpTypes, ProfileColumn::Parameters);
        QCOMPARE(cell(ops, rowOf(ops, "VariableV2"), params), QString("600"));
        const int requested = column(view, ProfileTablesView::kOpTypes, ProfileColumn::RequestedBytes);
        QCOMPARE(cell(ops, 0, requested), QString("1.20 KB"));

        // The scope tree: top-level scopes with totals; children under them.
        QAbstractItemModel* scopes = view.model(ProfileTablesView::kScopes);
        QCOMPARE(namesOf(scopes), (QStringList{"layer1", "layer2", "loss", "x"}));
        const QModelIndex layer1 = scopes->index(0, 0);
        QCOMPARE(scopes->rowCount(layer1), 2);
        QCOMPARE(scopes->index(0, 0, layer1).data().toString(), QString("MatMul")); // last name component
        QCOMPARE(scopes->index(0, 0, layer1).data(ProfileTableModel::kNodeNameRole).toString(),
                 QString("layer1/MatMul"));
        QCOMPARE(scopes->index(0, 0, layer1).parent(), layer1);
        const int selfTime = column(view, ProfileTablesView::kScopes, ProfileColumn::Time, true);
        const int totalTime = column(view, ProfileTablesView::kScopes, ProfileColumn::Time);
        QCOMPARE(scopes->index(0, totalTime).data(ProfileTableModel::kValueRole).toLongLong(), 360'000);
        QCOMPARE(scopes->index(0, selfTime).data(ProfileTableModel::kValueRole).toLongLong(), 0);
        QVERIFY(view.tableView(ProfileTablesView::kScopes)->isExpanded(layer1));

        QTreeWidget* advice = view.adviceList();
        QVERIFY(advice->topLevelItemCount() >= 3);
        QCOMPARE(advice->topLevelItem(0)->text(1).left(16), QString("'layer1/MatMul' "));
    }

    void headerClicksSort()
    {
        ProfileTablesView view;
        view.resize(1200, 500);
        view.setTrace(smallTrace(), smallGraph());
        view.setCurrentTab(ProfileTablesView::kNodes);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTreeView* tree = view.tableView(ProfileTablesView::kNodes);
        auto* model = static_cast<ProfileTableModel*>(view.model(ProfileTablesView::kNodes));
        QCOMPARE(namesOf(model), (QStringList{"layer1/MatMul", "layer2/add", "loss/Mean", "layer1/w", "x"}));

        const int name = model->columnOf(ProfileColumn::Name);
        clickHeader(tree, name);
        QCOMPARE(model->sortColumn(), name);
        QStringList sorted{"layer1/MatMul", "layer1/w", "layer2/add", "loss/Mean", "x"};
        if (model->sortOrder() == Qt::DescendingOrder)
            std::reverse(sorted.begin(), sorted.end());
        QCOMPARE(namesOf(model), sorted);
        clickHeader(tree, name);
        std::reverse(sorted.begin(), sorted.end());
        QCOMPARE(namesOf(model), sorted);

        const int requested = model->columnOf(ProfileColumn::RequestedBytes);
        clickHeader(tree, requested);
        QCOMPARE(model->sortColumn(), requested);
        const QStringList byBytes = namesOf(model);
        const qint64 first = model->index(0, requested).data(ProfileTableModel::kValueRole).toLongLong();
        const qint64 last = model->index(4, requested).data(ProfileTableModel::kValueRole).toLongLong();
        QVERIFY(model->sortOrder() == Qt::AscendingOrder ? first <= last : first >= last);
        QVERIFY(first != last);
    }

    void filterAndThresholds()
    {
        ProfileTablesView view;
        view.setTrace(smallTrace(), smallGraph());
        QAbstractItemModel* nodes = view.model(ProfileTablesView::kNodes);
        auto* filter = view.findChild<QLineEdit*>("filterEdit");
        QVERIFY(filter);
        filter->setText("^layer1/");
        QTRY_COMPARE(nodes->rowCount(), 2);
        QCOMPARE(view.model(ProfileTablesView::kScopes)->rowCount(), 1); // layer1 stays as their scope
        QCOMPARE(filter->property("invalid").toBool(), false);

        filter->setText("(");
        QTRY_COMPARE(filter->property("invalid").toBool(), true);
        QCOMPARE(filter->palette().color(QPalette::Base), QColor(255, 214, 214));
        QVERIFY(filter->toolTip().startsWith("Invalid regular expression"));
        QCOMPARE(nodes->rowCount(), 2); // the last valid filter stays
        filter->clear();
        QTRY_COMPARE(nodes->rowCount(), 5);
        QCOMPARE(filter->property("invalid").toBool(), false);

        // At least 40 us (MatMul 350 us, add 50 us); then at least 1,000 float ops (MatMul only).
        auto* minTime = view.findChild<QLineEdit*>("minTimeEdit");
        minTime->setText("40");
        QTRY_COMPARE(nodes->rowCount(), 2);
        auto* minFlops = view.findChild<QLineEdit*>("minFlopsEdit");
        minFlops->setText("1000");
        QTRY_COMPARE(nodes->rowCount(), 1);
        QCOMPARE(namesOf(nodes), QStringList{"layer1/MatMul"});
        minTime->clear();
        minFlops->clear();
        auto* minBytes = view.findChild<QLineEdit*>("minBytesEdit");
        minBytes->setText("1000");
        QTRY_COMPARE(nodes->rowCount(), 2);
        QCOMPARE(view.model(ProfileTablesView::kOpTypes)->rowCount(), 2);
    }

    /// The tfprof tab: tfprof's scope view of the same scope table under the form's options, a bad
    /// regex named without losing the text, and the pprof export.
    void tfprofTab()
    {
        ProfileTablesView view;
        view.setTrace(smallTrace(), smallGraph());
        view.setCurrentTab(ProfileTablesView::kTfprof);
        TfprofViewTab* tab = view.tfprofTab();
        QVERIFY(tab);
        QVERIFY(view.model(ProfileTablesView::kTfprof) == nullptr);
        QVERIFY(!view.findChild<QPushButton*>("exportButton")->isEnabled()); // CSV is for the tables
        QVERIFY2(tab->text().startsWith("node name | total execution time | accelerator execution time | "
                                        "cpu execution time\n_TFProfRoot ("),
                 qPrintable(tab->text()));
        QVERIFY(tab->text().contains("    layer1/MatMul ("));
        // account_type_regexes: MatMul only, and its scope.
        tab->findChild<QLineEdit*>("tfprofAccountTypesEdit")->setText("MatMul");
        QTRY_VERIFY(!tab->text().contains("loss/Mean"));
        QVERIFY(tab->text().contains("layer1/MatMul"));
        QVERIFY(!tab->text().contains("layer1/w"));
        // max_depth 2: the top-level scopes only (tfprof counts its root as the first level).
        tab->findChild<QLineEdit*>("tfprofAccountTypesEdit")->setText(".*");
        tab->findChild<QSpinBox*>("tfprofMaxDepthSpin")->setValue(2);
        QTRY_VERIFY(!tab->text().contains("layer1/MatMul"));
        QVERIFY2(tab->text().contains("  layer1 ("), qPrintable(tab->text()));
        QCOMPARE(tab->options().maxDepth, 2);
        // select: float_ops instead of micros.
        auto* select = tab->findChild<QListWidget*>("tfprofSelectList");
        for (int i = 0; i < select->count(); ++i)
            select->item(i)->setCheckState(select->item(i)->text() == "float_ops" ? Qt::Checked : Qt::Unchecked);
        QTRY_VERIFY(tab->text().startsWith("node name | # float_ops\n"));
        // A bad regex: named, the last text stays.
        const QString before = tab->text();
        tab->findChild<QLineEdit*>("tfprofHideNamesEdit")->setText("(");
        QTRY_VERIFY(!tab->findChild<QLabel*>("tfprofError")->text().isEmpty());
        QCOMPARE(tab->text(), before);
        tab->findChild<QLineEdit*>("tfprofHideNamesEdit")->clear();
        QTRY_VERIFY(tab->findChild<QLabel*>("tfprofError")->text().isEmpty());

        QTemporaryDir tmp;
        const QString path = tmp.filePath("scopes.pb.gz");
        QString error;
        QVERIFY2(tab->exportPprof(path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.read(2), QByteArray("\x1f\x8b", 2));
        // Cleared with the trace.
        view.setTrace(nullptr, nullptr);
        QTRY_VERIFY(tab->text().isEmpty());
        QVERIFY(!tab->exportPprof(path, &error));
    }

    void doubleClickEmitsNodeActivated()
    {
        ProfileTablesView view;
        view.resize(1200, 500);
        view.setTrace(smallTrace(), smallGraph());
        view.setCurrentTab(ProfileTablesView::kNodes);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy activated(&view, &ProfileTablesView::nodeActivated);
        QTreeView* tree = view.tableView(ProfileTablesView::kNodes);
        const int row = rowOf(tree->model(), "layer2/add");
        const QRect rect = tree->visualRect(tree->model()->index(row, 0));
        doubleClick(tree->viewport(), rect.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString("layer2/add"));

        // Return on the current row does the same.
        tree->setCurrentIndex(tree->model()->index(rowOf(tree->model(), "x"), 0));
        QTest::keyClick(tree, Qt::Key_Return);
        QCOMPARE(activated.count(), 2);
        QCOMPARE(activated.at(1).at(0).toString(), QString("x"));
        activated.clear();

        // Op types name no node.
        view.setCurrentTab(ProfileTablesView::kOpTypes);
        QTreeView* ops = view.tableView(ProfileTablesView::kOpTypes);
        doubleClick(ops->viewport(), ops->visualRect(ops->model()->index(0, 0)).center());
        QCOMPARE(activated.count(), 0);

        // Advice items naming nodes.
        view.setCurrentTab(ProfileTablesView::kAdvice);
        QTreeWidget* advice = view.adviceList();
        QTreeWidgetItem* first = advice->topLevelItem(0);
        doubleClick(advice->viewport(), advice->visualItemRect(first).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString("layer1/MatMul"));
    }

    void exportsTheRowsShown()
    {
        ProfileTablesView view;
        QVERIFY(!view.exportCsv(ProfileTablesView::kNodes, "/nonexistent/x.csv").isOk());
        view.setTrace(smallTrace(), smallGraph());
        view.findChild<QLineEdit*>("filterEdit")->setText("layer");
        QTRY_COMPARE(view.model(ProfileTablesView::kNodes)->rowCount(), 3);
        QTemporaryDir dir;
        const QString path = dir.filePath("nodes.csv");
        const Status status = view.exportCsv(ProfileTablesView::kNodes, path);
        QVERIFY2(status.isOk(), status.toString().c_str());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        const auto* model = static_cast<ProfileTableModel*>(view.model(ProfileTablesView::kNodes));
        QCOMPARE(bytes, QByteArray::fromStdString(profileTableCsv(model->table())));
        QVERIFY(bytes.startsWith("name,op_type,depth,"));
        QCOMPARE(bytes.count("\r\n"), 4); // header + the 3 rows shown
        QVERIFY(bytes.contains("\r\nlayer1/MatMul,MatMul,0,1,1,1,1,350000,350000,"));

        QVERIFY(!view.exportCsv(ProfileTablesView::kAdvice, dir.filePath("a.csv")).isOk());
        const Status bad = view.exportCsv(ProfileTablesView::kNodes, dir.filePath("missing/dir/x.csv"));
        QVERIFY(!bad.isOk());
        QVERIFY(bad.message().find("missing/dir/x.csv") != std::string::npos);
    }

    void stepsAndTheWorker()
    {
        ProfileTablesView view;
        view.setTrace(smallTrace(), nullptr);
        auto* ops = view.model(ProfileTablesView::kOpTypes);
        const int time = column(view, ProfileTablesView::kOpTypes, ProfileColumn::Time);
        QCOMPARE(ops->index(0, time).data(ProfileTableModel::kValueRole).toLongLong(), 350'000);
        view.setStep(1);
        QCOMPARE(view.step(), 1);
        QCOMPARE(ops->index(0, time).data(ProfileTableModel::kValueRole).toLongLong(), 400'000);
        view.setStep(7);
        QCOMPARE(view.step(), -1);

        // From the threshold up the tables are built on a worker.
        view.setWorkerThreshold(1);
        QSignalSpy ready(&view, &ProfileTablesView::tablesReady);
        view.setStep(0);
        QVERIFY(view.isBusy());
        QVERIFY(ready.wait(10'000));
        QVERIFY(!view.isBusy());
        QCOMPARE(ops->index(0, time).data(ProfileTableModel::kValueRole).toLongLong(), 300'000);
        // A newer request wins over one still running.
        view.setStep(1);
        view.setStep(-1);
        QVERIFY(ready.wait(10'000));
        QTRY_VERIFY(!view.isBusy());
        QCOMPARE(ops->index(0, time).data(ProfileTableModel::kValueRole).toLongLong(), 350'000);

        view.setTrace(nullptr, nullptr);
        QTRY_COMPARE(ops->rowCount(), 0);
    }

    void unitsOfTheCells()
    {
        QCOMPARE(ProfileTableModel::formatTime(850), QString("850 ns"));
        QCOMPARE(ProfileTableModel::formatTime(12'345), QString("12.3 us"));
        QCOMPARE(ProfileTableModel::formatTime(1'234'567), QString("1.23 ms"));
        QCOMPARE(ProfileTableModel::formatTime(2'500'000'000), QString("2.50 s"));
        QCOMPARE(ProfileTableModel::formatBytes(512), QString("512 B"));
        QCOMPARE(ProfileTableModel::formatBytes(4'560'000), QString("4.56 MB"));
        QCOMPARE(ProfileTableModel::formatBytes(1'200'000'000), QString("1.20 GB"));
        QCOMPARE(ProfileTableModel::formatCount(999), QString("999"));
        QCOMPARE(ProfileTableModel::formatCount(159'800'000), QString("159.80 M"));
        QCOMPARE(ProfileTableModel::formatCount(7'890'000'000), QString("7.89 G"));
    }

    void tracedMnistTrainingStep()
    {
        auto registries = makeDefaultRegistries();
        QVERIFY(registries);
        auto net = examples::buildBookMnist((*registries)->ops);
        QVERIFY(net);
        SessionOptions options;
        options.ops = &(*registries)->ops;
        options.kernels = &(*registries)->kernels;
        Session session(options);
        QVERIFY(session.create(net->graph).isOk());
        std::vector<Tensor> out;
        QVERIFY(session.run({}, {}, {net->init}, &out).isOk());
        const std::vector<std::pair<std::string, Tensor>> feeds = {
            {net->inputs, zeros(tensorflow::DT_FLOAT, TensorShape({100, 784}))},
            {net->labels, zeros(tensorflow::DT_FLOAT, TensorShape({100, 10}))}};
        std::vector<TracedStep> steps;
        for (int i = 0; i < 3; ++i) {
            tensorflow::RunOptions run;
            run.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
            tensorflow::RunMetadata metadata;
            QVERIFY(session.run(run, feeds, {}, {net->train}, &out, &metadata).isOk());
            steps.push_back({i + 1, metadata.step_stats()});
        }
        auto trace = std::make_shared<const ProfileTrace>(traceFromStepStats(steps));
        auto graph = std::make_shared<const tensorflow::GraphDef>(net->graph);

        ProfileTablesView view;
        view.resize(1400, 760);
        view.setTrace(trace, graph);
        view.setCurrentTab(ProfileTablesView::kScopes);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QAbstractItemModel* ops = view.model(ProfileTablesView::kOpTypes);
        const int matmul = rowOf(ops, "MatMul");
        QVERIFY(matmul >= 0);
        // The forward, layer 2's two gradients and layer 1's weight gradient (see test_float_ops).
        QCOMPARE(cell(ops, matmul, column(view, ProfileTablesView::kOpTypes, ProfileColumn::FloatOps)),
                 QString("159.80 M"));
        QCOMPARE(cell(ops, matmul, column(view, ProfileTablesView::kOpTypes, ProfileColumn::Runs)), QString("5"));
        QVERIFY(view.findChild<QLabel*>("statusLabel")->text().contains("397.51 k parameters"));

        const QString dir = qEnvironmentVariable("TSTUDIO_SCREENSHOT_DIR");
        if (!dir.isEmpty()) {
            QTreeView* scopes = view.tableView(ProfileTablesView::kScopes);
            scopes->expand(scopes->model()->index(rowOf(scopes->model(), "layer1"), 0));
            QVERIFY(view.grab().save(dir + "/profile_tables_scopes.png"));
            view.setCurrentTab(ProfileTablesView::kOpTypes);
            QVERIFY(view.grab().save(dir + "/profile_tables_ops.png"));
            view.setCurrentTab(ProfileTablesView::kAdvice);
            QVERIFY(view.grab().save(dir + "/profile_tables_advice.png"));
        }
    }
};

QTEST_MAIN(TestProfileTablesView)
#include "test_profile_tables_view.moc"
