// Tests for the node editor's palette and quick-add popup: filtering, ranking, groups, tooltips, drag data, activation.
#include "node_editor/node_palette.h"

#include "common/op_style.h"
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "marking_translator.h"
#include "registries/register_all_ops.h"

#include <QCoreApplication>
#include <QLineEdit>
#include <QListView>
#include <QMimeData>
#include <QPointer>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <QTreeView>

using namespace tstudio;
using namespace tstudio::node_editor;

namespace {

std::vector<PaletteEntry> layerEntries()
{
    return {
        {QStringLiteral("Input"), QStringLiteral("Core"), QStringLiteral("A placeholder fed at run time."), true},
        {QStringLiteral("Dense"), QStringLiteral("Core"), QStringLiteral("Densely connected layer: matmul plus bias."),
         true},
        {QStringLiteral("Conv2D"), QStringLiteral("Convolution"), QStringLiteral("2-D convolution layer."), true},
        {QStringLiteral("MaxPool"), QStringLiteral("Pooling"), QStringLiteral("Max pooling layer."), true},
        {QStringLiteral("Relu"), QStringLiteral("Activations"), QStringLiteral("Rectified linear activation."), true},
    };
}

/// The index of entry `kindAndType` in the palette's model (invalid if absent).
QModelIndex findEntry(const QStandardItemModel* model, const QString& kindAndType)
{
    for (int g = 0; g < model->rowCount(); ++g) {
        const QModelIndex group = model->index(g, 0);
        for (int r = 0; r < model->rowCount(group); ++r) {
            const QModelIndex index = model->index(r, 0, group);
            if (index.data(NodePalette::kKindAndTypeRole).toString() == kindAndType)
                return index;
        }
    }
    return {};
}

} // namespace

class TestNodePalette : public QObject {
    Q_OBJECT
private:
    OpRegistry m_registry;
    std::vector<PaletteEntry> m_entries;
    int m_hiddenOps = 0;

private slots:
    void initTestCase()
    {
        QVERIFY(registerAllOps(m_registry).isOk());
        // An internal op, as TensorFlow's "_Arg"/"_Retval": never offered to users.
        QVERIFY(m_registry.registerOp(OpDefBuilder("_TestInternal").output("y: float").summary("Internal.")).isOk());
        // An op with no category goes to "Other".
        QVERIFY(
            m_registry.registerOp(OpDefBuilder("TestUnclassified").output("y: float").summary("Unclassified.")).isOk());
        for (const std::string& name : m_registry.opNames())
            m_hiddenOps += name.starts_with('_') ? 1 : 0;
        QVERIFY(m_hiddenOps >= 1);
        m_entries = layerEntries();
        for (PaletteEntry& entry : opPaletteEntries(m_registry))
            m_entries.push_back(std::move(entry));
    }

    void opEntriesSkipInternalOps()
    {
        const std::vector<PaletteEntry> ops = opPaletteEntries(m_registry);
        QCOMPARE(static_cast<int>(ops.size()), static_cast<int>(m_registry.size()) - m_hiddenOps);
        for (const PaletteEntry& entry : ops) {
            QVERIFY2(!entry.type.startsWith(QLatin1Char('_')), qPrintable(entry.type));
            QVERIFY(!entry.layer);
        }
        const auto matMul = std::find_if(ops.begin(), ops.end(), [](const auto& e) { return e.type == "MatMul"; });
        QVERIFY(matMul != ops.end());
        QCOMPARE(matMul->category, QStringLiteral("Math"));
        QVERIFY(matMul->doc.startsWith(QString::fromStdString(m_registry.find("MatMul")->opDef.summary())));
    }

    /// The summary and description are looked up separately in the context "tstudio::ops", trimmed, as
    /// translations/catalog_strings.cpp lists them; in English they are the registry's text.
    void opEntryDocsAreTranslated()
    {
        OpRegistry ops;
        QVERIFY(ops.registerOp(OpDefBuilder("Told").output("y: float").summary(" Short.\n").description("Long."))
                    .isOk());
        QCOMPARE(opPaletteEntries(ops).front().doc, QStringLiteral("Short.\n\nLong."));
        testing::MarkingTranslator translator("tstudio::ops");
        QCoreApplication::installTranslator(&translator);
        const std::vector<PaletteEntry> translated = opPaletteEntries(ops);
        QCoreApplication::removeTranslator(&translator);
        QCOMPARE(translated.front().doc, QStringLiteral("[zh] Short.\n\n[zh] Long."));
        QCOMPARE(opPaletteEntries(ops).front().doc, QStringLiteral("Short.\n\nLong."));
    }

