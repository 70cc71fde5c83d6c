// Tests for the checkpoint tab: statistics rows of a checkpoint written here, sorting, filter, export, errors, fixture.
#include "graph_viewer/checkpoint_variables_view.h"
#include "graph_viewer/tensor_value_dialog.h"
#include "tensor_view/tensor_inspector.h"
#include "tensor_view/tensor_table_model.h"

#include "framework/allocator.h"
#include "io/checkpoint/tensor_bundle_reader.h"
#include "io/checkpoint/tensor_bundle_writer.h"
#include "io/npy.h"

#include "../../support/test_files.h"

#include <QAbstractItemModel>
#include <QAction>
#include <QTreeView>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tstudio;
using namespace tstudio::graph_viewer;
using View = CheckpointVariablesView;

namespace {

template <typename T> Tensor makeTensor(Allocator& allocator, TensorShape shape, std::vector<T> values)
{
    auto tensor = Tensor::fromVector<T>(allocator, shape, values);
    if (!tensor)
        qFatal("%s", tensor.error().toString().c_str());
    return *tensor;
}

/// The small checkpoint every test reads: five tensors of five dtypes.
QString writeCheckpoint(const QString& dir)
{
    CpuAllocator allocator;
    const QString prefix = dir + "/model.ckpt-7";
    auto writer = TensorBundleWriter::create(prefix.toStdString());
    if (!writer)
        qFatal("%s", writer.error().toString().c_str());
    auto add = [&](const char* name, const Tensor& t) {
        const Status s = (*writer)->add(name, t);
        if (!s.isOk())
            qFatal("%s", s.toString().c_str());
    };
    add("a/bias", makeTensor<float>(allocator, TensorShape{3}, {0.0f, 0.0f, 1.5f}));
    add("a/kernel", makeTensor<double>(allocator, TensorShape{2, 2}, {1.0, 2.0, 3.0, 4.0}));
    add("global_step", makeTensor<std::int64_t>(allocator, TensorShape::scalar(), {29001}));
    add("names", makeTensor<std::string>(allocator, TensorShape{2}, {"x", "y"}));
    add("z_mask", makeTensor<bool>(allocator, TensorShape{4}, {true, false, false, true}));
    if (!(*writer)->finish().isOk())
        qFatal("finish failed");
    return prefix;
}

int rowOf(const QAbstractItemModel* model, const QString& name)
{
    for (int r = 0; r < model->rowCount(); ++r)
        if (model->index(r, View::kName).data().toString() == name)
            return r;
    return -1;
}

QVariant cell(const QAbstractItemModel* model, const QString& name, int column, int role = View::kSortRole)
{
    const int row = rowOf(model, name);
    return row < 0 ? QVariant() : model->index(row, column).data(role);
}

QStringList names(const QAbstractItemModel* model)
{
    QStringList result;
    for (int r = 0; r < model->rowCount(); ++r)
        result << model->index(r, View::kName).data().toString();
    return result;
}

bool waitUntilIdle(const View& view)
{
    return QTest::qWaitFor([&] { return !view.isBusy(); }, 20000);
}

} // namespace

class TestCheckpointVariablesView : public QObject {
    Q_OBJECT
private slots:
    void statisticsRows()
    {
        QTemporaryDir dir;
        const QString prefix = writeCheckpoint(dir.path());
        View view;
        QSignalSpy loaded(&view, &View::loaded);
        QSignalSpy finished(&view, &View::statisticsFinished);
        view.setCheckpoint(prefix);
        QVERIFY(view.isBusy()); // the GUI thread did not read anything itself
        QVERIFY(waitUntilIdle(view));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.at(0).at(0).toInt(), 5);
        QCOMPARE(finished.count(), 1);
        QVERIFY(view.errorText().isEmpty());

