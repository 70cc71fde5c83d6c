// What the node editor says a port expects or gives, for port tooltips (translated text).
#pragma once

#include "document/graph_document.h"

#include <QString>

#include <string_view>

namespace tstudio::node_editor {

/// What input port `port` (a catalogue inputNames entry, "labels") of layer node `node` expects, e.g.
/// "int32 or int64 class ids [batch], from the data" for a sparse loss's labels; "" when there is
/// nothing to say. Follows the node's params (SoftmaxCrossEntropy with sparse, Dataset's labels).
QString layerInputExpects(const DocNode& node, std::string_view port);
/// What output port `port` (an outputNames entry) of layer node `node` gives; "" when nothing is said.
QString layerOutputGives(const DocNode& node, std::string_view port);

} // namespace tstudio::node_editor
