// What NodeEditor's source files share (node_editor*.cpp): clipboard formats, text conversion, a layer
// parameter's type and pushing a command onto the document's undo stack.
#pragma once

#include "document/graph_document.h"
#include "core/expected.h"
#include "proto/attr_value.pb.h"

#include <QString>
#include <QUndoStack>

#include <memory>
#include <string>

namespace tstudio::node_editor::detail {

inline constexpr char kFragmentMime[] = "application/x-tensorstudio-fragment";
inline constexpr char kPositionsMime[] = "application/x-tensorstudio-positions";

inline QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The AttrDef type of a layer parameter, from the kind of its default value.
inline std::string paramType(const tensorflow::AttrValue& value)
{
    switch (value.value_case()) {
    case tensorflow::AttrValue::kI:
        return "int";
    case tensorflow::AttrValue::kF:
        return "float";
    case tensorflow::AttrValue::kB:
        return "bool";
    case tensorflow::AttrValue::kType:
        return "type";
    case tensorflow::AttrValue::kShape:
        return "shape";
    case tensorflow::AttrValue::kList:
        if (value.list().i_size() > 0)
            return "list(int)";
        if (value.list().f_size() > 0)
            return "list(float)";
        if (value.list().shape_size() > 0)
            return "list(shape)";
        return "list(int)";
    default:
        return "string";
    }
}

template <typename Command>
bool push(GraphDocument* document, Expected<std::unique_ptr<Command>> command, QString* error = nullptr)
{
    if (!command) {
        if (error)
            *error = q(command.error().message());
        return false;
    }
    document->undoStack()->push(command->release());
    return true;
}


} // namespace tstudio::node_editor::detail
