// Slot variables: the per-variable state of optimizers and moving averages (TensorFlow's slot_creator).
#pragma once

#include "builder/graph_builder.h"
#include "builder/initializers.h"
#include "builder/variable.h"
#include "core/expected.h"

#include <string>
#include <string_view>

namespace tstudio::training {

/// The name TensorFlow gives a new slot `name` of `primary`: "<primary>/<name>", or with "_1",
/// "_2", ... when a variable or node of that name exists already (the second Adam slot of "w" is
/// "w/Adam_1"; TensorFlow's variable_scope(None, default_name) counter).
std::string uniqueSlotName(const GraphBuilder& b, const Variable& primary, std::string_view name);

/// slot_creator.create_slot_with_initializer(primary, initializer, shape, dtype, name): a
/// non-trainable variable uniqueSlotName(primary, name) of `shape` (fully defined) and `dtype`,
/// its initializer's ops under "<slot>/Initializer/", in GLOBAL_VARIABLES only, built at the root
/// name and variable scope, outside control dependencies, every node colocated with `primary`
/// ("_class" "loc:@<primary>"). Errors: getVariable's; NotFound when `primary` is not in `b`.
Expected<Variable> createSlotWithInitializer(GraphBuilder& b, const Variable& primary, const Initializer& initializer,
                                             const TensorShape& shape, DataType dtype, std::string_view name);

/// slot_creator.create_zeros_slot(primary, name): zeros of the primary's shape and dtype.
Expected<Variable> createZerosSlot(GraphBuilder& b, const Variable& primary, std::string_view name);

/// slot_creator.create_slot(primary, value, name): a slot whose initial value is the tensor `value`
/// (its shape must be fully defined): "<slot>", "<slot>/Assign" (of `value`), "<slot>/read",
/// colocated with `primary`, not trainable, in GLOBAL_VARIABLES.
Expected<Variable> createSlot(GraphBuilder& b, const Variable& primary, const Output& value, std::string_view name);

} // namespace tstudio::training