        const QAbstractItemModel* model = view.model();
        QCOMPARE(names(model), QStringList({"a/bias", "a/kernel", "global_step", "names", "z_mask"}));
        QCOMPARE(cell(model, "a/kernel", View::kDType, Qt::DisplayRole).toString(), QStringLiteral("float64"));
        QCOMPARE(cell(model, "a/kernel", View::kShape, Qt::DisplayRole).toString(), QStringLiteral("[2, 2]"));
        QCOMPARE(cell(model, "global_step", View::kShape, Qt::DisplayRole).toString(), QStringLiteral("[]"));
        QCOMPARE(cell(model, "a/kernel", View::kSize).toLongLong(), 32);
        QCOMPARE(cell(model, "a/kernel", View::kMin).toDouble(), 1.0);
        QCOMPARE(cell(model, "a/kernel", View::kMax).toDouble(), 4.0);
        QCOMPARE(cell(model, "a/kernel", View::kMean).toDouble(), 2.5);
        QCOMPARE(cell(model, "a/kernel", View::kStd).toDouble(), std::sqrt(1.25));
        QCOMPARE(cell(model, "a/kernel", View::kSparsity).toDouble(), 0.0);
        QCOMPARE(cell(model, "a/bias", View::kMin).toDouble(), 0.0);
        QCOMPARE(cell(model, "a/bias", View::kMax).toDouble(), 1.5);
        QCOMPARE(cell(model, "a/bias", View::kMean).toDouble(), 0.5);
        QCOMPARE(cell(model, "a/bias", View::kSparsity, Qt::DisplayRole).toString(), QStringLiteral("66.7%"));
        QCOMPARE(cell(model, "global_step", View::kMean, Qt::DisplayRole).toString(), QStringLiteral("29001"));
        QCOMPARE(cell(model, "z_mask", View::kMean).toDouble(), 0.5);
        // Strings have no statistics: a dash, and the reason as tooltip.
        QCOMPARE(cell(model, "names", View::kMin, Qt::DisplayRole).toString(), QStringLiteral("\u2014"));
        QVERIFY(!cell(model, "names", View::kMax).isValid());
        QVERIFY(cell(model, "names", View::kMin, Qt::ToolTipRole).toString().contains(QStringLiteral("string")));
    }

    void sortingAndFilter()
    {
        QTemporaryDir dir;
        View view;
        view.setCheckpoint(writeCheckpoint(dir.path()));
        QVERIFY(waitUntilIdle(view));
        QAbstractItemModel* model = view.model();
        model->sort(View::kMax, Qt::DescendingOrder);
        // Tensors without statistics sort after those with.
        QCOMPARE(names(model), QStringList({"global_step", "a/kernel", "a/bias", "z_mask", "names"}));
        model->sort(View::kSize, Qt::AscendingOrder);
        QCOMPARE(cell(model, "z_mask", View::kSize).toLongLong(), 4);
        QCOMPARE(names(model).first(), QStringLiteral("z_mask"));
        QCOMPARE(names(model).last(), QStringLiteral("a/kernel"));
        for (int r = 1; r < model->rowCount(); ++r)
            QVERIFY(model->index(r - 1, View::kSize).data(View::kSortRole).toLongLong() <=
                    model->index(r, View::kSize).data(View::kSortRole).toLongLong());
        model->sort(View::kMean, Qt::AscendingOrder);
        QCOMPARE(names(model), QStringList({"z_mask", "a/bias", "a/kernel", "global_step", "names"}));
        model->sort(View::kName, Qt::AscendingOrder);
        QCOMPARE(names(model), QStringList({"a/bias", "a/kernel", "global_step", "names", "z_mask"}));

        auto* filter = view.findChild<QLineEdit*>(QStringLiteral("filterEdit"));
        QVERIFY(filter);
        filter->setText(QStringLiteral("A/"));
        QCOMPARE(names(model), QStringList({"a/bias", "a/kernel"}));
        filter->setText(QStringLiteral("step"));
        QCOMPARE(names(model), QStringList({"global_step"}));
        filter->clear();
        QCOMPARE(model->rowCount(), 5);
    }

    void exportRoundTrip()
    {
        QTemporaryDir dir;
        View view;
        QCOMPARE(view.exportTensor("a/kernel", dir.filePath("early.npy")).code(), StatusCode::kFailedPrecondition);
        view.setCheckpoint(writeCheckpoint(dir.path()));
        QVERIFY(waitUntilIdle(view));

        const QString out = dir.filePath("out/kernel.npy");
        QVERIFY(QDir().mkpath(dir.filePath("out")));
        const Status status = view.exportTensor("a/kernel", out);
        QVERIFY2(status.isOk(), status.toString().c_str());
        CpuAllocator allocator;
        auto back = readNpy(out.toStdString(), allocator);
        QVERIFY2(back, back ? "" : back.error().toString().c_str());
        QCOMPARE(back->dtype(), tensorflow::DT_DOUBLE);
        QCOMPARE(back->shape().toString(), std::string("[2,2]"));
        QCOMPARE(std::vector<double>(back->values<double>().begin(), back->values<double>().end()),
                 std::vector<double>({1.0, 2.0, 3.0, 4.0}));
        // Written atomically: nothing but the result is left in the folder.
        QCOMPARE(QDir(dir.filePath("out")).entryList(QDir::Files), QStringList({"kernel.npy"}));

        QCOMPARE(view.exportTensor("names", dir.filePath("names.npy")).code(), StatusCode::kUnimplemented);
        QVERIFY(!QFile::exists(dir.filePath("names.npy")));
        const Status missing = view.exportTensor("nope", dir.filePath("nope.npy"));
        QCOMPARE(missing.code(), StatusCode::kNotFound);
        QVERIFY(QString::fromStdString(missing.message()).contains(QStringLiteral("nope")));
    }

    void truncatedIndexIsShown()
    {
        QTemporaryDir dir;
        const QString prefix = writeCheckpoint(dir.path());
        QFile index(prefix + ".index");
        QVERIFY(index.open(QIODevice::ReadWrite));
        QVERIFY(index.resize(index.size() / 2));
        index.close();

        View view;
        QSignalSpy failed(&view, &View::loadFailed);
        QSignalSpy loaded(&view, &View::loaded);
        view.setCheckpoint(prefix);
        QVERIFY(waitUntilIdle(view));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(loaded.count(), 0);
        QVERIFY2(view.errorText().contains(prefix + ".index"), qPrintable(view.errorText()));
        auto* message = view.findChild<QLabel*>(QStringLiteral("messageLabel"));
        QVERIFY(message && !message->isHidden());
        QCOMPARE(message->text(), view.errorText());
        QCOMPARE(view.model()->rowCount(), 0);

        // A good checkpoint afterwards clears the error.
        QTemporaryDir other;
        view.setCheckpoint(writeCheckpoint(other.path()));
        QVERIFY(waitUntilIdle(view));
        QVERIFY(view.errorText().isEmpty());
        QVERIFY(message->isHidden());
        QCOMPARE(view.model()->rowCount(), 5);
    }

    void missingCheckpoint()
    {
        QTemporaryDir dir;
        View view;
        view.setCheckpoint(dir.filePath("absent/model"));
        QVERIFY(waitUntilIdle(view));
        QVERIFY2(view.errorText().contains(dir.filePath("absent/model")), qPrintable(view.errorText()));
    }

    void newerCheckpointCancelsOlder()
    {
        // Many large tensors, so the first scan is still computing statistics when the second starts.
        QTemporaryDir dir;
        CpuAllocator allocator;
        const QString big = dir.filePath("big");
        {
            auto writer = TensorBundleWriter::create(big.toStdString());
            QVERIFY(writer);
            for (int i = 0; i < 200; ++i) {
                const std::vector<float> values(100000, float(i));
                const Tensor t = makeTensor<float>(allocator, TensorShape{100000}, values);
                QVERIFY((*writer)->add("t" + std::to_string(1000 + i), t).isOk());
            }
            QVERIFY((*writer)->finish().isOk());
        }
        const QString small = writeCheckpoint(dir.path());

        // Before anything of the first arrived.
        {
            View view;
            QSignalSpy loaded(&view, &View::loaded);
            view.setCheckpoint(big);
            view.setCheckpoint(small);
            QVERIFY(waitUntilIdle(view));
            QCOMPARE(loaded.count(), 1);
            QCOMPARE(loaded.at(0).at(0).toInt(), 5);
            QCOMPARE(view.checkpoint(), small);
        }
        // While the first is computing statistics: none of its results may land in the second's rows.
        View view;
        QSignalSpy loaded(&view, &View::loaded);
        QSignalSpy finished(&view, &View::statisticsFinished);
        view.setCheckpoint(big);
        QVERIFY(loaded.wait(20000));
        QCOMPARE(loaded.at(0).at(0).toInt(), 200);
        QVERIFY(view.isBusy());
        view.setCheckpoint(small);
        QVERIFY(waitUntilIdle(view));
        QTest::qWait(50); // let anything the cancelled worker still sent arrive
        QCOMPARE(loaded.count(), 2);
        QCOMPARE(loaded.at(1).at(0).toInt(), 5);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(view.model()->rowCount(), 5);
        QCOMPARE(cell(view.model(), "a/bias", View::kMean).toDouble(), 0.5);
        QCOMPARE(cell(view.model(), "a/kernel", View::kMean).toDouble(), 2.5);

        // Destroying a busy view returns at once (smoke: the worker stops on its own).
        auto* busy = new View;
        busy->setCheckpoint(big);
        QVERIFY(busy->isBusy());
        delete busy;
    }

    void showValuesReadsTheTensorLazily()
    {
        QTemporaryDir dir;
        const QString prefix = writeCheckpoint(dir.path());
        View view;
        view.setCheckpoint(prefix);
        QVERIFY(waitUntilIdle(view));
        QSignalSpy shown(&view, &View::valuesShown);
        QSignalSpy failed(&view, &View::valuesFailed);

        // Double-click (activation) on the a/kernel row opens its values.
        auto* table = view.findChild<QTreeView*>(QStringLiteral("tensorTable"));
        QVERIFY(table);
        const int row = rowOf(view.model(), QStringLiteral("a/kernel"));
        QVERIFY(row >= 0);
        emit table->activated(view.model()->index(row, View::kMean));
        QVERIFY(shown.wait(10000));
        auto* dialog = shown.at(0).at(0).value<TensorValueDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->windowTitle().contains(QStringLiteral("a/kernel")));
        QCOMPARE(dialog->inspector()->tensorName(), QStringLiteral("a/kernel"));
        const auto* cells = dialog->inspector()->tableModel();
        QCOMPARE(cells->rowCount(), 2);
        QCOMPARE(cells->columnCount(), 2);
        QCOMPARE(cells->index(0, 1).data().toString().toDouble(), 2.0);
        QCOMPARE(cells->index(1, 0).data().toString().toDouble(), 3.0);
        QCOMPARE(cells->index(1, 1).data().toString().toDouble(), 4.0);
        dialog->close();

        // The action works on the selection.
        auto* action = view.findChild<QAction*>(QStringLiteral("showValuesAction"));
        QVERIFY(action);
        QVERIFY(!action->isEnabled());
        table->setCurrentIndex(view.model()->index(rowOf(view.model(), QStringLiteral("z_mask")), View::kName));
        QVERIFY(action->isEnabled());
        action->trigger();
        QVERIFY(shown.wait(10000));
        auto* mask = shown.at(1).at(0).value<TensorValueDialog*>();
        QCOMPARE(mask->inspector()->tableModel()->rowCount(), 4);
        mask->close();

        // A tensor the checkpoint lacks: the error names it, and no window opens.
        view.showValues(QStringLiteral("no/such/tensor"));
        QVERIFY(failed.wait(10000));
        QVERIFY(failed.at(0).at(0).toString().contains(QStringLiteral("no/such/tensor")));
        QCOMPARE(shown.count(), 2);
    }

    void mnistFixture()
    {
        const QString fixtures = tstudio::testing::fixturesDir();
        const QString prefix = fixtures + "/tf1-mnist-book/mnist_model-29001";
        if (fixtures.isEmpty() || !QFile::exists(prefix + ".index"))
            QSKIP("fixture tf1-mnist-book/mnist_model-29001 not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        auto reader = TensorBundleReader::open(prefix.toStdString());
        QVERIFY(reader);
        const int expected = static_cast<int>(reader->tensors().size());
        View view;
        QSignalSpy loaded(&view, &View::loaded);
        view.setCheckpoint(prefix);
        QVERIFY(waitUntilIdle(view));
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(loaded.at(0).at(0).toInt(), expected);
        QCOMPARE(view.model()->rowCount(), expected);
        // Every float tensor got statistics.
        for (int r = 0; r < view.model()->rowCount(); ++r) {
            const QModelIndex dtype = view.model()->index(r, View::kDType);
            if (dtype.data().toString() == "float32")
                QVERIFY2(view.model()->index(r, View::kMean).data(View::kSortRole).isValid(),
                         qPrintable(view.model()->index(r, View::kName).data().toString()));
        }
        // Show values on a matrix TensorFlow wrote: the table holds what the bundle holds.
        const auto infos = reader->tensors();
        const auto matrix = std::find_if(infos.begin(), infos.end(), [](const BundleTensorInfo& info) {
            return info.dtype == tensorflow::DT_FLOAT && info.shape.rank() == 2 && info.shape.dim(1) >= 2;
        });
        QVERIFY(matrix != infos.end());
        CpuAllocator allocator;
        auto stored = reader->read(matrix->name, allocator);
        QVERIFY(stored);
        QSignalSpy shown(&view, &View::valuesShown);
        view.showValues(QString::fromStdString(matrix->name));
        QVERIFY(shown.wait(10000));
        auto* dialog = shown.at(0).at(0).value<TensorValueDialog*>();
        const auto* cells = dialog->inspector()->tableModel();
        QCOMPARE(cells->rowCount(), int(matrix->shape.dim(0)));
        QCOMPARE(cells->columnCount(), int(matrix->shape.dim(1)));
        for (const auto& [row, column] : {std::pair{0, 1}, std::pair{1, 0}}) {
            const double expected = stored->data<float>()[row * matrix->shape.dim(1) + column];
            const double shown = cells->index(row, column).data().toString().toDouble();
            QVERIFY2(std::abs(shown - expected) <= 1e-4 * std::max(1.0, std::abs(expected)),
                     qPrintable(QStringLiteral("%1 [%2,%3]: %4 vs %5")
                                    .arg(QString::fromStdString(matrix->name))
                                    .arg(row)
                                    .arg(column)
                                    .arg(shown)
                                    .arg(expected)));
        }
        dialog->close();
    }
};

QTEST_MAIN(TestCheckpointVariablesView)
#include "test_checkpoint_variables_view.moc"
