// What a node of a GraphDef depends on: the walk over data and control inputs that the example
// projects' forward graphs and the training set-up share. Internal to the project library.
#pragma once

#include "proto/graph.pb.h"

#include <map>
#include <set>
#include <string>

namespace tstudio::project {

/// The nodes of `graph` by name.
std::map<std::string, const tensorflow::NodeDef*> nodesByName(const tensorflow::GraphDef& graph);

/// Adds `root` and every node it depends on (data and control inputs) to `keep`. The walk stops at
/// names not in `byName` and at nodes already in `keep` (their inputs are taken to be there too).
void addWithInputs(const std::map<std::string, const tensorflow::NodeDef*>& byName, const std::string& root,
                   std::set<std::string>& keep);

} // namespace tstudio::project
