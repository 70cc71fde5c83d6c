// ModelDiffView (File > Compare…): two graph files and two checkpoints the test writes, compared on
// a worker thread; the header's summary, the groups and rows of the tree, the filter, and the error
// for a graph compared with a checkpoint.
#include "diff/model_diff_view.h"
#include "framework/allocator.h"
#include "io/checkpoint/tensor_bundle_writer.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace tstudio;
using namespace tstudio::diff_ui;

namespace {

bool writeText(const QString& path, const char* text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) >= 0;
}

bool writeCheckpoint(const std::string& prefix, std::vector<float> w)
{
    static CpuAllocator cpu;
    auto writer = TensorBundleWriter::create(prefix);
    return writer && (*writer)->add("w", *Tensor::fromVector<float>(cpu, TensorShape({2}), w)).isOk() &&
           (*writer)->finish().isOk();
}

QStringList groups(const QTreeWidget* tree)
{
    QStringList out;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        out << tree->topLevelItem(i)->text(0);
    return out;
}

} // namespace

class TestModelDiffView : public QObject {
    Q_OBJECT
private slots:
    void graphs()
    {
        QTemporaryDir tmp;
        const QString a = tmp.filePath("a.pbtxt"), b = tmp.filePath("b.pbtxt");
        QVERIFY(writeText(a, R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
                                node { name: "y" op: "Relu" input: "x" }
                                node { name: "old" op: "NoOp" })"));
        QVERIFY(writeText(b, R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
                                node { name: "y" op: "Relu6" input: "x" }
                                node { name: "new" op: "Identity" input: "y" })"));
        ModelDiffView view;
        QSignalSpy ready(&view, &ModelDiffView::ready);
        view.compare(a, b);
        QVERIFY(view.isBusy());
        QVERIFY(ready.wait(10000));
        QCOMPARE(ready.front().front().toBool(), true);
        QCOMPARE(view.title(), QString("a.pbtxt ↔ b.pbtxt"));
        const QString header = view.findChild<QLabel*>("diffHeader")->text();
        QVERIFY2(header.contains("1 unchanged, 1 changed, 0 renamed, 1 removed, 1 added"), qPrintable(header));
        QTreeWidget* tree = view.tree();
        QCOMPARE(groups(tree), QStringList({"Changed (1)", "Renamed (0)", "Added (1)", "Removed (1)"}));
        QCOMPARE(tree->topLevelItem(3)->child(0)->text(0), QString("old"));
        QCOMPARE(tree->topLevelItem(2)->child(0)->text(0), QString("new"));
        QTreeWidgetItem* changed = tree->topLevelItem(0)->child(0);
        QCOMPARE(changed->text(0), QString("y"));
        QCOMPARE(changed->text(1), QString("Relu6"));
        QCOMPARE(changed->child(0)->text(1), QString("op"));
        QCOMPARE(changed->child(0)->text(2), QString("Relu"));
        QCOMPARE(changed->child(0)->text(3), QString("Relu6"));
        view.findChild<QLineEdit*>("diffFilter")->setText("ol");
        QVERIFY(!tree->topLevelItem(3)->child(0)->isHidden());
        QVERIFY(tree->topLevelItem(2)->child(0)->isHidden());
    }

    void checkpointsAndErrors()
    {
        QTemporaryDir tmp;
        const std::string a = tmp.filePath("a").toStdString(), b = tmp.filePath("b").toStdString();
        QVERIFY(writeCheckpoint(a, {1, 2}));
        QVERIFY(writeCheckpoint(b, {1, 4}));
        ModelDiffView view;
        QSignalSpy ready(&view, &ModelDiffView::ready);
        view.compare(QString::fromStdString(a), QString::fromStdString(b));
        QVERIFY(ready.wait(10000));
        QTreeWidget* tree = view.tree();
        QCOMPARE(groups(tree), QStringList({"Changed (1)", "Added (0)", "Removed (0)", "Unchanged (0)"}));
        QTreeWidgetItem* w = tree->topLevelItem(0)->child(0);
        QCOMPARE(w->text(0), QString("w"));
        QCOMPARE(w->text(1), QString("float [2]"));
        QCOMPARE(w->text(2), QString("2"));
        QCOMPARE(w->text(4), QString("1 of 2"));

        const QString graph = tmp.filePath("g.pbtxt");
        QVERIFY(writeText(graph, R"(node { name: "x" op: "NoOp" })"));
        view.compare(graph, QString::fromStdString(a));
        QVERIFY(ready.wait(10000));
        QCOMPARE(ready.back().front().toBool(), false);
        QVERIFY2(view.errorText().contains("compare two graphs or two checkpoints"), qPrintable(view.errorText()));
        QVERIFY(view.findChild<QLabel*>("diffHeader")->text().startsWith("Cannot compare: "));
        QCOMPARE(tree->topLevelItemCount(), 0);
    }
};

QTEST_MAIN(TestModelDiffView)
#include "test_model_diff_view.moc"
