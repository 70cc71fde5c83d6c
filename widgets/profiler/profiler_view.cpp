// ProfilerView: timeline and tables over one trace; reading on a worker thread.
#include "profiler/profiler_view.h"

#include "profiler/tfprof_profile_proto.h"

#include "common/background_run.h"
#include "io/events/event_graphs.h"
#include "profiler/profile_tables_view.h"
#include "profiler/timeline_view.h"
#include "profiler/trace_files.h"
#include "common/empty_state.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <filesystem>

namespace tstudio::profiler {

struct ProfilerView::Loaded {
    Expected<ProfileTrace> trace = unexpected(internalError("not read"));
    std::shared_ptr<const tensorflow::GraphDef> graph;
    double milliseconds = 0;
};

namespace {

/// The graph recorded beside the run metadata of an event file or log directory (the latest one, as
/// TensorBoard shows), for parameter counts and node attributes; null when there is none.
/// The graph that belongs with a trace file: an event file's last graph, or the graph a tfprof
/// ProfileProto describes.
std::shared_ptr<const tensorflow::GraphDef> traceGraph(const std::filesystem::path& path,
                                                       const std::atomic<bool>* cancel)
{
    std::error_code ec;
    const bool events = std::filesystem::is_directory(path, ec) || path.filename().string().find("tfevents") != std::string::npos;
    if (!events) {
        auto described = readProfileProtoGraph(path);
        return described ? std::make_shared<const tensorflow::GraphDef>(std::move(*described)) : nullptr;
    }
    auto graphs = events::readEventGraphs(path, cancel);
    if (!graphs || graphs->graphs.empty())
        return nullptr;
    auto graph = events::parseEventGraph(graphs->graphs.back());
    return graph ? std::make_shared<const tensorflow::GraphDef>(std::move(*graph)) : nullptr;
}

} // namespace

ProfilerView::ProfilerView(const OpRegistry* ops, QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("profilerSummary"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_export = new QPushButton(this);
    m_export->setObjectName(QStringLiteral("profilerExport"));
    m_export->setEnabled(false);
    connect(m_export, &QPushButton::clicked, this, &ProfilerView::exportInteractively);

    m_timeline = new timeline::TimelineView(ops, this);
    m_tables = new tables::ProfileTablesView(this);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_timeline);
    m_splitter->addWidget(m_tables);
    // Half and half: a step's lanes are few, the tables long.
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    m_empty = EmptyState::cover(m_splitter, QStringLiteral("profiler"));

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_splitter, 1);

    connect(m_timeline, &timeline::TimelineView::nodeActivated, this, &ProfilerView::nodeActivated);
    connect(m_timeline, &timeline::TimelineView::stepChanged, m_tables, &tables::ProfileTablesView::setStep);
    connect(m_tables, &tables::ProfileTablesView::nodeActivated, this, [this](const QString& name) {
        m_timeline->showNode(name);
        emit nodeActivated(name);
    });
    retranslateUi();
}

ProfilerView::~ProfilerView()
{
    if (m_cancel)
        *m_cancel = true;
    if (m_watcher)
        m_watcher->waitForFinished();
}

void ProfilerView::openFile(const QString& path)
{
    if (m_cancel)
        *m_cancel = true;
    m_path = path;
    m_title = QFileInfo(path).fileName();
    m_error.clear();
    m_loading = true;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    retranslateUi();
    emit titleChanged(m_title);
    auto* watcher = new QFutureWatcher<std::shared_ptr<Loaded>>(this);
    m_watcher = watcher;
    connect(watcher, &QFutureWatcher<std::shared_ptr<Loaded>>::finished, this, [this, watcher] {
        watcher->deleteLater();
        if (watcher != m_watcher)
            return; // a newer openFile replaced this one
        m_watcher = nullptr;
        m_loading = false;
        const std::shared_ptr<Loaded> result = watcher->result();
        if (!result->trace) {
            m_error = QString::fromStdString(result->trace.error().message());
            retranslateUi();
            emit loaded(false);
            return;
        }
        m_loadMs = result->milliseconds;
        m_trace = std::make_shared<const ProfileTrace>(std::move(*result->trace));
        m_graph = result->graph;
        showLoaded();
        emit loaded(true);
    });
    const std::filesystem::path file = path.toStdString();
    std::shared_ptr<std::atomic<bool>> cancel = m_cancel;
    watcher->setFuture(runInBackground([file, cancel] {
        auto loaded = std::make_shared<Loaded>();
        QElapsedTimer timer;
        timer.start();
        loaded->trace = readTraceFile(file, cancel.get());
        loaded->milliseconds = static_cast<double>(timer.nsecsElapsed()) / 1e6;
        if (loaded->trace)
            loaded->graph = traceGraph(file, cancel.get());
        return loaded;
    }));
}

