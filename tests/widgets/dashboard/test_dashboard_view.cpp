// Tests for the dashboard tab: DashboardFeed reporting only what changed, runs appearing and growing
// while their files are written (followed live), run visibility and colours reaching the views, the
// Keras fixture's curves, histograms and images, and its graph listed for the graph viewer.
#include "../../support/test_files.h"
#include "dashboard/dashboard_feed.h"
#include "dashboard/custom_scalars_view.h"
#include "dashboard/dashboard_view.h"
#include "dashboard/histogram_view.h"
#include "dashboard/hparams_parallel_view.h"
#include "dashboard/hparams_scatter_view.h"
#include "dashboard/hparams_view.h"
#include "dashboard/pr_curves_view.h"
#include "dashboard/projector_view.h"
#include "dashboard/runs_panel.h"
#include "dashboard/scalars_view.h"
#include "io/events/event_file_writer.h"
#include "proto/config.pb.h"
#include "proto/custom_scalar_layout.pb.h"
#include "proto/graph.pb.h"
#include "proto/hparams_plugin.pb.h"
#include "proto/summary.pb.h"

#include <QFile>
#include <QLineEdit>
#include <QDir>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QFileInfo>
#include <QTest>
#include <QTableWidget>
#include <QTreeWidget>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace tstudio;
using namespace tstudio::dashboard;

namespace {

tensorflow::Summary scalarSummary(const std::string& tag, float value)
{
    tensorflow::Summary s;
    auto* v = s.add_value();
    v->set_tag(tag);
    v->set_simple_value(value);
    return s;
}

tensorflow::Summary histogramSummary(const std::string& tag, double centre)
{
    tensorflow::Summary s;
    auto* v = s.add_value();
    v->set_tag(tag);
    auto* h = v->mutable_histo();
    h->set_min(centre - 1);
    h->set_max(centre + 1);
    h->set_num(4);
    h->set_sum(4 * centre);
    h->set_sum_squares(4 * centre * centre + 2);
    for (double edge : {centre - 0.5, centre, centre + 0.5, centre + 1})
        h->add_bucket_limit(edge);
    for (double count : {1.0, 1.0, 1.0, 1.0})
        h->add_bucket(count);
    return s;
}

/// Writes `steps` scalar events (loss = 1/(step+1)) and one histogram to `dir`, flushed.
void writeRun(const std::string& dir, int firstStep, int steps)
{
    auto writer = events::EventFileWriter::open(dir);
    QVERIFY(writer.has_value());
    for (int i = firstStep; i < firstStep + steps; ++i)
        QVERIFY((*writer)->addSummary(scalarSummary("loss", 1.0f / static_cast<float>(i + 1)), i).isOk());
    QVERIFY((*writer)->addSummary(histogramSummary("weights", firstStep), firstStep).isOk());
    QVERIFY((*writer)->close().isOk());
}

/// Samples of `run` in a chart: the rows of its CSV download.
std::size_t sampleCount(const ScalarChart* chart, const QString& run)
{
    const QString csv = chart->csv(run);
    return csv.isEmpty() ? 0 : static_cast<std::size_t>(csv.count(QStringLiteral("\r\n")) - 1);
}

/// Whether the chart draws `run` (after the redraw that style changes schedule).
bool isRunShown(ScalarChart* chart, const QString& run)
{
    chart->refresh();
    return !chart->rawPoints(run).isEmpty();
}

} // namespace

