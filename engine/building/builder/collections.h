// Collections: TensorFlow's named graph collections (tf.GraphKeys) and their MetaGraphDef form.
#pragma once

#include "builder/output.h"
#include "builder/variable.h"
#include "core/expected.h"
#include "proto/meta_graph.pb.h"

#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tstudio {

/// The standard keys, TensorFlow's GraphKeys strings.
namespace graph_keys {
inline constexpr std::string_view kGlobalVariables = "variables";
inline constexpr std::string_view kLocalVariables = "local_variables";
inline constexpr std::string_view kModelVariables = "model_variables";
inline constexpr std::string_view kTrainableVariables = "trainable_variables";
inline constexpr std::string_view kUpdateOps = "update_ops";
inline constexpr std::string_view kLosses = "losses";
inline constexpr std::string_view kRegularizationLosses = "regularization_losses";
inline constexpr std::string_view kSummaries = "summaries";
inline constexpr std::string_view kGlobalStep = "global_step";
inline constexpr std::string_view kTrainOp = "train_op";
/// The initializers of lookup tables (tf.GraphKeys.TABLE_INITIALIZERS) and the asset file paths
/// they read (tf.GraphKeys.ASSET_FILEPATHS).
inline constexpr std::string_view kTableInitializers = "table_initializer";
inline constexpr std::string_view kAssetFilepaths = "asset_filepaths";
} // namespace graph_keys

/// What a collection holds: variables, tensors or operations (a collection normally holds one kind).
using CollectionItem = std::variant<Variable, Output, Operation>;

/// The name an item is known by: the variable's node name, "node:0", or the op's name.
std::string collectionItemName(const CollectionItem& item);

/// Named, ordered lists of graph elements, as tf.Graph's collections: items stay in insertion order
/// and may repeat (tf.add_to_collection does not deduplicate). Not synchronised.
class Collections {
public:
    /// Appends `item` to `key` (tf.add_to_collection).
    void add(std::string_view key, CollectionItem item);
    /// Appends `item` once to each distinct key of `keys` (tf.add_to_collections).
    void addToEach(const std::vector<std::string>& keys, const CollectionItem& item);

    /// The items of `key` in order (empty for an unknown key). With a `scope`, only items whose
    /// name starts with it (TensorFlow matches a regular expression at the start of the name; a
    /// plain scope such as "layer1/" behaves the same).
    std::vector<CollectionItem> get(std::string_view key, std::string_view scope = {}) const;
    /// The Variable items of `key`, in order (tf.global_variables() for kGlobalVariables).
    std::vector<Variable> variables(std::string_view key, std::string_view scope = {}) const;
    /// Every key that holds items, sorted (the order export_meta_graph writes them in).
    std::vector<std::string> keys() const;
    /// Removes every item of `key` (tf.Graph.clear_collection).
    void clear(std::string_view key);

    /// The CollectionDef TensorFlow writes for `key`: variables as bytes_list of serialized
    /// VariableDef, tensors ("x:0") and operations ("x") as node_list. NotFound for an empty or
    /// unknown key; InvalidArgument when the collection mixes variables with tensors or operations
    /// (TensorFlow skips such a collection with a warning).
    Expected<tensorflow::CollectionDef> toCollectionDef(std::string_view key) const;

private:
    std::map<std::string, std::vector<CollectionItem>, std::less<>> m_items;
};

} // namespace tstudio
