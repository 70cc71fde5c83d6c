// How a node attribute's value reads in the graph viewer's properties: AttrValue as text, shortest
// round-trip floats, quoted bytes, shapes and tensor previews (node_properties_panel.cpp shows them).
#pragma once

#include "common/attr_text.h" // dtypeText, shapeText
#include "proto/attr_value.pb.h"

#include <QString>

namespace tstudio::graph_viewer {

/// `text` cut to `maxChars`, its last character then an ellipsis ("\u2026").
QString elided(const QString& text, int maxChars);
/// A tensor attr: its dtype, shape and the first values.
QString tensorText(const tensorflow::TensorProto& proto);
/// The value as the properties table shows it (strings elided).
QString attrText(const tensorflow::AttrValue& value);
/// The full value for the tooltip: strings not elided.
QString attrToolTip(const tensorflow::AttrValue& value);

} // namespace tstudio::graph_viewer