class TestDashboardView : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Run colours are saved in QSettings: the test's own, never the user's.
        QStandardPaths::setTestModeEnabled(true);
    }

    /// A colour the user picks is kept for the log directory across sessions (a new dashboard on the
    /// same folder gives it back, on the same run only); another folder's run of that name keeps the
    /// palette's colour.
    void runColoursKeptAcrossSessions()
    {
        QTemporaryDir dir, other;
        writeRun(dir.path().toStdString() + "/a", 0, 2);
        writeRun(dir.path().toStdString() + "/b", 0, 2);
        writeRun(other.path().toStdString() + "/a", 0, 2);
        const QColor chosen(0x12, 0x34, 0x56);
        QColor paletteA;
        {
            DashboardView view;
            view.setLogDirectories({dir.path()});
            QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs().size(), 2, 10000);
            paletteA = view.runsPanel()->styles()[0].colour;
            QVERIFY(paletteA != chosen);
            view.runsPanel()->setRunColour(QStringLiteral("a"), chosen);
        }
        {
            DashboardView view;
            view.setLogDirectories({dir.path() + QStringLiteral("/")}); // the same folder
            QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs().size(), 2, 10000);
            QCOMPARE(view.runsPanel()->styles()[0].run, QStringLiteral("a"));
            QCOMPARE(view.runsPanel()->styles()[0].colour, chosen);
            QVERIFY(view.runsPanel()->styles()[1].colour != chosen);
        }
        {
            DashboardView view;
            view.setLogDirectories({other.path()});
            QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs().size(), 1, 10000);
            QCOMPARE(view.runsPanel()->styles()[0].colour, paletteA);
        }
    }

    /// A run's graph comes from what the feed already read: the last graph_def with the run's tagged
    /// run metadata and their steps; a run without one has none, an unknown run none either.
    void runGraphFromTheFeed()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        {
            auto writer = events::EventFileWriter::open(root + "/train");
            QVERIFY(writer.has_value());
            tensorflow::GraphDef first;
            first.add_node()->set_name("old");
            tensorflow::GraphDef graph;
            graph.add_node()->set_name("x");
            graph.add_node()->set_name("y");
            tensorflow::RunMetadata metadata;
            metadata.mutable_step_stats()->add_dev_stats()->set_device("/device:CPU:0");
            QVERIFY((*writer)->addGraph(first).isOk());
            QVERIFY((*writer)->addGraph(graph).isOk());
            QVERIFY((*writer)->addRunMetadata(metadata, "step_3", 3).isOk());
            QVERIFY((*writer)->close().isOk());
        }
        writeRun(root + "/eval", 0, 2);
        DashboardFeed feed({root});
        QVERIFY(feed.poll().has_value());
        auto train = feed.runGraph("train");
        QVERIFY2(train, train ? "" : train.error().message().c_str());
        QVERIFY(train->has_value());
        QCOMPARE((*train)->graph->node_size(), 2);
        QCOMPARE((*train)->graph->node(1).name(), std::string("y"));
        QCOMPARE((*train)->runMetadata.size(), std::size_t(1));
        QCOMPARE((*train)->runMetadata[0].tag, std::string("step_3"));
        QCOMPARE((*train)->runMetadata[0].origin.step, std::int64_t(3));
        QCOMPARE((*train)->runMetadata[0].origin.run, std::string("train"));
        tensorflow::RunMetadata back;
        QVERIFY(back.ParseFromString((*train)->runMetadata[0].runMetadata));
        QCOMPARE(back.step_stats().dev_stats(0).device(), std::string("/device:CPU:0"));
        auto eval = feed.runGraph("eval");
        QVERIFY(eval && !eval->has_value());
        auto unknown = feed.runGraph("nope");
        QVERIFY(unknown && !unknown->has_value());
    }

    /// A poll reports every (run, tag) once, then only those that changed; histograms are decoded.
    void feedReportsChanges()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        writeRun(root + "/train", 0, 10);
        writeRun(root + "/eval", 0, 3);
        DashboardFeed feed({root});
        auto first = feed.poll();
        QVERIFY2(first.has_value(), first ? "" : first.error().toString().c_str());
        QCOMPARE(first->runs.size(), std::size_t(2));
        QCOMPARE(first->runs[0].run, std::string("eval"));
        QCOMPARE(first->runs[1].run, std::string("train"));
        QCOMPARE(first->changed.size(), std::size_t(4));
        for (const TagData& d : first->changed) {
            if (d.tag == "loss") {
                QVERIFY(d.scalars);
                QCOMPARE(d.scalars->size(), std::size_t(d.run == "train" ? 10 : 3));
                QCOMPARE(d.scalars->back().value, double(1.0f / (d.run == "train" ? 10.0f : 3.0f)));
            } else {
                QCOMPARE(d.kind, events::TagKind::kHistogram);
                QCOMPARE(d.histograms.size(), std::size_t(1));
                QVERIFY(!d.histograms[0].histogram.buckets.empty());
            }
        }
        auto none = feed.poll();
        QVERIFY(none.has_value());
        QVERIFY(none->changed.empty());

        // New steps in train only (a second file): only train's loss and weights come back.
        writeRun(root + "/train", 10, 5);
        auto more = feed.poll();
        QVERIFY(more.has_value());
        QCOMPARE(more->changed.size(), std::size_t(2));
        for (const TagData& d : more->changed) {
            QCOMPARE(d.run, std::string("train"));
            if (d.tag == "loss")
                QCOMPARE(d.scalars->size(), std::size_t(15));
        }

        // A damaged record is a warning, not an error.
        {
            std::ofstream bad(root + "/eval/events.out.tfevents.9999999999.bad", std::ios::binary);
            bad << std::string(40, '\x7f');
        }
        auto damaged = feed.poll();
        QVERIFY(damaged.has_value());
        QCOMPARE(damaged->warnings.size(), std::size_t(1));
        QVERIFY(damaged->warnings[0].find("9999999999.bad") != std::string::npos);

        // Several roots: runs prefixed with the root folder's name.
        QTemporaryDir other;
        writeRun(other.path().toStdString(), 0, 2);
        DashboardFeed two({root, other.path().toStdString()});
        auto both = two.poll();
        QVERIFY(both.has_value());
        QStringList names;
        for (const RunInfo& r : both->runs)
            names << QString::fromStdString(r.run);
        const QString otherName = QFileInfo(other.path()).fileName();
        const QString rootName = QFileInfo(dir.path()).fileName();
        QVERIFY2(names.contains(otherName) && names.contains(rootName + "/train"), qPrintable(names.join(", ")));

        // A file that grows record by record (a run being written): whatever the cut, the samples
        // come once the bytes are there.
        {
            QTemporaryDir source;
            writeRun(source.path().toStdString() + "/g", 0, 2);
            std::string whole, name;
            for (const auto& entry : std::filesystem::directory_iterator(source.path().toStdString() + "/g")) {
                std::ifstream in(entry.path(), std::ios::binary);
                whole.assign(std::istreambuf_iterator<char>(in), {});
                name = entry.path().filename().string();
            }
            QVERIFY(!whole.empty());
            for (std::size_t cut : {std::size_t(0), std::size_t(5), std::size_t(12), whole.size() / 2, whole.size() - 3}) {
                QTemporaryDir grow;
                std::filesystem::create_directories(grow.path().toStdString() + "/g");
                const std::string path = grow.path().toStdString() + "/g/" + name;
                { std::ofstream(path, std::ios::binary) << whole.substr(0, cut); }
                DashboardFeed growing({grow.path().toStdString()});
                std::size_t losses = 0; // as last reported
                for (int poll = 0; poll < 2; ++poll) {
                    if (poll == 1)
                        std::ofstream(path, std::ios::binary | std::ios::app) << whole.substr(cut);
                    auto update = growing.poll();
                    QVERIFY(update.has_value());
                    QVERIFY2(update->warnings.empty(), update->warnings.empty() ? "" : update->warnings[0].c_str());
                    for (const TagData& d : update->changed)
                        if (d.tag == "loss")
                            losses = d.scalars->size();
                }
                QVERIFY2(losses == 2, qPrintable(QStringLiteral("cut at %1: %2 loss samples").arg(cut).arg(losses)));
            }
        }

        DashboardFeed missing({root + "/nope"});
        auto error = missing.poll();
        QVERIFY(!error.has_value());
        QVERIFY(error.error().message().find("nope") != std::string::npos);
    }

    /// A log directory of many damaged event files: the first 20 warnings name their files, one more
    /// line counts the rest (a console line per file would bury everything else).
    /// Three add_hparams-style sessions trial_0..2 (lr 0.1 / (i + 1), opt adam, sgd, adam, metric
    /// accuracy 0.5 + 0.1 i at step 10), written from the plugin's protos.
    static bool writeHParamsTrials(const QString& path)
    {
        for (int i = 0; i < 3; ++i) {
            const std::string run = path.toStdString() + "/trial_" + std::to_string(i);
            auto writer = events::EventFileWriter::open(run);
            if (!writer)
                return false;
            tensorboard::hparams::HParamsPluginData experiment;
            experiment.mutable_experiment()->add_metric_infos()->mutable_name()->set_tag("accuracy");
            tensorboard::hparams::HParamsPluginData start;
            (*start.mutable_session_start_info()->mutable_hparams())["lr"].set_number_value(0.1 / (i + 1));
            (*start.mutable_session_start_info()->mutable_hparams())["opt"].set_string_value(i == 1 ? "sgd" : "adam");
            for (const auto& [tag, data] : {std::pair{"_hparams_/experiment", experiment},
                                            std::pair{"_hparams_/session_start_info", start}}) {
                tensorflow::Summary summary;
                auto* v = summary.add_value();
                v->set_tag(tag);
                v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("hparams");
                v->mutable_metadata()->mutable_plugin_data()->set_content(data.SerializeAsString());
                if (!(*writer)->addSummary(summary, 0).isOk())
                    return false;
            }
            tensorflow::Summary metric;
            metric.add_value()->set_tag("accuracy");
            metric.mutable_value(0)->set_simple_value(0.5f + 0.1f * static_cast<float>(i));
            if (!(*writer)->addSummary(metric, 10).isOk() || !(*writer)->close().isOk())
                return false;
        }
        return true;
    }

    /// The HParams tab: the sessions of an add_hparams-style log directory (each session's start
    /// info and metric in its run), sortable by a number, filtered by any cell.
    void hparamsTab()
    {
        QTemporaryDir dir;
        QVERIFY(writeHParamsTrials(dir.path()));
        DashboardView view;
        QSignalSpy ready(view.hparams(), &HParamsView::ready);
        view.setLogDirectories({dir.path()});
        QVERIFY(ready.wait(10000));
        view.showTab(QStringLiteral("hparams"));
        QCOMPARE(view.currentTab(), QStringLiteral("hparams"));
        QCOMPARE(view.hparams()->sessionCount(), 3); // the tab's count
        QTableWidget* table = view.hparams()->table();
        QCOMPARE(table->rowCount(), 3);
        QStringList headers;
        for (int c = 0; c < table->columnCount(); ++c)
            headers << table->horizontalHeaderItem(c)->text();
        QCOMPARE(headers, QStringList({"Run", "Status", "lr", "opt", "accuracy"}));
        table->sortByColumn(2, Qt::AscendingOrder); // lr as numbers: 0.0333 < 0.05 < 0.1
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("trial_2"));
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("trial_0"));
        QCOMPARE(table->item(0, 4)->data(Qt::DisplayRole).toDouble(), double(0.7f));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("running"));
        view.hparams()->findChild<QLineEdit*>(QStringLiteral("hparamsFilter"))->setText(QStringLiteral("sgd"));
        int shown = 0, sgdRow = -1;
        for (int r = 0; r < table->rowCount(); ++r)
            if (!table->isRowHidden(r)) {
                ++shown;
                sgdRow = r;
            }
        QCOMPARE(shown, 1);
        QCOMPARE(table->item(sgdRow, 0)->text(), QStringLiteral("trial_1"));
        // Choosing the session charts its runs alone.
        QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs().size(), qsizetype(3), 10000);
        view.hparams()->activateRow(sgdRow);
        QCOMPARE(view.currentTab(), QStringLiteral("scalars"));
        QStringList visible;
        for (const RunStyle& style : view.runsPanel()->styles())
            if (style.visible)
                visible << style.run;
        QCOMPARE(visible, QStringList({"trial_1"}));
    }

    /// The HParams tab's plots: parallel coordinates (an axis per column, a line per session, brushing
    /// by dragging along an axis, a click choosing a session) and the scatter-plot matrix (each metric
    /// against each hparam); a chosen session's runs stand out in the scalar charts.
    void hparamsPlots()
    {
        QTemporaryDir dir;
        QVERIFY(writeHParamsTrials(dir.path()));
        DashboardView view;
        view.resize(1280, 800);
        QSignalSpy ready(view.hparams(), &HParamsView::ready);
        view.setLogDirectories({dir.path()});
        QVERIFY(ready.wait(10000));
        view.show();
        view.showTab(QStringLiteral("hparams"));
        HParamsView* hparams = view.hparams();
        hparams->setPage(HParamsView::Page::ParallelCoordinates);
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const HParamsPlotState& state = hparams->plotState();
        QCOMPARE(state.columns, (std::vector<std::size_t>{0, 1, 2})); // lr, opt, accuracy
        QCOMPARE(state.colourColumn, std::optional<std::size_t>(2)); // the first metric colours
        QCOMPARE(hparams->shownCount(), 3);
        // Each session's line meets the lr axis at its value: linear, 0.0333 at the bottom, 0.1 at the top.
        HParamsParallelView* parallel = hparams->parallelView();
        const HParamsMatrix& m = *state.matrix;
        std::size_t trial1 = 0;
        for (std::size_t r = 0; r < m.rows.size(); ++r)
            if (m.rows[r].run == "trial_1")
                trial1 = r;
        const QPointF onLr(parallel->axisX(0), parallel->axisY(*m.position(trial1, 0)));
        QCOMPARE(*m.position(trial1, 0), (0.05 - 0.1 / 3) / (0.1 - 0.1 / 3));
        QCOMPARE(parallel->rowAt(onLr), std::optional<std::size_t>(trial1));
        // A click on trial_1's line between the axes chooses it; its runs stand out in the charts.
        const QPointF onOpt(parallel->axisX(1), parallel->axisY(*m.position(trial1, 1)));
        QSignalSpy selected(hparams, &HParamsView::sessionSelected);
        QTest::mouseClick(parallel, Qt::LeftButton, {}, ((onLr + onOpt) / 2).toPoint());
        QCOMPARE(state.selected, static_cast<int>(trial1));
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.front().front().toString(), QStringLiteral("trial_1"));
        QCOMPARE(view.scalars()->highlightedRuns(), QStringList({"trial_1"}));
        QCOMPARE(hparams->table()->item(hparams->table()->currentRow(), 0)->text(), QStringLiteral("trial_1"));
        // Dragging along the accuracy axis over its upper half keeps trial_2 (0.7) alone; the table
        // hides the others.
        const int x = qRound(parallel->axisX(2));
        QTest::mousePress(parallel, Qt::LeftButton, {}, QPoint(x, qRound(parallel->axisY(1.0))));
        QTest::mouseMove(parallel, QPoint(x, qRound(parallel->axisY(0.75))));
        QTest::mouseMove(parallel, QPoint(x, qRound(parallel->axisY(0.55))));
        QTest::mouseRelease(parallel, Qt::LeftButton, {}, QPoint(x, qRound(parallel->axisY(0.55))));
        QCOMPARE(parallel->brushes().size(), std::size_t(1));
        QCOMPARE(hparams->shownCount(), 1);
        int visibleRows = 0;
        for (int r = 0; r < hparams->table()->rowCount(); ++r)
            if (!hparams->table()->isRowHidden(r)) {
                ++visibleRows;
                QCOMPARE(hparams->table()->item(r, 0)->text(), QStringLiteral("trial_2"));
            }
        QCOMPARE(visibleRows, 1);
        // A click on the axis clears its brush.
        QTest::mouseClick(parallel, Qt::LeftButton, {}, QPoint(x, qRound(parallel->axisY(0.3))));
        QCOMPARE(parallel->brushes().size(), std::size_t(0));
        QCOMPARE(hparams->shownCount(), 3);
        // Log axes: lr is positive, opt is not numeric.
        QVERIFY(hparams->setLogScale(QStringLiteral("lr"), true));
        QVERIFY(!hparams->setLogScale(QStringLiteral("opt"), true));
        QCOMPARE(hparams->plotState().scale(0), AxisScale::Log);
        // The scatter-plot matrix: accuracy against lr and against opt.
        hparams->setPage(HParamsView::Page::ScatterMatrix);
        HParamsScatterView* scatter = hparams->scatterView();
        using Cell = std::pair<std::size_t, std::size_t>;
        QCOMPARE(scatter->cells(), (std::vector<Cell>{{0, 2}, {1, 2}}));
        const std::optional<QPointF> point = scatter->pointOf(1, trial1);
        QVERIFY(point.has_value());
        QCOMPARE(scatter->rowAt(*point), std::optional<std::size_t>(trial1));
        // Hiding a column takes it out of every view.
        QVERIFY(hparams->setColumnShown(QStringLiteral("opt"), false));
        QCOMPARE(scatter->cells(), (std::vector<Cell>{{0, 2}}));
        QVERIFY(hparams->table()->isColumnHidden(3));
        // Choosing no session clears the highlight.
        hparams->selectSession(-1);
        QCOMPARE(view.scalars()->highlightedRuns(), QStringList());
    }

    /// The PR Curves tab: a pr_curves tensor [6, 3] per step (TP, FP, TN, FN, precision, recall),
    /// the newest step shown, the slider going back, the thresholds and counts in the tooltip text.
    void prCurvesTab()
    {
        QTemporaryDir dir;
        auto writer = events::EventFileWriter::open(dir.path().toStdString());
        QVERIFY(writer);
        for (int step = 0; step < 2; ++step) {
            tensorflow::Summary summary;
            auto* v = summary.add_value();
            v->set_tag("pr/cats");
            v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("pr_curves");
            auto* t = v->mutable_tensor();
            t->set_dtype(tensorflow::DT_FLOAT);
            t->mutable_tensor_shape()->add_dim()->set_size(6);
            t->mutable_tensor_shape()->add_dim()->set_size(3);
            const float tp[] = {10, 8, float(2 + step)}, fp[] = {10, 4, 0}, tn[] = {0, 6, 10},
                        fn[] = {0, 2, float(8 - step)};
            for (const float* row : {tp, fp, tn, fn})
                for (int i = 0; i < 3; ++i)
                    t->add_float_val(row[i]);
            for (int i = 0; i < 3; ++i)
                t->add_float_val(tp[i] + fp[i] > 0 ? tp[i] / (tp[i] + fp[i]) : 1.0f);
            for (int i = 0; i < 3; ++i)
                t->add_float_val(tp[i] / (tp[i] + fn[i]));
            QVERIFY((*writer)->addSummary(summary, step * 10).isOk());
        }
        QVERIFY((*writer)->close().isOk());
        DashboardView view;
        view.setLogDirectories({dir.path()});
        const QString run = QDir(dir.path()).dirName(); // the root's run is named after its folder
        QTRY_VERIFY_WITH_TIMEOUT(view.prCurves()->card("pr/cats", run) != nullptr, 10000);
        PrCurveCard* card = view.prCurves()->card("pr/cats", run);
        QCOMPARE(card->steps(), std::vector<std::int64_t>({0, 10}));
        QCOMPARE(card->shownStep(), std::int64_t(10));
        QVERIFY(card->curve().has_value());
        QCOMPARE(card->curve()->thresholds(), std::size_t(3));
        QCOMPARE(card->curve()->recall[2], double(3.0f / 10.0f));
        QCOMPARE(card->series()->count(), 3);
        QCOMPARE(card->series()->at(1).x(), double(0.8f));
        QCOMPARE(card->series()->at(1).y(), double(8.0f / 12.0f));
        QCOMPARE(card->pointText(1), QString("threshold 0.500\nprecision 0.6667, recall 0.8\nTP 8, FP 4, TN 6, FN 2"));
        card->showStep(0);
        QCOMPARE(card->shownStep(), std::int64_t(0));
        QCOMPARE(card->curve()->recall[2], double(2.0f / 10.0f));
        view.showTab(QStringLiteral("pr_curves"));
        QCOMPARE(view.currentTab(), QStringLiteral("pr_curves"));

        // A tensor of another shape: the step says what was expected.
        tensorflow::Summary bad;
        auto* v = bad.add_value();
        v->set_tag("pr/cats");
        v->mutable_tensor()->set_dtype(tensorflow::DT_FLOAT);
        v->mutable_tensor()->mutable_tensor_shape()->add_dim()->set_size(5);
        auto curve = events::decodePrCurve(v->SerializeAsString(), "pr/cats");
        QVERIFY(!curve);
        QCOMPARE(curve.error().message(), std::string("summary value of tag 'pr/cats': expected a pr_curves tensor "
                                                      "of shape [6, num_thresholds]"));
    }

    void manyDamagedFilesGiveCountedWarnings()
    {
        QTemporaryDir dir;
        for (int i = 0; i < 50; ++i) {
            std::ofstream out(dir.filePath(QStringLiteral("events.out.tfevents.%1.junk").arg(i)).toStdString(),
                              std::ios::binary);
            out << "this is not a TFRecord framed event file at all, number " << i;
        }
        DashboardView view;
        QSignalSpy messages(&view, &DashboardView::message);
        view.setLogDirectories({dir.path()});
        QTRY_VERIFY_WITH_TIMEOUT(view.pollCount() >= 1, 10000);
        QCOMPARE(messages.size(), 21);
        for (int i = 0; i < 20; ++i)
            QVERIFY2(messages.at(i).at(0).toString().contains(QStringLiteral("events.out.tfevents.")),
                     qPrintable(messages.at(i).at(0).toString()));
        QVERIFY2(messages.at(20).at(0).toString().contains(QStringLiteral("and 30 more warning")),
                 qPrintable(messages.at(20).at(0).toString()));
    }

    /// The view follows a log directory while it grows: new runs and new steps appear without a reload.
    void followsGrowingRuns()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        writeRun(root + "/a", 0, 5);
        DashboardView view;
        view.resize(1200, 800);
        view.show();
        view.setInterval(100);
        QSignalSpy updated(&view, &DashboardView::updated);
        view.setLogDirectories({dir.path()});
        QTRY_VERIFY_WITH_TIMEOUT(view.pollCount() >= 1, 10000);
        QCOMPARE(view.runsPanel()->runs(), QStringList{QStringLiteral("a")});
        QCOMPARE(view.scalars()->tags(), QStringList{QStringLiteral("loss")});
        QVERIFY(view.firstDataMilliseconds() >= 0);
        QCOMPARE(view.currentTab(), QStringLiteral("scalars"));

        writeRun(root + "/b", 0, 7);
        writeRun(root + "/a", 5, 5);
        QTRY_VERIFY_WITH_TIMEOUT(view.runsPanel()->runs().size() == 2, 10000);
        ScalarChart* chart = view.scalars()->chart(QStringLiteral("loss"));
        QVERIFY(chart);
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("a")), std::size_t(10), 10000);
        QCOMPARE(sampleCount(chart, QStringLiteral("b")), std::size_t(7));

        // Paused: nothing new is read until resumed.
        view.setFollowing(false);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isPolling(), 10000);
        writeRun(root + "/c", 0, 2);
        QTest::qWait(400);
        QCOMPARE(view.runsPanel()->runs().size(), 2);
        view.setFollowing(true);
        QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs().size(), 3, 10000);
        // (a poll may have met c's file half written: its samples can come one poll later)
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("c")), std::size_t(2), 10000);

        // Hiding a run and changing a colour reach the charts.
        view.runsPanel()->setRunChecked(QStringLiteral("b"), false);
        QVERIFY(!isRunShown(chart, QStringLiteral("b")));
        QVERIFY(isRunShown(chart, QStringLiteral("a")));
        view.runsPanel()->setRunColour(QStringLiteral("a"), QColor(Qt::green));
        QCOMPARE(view.runsPanel()->styles().front().colour, QColor(Qt::green));
        view.runsPanel()->setFilter(QStringLiteral("^c$"));
        QVERIFY(!isRunShown(chart, QStringLiteral("a")));
        QVERIFY(isRunShown(chart, QStringLiteral("c")));
        view.runsPanel()->setFilter(QStringLiteral("(["));
        QVERIFY(!view.runsPanel()->filterValid());
        QVERIFY(isRunShown(chart, QStringLiteral("a"))); // an invalid filter hides nothing
    }

    /// "Export Scalars…" writes every tag of every visible run in one file: CSV rows with the run and
    /// tag (a run named with a comma quoted as Python's csv module quotes it), or JSON by run then tag;
    /// hidden runs are left out; nothing visible or an unwritable path is an error, not an empty file.
    void exportVisibleScalars()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        writeRun(root + "/a", 0, 3);
        writeRun(root + "/b,x", 0, 2);
        DashboardView view;
        view.resize(1200, 800);
        view.show();
        view.setLogDirectories({dir.path()});
        QTRY_VERIFY_WITH_TIMEOUT(view.runsPanel()->runs().size() == 2 && !view.isPolling(), 10000);
        ScalarChart* chart = view.scalars()->chart(QStringLiteral("loss"));
        QVERIFY(chart);
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("b,x")), std::size_t(2), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("a")), std::size_t(3), 10000);

        auto readAll = [](const QString& path) {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        const QString csvPath = dir.filePath(QStringLiteral("all.csv"));
        QString error;
        QVERIFY2(view.exportVisibleScalars(csvPath, &error), qPrintable(error));
        const QStringList rows = readAll(csvPath).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 6);
        QCOMPARE(rows[0], QStringLiteral("run,tag,wall_time,step,value"));
        QVERIFY2(rows[1].startsWith(QStringLiteral("a,loss,")) && rows[1].endsWith(QStringLiteral(",0,1.0")),
                 qPrintable(rows[1]));
        QVERIFY2(rows[3].endsWith(QStringLiteral(",2,0.3333333432674408")), qPrintable(rows[3]));
        QVERIFY2(rows[5].startsWith(QStringLiteral("\"b,x\",loss,")) && rows[5].endsWith(QStringLiteral(",1,0.5")),
                 qPrintable(rows[5]));

        view.runsPanel()->setRunChecked(QStringLiteral("a"), false);
        const QString jsonPath = dir.filePath(QStringLiteral("all.json"));
        QVERIFY2(view.exportVisibleScalars(jsonPath, &error), qPrintable(error));
        const QString json = readAll(jsonPath);
        QVERIFY2(json.startsWith(QStringLiteral("{\"b,x\": {\"loss\": [[")) &&
                     json.endsWith(QStringLiteral(", 1, 0.5]]}}")),
                 qPrintable(json));
        QVERIFY(!json.contains(QStringLiteral("\"a\"")));

        view.runsPanel()->setRunChecked(QStringLiteral("b,x"), false);
        const QString nothing = dir.filePath(QStringLiteral("none.csv"));
        QVERIFY(!view.exportVisibleScalars(nothing, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(nothing));
        view.runsPanel()->setRunChecked(QStringLiteral("a"), true);
        QVERIFY(!view.exportVisibleScalars(dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
        QVERIFY(!error.isEmpty());
    }

    /// The Custom Scalars tab: a layout written (from the plugin's proto, as summary_lib does) into one
    /// run draws a multi-line chart of every run's tags that its patterns match and a margin chart of
    /// each run's value with its bounds (paired by step); the tab counts the layout's charts.
    void customScalarsTab()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        tensorboard::Layout layout;
        tensorboard::Category* category = layout.add_category();
        category->set_title("compare");
        tensorboard::Chart* lines = category->add_chart();
        lines->set_title("all losses");
        lines->mutable_multiline()->add_tag("loss.*");
        tensorboard::Chart* margin = category->add_chart();
        auto* series = margin->mutable_margin()->add_series();
        series->set_value("acc");
        series->set_lower("acc/lower");
        series->set_upper("acc/upper");
        layout.add_category()->set_title("folded away");
        layout.mutable_category(1)->set_closed(true);
        for (const std::string run : {"a", "b"}) {
            auto writer = events::EventFileWriter::open(root + "/" + run);
            QVERIFY(writer);
            if (run == "a") {
                tensorflow::Summary summary;
                auto* v = summary.add_value();
                v->set_tag("custom_scalars__config__");
                v->mutable_metadata()->mutable_plugin_data()->set_plugin_name("custom_scalars");
                v->mutable_tensor()->set_dtype(tensorflow::DT_STRING);
                v->mutable_tensor()->add_string_val(layout.SerializeAsString());
                QVERIFY((*writer)->addSummary(summary, 0).isOk());
            }
            for (int step = 0; step < 4; ++step) {
                QVERIFY((*writer)->addSummary(scalarSummary("loss", 1.0f / float(step + 1)), step).isOk());
                QVERIFY((*writer)->addSummary(scalarSummary("loss_aux", 2.0f), step).isOk());
                QVERIFY((*writer)->addSummary(scalarSummary("acc", 0.5f + 0.1f * float(step)), step).isOk());
                QVERIFY((*writer)->addSummary(scalarSummary("acc/lower", 0.4f), step).isOk());
                if (step != 2) // a step without an upper bound: none drawn there
                    QVERIFY((*writer)->addSummary(scalarSummary("acc/upper", 0.9f), step).isOk());
            }
            QVERIFY((*writer)->close().isOk());
        }
        DashboardView view;
        view.resize(1200, 800);
        view.show();
        view.setLogDirectories({dir.path()});
        CustomScalarsView* custom = view.customScalars();
        QTRY_COMPARE_WITH_TIMEOUT(custom->categories(), (QStringList{"compare", "folded away"}), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(view.runsPanel()->runs().size() == 2 && !view.isPolling(), 10000);
        view.showTab(QStringLiteral("custom_scalars"));
        QCOMPARE(view.currentTab(), QStringLiteral("custom_scalars"));
        QVERIFY(custom->isCategoryExpanded(0));
        QVERIFY(!custom->isCategoryExpanded(1));
        custom->refresh();
        ScalarChart* all = custom->chart(0, 0);
        QVERIFY(all);
        QCOMPARE(all->tag(), QStringLiteral("all losses"));
        QStringList keys = all->seriesRuns();
        keys.sort();
        QCOMPARE(keys, (QStringList{"loss (a)", "loss (b)", "loss_aux (a)", "loss_aux (b)"}));
        QCOMPARE(all->samples(QStringLiteral("loss (b)"))->size(), std::size_t(4));

        ScalarChart* bounds = custom->chart(0, 1);
        QVERIFY(bounds);
        QCOMPARE(bounds->tag(), QStringLiteral("acc"));
        keys = bounds->seriesRuns();
        keys.sort();
        QCOMPARE(keys, (QStringList{"acc (a)", "acc (b)"}));
        bounds->refresh();
        const QList<QPointF> upper = bounds->envelopeUpper(QStringLiteral("acc (a)"));
        const QList<QPointF> lower = bounds->envelopeLower(QStringLiteral("acc (a)"));
        // Steps 0, 1 and 3 have both bounds: two stretches (0-1, 3), the gap at step 2.
        QCOMPARE(upper.size(), 3);
        QCOMPARE(upper[0], QPointF(0, double(0.9f)));
        QCOMPARE(upper[2], QPointF(3, double(0.9f)));
        QCOMPARE(lower[1], QPointF(1, double(0.4f)));
        QVERIFY(custom->problems().isEmpty());

        // A hidden run leaves the charts.
        view.runsPanel()->setRunChecked(QStringLiteral("b"), false);
        custom->refresh();
        keys = all->seriesRuns();
        keys.sort();
        QCOMPARE(keys, (QStringList{"loss (a)", "loss_aux (a)"}));
        view.runsPanel()->setRunChecked(QStringLiteral("b"), true);

        // A chart made here: shown at once, unsaved; saved into the log directory, it comes back as
        // a run's layout (merged: the charts already there are not doubled).
        events::CustomChart made;
        made.title = "accuracy bounds";
        made.tagPatterns = {"acc/"};
        QVERIFY(!custom->addChart(QStringLiteral("compare"), events::CustomChart{}).isOk()); // no pattern
        events::CustomChart badPattern;
        badPattern.tagPatterns = {"acc("};
        QVERIFY(!custom->addChart(QStringLiteral("compare"), badPattern).isOk());
        QVERIFY(custom->addChart(QStringLiteral("compare"), made).isOk());
        QCOMPARE(custom->unsavedCharts(), 1);
        QCOMPARE(custom->layout().categories[0].charts.size(), std::size_t(3));
        ScalarChart* mine = custom->chart(0, 2);
        QVERIFY(mine);
        keys = mine->seriesRuns();
        keys.sort();
        QCOMPARE(keys, (QStringList{"acc/lower (a)", "acc/lower (b)", "acc/upper (a)", "acc/upper (b)"}));
        QVERIFY2(custom->saveLayout().isOk(), "saving the layout");
        QCOMPARE(custom->unsavedCharts(), 0);
        view.reloadNow();
        const QString rootRun = QDir(dir.path()).dirName();
        QTRY_VERIFY_WITH_TIMEOUT(view.runsPanel()->runs().contains(rootRun), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(custom->layout().categories.size(), std::size_t(2), 10000);
        QCOMPARE(custom->layout().categories[0].charts.size(), std::size_t(3));
        QCOMPARE(custom->layout().categories[0].charts[2].title, std::string("accuracy bounds"));
    }

    /// The Projector tab on an embedding the test writes (a run's projector_config.pbtxt, a TSV of
    /// two clusters along x, metadata with a header): listed, read on a worker, projected (the first
    /// component is the clusters' axis), coloured by a column, searched, a point's neighbours.
    void projectorTab()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        writeRun(root + "/train", 0, 2);
        auto writeText = [](const std::string& path, const std::string& text) {
            std::ofstream(path, std::ios::binary) << text;
        };
        std::string tsv, meta = "word\tgroup\n";
        for (int i = 0; i < 6; ++i) {
            const double x = i < 3 ? -10.0 - i : 10.0 + i;
            tsv += std::to_string(x) + "\t" + std::to_string(0.1 * i) + "\t0\n";
            meta += std::string(i < 3 ? "left" : "right") + std::to_string(i) + "\t" + (i < 3 ? "L" : "R") + "\n";
        }
        writeText(root + "/train/points.tsv", tsv);
        writeText(root + "/train/meta.tsv", meta);
        writeText(root + "/train/projector_config.pbtxt",
                  "embeddings { tensor_name: \"points\" tensor_path: \"points.tsv\" metadata_path: \"meta.tsv\" }\n");
        DashboardView view;
        view.resize(1200, 800);
        view.show();
        view.setLogDirectories({dir.path()});
        ProjectorView* projector = view.projector();
        QCOMPARE(projector->embeddings(), QStringList{"train: points"});
        view.showTab(QStringLiteral("projector"));
        QTRY_VERIFY_WITH_TIMEOUT(projector->projection() != nullptr && !projector->isLoading(), 10000);
        QVERIFY2(projector->error().isEmpty(), qPrintable(projector->error()));
        QCOMPARE(projector->values()->rows, std::size_t(6));
        QCOMPARE(projector->metadata()->columns, (std::vector<std::string>{"word", "group"}));
        const auto* p = projector->projection();
        QVERIFY(p->varianceExplained[0] > 0.99);
        // The clusters fall on either side of zero along the first component.
        const auto stride = static_cast<std::size_t>(p->components);
        QCOMPARE(stride, std::size_t(3)); // three components, for 3-D
        for (std::size_t i = 1; i < 3; ++i)
            QVERIFY((p->coordinates[i * stride] > 0) == (p->coordinates[0] > 0));
        for (std::size_t i = 3; i < 6; ++i)
            QVERIFY((p->coordinates[i * stride] > 0) != (p->coordinates[0] > 0));
        QVERIFY2(projector->statusText().contains(QStringLiteral("the 2 components shown")),
                 qPrintable(projector->statusText()));

        // PCA in 3-D: the canvas turns the three components about their centroid.
        ProjectorCanvas* canvas = projector->canvas();
        projector->setThreeD(true);
        QVERIFY(canvas->is3D());
        QVERIFY2(projector->statusText().contains(QStringLiteral("the 3 components shown")),
                 qPrintable(projector->statusText()));
        // Facing the first two components, the pixels are them, scaled alike, y upward.
        canvas->setRotation(0, 0);
        const auto c = [&](std::size_t i, std::size_t k) { return double(p->coordinates[i * stride + k]); };
        const double scale = (canvas->toPixel(5).x() - canvas->toPixel(0).x()) / (c(5, 0) - c(0, 0));
        QVERIFY(scale > 0);
        for (std::size_t i = 1; i < 6; ++i) {
            QVERIFY(std::abs(canvas->toPixel(i).x() - canvas->toPixel(0).x() - scale * (c(i, 0) - c(0, 0))) < 1e-6);
            QVERIFY(std::abs(canvas->toPixel(i).y() - canvas->toPixel(0).y() + scale * (c(i, 1) - c(0, 1))) < 1e-6);
        }
        // A quarter turn about the vertical axis shows the third component across: the points lie in
        // a plane (their third coordinates are all zero), so they fall on one vertical line.
        canvas->setRotation(M_PI / 2, 0);
        for (std::size_t i = 1; i < 6; ++i)
            QVERIFY(std::abs(canvas->toPixel(i).x() - canvas->toPixel(0).x()) < 1e-3);
        // Dragging turns it; Shift+dragging pans instead.
        canvas->setRotation(0.2, 0.1);
        QTest::mousePress(canvas, Qt::LeftButton, {}, QPoint(100, 100));
        QTest::mouseMove(canvas, QPoint(150, 120));
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, QPoint(150, 120));
        QVERIFY(std::abs(canvas->yaw() - 0.7) < 1e-9);
        QVERIFY(std::abs(canvas->pitch() - 0.3) < 1e-9);
        projector->setThreeD(false);
        QVERIFY(!canvas->is3D());
        projector->setLabelBy(QStringLiteral("word"));
        projector->setSearch(QStringLiteral("^right"));
        QCOMPARE(projector->matchCount(), 3);
        projector->setSearch(QStringLiteral("left[01]"));
        QCOMPARE(projector->matchCount(), 2);
        projector->selectPoint(4);
        const auto neighbours = projector->neighbours();
        QCOMPARE(neighbours.size(), std::size_t(5)); // every other point, nearest first
        QVERIFY(neighbours[0].index == 3 || neighbours[0].index == 5);
        QVERIFY(neighbours.back().index < 3); // the other cluster points the other way
        // A click on a drawn point selects it.
        const QPoint at = projector->canvas()->toPixel(1).toPoint();
        QCOMPARE(projector->canvas()->pointAt(at), std::optional<std::size_t>(1));

        // t-SNE on a worker: 1,000 iterations drawn as they go; the clusters stay apart.
        projector->setPerplexity(1);
        projector->setMethod(ProjectorView::Method::Tsne);
        QVERIFY(projector->isTsneRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!projector->isTsneRunning(), 30000);
        QVERIFY2(projector->tsneIterations() == 1000, qPrintable(projector->statusText()));
        double inside = 0, between = INFINITY;
        for (std::size_t i = 0; i < 6; ++i)
            for (std::size_t j = i + 1; j < 6; ++j) {
                const QPointF d = projector->canvas()->toPixel(i) - projector->canvas()->toPixel(j);
                const double distance = std::hypot(d.x(), d.y());
                if ((i < 3) == (j < 3))
                    inside = std::max(inside, distance);
                else
                    between = std::min(between, distance);
            }
        QVERIFY2(inside < between, qPrintable(QStringLiteral("inside %1, between %2").arg(inside).arg(between)));
        // "3-D" runs t-SNE again in three dimensions, drawn on the turning canvas.
        QVERIFY(!canvas->is3D());
        projector->setThreeD(true);
        QVERIFY(projector->isTsneRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!projector->isTsneRunning(), 30000);
        QVERIFY2(projector->tsneIterations() == 1000, qPrintable(projector->statusText()));
        QVERIFY(canvas->is3D());
        projector->setThreeD(false);
        QTRY_VERIFY_WITH_TIMEOUT(!projector->isTsneRunning(), 30000);
        QVERIFY(!canvas->is3D());
        // Too high a perplexity for 6 points: said, nothing runs.
        projector->setPerplexity(30);
        QTRY_VERIFY_WITH_TIMEOUT(!projector->isTsneRunning(), 10000);
        QCOMPARE(projector->statusText(),
                 QStringLiteral("t-SNE perplexity 30 needs more than 90 points (there are 6)"));
        projector->setMethod(ProjectorView::Method::Pca);
        QCOMPARE(projector->tsneIterations(), 0);
    }

    /// "Delete Run Folder…" without its dialogs: the folder goes, the poll finds its files gone and
    /// the run leaves the Runs panel, the charts and the histograms; the other run stays. A run whose
    /// folder someone else deletes leaves the same way.
    void deletedRunLeavesTheDashboard()
    {
        QTemporaryDir dir;
        const std::string root = dir.path().toStdString();
        writeRun(root + "/keep", 0, 3);
        writeRun(root + "/drop", 0, 4);
        writeRun(root + "/gone", 0, 2);
        DashboardView view;
        view.resize(1200, 800);
        view.show();
        view.setLogDirectories({dir.path()});
        QTRY_VERIFY_WITH_TIMEOUT(view.runsPanel()->runs().size() == 3 && !view.isPolling(), 10000);
        ScalarChart* chart = view.scalars()->chart(QStringLiteral("loss"));
        QVERIFY(chart);
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("drop")), std::size_t(4), 10000);

        QString error;
        QVERIFY(!view.deleteRunFolder(QStringLiteral("no-such-run"), false, &error));
        QVERIFY(error.contains(QStringLiteral("no-such-run")));
        QVERIFY2(view.deleteRunFolder(QStringLiteral("drop"), false, &error), qPrintable(error));
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("drop"))));
        QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs(), (QStringList{"gone", "keep"}), 10000);
        QCOMPARE(sampleCount(chart, QStringLiteral("drop")), std::size_t(0));
        QCOMPARE(sampleCount(chart, QStringLiteral("keep")), std::size_t(3));
        QVERIFY(!chart->seriesRuns().contains(QStringLiteral("drop")));

        // Deleted behind the dashboard's back: the next poll drops it too.
        QVERIFY(QDir(dir.filePath(QStringLiteral("gone"))).removeRecursively());
        view.reloadNow();
        QTRY_COMPARE_WITH_TIMEOUT(view.runsPanel()->runs(), (QStringList{"keep"}), 10000);
        QVERIFY(!chart->seriesRuns().contains(QStringLiteral("gone")));

        // Written again under the same name: a new run, shown from its first sample.
        writeRun(root + "/drop", 10, 2);
        view.reloadNow();
        QTRY_COMPARE_WITH_TIMEOUT(sampleCount(chart, QStringLiteral("drop")), std::size_t(2), 10000);
    }

    /// The Keras fixture: loss and accuracy of train and validation overlaid, weight histograms,
    /// images, and its graph listed.
    void kerasFixture()
    {
        const QString fixtures = testing::fixturesDir();
        if (fixtures.isEmpty())
            QSKIP("fixtures not found (../shared/fixtures or $TSTUDIO_FIXTURES)");
        DashboardView view;
        view.resize(1400, 900);
        view.setLogDirectories({fixtures + "/tfevents-keras/MNIST-extra-metrics1690486849"});
        QTRY_VERIFY_WITH_TIMEOUT(view.pollCount() >= 1 && !view.isPolling(), 20000);
        QVERIFY2(view.lastError().isEmpty(), qPrintable(view.lastError()));
        QCOMPARE(view.runsPanel()->runs(), (QStringList{QStringLiteral("train"), QStringLiteral("validation")}));
        const QStringList tags = view.scalars()->tags();
        QVERIFY2(tags.contains(QStringLiteral("epoch_loss")) && tags.contains(QStringLiteral("epoch_accuracy")),
                 qPrintable(tags.join(", ")));
        ScalarChart* loss = view.scalars()->chart(QStringLiteral("epoch_loss"));
        QVERIFY(loss);
        QVERIFY(sampleCount(loss, QStringLiteral("train")) > 1);
        QCOMPARE(sampleCount(loss, QStringLiteral("train")), sampleCount(loss, QStringLiteral("validation")));
        QVERIFY(view.histograms()->card(QStringLiteral("dense/kernel_0/histogram")));
        QCOMPARE(view.graphsList()->topLevelItemCount(), 1);
        QCOMPARE(view.graphsList()->topLevelItem(0)->text(0), QStringLiteral("train"));
        QSignalSpy open(&view, &DashboardView::openGraphRequested);
        emit view.graphsList()->itemActivated(view.graphsList()->topLevelItem(0), 0);
        QCOMPARE(open.size(), 1);
        QCOMPARE(open.front().at(0).toString(), QStringLiteral("train"));
        auto graph = view.runGraph(QStringLiteral("train"));
        QVERIFY2(graph, graph ? "" : graph.error().message().c_str());
        QVERIFY(graph->has_value() && (*graph)->graph->node_size() > 0);
        // Tab titles count their tags.
        view.showTab(QStringLiteral("images"));
        QCOMPARE(view.currentTab(), QStringLiteral("images"));
    }
};

QTEST_MAIN(TestDashboardView)
#include "test_dashboard_view.moc"
