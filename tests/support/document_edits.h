// Node-editor documents edited through their undo commands, as the editor edits them.
#pragma once

#include "document/document_commands.h"
#include "document/graph_document.h"

#include <QUndoStack>
#include <QtGlobal>

#include <map>
#include <string>

namespace tstudio::testing {

/// Adds a layer node of `type` named `name` with `params` at `position` (the test stops when refused).
inline DocNodeId addLayerNode(GraphDocument& doc, const std::string& type, const std::string& name,
                              const std::map<std::string, tensorflow::AttrValue>& params, QPointF position)
{
    NodeSpec spec;
    spec.kind = NodeKind::kLayer;
    spec.type = type;
    spec.name = name;
    spec.attrs = params;
    spec.position = position;
    auto command = AddNodeCommand::create(&doc, spec);
    if (!command)
        qFatal("add %s: %s", name.c_str(), command.error().toString().c_str());
    AddNodeCommand* raw = command->get();
    doc.undoStack()->push(command->release());
    return raw->nodeId();
}

/// Connects output `output` of `from` to input slot `slot` of `to` (the test stops when refused).
inline void connectNodes(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot)
{
    auto command = ConnectCommand::create(&doc, {from, output, to, slot});
    if (!command)
        qFatal("connect: %s", command.error().toString().c_str());
    doc.undoStack()->push(command->release());
}

} // namespace tstudio::testing
