// SavedModel directories (TensorFlow 1.x's tf.saved_model.loader.load and SavedModelBuilder):
// pick a MetaGraph by tags, restore its variables, run its signatures; write one atomically.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "model/meta_graph.h"
#include "model/saved_object_graph.h"
#include "proto/saved_model.pb.h"
#include "runtime/session.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio {

/// The names TensorFlow gives the parts of a SavedModel directory and its collections.
namespace saved_model {
inline constexpr std::string_view kServeTag = "serve";
inline constexpr std::string_view kTrainTag = "train";
inline constexpr std::string_view kDefaultServingSignature = "serving_default";
inline constexpr std::string_view kPredictMethod = "tensorflow/serving/predict";
inline constexpr std::string_view kSavedModelPb = "saved_model.pb";
inline constexpr std::string_view kSavedModelPbtxt = "saved_model.pbtxt";
inline constexpr std::string_view kVariablesDirectory = "variables";
inline constexpr std::string_view kVariablesFilename = "variables";
inline constexpr std::string_view kAssetsDirectory = "assets";
/// Collection of AssetFileDefs (any_list) used when asset_file_def is empty.
inline constexpr std::string_view kAssetsKey = "saved_model_assets";
inline constexpr std::string_view kMainOpKey = "saved_model_main_op";
inline constexpr std::string_view kLegacyInitOpKey = "legacy_init_op";
/// TensorFlow >= 1.14 may name its init op in a signature of this key instead.
inline constexpr std::string_view kInitOpSignatureKey = "__saved_model_init_op";
} // namespace saved_model

/// One input or output of a signature: its key, the graph tensor behind it, dtype and shape
/// (shape unknown-rank when the SignatureDef does not give one).
struct SignatureTensor {
    std::string key;
    std::string tensorName; ///< as stored, e.g. "X:0" (without the import scope)
    DataType dtype = tensorflow::DT_INVALID;
    TensorShape shape;
    /// A SparseTensor (TensorInfo.coo_sparse): its three component tensors as stored; tensorName
    /// is empty then.
    struct CooSparse {
        std::string indices;    ///< int64 [N, rank]
        std::string values;     ///< dtype [N]
        std::string denseShape; ///< int64 [rank]
    };
    std::optional<CooSparse> sparse;
};

/// The suffixes of a sparse signature input's or output's three components in runSignature's maps:
/// "KEY/indices", "KEY/values", "KEY/dense_shape" (tf.SparseTensor's field names).
namespace saved_model {
inline constexpr std::string_view kSparseIndicesSuffix = "/indices";
inline constexpr std::string_view kSparseValuesSuffix = "/values";
inline constexpr std::string_view kSparseDenseShapeSuffix = "/dense_shape";
} // namespace saved_model

/// A SignatureDef, sorted by key within inputs and outputs.
struct SignatureInfo {
    std::string key;
    std::string methodName;
    std::vector<SignatureTensor> inputs;
    std::vector<SignatureTensor> outputs;
};

/// Reads `dir`/saved_model.pb (preferred, as TensorFlow) or `dir`/saved_model.pbtxt. Errors:
/// NotFound "SavedModel file does not exist at: DIR/{saved_model.pbtxt|saved_model.pb}";
/// DataLoss / InvalidArgument naming the file when it does not parse.
Expected<tensorflow::SavedModel> readSavedModelFile(const std::filesystem::path& dir);

/// The tag sets of the MetaGraphs, each as TensorFlow prints it: "{serve}", "{serve, gpu}" (tags
/// in stored order).
std::vector<std::string> savedModelTagSets(const tensorflow::SavedModel& model);

/// Every signature of `meta`, sorted by key. Tensors stored as coo_sparse or composite are listed
/// with an empty tensorName.
std::vector<SignatureInfo> signaturesOf(const tensorflow::MetaGraphDef& meta);

/// How a TensorFlow 2 SavedModel (a MetaGraph with an object graph) gets its variables.
enum class VariableRestore {
    /// Through the object graph when it has variables, else through saver_def.
    kAuto,
    /// From the object-based checkpoint: each SavedVariable's path looked up in the checkpoint's
    /// own object graph (model/object_graph_restore.h), as TensorFlow 2's Python loader does.
    kObjectGraph,
    /// Through saver_def: the filename tensor fed the variables prefix and the restore op run, as
    /// TensorFlow's C++ loader does.
    kSaverDef,
};

struct SavedModelLoadOptions {
    /// The MetaGraph whose tag set equals this set (order and repeats do not matter).
    std::vector<std::string> tags{std::string(saved_model::kServeTag)};
    VariableRestore variableRestore = VariableRestore::kAuto;
    /// As MetaGraphImportOptions: tensors of the loaded graph get this scope; the MetaGraphDef and
    /// the signatures keep their stored names (runSignature adds the scope).
    std::string importScope;
    bool clearDevices = false;
};

/// A loaded SavedModel: the chosen MetaGraphDef, its imported form, and a Session holding the
/// graph with its variables restored and its init op run. Not copyable; runSignature may be
/// called from several threads (Session::run is).
class SavedModelBundle {
public:
    const std::filesystem::path& directory() const { return m_dir; }
    /// The MetaGraphDef as stored.
    const tensorflow::MetaGraphDef& metaGraph() const { return m_meta; }
    /// The graph and collections as imported (import scope applied).
    const ImportedMetaGraph& imported() const { return m_imported; }
    /// The MetaGraph's object graph as read and checked (empty for TensorFlow 1.x SavedModels).
    const SavedObjectGraphInfo& objectGraph() const { return m_objects; }
    Session& session() { return *m_session; }

