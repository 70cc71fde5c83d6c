// RecordTableModel: rows added in batches, offsets read in blocks, summaries read per record and cached.
#include "records/record_table_model.h"

#include "data/example_summary.h"

#include <QLocale>

#include <algorithm>
#include <limits>

namespace tstudio::records {
namespace {

/// One feature in a few words: "3", "[0.5, 1.5, …] (12)", "JPEG 2.1 KB", "\"cat\"".
QString featureText(const data::FeatureSummary& f)
{
    if (!f.problem.empty())
        return RecordTableModel::tr("damaged");
    QStringList values;
    const std::size_t shown = 3;
    switch (f.kind) {
    case data::FeatureKind::kNone:
        return RecordTableModel::tr("empty");
    case data::FeatureKind::kInt64:
        for (std::size_t i = 0; i < f.ints.size() && i < shown; ++i)
            values << QString::number(f.ints[i]);
        break;
    case data::FeatureKind::kFloat:
        for (std::size_t i = 0; i < f.floats.size() && i < shown; ++i)
            values << QString::number(double(f.floats[i]), 'g', 6);
        break;
    case data::FeatureKind::kBytes:
        for (std::size_t i = 0; i < f.bytes.size() && i < shown; ++i) {
            const data::BytesValue& b = f.bytes[i];
            if (b.kind == data::BytesKind::kImage)
                values << QStringLiteral("%1 %2").arg(
                    QString::fromStdString(image_io::describeImageFormat(b.image, b.bytes)), formatByteSize(b.bytes.size()));
            else if (b.kind == data::BytesKind::kText)
                values << QStringLiteral("\"%1\"").arg(QString::fromStdString(data::bytesPreview(b.bytes, 24)));
            else
                values << RecordTableModel::tr("%1 bytes").arg(QLocale().toString(qulonglong(b.bytes.size())));
        }
        break;
    }
    if (f.count == 1)
        return values.front();
    QString text = QStringLiteral("[") + values.join(QStringLiteral(", "));
    if (f.count > shown)
        text += QStringLiteral(", …");
    return text + QStringLiteral("] (%1)").arg(QLocale().toString(qulonglong(f.count)));
}

} // namespace

QString formatByteSize(quint64 bytes)
{
    return QLocale().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeTraditionalFormat);
}

RecordTableModel::RecordTableModel(std::shared_ptr<data::TfRecordIndex> index, QObject* parent)
    : QAbstractTableModel(parent), m_index(std::move(index))
{
}

void RecordTableModel::setKnownRecords(quint64 count)
{
    if (count <= m_known)
        return;
    m_known = count;
    if (m_rows < kFetchBatch)
        addRows(int(std::min<quint64>(quint64(kFetchBatch - m_rows), m_known - quint64(m_rows))));
}

bool RecordTableModel::ensureRow(quint64 n)
{
    if (n >= m_known || n >= quint64(std::numeric_limits<int>::max()))
        return false;
    if (n >= quint64(m_rows))
        addRows(int(n + 1 - quint64(m_rows)));
    return true;
}

void RecordTableModel::addRows(int count)
{
    if (count <= 0)
        return;
    beginInsertRows({}, m_rows, m_rows + count - 1);
    m_rows += count;
    endInsertRows();
}

int RecordTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int RecordTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : kColumnCount;
}

bool RecordTableModel::canFetchMore(const QModelIndex& parent) const
{
    return !parent.isValid() && quint64(m_rows) < m_known && m_rows < std::numeric_limits<int>::max();
}

void RecordTableModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    addRows(int(std::min<quint64>(kFetchBatch, m_known - quint64(m_rows))));
}

const data::RecordLocation* RecordTableModel::location(int row) const
{
    const int block = row / kBlock;
    if (!m_blocks.contains(block))
        m_blocks.insert(block, new std::vector<data::RecordLocation>(m_index->locations(quint64(block) * kBlock, kBlock)));
    const std::vector<data::RecordLocation>* locations = m_blocks.object(block);
    const std::size_t i = std::size_t(row % kBlock);
    return i < locations->size() ? &(*locations)[i] : nullptr;
}

const RecordTableModel::Summary* RecordTableModel::summary(int row) const
{
    if (const Summary* cached = m_summaries.object(row))
        return cached;
    auto* s = new Summary;
    if (const data::RecordLocation* at = location(row); at && at->length > kMaxSummaryBytes) {
        s->text = tr("%1: too large to summarise here").arg(formatByteSize(at->length));
        m_summaries.insert(row, s);
        return s;
    }
    auto bytes = m_index->readRecord(quint64(row));
    if (!bytes) {
        s->text = tr("cannot read: %1").arg(QString::fromStdString(bytes.error().message()));
        s->problem = true;
    } else {
        const data::RecordSummary record = data::summarizeRecord(*bytes);
        if (!record.isExample) {
            s->text = tr("not an Example: %1").arg(QString::fromStdString(data::bytesPreview(*bytes, 40)));
        } else if (record.features.empty()) {
            s->text = tr("Example without features");
        } else {
            QStringList parts;
            for (const data::FeatureSummary& f : record.features) {
                parts << QStringLiteral("%1: %2").arg(QString::fromStdString(f.name), featureText(f));
                s->problem = s->problem || !f.problem.empty();
            }
            s->text = parts.join(QStringLiteral(" · "));
        }
    }
    m_summaries.insert(row, s);
    return s;
}

QVariant RecordTableModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows)
        return {};
    const int row = index.row();
    if (role == kRecordRole)
        return qulonglong(row);
    if (role == Qt::TextAlignmentRole && index.column() != kFeaturesColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == kProblemRole)
        return summary(row)->problem;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case kRecordColumn:
        return locale.toString(row);
    case kOffsetColumn:
        if (const data::RecordLocation* at = location(row))
            return locale.toString(qulonglong(at->offset));
        return {};
    case kSizeColumn:
        if (const data::RecordLocation* at = location(row))
            return role == Qt::ToolTipRole ? tr("%1 bytes").arg(locale.toString(qulonglong(at->length)))
                                           : formatByteSize(at->length);
        return {};
    case kFeaturesColumn:
        return summary(row)->text;
    default:
        return {};
    }
}

QVariant RecordTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case kRecordColumn: return tr("Record");
    case kOffsetColumn: return tr("Offset");
    case kSizeColumn: return tr("Size");
    case kFeaturesColumn: return tr("Features");
    default: return {};
    }
}

} // namespace tstudio::records
