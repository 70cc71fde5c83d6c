// The IDE's remedies for settings problems (project/setting_advice.h names the field): what to set
// in the Training panel, in its fields' and buttons' words, instead of the command line's flags.
#pragma once

#include <QString>

#include <string>

namespace tstudio::training_panel {

/// The Training panel's remedy for a problem with `field` ("data.dir", "data.sources[i].dir",
/// "eval.sources[i].dir", "logdir") that `message` describes, e.g. "set the Data folder in the
/// Training panel (Browse…)"; translated.
QString guiAdvice(const std::string& field, const QString& message);

/// `message` followed by "; " and guiAdvice when it names a field (project::problemField), else
/// `message` unchanged.
QString withGuiAdvice(const QString& message);

} // namespace tstudio::training_panel
