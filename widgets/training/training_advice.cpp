// The Training panel's remedies for settings problems named by field.
#include "training/training_advice.h"

#include "project/format/setting_advice.h"
#include "training/data_folders_section.h"

#include <QCoreApplication>

namespace tstudio::training_panel {
QString guiAdvice(const std::string& field, const QString& message)
{
    if (field == "data.dir")
        return QCoreApplication::translate("TrainingAdvice", "set the Data folder in the Training panel (Browse…)");
    if (field == "logdir")
        return message.contains(QLatin1String("already holds checkpoints"))
                   ? QCoreApplication::translate("TrainingAdvice", "tick \"Continue from the latest checkpoint in the log directory\" in the Training panel, or "
                        "choose another Log directory")
                   : QCoreApplication::translate("TrainingAdvice", "choose another Log directory in the Training panel (Browse…)");
    // A source's own folder: the row of the panel's data folders that edits it.
    return QCoreApplication::translate("TrainingAdvice", "set \"%1\" in the Training panel (Browse…)").arg(DataFoldersSection::fieldLabel(field));
}

QString withGuiAdvice(const QString& message)
{
    const auto field = project::problemField(message.toStdString());
    if (!field)
        return message;
    return message + QStringLiteral("; ") + guiAdvice(*field, message);
}

} // namespace tstudio::training_panel
