// Helpers for tests that build a graph with GraphBuilder and run it: scalar int32 constants and
// one fresh Session run (TSTUDIO_TRY of core/try.h comes with it).
#pragma once

#include "builder/graph_builder.h"
#include "core/try.h"
#include "framework/tensor.h"
#include "registries/default_registries.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio::testing {

/// A scalar int32 Const named `name`.
Expected<Output> scalarInt32(GraphBuilder& b, std::int64_t value, std::string_view name = "Const");

/// Runs b's graph in a fresh Session over `registries`: first `targets` (when any) on their own,
/// then `fetches` with `feeds`; the fetched tensors or the first error.
Expected<std::vector<Tensor>> runGraph(const Registries& registries, const GraphBuilder& b,
                                       const std::vector<std::pair<std::string, Tensor>>& feeds,
                                       const std::vector<std::string>& fetches,
                                       const std::vector<std::string>& targets = {});

} // namespace tstudio::testing
