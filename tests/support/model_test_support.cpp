// Helpers shared by the model and builder tests.
#include "model_test_support.h"

#include "test_files.h"

#include <QByteArray>
#include <QFile>

#include <cmath>
#include <string>

namespace tstudio::testing {

const char* err(const Status& s)
{
    static thread_local std::string text;
    text = s.toString();
    return text.c_str();
}

std::optional<tensorflow::MetaGraphDef> readMetaGraphFixture(const QString& relativePath)
{
    const QString dir = fixturesDir();
    if (dir.isEmpty())
        return std::nullopt;
    QFile file(dir + "/" + relativePath);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray bytes = file.readAll();
    tensorflow::MetaGraphDef meta;
    if (!meta.ParseFromArray(bytes.constData(), static_cast<int>(bytes.size())))
        return std::nullopt;
    return meta;
}

bool floatsNear(const Tensor& actual, std::span<const double> expected, double relative, double absolute,
                QString* why)
{
    if (actual.dtype() != tensorflow::DT_FLOAT || actual.numElements() != static_cast<std::int64_t>(expected.size())) {
        *why = QString("expected %1 floats, got %2")
                   .arg(expected.size())
                   .arg(QString::fromStdString(actual.debugString()));
        return false;
    }
    const auto a = actual.values<float>();
    for (std::size_t i = 0; i < expected.size(); ++i)
        if (std::fabs(a[i] - expected[i]) > relative * std::fabs(expected[i]) + absolute) {
            *why = QString("element %1: %2 vs %3").arg(i).arg(a[i], 0, 'g', 9).arg(expected[i], 0, 'g', 9);
            return false;
        }
    return true;
}

} // namespace tstudio::testing