    void unfilteredShowsEverythingGroupedLayersFirst()
    {
        NodePalette palette;
        std::vector<PaletteEntry> withHidden = m_entries;
        withHidden.push_back({QStringLiteral("_Secret"), QString(), QString(), false});
        palette.setEntries(withHidden);
        const QStringList shown = palette.visibleEntries();
        QCOMPARE(shown.size(), 5 + static_cast<int>(m_registry.size()) - m_hiddenOps);
        QVERIFY(!shown.contains(QStringLiteral("op:_Secret")));
        QVERIFY(!shown.contains(QStringLiteral("op:_TestInternal")));

        const QStringList groups = palette.visibleGroups();
        QCOMPARE(groups.mid(0, 4), (QStringList{"Core", "Convolution", "Pooling", "Activations"}));
        QCOMPARE(groups.at(4), QStringLiteral("Math")); // the first op category in legend order
        QCOMPARE(groups.count(opCategoryDisplayName(op_category::kNN)), 1);
        QCOMPARE(groups.last(), opCategoryDisplayName("")); // unclassified ops ("Other") last
        // Layers come first in display order, in the order given within their group.
        QCOMPARE(shown.mid(0, 5),
                 (QStringList{"layer:Dense", "layer:Input", "layer:Conv2D", "layer:MaxPool", "layer:Relu"}));
    }

    void filterRanksPrefixBeforeSubstringBeforeDoc()
    {
        NodePalette palette;
        palette.setEntries(m_entries);
        QTest::keyClicks(palette.searchLine(), QStringLiteral("matmul"));
        QCOMPARE(palette.filterText(), QStringLiteral("matmul"));
        const QStringList shown = palette.visibleEntries();
        // Case-insensitive: MatMul (prefix) first in Math although BatchMatMul sorts before it by name.
        const int matMul = shown.indexOf(QStringLiteral("op:MatMul"));
        const int batchMatMul = shown.indexOf(QStringLiteral("op:BatchMatMul"));
        QVERIFY(matMul >= 0);
        QVERIFY(batchMatMul >= 0);
        QVERIFY2(matMul < batchMatMul, qPrintable(shown.join(' ')));
        // The Dense layer matches by its doc only ("matmul plus bias"): it is shown, ranked 2.
        QVERIFY(shown.contains(QStringLiteral("layer:Dense")));
        QVERIFY(!shown.contains(QStringLiteral("op:Conv2D")));
        const QModelIndex dense = findEntry(palette.model(), QStringLiteral("layer:Dense"));
        QCOMPARE(dense.data(NodePalette::kRankRole).toInt(), 2);
        QCOMPARE(findEntry(palette.model(), QStringLiteral("op:MatMul")).data(NodePalette::kRankRole).toInt(), 0);
        QCOMPARE(findEntry(palette.model(), QStringLiteral("op:BatchMatMul")).data(NodePalette::kRankRole).toInt(), 1);
        // Groups without a match are hidden; the filtered groups are expanded.
        QCOMPARE(palette.visibleGroups().first(), QStringLiteral("Core"));
        QVERIFY(!palette.visibleGroups().contains(QStringLiteral("Pooling")));
        QVERIFY(palette.treeView()->isExpanded(findEntry(palette.model(), QStringLiteral("op:MatMul")).parent()));

        // Count: every entry whose name or doc holds the text, and nothing else.
        palette.setFilterText(QStringLiteral("conv2d"));
        int expected = 0;
        for (const PaletteEntry& entry : m_entries)
            expected +=
                entry.type.contains("conv2d", Qt::CaseInsensitive) || entry.doc.contains("conv2d", Qt::CaseInsensitive);
        QVERIFY(expected >= 4); // Conv2D, its two backprops, the layer
        QCOMPARE(palette.visibleEntries().size(), expected);
        QVERIFY(palette.visibleEntries().contains(QStringLiteral("layer:Conv2D")));
        QVERIFY(palette.visibleEntries().contains(QStringLiteral("op:Conv2DBackpropFilter")));

        palette.setFilterText(QStringLiteral("no such op zzz"));
        QCOMPARE(palette.visibleEntries().size(), 0);
        QCOMPARE(palette.visibleGroups().size(), 0);
        palette.setFilterText(QString());
        QCOMPARE(palette.visibleEntries().size(), static_cast<int>(m_entries.size()));
    }

