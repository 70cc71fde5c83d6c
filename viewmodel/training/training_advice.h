// The IDE's remedies for settings problems (project/setting_advice.h names the field): what to set
// in the Training panel, in its fields' and buttons' words, instead of the command line's flags.
#pragma once

#include <QString>

#include <string>

namespace tstudio::training_panel {

/// The Training panel's label of the data folder `field` ("data.sources[i].dir", "eval.sources[i].dir"):
/// "Source 1 folder (mnist)", "Eval source 2 folder (image_folder)" (the type only when known); what the
/// panel's advice names. Other fields read as themselves.
QString sourceFolderLabel(const std::string& field, const std::string& type = {});

/// The Training panel's remedy for a problem with `field` ("data.dir", "data.sources[i].dir",
/// "eval.sources[i].dir", "logdir") that `message` describes, e.g. "set the Data folder in the
/// Training panel (Browse…)"; translated.
QString guiAdvice(const std::string& field, const QString& message);

/// `message` followed by "; " and guiAdvice when it names a field (project::problemField), else
/// `message` unchanged.
QString withGuiAdvice(const QString& message);

} // namespace tstudio::training_panel