    /// Every signature, sorted by key.
    std::vector<SignatureInfo> signatures() const { return signaturesOf(m_meta); }
    /// The signature `key`, or NotFound "Signature 'k' not found in the SavedModel's MetaGraph;
    /// its signatures: a, b".
    Expected<SignatureInfo> signature(std::string_view key) const;

    /// Runs signature `key`: feeds each input key's tensor to its graph tensor and fetches every
    /// output. Every input of the signature must be given, none other; dtypes must match (shapes
    /// are checked by the session). A sparse (coo_sparse) input KEY is given as its three
    /// components "KEY/indices", "KEY/values" and "KEY/dense_shape", and a sparse output comes back
    /// the same way. Errors: the NotFound of signature(); InvalidArgument naming a missing or
    /// unknown input key, or "input 'x' of signature 'k' expects float but int32 was given";
    /// Unimplemented for composite tensors; the session's errors.
    Expected<std::map<std::string, Tensor>> runSignature(std::string_view key,
                                                         const std::map<std::string, Tensor>& inputs);

private:
    friend Expected<std::unique_ptr<SavedModelBundle>>
    loadSavedModel(const std::filesystem::path&, const SessionOptions&, const SavedModelLoadOptions&);
    SavedModelBundle() = default;

    std::filesystem::path m_dir;
    tensorflow::MetaGraphDef m_meta;
    ImportedMetaGraph m_imported;
    SavedObjectGraphInfo m_objects;
    CpuAllocator m_allocator; ///< the string tensors fed while loading
    std::unique_ptr<Session> m_session;
};

/// tf.saved_model.loader.load(sess, tags, dir): reads the SavedModel file, picks the MetaGraph
/// whose tag set equals options.tags, imports it (import scope, clear_devices), creates a Session
/// on its graph with `sessionOptions`, restores the variables from DIR/variables/variables through
/// the MetaGraph's saver_def (Saver::restore: the filename tensor fed, the restore op run) — or, for
/// a MetaGraph with variables but no saver_def, every variable by name, as the Saver TensorFlow
/// would build; a TensorFlow 2 MetaGraph (one with an object graph, checked first by
/// readSavedObjectGraph) restores as options.variableRestore says — and runs the init op (the
/// "__saved_model_init_op" signature's output, else the single op of the "saved_model_main_op" collection, else of "legacy_init_op") with each asset
/// tensor (asset_file_def, else the "saved_model_assets" collection) fed DIR/assets/<filename>.
/// Errors: readSavedModelFile's; NotFound "MetaGraphDef associated with tags 'train' could not be
/// found in SavedModel 'DIR'. Available tag sets: {serve}"; NotFound naming
/// DIR/variables/variables.index when the MetaGraph has variables and that file is missing (a
/// MetaGraph without variables needs none, as in TensorFlow); FailedPrecondition "Expected exactly
/// one SavedModel init op. Found: [a, b] in collection 'legacy_init_op'"; FailedPrecondition for
/// VariableRestore::kSaverDef without a saver_def; readSavedObjectGraph's, importMetaGraph's, the
/// session's and the restore's (restoreObjectGraphVariables') errors.
Expected<std::unique_ptr<SavedModelBundle>> loadSavedModel(const std::filesystem::path& dir,
                                                           const SessionOptions& sessionOptions,
                                                           const SavedModelLoadOptions& options = {});

/// One MetaGraph of a SavedModel to write and the tags that select it.
struct SavedModelMetaGraph {
    tensorflow::MetaGraphDef metaGraph;
    std::vector<std::string> tags;
};

struct SavedModelSaveOptions {
    /// saved_model.pbtxt instead of saved_model.pb.
    bool asText = false;
    /// Files copied into assets/ as (file name there, source path); the MetaGraphs refer to them
    /// by that name in asset_file_def.
    std::vector<std::pair<std::string, std::filesystem::path>> assets;
};

/// SavedModelBuilder: add_meta_graph_and_variables for the first MetaGraph, add_meta_graph for the
/// others, then save. The variables are written once, by the first MetaGraph's saver (its
/// saver_def's save tensor run in `session` with the filename tensor fed
/// <tmp>/variables/variables, as Saver.save without state file); every MetaGraph restores from
/// that one checkpoint. Each MetaGraph gets its tags (replacing meta_info_def.tags); the file holds
/// saved_model_schema_version 1. Everything is written into a temporary directory beside `dir`,
/// which is then renamed to `dir`, so `dir` never holds half a SavedModel.
/// Errors: AlreadyExists "Export directory already exists, and isn't empty. Please choose a
/// different export directory, or delete all the contents of the specified directory: DIR";
/// InvalidArgument for no MetaGraphs or two with the same tag set; FailedPrecondition when the
/// first MetaGraph has variables but no saver_def; the save's and the file system's errors.
Status saveSavedModel(const std::filesystem::path& dir, Session& session,
                      const std::vector<SavedModelMetaGraph>& metaGraphs, const SavedModelSaveOptions& options = {});

} // namespace tstudio
