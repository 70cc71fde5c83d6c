// Editing a GraphDocument in tests through its undo commands, as the editor does: add a node, connect
// two ports. For tests that link the viewmodel library.
#pragma once

#include "document/document_commands.h"
#include "document/graph_document.h"

#include <QUndoStack>
#include <QtGlobal>

#include <map>
#include <string>

namespace tstudio::testing {

/// Adds a node through AddNodeCommand (kNoNode with a warning when the command is refused).
inline DocNodeId addDocumentNode(GraphDocument& doc, NodeKind kind, const std::string& type, const std::string& name,
                                 const std::map<std::string, tensorflow::AttrValue>& attrs = {})
{
    NodeSpec spec;
    spec.kind = kind;
    spec.type = type;
    spec.name = name;
    spec.attrs = attrs;
    auto command = AddNodeCommand::create(&doc, spec);
    if (!command) {
        qWarning("add %s: %s", name.c_str(), command.error().toString().c_str());
        return kNoNode;
    }
    AddNodeCommand* raw = command->get();
    doc.undoStack()->push(command->release());
    return raw->nodeId();
}

/// Connects output `output` of `from` to input `slot` of `to` through ConnectCommand; false with a
/// warning when refused.
inline bool connectDocumentPorts(GraphDocument& doc, DocNodeId from, int output, DocNodeId to, int slot)
{
    auto command = ConnectCommand::create(&doc, {from, output, to, slot});
    if (!command) {
        qWarning("connect: %s", command.error().toString().c_str());
        return false;
    }
    doc.undoStack()->push(command->release());
    return true;
}

} // namespace tstudio::testing