    void rankedListOrdersAcrossGroups()
    {
        const std::vector<PaletteEntry> ranked = rankedPaletteEntries(m_entries, QStringLiteral("mat"));
        QVERIFY(ranked.size() >= 3);
        int previous = 0;
        for (const PaletteEntry& entry : ranked) {
            const int rank = paletteMatchRank(entry, QStringLiteral("mat"));
            QVERIFY2(rank >= previous, qPrintable(entry.type));
            previous = rank;
        }
        QVERIFY(ranked.front().type.startsWith(QStringLiteral("Mat"), Qt::CaseInsensitive));
        // A doc-only match (Dense: "matmul plus bias") is among the last.
        QCOMPARE(paletteMatchRank(layerEntries()[1], QStringLiteral("mat")), 2);
        QCOMPARE(paletteMatchRank(layerEntries()[1], QStringLiteral("DENSE")), 0);
        QCOMPARE(paletteMatchRank(layerEntries()[1], QStringLiteral("ense")), 1);
        QCOMPARE(paletteMatchRank(layerEntries()[1], QStringLiteral("pooling")), -1);
        // On equal rank, layers come before ops.
        const std::vector<PaletteEntry> conv = rankedPaletteEntries(m_entries, QStringLiteral("Conv2D"));
        QCOMPARE(kindAndType(conv.front()), QStringLiteral("layer:Conv2D"));
        QCOMPARE(kindAndType(conv.at(1)), QStringLiteral("op:Conv2D"));
    }

    void tooltipsHoldTheOpDefSummary()
    {
        NodePalette palette;
        palette.setEntries(m_entries);
        for (const char* op : {"MatMul", "Conv2D", "ConcatV2"}) {
            const QModelIndex index = findEntry(palette.model(), QStringLiteral("op:") + op);
            QVERIFY(index.isValid());
            const QString tip = index.data(Qt::ToolTipRole).toString();
            const QString summary = QString::fromStdString(m_registry.find(op)->opDef.summary()).toHtmlEscaped();
            QVERIFY2(!summary.isEmpty(), op);
            QVERIFY2(tip.contains(summary), qPrintable(tip));
            QVERIFY(tip.contains(QStringLiteral("<b>%1</b>").arg(op)));
            QVERIFY(tip.startsWith(QStringLiteral("<qt>"))); // rich text: Qt wraps it
        }
        const QString layerTip =
            findEntry(palette.model(), QStringLiteral("layer:Dense")).data(Qt::ToolTipRole).toString();
        QVERIFY(layerTip.contains(QStringLiteral("Densely connected layer")));
        QVERIFY(layerTip.contains(QStringLiteral("(Core)")));
    }

    void dragCarriesKindAndType()
    {
        NodePalette palette;
        palette.setEntries(m_entries);
        QVERIFY(palette.treeView()->dragEnabled());
        QCOMPARE(palette.model()->mimeTypes(), QStringList{QString::fromLatin1(kNodeMimeType)});
        for (const QString& which : {QStringLiteral("op:MatMul"), QStringLiteral("layer:Dense")}) {
            const QModelIndex index = findEntry(palette.model(), which);
            QVERIFY(palette.model()->flags(index).testFlag(Qt::ItemIsDragEnabled));
            std::unique_ptr<QMimeData> data(palette.model()->mimeData({index}));
            QVERIFY(data);
            QVERIFY(data->hasFormat(QStringLiteral("application/x-tensorstudio-node")));
            QCOMPARE(QString::fromUtf8(data->data(QStringLiteral("application/x-tensorstudio-node"))), which);
        }
        // Group rows are not dragged.
        const QModelIndex group = palette.model()->index(0, 0);
        QVERIFY(!palette.model()->flags(group).testFlag(Qt::ItemIsDragEnabled));
        std::unique_ptr<QMimeData> none(palette.model()->mimeData({group}));
        QVERIFY(!none);
        std::unique_ptr<QMimeData> direct(paletteMimeData(layerEntries()[2]));
        QCOMPARE(direct->data(QString::fromLatin1(kNodeMimeType)), QByteArray("layer:Conv2D"));
    }

