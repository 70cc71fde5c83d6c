// tensorstudio's manual page, written from its command-line parser's own help text (so it never
// drifts from the options): `tensorstudio --man FILE`, installed as tensorstudio(1).
#pragma once

#include <QString>

namespace tstudio {

/// The man page (groff's man macros) for the IDE whose QCommandLineParser::helpText() is `helpText`:
/// NAME, SYNOPSIS, DESCRIPTION, every option with its value name and description, the files it
/// opens, FILES, ENVIRONMENT, SEE ALSO tstudio(1). Qt's own options (--help-all) are kept as listed.
QString manPageFromHelp(const QString& helpText, const QString& version);

} // namespace tstudio
