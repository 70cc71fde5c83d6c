// Tests for the catalogue strings (tools/catalog_strings/): what is collected and how it is escaped, and that
// translations/catalog_strings.cpp and the .ts files hold every op and layer text the registries hold now.
#include "catalog_strings.h"

#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "layers/layer_catalog.h"
#include "registries/register_all_ops.h"

#include <QDir>
#include <QFile>
#include <QTest>
#include <QXmlStreamReader>

#include <set>

using namespace tstudio;
using namespace tstudio::catalog_strings;

namespace {

const QString kGeneratedPath = QStringLiteral(TSTUDIO_SOURCE_DIR "/translations/catalog_strings.cpp");

QString describe(const CatalogText& entry)
{
    return QStringLiteral("  %1: \"%2\"")
        .arg(QString::fromStdString(entry.context), QString::fromStdString(entry.text));
}

/// What to do about a stale list, for failure messages.
QString regenerateHint()
{
    return QStringLiteral("Regenerate translations/catalog_strings.cpp and refresh the .ts files with\n  %1\n"
                          "then translate the new messages in translations/*.ts.")
        .arg(QString::fromLatin1(kRegenerateCommand));
}

} // namespace

class TestCatalogStrings : public QObject {
    Q_OBJECT
private:
    std::vector<CatalogText> m_texts;

private slots:
    void initTestCase()
    {
        OpRegistry ops;
        QVERIFY(registerAllOps(ops).isOk());
        m_texts = catalogTexts(ops, layers::layerCatalog());
        QVERIFY(m_texts.size() > 100);
    }

    void literalsEscapeQuotesBackslashesAndControls()
    {
        QCOMPARE(cppStringLiteral("plain"), std::string("\"plain\""));
        QCOMPARE(cppStringLiteral("say \"hi\" \\ now"), std::string("\"say \\\"hi\\\" \\\\ now\""));
        QCOMPARE(cppStringLiteral("a\nb\tc\x01"
                                  "d\x7f"),
                 std::string("\"a\\nb\\tc\\001d\\177\""));
        // UTF-8 passes through as it is (lupdate reads sources as UTF-8).
        QCOMPARE(cppStringLiteral("\xe2\x80\x94 x"), std::string("\"\xe2\x80\x94 x\""));
        QCOMPARE(entryLine({kOpsContext, "Adds \"x\"."}),
                 std::string("    QT_TRANSLATE_NOOP(\"tstudio::ops\", \"Adds \\\"x\\\".\"),"));
    }

    void textsAreTrimmedSortedDistinctAndSkipInternalOps()
    {
        OpRegistry ops;
        QVERIFY(ops.registerOp(OpDefBuilder("Zeta")
                                   .input("x: float")
                                   .output("y: float")
                                   .attr("k: int = 1")
                                   .summary("  Same text.\n")
                                   .description("Zeta's long story.")
                                   .doc("k", "How many.")
                                   .doc("x", "The input.")
                                   .doc("y", "Same text."))
                    .isOk());
        QVERIFY(
            ops.registerOp(OpDefBuilder("Alpha").output("y: float").summary("Alpha sums.").description("  ")).isOk());
        QVERIFY(ops.registerOp(OpDefBuilder("_Internal").output("y: float").summary("Never shown.")).isOk());
        layers::LayerType layer;
        layer.type = "Thing";
        layer.doc = "Same text.";
        layer.params.push_back({"size", {}, "How many.", {}});
        layer.params.push_back({"other", {}, "", {}});
        const std::vector<CatalogText> expected = {{kLayersContext, "How many."},      {kLayersContext, "Same text."},
                                                   {kOpsContext, "Alpha sums."},       {kOpsContext, "How many."},
                                                   {kOpsContext, "Same text."},        {kOpsContext, "The input."},
                                                   {kOpsContext, "Zeta's long story."}};
        const std::vector<CatalogText> got = catalogTexts(ops, {layer});
        QStringList gotText;
        for (const CatalogText& entry : got)
            gotText << describe(entry);
        QVERIFY2(got == expected, qPrintable(gotText.join('\n')));
    }

    /// An op or layer added or re-worded without regenerating fails here, naming the texts.
    void generatedFileIsUpToDate()
    {
        QFile file(kGeneratedPath);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(kGeneratedPath + " is missing. " + regenerateHint()));
        const QByteArray content = file.readAll();
        std::set<std::string> lines;
        for (const QByteArray& line : content.split('\n'))
            if (line.trimmed().startsWith("QT_TRANSLATE_NOOP("))
                lines.insert(line.toStdString());
        QStringList missing;
        std::set<std::string> expectedLines;
        for (const CatalogText& entry : m_texts) {
            expectedLines.insert(entryLine(entry));
            if (lines.count(entryLine(entry)) == 0)
                missing << describe(entry);
        }
        QStringList stale;
        for (const std::string& line : lines)
            if (expectedLines.count(line) == 0)
                stale << QStringLiteral("  ") + QString::fromStdString(line).trimmed();
        QString problems;
        if (!missing.isEmpty())
            problems += QStringLiteral("%1 op/layer text(s) missing from translations/catalog_strings.cpp:\n%2\n")
                            .arg(missing.size())
                            .arg(missing.join('\n'));
        if (!stale.isEmpty())
            problems +=
                QStringLiteral("%1 entry(ies) in translations/catalog_strings.cpp no longer in the registries:\n%2\n")
                    .arg(stale.size())
                    .arg(stale.join('\n'));
        QVERIFY2(problems.isEmpty(), qPrintable(problems + regenerateHint()));
        QVERIFY2(content.toStdString() == renderCatalogSource(m_texts),
                 qPrintable("translations/catalog_strings.cpp differs from what the generator writes (header or "
                            "order). " +
                            regenerateHint()));
    }

    /// lupdate was run after regenerating: every .ts file has a message for every text.
    void tsFilesHaveEveryText()
    {
        const QDir dir(QStringLiteral(TSTUDIO_SOURCE_DIR "/translations"));
        const QStringList files = dir.entryList({"*.ts"}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const QString& name : files) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            std::set<CatalogText> present;
            QXmlStreamReader xml(&file);
            std::string context;
            while (!xml.atEnd()) {
                xml.readNext();
                if (!xml.isStartElement())
                    continue;
                if (xml.name() == QLatin1String("name"))
                    context = xml.readElementText().toStdString();
                else if (xml.name() == QLatin1String("source"))
                    present.insert({context, xml.readElementText().toStdString()});
            }
            QVERIFY2(!xml.hasError(), qPrintable(name + ": " + xml.errorString()));
            QStringList missing;
            for (const CatalogText& entry : m_texts)
                if (present.count(entry) == 0)
                    missing << describe(entry);
            QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("translations/%1 lacks %2 op/layer text(s):\n%3\n%4")
                                                       .arg(name)
                                                       .arg(missing.size())
                                                       .arg(missing.join('\n'), regenerateHint())));
        }
    }
};

QTEST_GUILESS_MAIN(TestCatalogStrings)
#include "test_catalog_strings.moc"
