// MetaGraphDef export and import with TensorFlow 1.x's rules (tf.train.export_meta_graph,
// tf.train.import_meta_graph), and .meta files in binary or text form.
#pragma once

#include "core/expected.h"
#include "proto/graph.pb.h"
#include "proto/meta_graph.pb.h"
#include "proto/saver.pb.h"
#include "proto/variable.pb.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

class GraphBuilder;
class OpRegistry;

/// meta_info_def.tensorflow_git_version of what we write: "TensorStudio <version>".
/// meta_info_def.tensorflow_version stays empty: TensorFlow parses that field as a version number
/// when importing (it compares it with "1.9" to decide whether VariableDef.trainable can be
/// trusted), so a name there would make TensorFlow's import fail, and a TensorFlow release number
/// would claim a producer we are not. Empty is what TensorFlow reads as "recent enough".
std::string metaGraphWriterVersion();

/// True for the collections whose items TensorFlow stores as serialized VariableDef in a
/// bytes_list: "variables", "trainable_variables", "moving_average_variables", "local_variables",
/// "model_variables", "global_step", "metric_variables".
bool isVariableCollection(std::string_view key);

/// What tf.train.export_meta_graph / Saver.export_meta_graph take besides the graph.
struct MetaGraphExportOptions {
    std::optional<tensorflow::SaverDef> saverDef;
    /// meta_info_def.tags (SavedModel tags, e.g. "serve").
    std::vector<std::string> tags;
    std::map<std::string, tensorflow::SignatureDef> signatureDefs;
    std::vector<tensorflow::AssetFileDef> assetFileDefs;
    std::optional<google::protobuf::Any> anyInfo;
    std::string metaGraphVersion;
    /// Empties every node's device (top-level nodes, as TensorFlow).
    bool clearDevices = false;
    /// Drops the nodes of every other saver's name scope (the scopes holding SaveV2/RestoreV2/...
    /// nodes other than saverDef's), as SavedModelBuilder asks.
    bool clearExtraneousSavers = false;
    /// Drops every attr equal to its OpDef default and sets meta_info_def.stripped_default_attrs.
    bool stripDefaultAttrs = false;
    /// Only these collections (default: all that have items).
    std::optional<std::vector<std::string>> collectionList;
    /// Collections given as they are stored (e.g. int64_list, float_list, bytes_list of strings);
    /// one with the key of a builder collection replaces it.
    std::map<std::string, tensorflow::CollectionDef> extraCollections;
};

/// The MetaGraphDef tf.train.export_meta_graph writes for the graph of `builder`:
///  - graph_def: the graph with "_output_shapes" on every node with outputs (devices cleared and
///    other savers dropped when asked; `library` then present even when empty, as TensorFlow's
///    copy leaves it);
///  - meta_info_def: stripped_op_list (the OpDefs of every op the graph and its functions use,
///    sorted by name, without summaries and descriptions), tags, any_info, meta_graph_version,
///    tensorflow_git_version (see metaGraphWriterVersion), stripped_default_attrs;
///  - saver_def, signature_def, asset_file_def from `options`;
///  - collection_def: variable collections as bytes_list of serialized VariableDef, tensors and
///    operations as node_list. A collection mixing variables with other items is left out with a
///    warning, as TensorFlow does.
/// Errors: InvalidArgument "Op Foo is used by the graph, but is not registered" (for a graph whose
/// ops are not all in the builder's registry).
Expected<tensorflow::MetaGraphDef> exportMetaGraph(const GraphBuilder& builder,
                                                   const MetaGraphExportOptions& options = {});

/// One collection of an imported MetaGraphDef.
struct ImportedCollection {
    /// The collection as imported: names prefixed with the import scope where TensorFlow prefixes
    /// them (node_list entries, VariableDef names, bytes_list strings of collections without a
    /// proto type); variable collections re-encoded from `variables`; the cond/while contexts,
    /// queue runners, savers, int64/float/any lists kept as they are.
    tensorflow::CollectionDef def;
    /// The decoded VariableDefs of a variable collection, in order (empty for other collections).
    std::vector<tensorflow::VariableDef> variables;
};

