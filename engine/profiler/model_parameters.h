// modelParameters: the parameters (elements) of a graph's variables as tfprof counts them, from the
// variable nodes' shape attrs (Qt-free).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tensorflow {
class GraphDef;
class MetaGraphDef;
} // namespace tensorflow

namespace tstudio::profiler {

/// One variable node (VariableV2, Variable or VarHandleOp).
struct VariableParameters {
    std::string name;
    std::string op;
    std::vector<std::int64_t> shape; ///< the "shape" attr; -1 for an unknown dimension
    /// Elements of the shape (a scalar is 1, as tfprof counts it); 0 when the shape is not fully known.
    std::int64_t parameters = 0;
    bool complete = true; ///< false when the shape has an unknown dimension or no shape attr
    /// Counted as a model parameter under the rule in use (see ModelParameters::rule).
    bool counted = false;
    /// Why it is not counted: "not in trainable_variables", "integer dtype", "optimizer slot of 'w'",
    /// "colocated with 'w'", "local variable"; empty when counted.
    std::string excludedBecause;
};

enum class ParameterRule {
    /// Only the variables named in the trainable_variables collection (tfprof's rule: the ops
    /// tfprof_logger tags "_trainable_variables").
    TrainableCollection,
    /// No collection at hand (a bare GraphDef): every variable except those that are evidently not model
    /// weights: integer dtypes (global step, counters), variables colocated with another variable
    /// ("_class" = "loc:@w": optimizer slots, Adam's beta powers, moving averages), variables named
    /// under another variable ("w/Momentum") and the `localVariables` the caller names. Other local
    /// variables (tf.metrics' totals) cannot be told apart in a bare GraphDef and are counted.
    AllButSlotsAndLocals,
};

struct ModelParameters {
    ParameterRule rule = ParameterRule::AllButSlotsAndLocals;
    std::vector<VariableParameters> variables; ///< in GraphDef order
    std::int64_t total = 0;                    ///< sum over counted variables
    bool complete = true;                      ///< every counted variable's shape was fully known
};

struct ModelParametersOptions {
    /// The trainable_variables collection as variable or tensor names ("w" or "w:0"); when set, the
    /// TrainableCollection rule applies.
    std::optional<std::vector<std::string>> trainableVariables;
    /// The local_variables collection, excluded under the fallback rule.
    std::vector<std::string> localVariables;
};

/// The variables of `graph` and the parameters they hold. Pure; thread-safe.
ModelParameters modelParameters(const tensorflow::GraphDef& graph, const ModelParametersOptions& options = {});

/// The variable names ("w", not "w:0") of a MetaGraphDef's collection `collection` ("trainable_variables",
/// "local_variables"), whose bytes_list holds serialized VariableDefs; nullopt when the collection is
/// absent. DataLoss naming the collection when an entry is not a VariableDef.
Expected<std::optional<std::vector<std::string>>> variableCollection(const tensorflow::MetaGraphDef& metaGraph,
                                                                     const std::string& collection);

} // namespace tstudio::profiler
