// The Training panel's remedies for settings problems named by field.
#include "training/training_advice.h"

#include "project/format/setting_advice.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace tstudio::training_panel {

QString sourceFolderLabel(const std::string& field, const std::string& type)
{
    static const QRegularExpression pattern(QStringLiteral("^(data|eval)\\.sources\\[(\\d+)\\]\\.dir$"));
    const auto m = pattern.match(QString::fromStdString(field));
    if (!m.hasMatch())
        return QString::fromStdString(field);
    const int number = m.captured(2).toInt() + 1;
    const QString kind = QString::fromStdString(type);
    // In the words (and the translation context) of the data folders section's rows.
    static const char* const kLabels[] = {
        QT_TRANSLATE_NOOP("tstudio::training_panel::DataFoldersSection", "Source %1 folder"),
        QT_TRANSLATE_NOOP("tstudio::training_panel::DataFoldersSection", "Source %1 folder (%2)"),
        QT_TRANSLATE_NOOP("tstudio::training_panel::DataFoldersSection", "Eval source %1 folder"),
        QT_TRANSLATE_NOOP("tstudio::training_panel::DataFoldersSection", "Eval source %1 folder (%2)"),
    };
    const int index = (m.captured(1) == QLatin1String("data") ? 0 : 2) + (kind.isEmpty() ? 0 : 1);
    const QString text =
        QCoreApplication::translate("tstudio::training_panel::DataFoldersSection", kLabels[index]).arg(number);
    return kind.isEmpty() ? text : text.arg(kind);
}

QString guiAdvice(const std::string& field, const QString& message)
{
    if (field == "data.dir")
        return QCoreApplication::translate("TrainingAdvice", "set the Data folder in the Training panel (Browse…)");
    if (field == "logdir") {
        if (message.contains(QLatin1String("already holds checkpoints")))
            return QCoreApplication::translate("TrainingAdvice",
                                               "tick \"Continue from the latest checkpoint in the log directory\" in "
                                               "the Training panel, or choose another Log directory");
        return QCoreApplication::translate("TrainingAdvice",
                                           "choose another Log directory in the Training panel (Browse…)");
    }
    // A source's own folder: the row of the panel's data folders that edits it.
    return QCoreApplication::translate("TrainingAdvice", "set \"%1\" in the Training panel (Browse…)")
        .arg(sourceFolderLabel(field));
}

QString withGuiAdvice(const QString& message)
{
    const auto field = project::problemField(message.toStdString());
    if (!field)
        return message;
    return message + QStringLiteral("; ") + guiAdvice(*field, message);
}

} // namespace tstudio::training_panel
