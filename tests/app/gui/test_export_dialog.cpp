// ExportDialog (File ▸ Export…) on the trained spirals project: the inputs follow the chosen outputs,
// an export writes both forms, and an output that needs a placeholder that is not an input is shown
// as an error in the dialog. With TSTUDIO_TEST_SCREENSHOTS=DIR the dialog is saved there as PNGs.
#include "export_dialog.h"

#include "project/format/project_file.h"
#include "project/run/project_runner.h"
#include "registries/default_registries.h"

#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace tstudio;

namespace {

QStringList checkedIn(const QListWidget* list)
{
    QStringList names;
    for (int i = 0; i < list->count(); ++i)
        if (list->item(i)->checkState() == Qt::Checked)
            names << list->item(i)->data(Qt::UserRole).toString();
    return names;
}

void saveShot(QWidget& widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("TSTUDIO_TEST_SCREENSHOTS");
    if (dir.isEmpty())
        return;
    QDir().mkpath(dir);
    widget.grab().save(QDir(dir).filePath(name));
}

} // namespace

class TestExportDialog : public QObject {
    Q_OBJECT
private:
    std::unique_ptr<Registries> m_registries;
    QTemporaryDir m_dir;
    project::Project m_project;

private slots:
    void initTestCase()
    {
        auto r = makeDefaultRegistries();
        QVERIFY(r.has_value());
        m_registries = std::move(*r);
        auto p = project::loadProject(std::filesystem::path(TSTUDIO_SOURCE_DIR) / "examples" / "projects" / "spirals.tsproj");
        QVERIFY2(p.has_value(), p ? "" : p.error().toString().c_str());
        m_project = *p;
        m_project.logdir = m_dir.filePath("run").toStdString();
        m_project.steps = 10;
        auto trained = project::trainProject(m_project, *m_registries);
        QVERIFY2(trained.has_value(), trained ? "" : trained.error().toString().c_str());
    }

    void exportsAndShowsErrors()
    {
        ExportDialog dialog(m_registries.get(), m_project);
        dialog.show();
        auto* inputs = dialog.findChild<QListWidget*>(QStringLiteral("inputs"));
        auto* outputs = dialog.findChild<QListWidget*>(QStringLiteral("outputs"));
        QVERIFY(inputs && outputs);
        QCOMPARE(inputs->count(), 2); // inputs, labels
        QVERIFY(outputs->count() > 10);
        QVERIFY(checkedIn(inputs).isEmpty());

        // The inputs follow the outputs: the logits need "inputs" only, the loss both.
        dialog.setOutputs({QStringLiteral("dense_2/BiasAdd")});
        QCOMPARE(checkedIn(outputs), QStringList{QStringLiteral("dense_2/BiasAdd:0")});
        QCOMPARE(checkedIn(inputs), QStringList{QStringLiteral("inputs")});
        dialog.setOutputs({QStringLiteral("sparse_softmax_cross_entropy_loss/value:0")});
        QCOMPARE(checkedIn(inputs), (QStringList{QStringLiteral("inputs"), QStringLiteral("labels")}));

        // Inputs chosen by hand that leave out a placeholder the output needs: the error is shown in
        // the dialog, naming the key, the output and the placeholder; nothing is written.
        const QString frozen = m_dir.filePath("export/frozen.pb");
        dialog.setInputs({QStringLiteral("inputs")});
        dialog.setSavedModelDir(QString());
        dialog.setFrozenGraphPath(frozen);
        const Status refused = dialog.exportNow();
        QVERIFY(!refused.isOk());
        QVERIFY2(dialog.messageText().contains(
                     "export.outputs[0]: 'sparse_softmax_cross_entropy_loss/value:0' needs placeholder 'labels'"),
                 qPrintable(dialog.messageText()));
        QVERIFY(!QFile::exists(frozen));
        QTest::qWait(50);
        saveShot(dialog, QStringLiteral("export_dialog_error.png"));

        // The logits with both forms.
        dialog.setOutputs({QStringLiteral("dense_2/BiasAdd:0")});
        dialog.setInputs({QStringLiteral("inputs")});
        const QString savedModel = m_dir.filePath("export/saved_model");
        dialog.setSavedModelDir(savedModel);
        const Status ok = dialog.exportNow();
        QVERIFY2(ok.isOk(), ok.message().c_str());
        QVERIFY(QFile::exists(frozen));
        QVERIFY(QFile::exists(savedModel + "/saved_model.pb"));
        QVERIFY2(dialog.messageText().contains(QStringLiteral("SavedModel: ") + savedModel), qPrintable(dialog.messageText()));
        QTest::qWait(50);
        saveShot(dialog, QStringLiteral("export_dialog_done.png"));
    }
};

QTEST_MAIN(TestExportDialog)
#include "test_export_dialog.moc"
