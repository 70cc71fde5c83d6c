// Problems with a project's settings, and the command line's remedies: the project layer says
// what is wrong with which field ("data.dir: not set; ..."), naming the field by its JSON path, and
// each front end adds how its user changes that field (`tstudio`: --set and its flags, here; the
// IDE: its fields and buttons, viewmodel/training/training_advice.h).
#pragma once

#include "core/status.h"

#include <optional>
#include <string>
#include <string_view>

namespace tstudio::project {

/// "<field>: <what>": how the project layer words a problem that changing `field` fixes, `field`
/// being the JSON path of a setting with a remedy: "data.dir", "data.sources[i].dir",
/// "eval.sources[i].dir" or "logdir". Callers put their context before it ("lenet.tsproj:
/// data.sources[0] (mnist): data.dir: not set; ...").
std::string settingProblem(std::string_view field, std::string_view what);

/// The field a message built with settingProblem is about (the last such "<field>: " in it), or
/// nullopt for a message about anything else.
std::optional<std::string> problemField(std::string_view message);

/// `field` as a --set key: "data.sources[0].dir" -> "data.sources.0.dir".
std::string overrideKey(std::string_view field);

/// How `tstudio` changes `field` for the problem `message` describes: "pass --set data.dir=DIR";
/// "pass --set data.sources.0.dir=DIR"; for a log directory that already holds checkpoints "pass
/// --resume to continue that run or choose another log directory", for another problem of it
/// "choose another log directory (--logdir DIR)".
std::string cliAdvice(std::string_view field, std::string_view message);

/// `message` followed by "; " and the command line's remedy when it names a field (problemField),
/// else `message` unchanged.
std::string withCliAdvice(std::string_view message);
/// The same for a Status (its code kept; ok stays ok).
Status withCliAdvice(const Status& status);

} // namespace tstudio::project
