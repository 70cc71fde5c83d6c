// RecordViewer: layout, the indexing worker and its progress, jumps, selection to detail.
#include "records/record_viewer.h"

#include "common/background_run.h"
#include "records/feature_statistics_tree.h"
#include "records/record_detail_tree.h"
#include "records/record_table_model.h"
#include "common/empty_state.h"

#include <QElapsedTimer>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace tstudio::records {
namespace {

/// Records found per scan call; progress is posted at most every kProgressMs.
constexpr quint64 kScanChunk = 4096;
constexpr qint64 kProgressMs = 100;

QString compressionText(data::Compression c)
{
    switch (c) {
    case data::Compression::kGzip: return QStringLiteral("GZIP");
    case data::Compression::kZlib: return QStringLiteral("ZLIB");
    case data::Compression::kNone: break;
    }
    return {};
}

} // namespace

RecordViewer::RecordViewer(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_status(new QLabel(this)), m_banner(new QLabel(this)),
      m_progress(new QProgressBar(this)), m_goLabel(new QLabel(this)), m_recordBox(new QSpinBox(this)),
      m_goButton(new QPushButton(this)), m_table(new QTableView(this)), m_tabs(new QTabWidget(this)),
      m_detail(new RecordDetailTree(this)), m_statistics(new FeatureStatisticsTree(this)),
      m_statisticsNote(new QLabel(this))
{
    setObjectName(QStringLiteral("recordViewer"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.25);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setObjectName(QStringLiteral("recordViewerBanner"));
    m_banner->setStyleSheet(QStringLiteral("QLabel#recordViewerBanner { background: palette(base); color: #b3261e; "
                                           "border: 1px solid #b3261e; border-radius: 4px; padding: 6px; }"));
    m_banner->hide();
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_recordBox->setRange(0, std::numeric_limits<int>::max());
    m_recordBox->setGroupSeparatorShown(true);
    m_recordBox->setKeyboardTracking(false);
    m_recordBox->setMinimumWidth(110);
    m_goLabel->setBuddy(m_recordBox);

    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setHighlightSections(false);

    auto* statisticsPage = new QWidget(this);
    auto* statisticsLayout = new QVBoxLayout(statisticsPage);
    statisticsLayout->setContentsMargins(0, 6, 0, 0);
    m_statisticsNote->setWordWrap(true);
    statisticsLayout->addWidget(m_statisticsNote);
    statisticsLayout->addWidget(m_statistics, 1);
    m_tabs->addTab(m_detail, QString());
    m_tabs->addTab(statisticsPage, QString());

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    m_empty = EmptyState::cover(splitter, QStringLiteral("records"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_title);
    bar->addSpacing(12);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_progress);
    bar->addSpacing(12);
    bar->addWidget(m_goLabel);
    bar->addWidget(m_recordBox);
    bar->addWidget(m_goButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->setSpacing(8);
    layout->addLayout(bar);
    layout->addWidget(m_banner);
    layout->addWidget(splitter, 1);

    connect(m_goButton, &QPushButton::clicked, this, [this] { goToRecord(quint64(m_recordBox->value())); });
    connect(m_recordBox, &QSpinBox::editingFinished, this, [this] {
        if (m_recordBox->hasFocus())
            goToRecord(quint64(m_recordBox->value()));
    });
    retranslate();
}

RecordViewer::~RecordViewer()
{
    stopWorker();
}

void RecordViewer::stopWorker()
{
    if (m_cancelled)
        m_cancelled->store(true);
    m_worker.waitForFinished();
}

void RecordViewer::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RecordViewer::retranslate()
{
    m_goLabel->setText(tr("&Go to record:"));
    m_goButton->setText(tr("Go"));
    m_recordBox->setToolTip(tr("Record number, from 0. The file is not read up to it: only the record headers "
                               "before it are."));
    m_tabs->setTabText(0, tr("Features"));
    m_tabs->setTabText(1, tr("Statistics"));
    updateStatus();
}

bool RecordViewer::open(const QString& path, data::Compression compression)
{
    stopWorker();
    m_path = QFileInfo(path).absoluteFilePath();
    auto index = data::TfRecordIndex::open(m_path.toStdString(), compression);
    if (!index) {
        m_errorText = QString::fromStdString(index.error().message());
        m_title->setText(QFileInfo(path).fileName());
        m_banner->setText(m_errorText);
        m_banner->show();
        updateStatus();
        return false;
    }
    m_index = std::shared_ptr<data::TfRecordIndex>(std::move(*index));
    m_title->setText(QFileInfo(path).fileName());
    m_title->setToolTip(m_path);
    m_errorText.clear();
    m_banner->hide();
    m_detail->clearRecord();
    auto* old = m_model;
    m_model = new RecordTableModel(m_index, this);
    m_table->setModel(m_model);
    delete old;
    m_table->horizontalHeader()->setSectionResizeMode(RecordTableModel::kRecordColumn, QHeaderView::ResizeToContents);
    // Rows arrive lazily, so measuring them would size the offsets of the first rows only: give the
    // column room for a 13-digit offset (files up to a terabyte).
    m_table->horizontalHeader()->setSectionResizeMode(RecordTableModel::kOffsetColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(
        RecordTableModel::kOffsetColumn,
        m_table->fontMetrics().horizontalAdvance(QLocale().toString(qulonglong(9999999999999))) + 16);
    // Sizes are computed per row on demand: give the column room for the widest form ("1,023.9 MB")
    // rather than measuring rows.
    m_table->horizontalHeader()->setSectionResizeMode(RecordTableModel::kSizeColumn, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(
        RecordTableModel::kSizeColumn,
        std::max(m_table->fontMetrics().horizontalAdvance(formatByteSize((quint64(1) << 30) - (quint64(1) << 20) / 10)),
                 m_table->fontMetrics().horizontalAdvance(QStringLiteral("1,000 bytes"))) + 16);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid())
                    showRow(current.row());
            });
    startWorker();
    return true;
}

void RecordViewer::startWorker()
{
    m_cancelled = std::make_shared<std::atomic<bool>>(false);
    m_indexing = true;
    m_statisticsReady = false;
    m_progress->setValue(0);
    m_progress->show();
    updateStatus();
    m_worker = runInBackground([this, index = m_index, cancelled = m_cancelled] {
        QElapsedTimer since;
        since.start();
        bool sampled = false;
        auto post = [&] {
            const quint64 records = index->recordCount();
            const quint64 offset = index->scannedOffset();
            const bool finished = index->finished();
            QMetaObject::invokeMethod(this, [this, records, offset, finished] { onProgress(records, offset, finished); },
                                      Qt::QueuedConnection);
            since.restart();
        };
        while (!cancelled->load()) {
            static_cast<void>(index->scan(kScanChunk, cancelled.get())); // damage is read from error()
            const bool finished = index->finished();
            if (finished || since.elapsed() >= kProgressMs || !sampled)
                post();
            if (!sampled && (finished || index->recordCount() >= kStatisticsSample)) {
                sampled = true;
                data::ExampleStatistics statistics;
                const quint64 n = std::min<quint64>(index->recordCount(), kStatisticsSample);
                for (quint64 i = 0; i < n && !cancelled->load(); ++i)
                    if (auto record = index->readRecord(i))
                        statistics.add(*record);
                QMetaObject::invokeMethod(this, [this, statistics] { onStatistics(statistics); }, Qt::QueuedConnection);
            }
            if (finished)
                break;
        }
    });
}

void RecordViewer::onProgress(quint64 records, quint64 offset, bool finished)
{
    m_scannedOffset = offset;
    m_model->setKnownRecords(records);
    if (finished) {
        m_indexing = false;
        m_progress->hide();
        const Status error = m_index->error();
        if (!error.isOk()) {
            m_errorText = QString::fromStdString(error.message());
            m_banner->setText(tr("The file is damaged after record %1; the %n record(s) before it are shown.\n%2", nullptr,
                                 int(std::min<quint64>(records, quint64(std::numeric_limits<int>::max()))))
                                  .arg(records == 0 ? QStringLiteral("0") : QLocale().toString(qulonglong(records - 1)),
                                       m_errorText));
            if (records == 0)
                m_banner->setText(tr("No record could be read.\n%1").arg(m_errorText));
            m_banner->show();
        }
    } else if (m_index->fileSize() > 0 && m_index->seekable()) {
        m_progress->setValue(int(1000.0 * double(offset) / double(m_index->fileSize())));
    }
    if (m_pendingJump && (records > *m_pendingJump || finished)) {
        const quint64 n = *m_pendingJump;
        m_pendingJump.reset();
        goToRecord(n);
    }
    if (records > 0 && !m_table->currentIndex().isValid() && !m_pendingJump)
        m_table->selectRow(0);
    updateStatus();
    emit indexProgressed(records, finished);
}

void RecordViewer::onStatistics(const data::ExampleStatistics& statistics)
{
    m_statisticsReady = true;
    m_sampled = statistics.records();
    m_statistics->setStatistics(statistics);
    const QLocale locale;
    QString note = tr("Over the first %n record(s) of the file", nullptr, int(m_sampled));
    if (statistics.examples() < statistics.records())
        note += tr(" (%1 of them are not tf.train.Example records)")
                    .arg(locale.toString(qulonglong(statistics.records() - statistics.examples())));
    m_statisticsNote->setText(note + QStringLiteral("."));
    emit statisticsUpdated();
}

void RecordViewer::goToRecord(quint64 n)
{
    if (!m_model)
        return;
    m_jumpNote.clear();
    if (m_model->ensureRow(n)) {
        const QModelIndex index = m_model->index(int(n), RecordTableModel::kRecordColumn);
        m_table->setCurrentIndex(index);
        m_table->selectRow(int(n));
        m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    } else if (!m_indexing) {
        m_jumpNote = tr("There is no record %1: the file has %n record(s).", nullptr,
                        int(std::min<quint64>(m_model->knownRecords(), quint64(std::numeric_limits<int>::max()))))
                         .arg(QLocale().toString(qulonglong(n)));
    } else {
        m_pendingJump = n;
        m_jumpNote = tr("Looking for record %1…").arg(QLocale().toString(qulonglong(n)));
    }
    updateStatus();
}

qint64 RecordViewer::currentRecord() const
{
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void RecordViewer::showRow(int row)
{
    if (!m_index)
        return;
    const auto where = m_index->locations(quint64(row), 1);
    if (!where.empty() && where.front().length > (quint64(512) << 20)) {
        m_detail->showRecord(quint64(row), unexpected(resourceExhaustedError(
                                               tr("the record holds %1; records over 512 MB are not shown")
                                                   .arg(formatByteSize(where.front().length)).toStdString())));
    } else {
        m_detail->showRecord(quint64(row), m_index->readRecord(quint64(row)));
    }
    if (m_recordBox->value() != row && !m_recordBox->hasFocus())
        m_recordBox->setValue(row);
    emit recordShown(quint64(row));
}

QString RecordViewer::statusText() const
{
    return m_status->text();
}

void RecordViewer::updateStatus()
{
    const bool noRecords = m_index && !m_indexing && m_errorText.isEmpty() && m_model && m_model->knownRecords() == 0;
    m_empty->setVisible((!m_index && m_errorText.isEmpty()) || noRecords);
    m_empty->setTitle(noRecords ? tr("This file holds no records") : tr("No records file"));
    m_empty->setText(noRecords ? tr("%1 is a TFRecord file with nothing in it yet; a writer that is still running may "
                                    "add records later: open it again then.").arg(QFileInfo(m_path).fileName())
                               : tr("Open a TFRecord file (File ▸ Open File…) to page through its records, see each "
                                    "tf.train.Example's features and the statistics of every feature."));
    if (!m_index) {
        m_status->setText(m_errorText.isEmpty() ? QString() : tr("Cannot open the file"));
        return;
    }
    const QLocale locale;
    const quint64 records = m_model ? m_model->knownRecords() : 0;
    QStringList parts;
    if (m_indexing)
        parts << tr("Indexing… %1 records so far").arg(locale.toString(qulonglong(records)));
    else
        parts << tr("%n record(s)", nullptr, int(std::min<quint64>(records, quint64(std::numeric_limits<int>::max()))));
    parts << formatByteSize(m_index->fileSize());
    if (!m_index->seekable())
        parts << tr("%1-compressed: read from the start, so jumps take longer").arg(compressionText(m_index->compression()));
    if (!m_jumpNote.isEmpty())
        parts << m_jumpNote;
    m_status->setText(parts.join(QStringLiteral(" · ")));
}

} // namespace tstudio::records
