// How an attr value is written and read back in the editor's line editors, Qt-free but for QString:
// the node editor's attr form and the debugger's node view show values in these words.
#pragma once

#include "core/expected.h"
#include "proto/attr_value.pb.h"
#include "proto/op_def.pb.h"

#include <QString>

#include <string>
#include <vector>

namespace tstudio {

/// The dtype's TensorFlow name ("float32", "int64_ref").
QString dtypeText(int dtype);
/// "[?, 784]", "[]" for a scalar, "<unknown>" for an unknown rank (TensorFlow's word).
QString shapeText(const tensorflow::TensorShapeProto& shape);

/// The shortest text that reads back as exactly `value` ("0.1", "1e-07", "2").
QString shortestText(float value);
QString shortestText(double value);

/// A layer node's parameter described as an AttrDef, so ops and layers share one editor and one validation
/// (validateAttrValue): `type` is an AttrDef type ("int", "float", "string", "list(int)", ...), `choices` become
/// the AttrDef's allowed_values (strings), `defaultValue` may be empty (no default).
tensorflow::OpDef::AttrDef layerParam(const std::string& name, const std::string& type,
                                      const tensorflow::AttrValue& defaultValue, const std::string& doc,
                                      const std::vector<std::string>& choices = {});

/// How an attr value is written in its line editor: shapes "[?, 784]" ("[]" scalar, "<unknown>" unknown rank),
/// lists "[1, 2, 2, 1]", types "float32", strings unquoted at the top level and quoted inside lists, floats in
/// the shortest form that reads back exactly; tensors and funcs in text format. `type` is the AttrDef type.
QString attrValueText(const std::string& type, const tensorflow::AttrValue& value);

/// Parses what a person typed into the editor of an attr of `attr`'s type and checks it against `attr`
/// (minimum, allowed values) with validateAttrValue. Accepted beyond parseAttrValue's forms: a string typed
/// without quotes, a list without its brackets ("1, 2, 2, 1"), "?" for a shape of unknown rank, a func as a
/// bare name. InvalidArgument with the reason (translated in the attr editor's context).
Expected<tensorflow::AttrValue> parseAttrText(const tensorflow::OpDef::AttrDef& attr, const QString& text);

} // namespace tstudio
