// Translated, user-facing names and explanations for the file kinds the engine detects.
#pragma once

#include "io/file_kind.h"

#include <QString>

namespace tstudio {

/// "GraphDef (binary)", "事件文件", ... in the current UI language.
QString fileKindDisplayName(FileKind kind);

/// What TensorStudio does with this kind in this version, in the current UI language.
QString fileKindAvailability(FileKind kind);

/// File-dialog filters: first one with every kind TensorStudio opens ("All supported files (*.tsproj *.pb ...)"), then one per kind, then "All files (*)".
QStringList fileKindDialogFilters();

} // namespace tstudio