    void enterAndDoubleClickActivate()
    {
        NodePalette palette;
        palette.setEntries(m_entries);
        palette.resize(300, 600);
        palette.show();
        QVERIFY(QTest::qWaitForWindowExposed(&palette));
        QSignalSpy spy(&palette, &NodePalette::entryActivated);

        palette.setFilterText(QStringLiteral("MatMul"));
        QTest::keyClick(palette.searchLine(), Qt::Key_Return); // the first entry shown
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toString(), palette.visibleEntries().first());

        const QModelIndex matMul = findEntry(palette.model(), QStringLiteral("op:MatMul"));
        palette.treeView()->setCurrentIndex(matMul);
        QTest::keyClick(palette.treeView(), Qt::Key_Return);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toString(), QStringLiteral("op:MatMul"));

        const QRect rect = palette.treeView()->visualRect(matMul);
        QVERIFY(!rect.isEmpty());
        // A real double click: press, release, then the double-click press and its release.
        QTest::mouseClick(palette.treeView()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(spy.count(), 0); // a single click only selects
        QTest::mouseDClick(palette.treeView()->viewport(), Qt::LeftButton, {}, rect.center());
        QTest::mouseRelease(palette.treeView()->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.takeFirst().at(0).toString(), QStringLiteral("op:MatMul"));

        // Activating a group row emits nothing.
        palette.treeView()->setCurrentIndex(matMul.parent());
        QTest::keyClick(palette.treeView(), Qt::Key_Return);
        QCOMPARE(spy.count(), 0);
    }

    void quickAddChoosesAndEscapeDismisses()
    {
        QWidget host;
        host.resize(400, 400);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));

        QPointer<QuickAddPopup> popup = QuickAddPopup::showAt(m_entries, host.mapToGlobal(QPoint(20, 20)), &host);
        QVERIFY(popup->isVisible());
        QSignalSpy chosen(popup.data(), &QuickAddPopup::chosen);
        QTest::keyClicks(popup->searchLine(), QStringLiteral("relu"));
        const QStringList shown = popup->visibleEntries();
        QCOMPARE(shown.first(), QStringLiteral("layer:Relu")); // equal rank: the layer first
        QVERIFY(shown.contains(QStringLiteral("op:Relu")));
        QVERIFY(shown.indexOf(QStringLiteral("op:Relu")) < shown.indexOf(QStringLiteral("op:LeakyRelu")) ||
                !shown.contains(QStringLiteral("op:LeakyRelu")));
        QCOMPARE(popup->listView()->currentIndex().row(), 0);
        QTest::keyClick(popup->searchLine(), Qt::Key_Down);
        QTest::keyClick(popup->searchLine(), Qt::Key_Return);
        QCOMPARE(chosen.count(), 1);
        QCOMPARE(chosen.at(0).at(0).toString(), shown.at(1));
        QTRY_VERIFY(popup.isNull()); // closed and deleted

        popup = QuickAddPopup::showAt(m_entries, host.mapToGlobal(QPoint(20, 20)), &host);
        QSignalSpy none(popup.data(), &QuickAddPopup::chosen);
        QTest::keyClick(popup->searchLine(), Qt::Key_Escape);
        QTRY_VERIFY(popup.isNull());
        QCOMPARE(none.count(), 0);

        // Internal ops never reach the popup either.
        std::vector<PaletteEntry> withHidden = m_entries;
        withHidden.push_back({QStringLiteral("_Hidden"), QString(), QString(), false});
        QuickAddPopup list(withHidden);
        list.setFilterText(QStringLiteral("_Hidden"));
        QCOMPARE(list.visibleEntries().size(), 0);
    }
};

QTEST_MAIN(TestNodePalette)
#include "test_node_palette.moc"