/// What tf.train.import_meta_graph recreates, as data.
struct ImportedMetaGraph {
    /// The graph to give a Session (create or extend).
    tensorflow::GraphDef graph;
    /// The saver's names prefixed with the import scope; nullopt when the file has no saver_def.
    std::optional<tensorflow::SaverDef> saverDef;
    std::map<std::string, ImportedCollection> collections;
    /// As stored (TensorFlow does not prefix them either: resolve names with `scope`).
    std::map<std::string, tensorflow::SignatureDef> signatureDefs;
    std::vector<tensorflow::AssetFileDef> assetFileDefs;
    tensorflow::MetaGraphDef::MetaInfoDef metaInfo;
    /// The import scope without its trailing slash ("" for none).
    std::string scope;

    /// `name` ("x:0", "x", "^x", "loc:@x") as the imported graph calls it (with the scope).
    std::string scoped(std::string_view name) const;
    /// The decoded variables of `key` (empty when absent).
    const std::vector<tensorflow::VariableDef>& variables(std::string_view key = "variables") const;
};

struct MetaGraphImportOptions {
    /// Name scope put in front of every node name, input, colocation group, saver name and
    /// collection entry ("imported" makes "pred" "imported/pred"). A trailing '/' is ignored.
    std::string importScope;
    /// Empties every node's device before import.
    bool clearDevices = false;
    /// When given: attrs that our OpDef does not know and that the producer's stripped_op_list
    /// gives with their default value are removed (so graphs from newer TensorFlow versions
    /// import), then defaults are filled in for every registered op. Ops not registered are left
    /// as they are (Session::create names them).
    const OpRegistry* ops = nullptr;
};

/// tf.train.import_meta_graph without a graph object: the graph checked as TensorFlow's importer
/// checks it (unique node names, known inputs, control inputs last, known colocation groups),
/// devices cleared and names prefixed as asked; the collections restored by TensorFlow's rules
/// (VariableDefs decoded and, for files from TensorFlow before 1.9, `trainable` taken from the
/// trainable_variables collection; every name they and the node lists refer to must exist). With an
/// import scope, the frame_name of the Enters of every loop in the "while_context" collection gets
/// the scope too, as WhileContext.from_proto renames them (the contexts themselves are rebuilt in a
/// GraphBuilder by importControlFlowContexts, builder/control_flow_contexts.h).
/// Errors, InvalidArgument unless said: "'a b' is not a valid scope name"; "Node 'x' is not
/// unique"; "Node 'x': Unknown input node 'y'"; "Node 'x': Control dependencies must come after
/// regular dependencies"; "Node 'x' expects to be colocated with unknown node 'y'"; "Graph contains
/// unbound inputs: a, b. Must provide these inputs through input_map."; "collection 'variables':
/// The name 'x:0' refers to a Tensor which does not exist. The operation, 'x', does not exist in
/// the graph."; DataLoss for a VariableDef that does not parse.
Expected<ImportedMetaGraph> importMetaGraph(tensorflow::MetaGraphDef metaGraph,
                                            const MetaGraphImportOptions& options = {});

/// Exports an imported graph again (import_meta_graph followed by Saver.export_meta_graph):
/// options.saverDef defaults to the imported saver_def; collections are the imported ones
/// (variable collections re-encoded from their decoded VariableDefs), then options.extraCollections.
/// The OpDefs come from `ops`. Errors as the other overload.
Expected<tensorflow::MetaGraphDef> exportMetaGraph(const ImportedMetaGraph& imported, const OpRegistry& ops,
                                                   const MetaGraphExportOptions& options = {});

enum class MetaGraphFormat { kBinary, kText };

/// Reads a .meta file, binary or text-format (decided by content). Errors name the file: NotFound,
/// DataLoss "... is not a valid binary MetaGraphDef (truncated or corrupted, N bytes)",
/// InvalidArgument with line and column for text that does not parse.
Expected<tensorflow::MetaGraphDef> readMetaGraphFile(const std::filesystem::path& path,
                                                     MetaGraphFormat* formatOut = nullptr);
/// Parses bytes holding a MetaGraphDef in either format; `what` names the source in errors.
Expected<tensorflow::MetaGraphDef> parseMetaGraph(const std::string& bytes, const std::string& what,
                                                  MetaGraphFormat* formatOut = nullptr);
/// Writes atomically (temporary file, then rename): deterministic binary (map entries sorted by
/// key, as TensorFlow writes .meta files) or text format.
Status writeMetaGraphFile(const std::filesystem::path& path, const tensorflow::MetaGraphDef& metaGraph,
                          MetaGraphFormat format = MetaGraphFormat::kBinary);

} // namespace tstudio