void ProfilerView::setTrace(std::shared_ptr<const ProfileTrace> trace, std::shared_ptr<const tensorflow::GraphDef> graph,
                            const QString& title)
{
    if (m_cancel)
        *m_cancel = true;
    m_watcher = nullptr;
    m_loading = false;
    m_error.clear();
    m_path.clear();
    m_loadMs = 0;
    m_trace = std::move(trace);
    m_graph = std::move(graph);
    m_title = title;
    emit titleChanged(m_title);
    showLoaded();
}

void ProfilerView::showLoaded()
{
    m_timeline->setTrace(m_trace);
    m_tables->setTrace(m_trace, m_graph);
    m_export->setEnabled(m_trace != nullptr);
    retranslateUi();
}

bool ProfilerView::showNode(const QString& nodeName)
{
    return m_timeline->showNode(nodeName);
}

bool ProfilerView::exportChromeTrace(const QString& path, QString* error)
{
    if (!m_trace) {
        if (error)
            *error = tr("There is no trace to export.");
        return false;
    }
    ChromeTraceOptions options;
    if (Status s = writeChromeTraceFile(*m_trace, path.toStdString(), options); !s.isOk()) {
        if (error)
            *error = QString::fromStdString(s.message());
        return false;
    }
    return true;
}

void ProfilerView::exportInteractively()
{
    const QString suggested = QDir::home().filePath(QFileInfo(m_title).completeBaseName() + QStringLiteral(".trace.json"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Chrome Trace"), suggested,
                                                      tr("Chrome trace (*.json)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportChromeTrace(path, &error))
        QMessageBox::warning(this, tr("Export Chrome Trace"), tr("Could not export the trace: %1").arg(error));
}

void ProfilerView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ProfilerView::updateSummary()
{
    m_empty->setVisible(!m_trace && !m_loading && m_error.isEmpty());
    m_empty->setTitle(tr("No trace"));
    m_empty->setText(tr("Open a trace with File ▸ Open Profile Trace… (a Chrome trace, a RunMetadata .pb or an event "
                        "file), or press Profile in the Training panel while a project trains: the traced step opens "
                        "here as a timeline and op tables."));
    if (m_loading) {
        m_summary->setText(tr("Reading %1…").arg(m_title));
        return;
    }
    if (!m_error.isEmpty()) {
        m_summary->setText(tr("Could not read %1: %2").arg(m_title, m_error));
        return;
    }
    if (!m_trace) {
        m_summary->setText(tr("No trace"));
        return;
    }
    const QLocale locale;
    QString text = tr("%1: %n step(s)", nullptr, static_cast<int>(m_trace->steps.size())).arg(m_title);
    text += QStringLiteral(", ") +
            tr("%1 op executions on %n device(s)", nullptr, static_cast<int>(m_trace->devices.size()))
                .arg(locale.toString(static_cast<qlonglong>(m_trace->events.size())));
    if (m_loadMs > 0)
        text += QStringLiteral(", ") + tr("read in %1 ms").arg(locale.toString(m_loadMs, 'f', 0));
    if (!m_graph)
        text += QStringLiteral(" · ") + tr("no graph: parameters are not counted");
    m_summary->setText(text);
}

void ProfilerView::retranslateUi()
{
    m_export->setText(tr("Export Chrome Trace…"));
    m_export->setToolTip(tr("Save the trace as Chrome trace JSON in TensorFlow's timeline layout (opens in Perfetto "
                            "and chrome://tracing)"));
    updateSummary();
}

} // namespace tstudio::profiler
