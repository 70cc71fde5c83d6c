// SavedModel directories: reading saved_model.pb/.pbtxt, choosing a MetaGraph by tags, restoring,
// init op and assets, signatures; writing one through a temporary directory.
#include "model/saved_model.h"

#include "core/log.h"
#include "io/atomic_file.h"
#include "io/formats/saved_model_format.h"
#include "io/proto_parse.h"
#include "model/object_graph_restore.h"
#include "model/restore_variables.h"
#include "model/saver.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>

#include <random>
#include <set>

namespace tstudio {
namespace {

namespace fs = std::filesystem;

std::string quote(const fs::path& p)
{
    return "'" + p.string() + "'";
}

std::string joinNames(const std::vector<std::string>& names, std::string_view separator = ", ")
{
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : std::string(separator)) + name;
    return out;
}

std::string opNameOf(const std::string& tensorName)
{
    return tensorName.substr(0, tensorName.find(':'));
}

/// The asset tensors to feed: each AssetFileDef's tensor (with the import scope) -> DIR/assets/file.
std::vector<std::pair<std::string, std::string>> assetFeeds(const fs::path& dir, const ImportedMetaGraph& imported)
{
    std::vector<tensorflow::AssetFileDef> assets = imported.assetFileDefs;
    if (assets.empty()) {
        if (auto it = imported.collections.find(std::string(saved_model::kAssetsKey));
            it != imported.collections.end()) {
            for (const google::protobuf::Any& any : it->second.def.any_list().value()) {
                tensorflow::AssetFileDef asset;
                if (any.UnpackTo(&asset))
                    assets.push_back(std::move(asset));
            }
        }
    }
    std::vector<std::pair<std::string, std::string>> feeds;
    for (const tensorflow::AssetFileDef& asset : assets)
        feeds.emplace_back(imported.scoped(asset.tensor_info().name()),
                           (dir / saved_model::kAssetsDirectory / asset.filename()).string());
    return feeds;
}

/// The init op to run after restoring: the init-op signature's output, else the single op of
/// saved_model_main_op, else of legacy_init_op; "" for none.
Expected<std::string> initOpOf(const ImportedMetaGraph& imported)
{
    if (auto it = imported.signatureDefs.find(std::string(saved_model::kInitOpSignatureKey));
        it != imported.signatureDefs.end()) {
        auto out = it->second.outputs().find(std::string(saved_model::kInitOpSignatureKey));
        if (out != it->second.outputs().end() && !out->second.name().empty())
            return imported.scoped(opNameOf(out->second.name()));
    }
    for (std::string_view key : {saved_model::kMainOpKey, saved_model::kLegacyInitOpKey}) {
        auto it = imported.collections.find(std::string(key));
        if (it == imported.collections.end())
            continue;
        const auto& ops = it->second.def.node_list().value();
        if (ops.size() != 1)
            return unexpected(failedPreconditionError("Expected exactly one SavedModel init op. Found: [" +
                                                      joinNames(std::vector<std::string>(ops.begin(), ops.end())) +
                                                      "] in collection '" + std::string(key) + "'"));
        return ops[0]; // already scoped by the import
    }
    return std::string();
}

Tensor stringScalar(Allocator& allocator, const std::string& value)
{
    auto t = Tensor::fromVector<std::string>(allocator, TensorShape::scalar(), {value});
    return std::move(*t); // a scalar of one value cannot fail
}

/// Removes a temporary directory unless released.
class TemporaryDirectory {
public:
    explicit TemporaryDirectory(fs::path path) : m_path(std::move(path)) {}
    ~TemporaryDirectory()
    {
        if (!m_path.empty()) {
            std::error_code ec;
            fs::remove_all(m_path, ec);
        }
    }
    TemporaryDirectory(const TemporaryDirectory&) = delete;
    TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
    const fs::path& path() const { return m_path; }
    void release() { m_path.clear(); }

private:
    fs::path m_path;
};

Status fileSystemError(const std::string& what, const fs::path& path, const std::error_code& ec)
{
    return unavailableError("cannot " + what + " " + quote(path) + ": " + ec.message());
}

std::string serializeDeterministic(const tensorflow::SavedModel& model)
{
    std::string out;
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    model.SerializeToCodedStream(&coded);
    coded.Trim();
    return out;
}

} // namespace

Expected<tensorflow::SavedModel> readSavedModelFile(const fs::path& dir) { return formats::readSavedModel(dir); }

std::vector<std::string> savedModelTagSets(const tensorflow::SavedModel& model)
{
    return formats::savedModelTagSets(model);
}

std::vector<SignatureInfo> signaturesOf(const tensorflow::MetaGraphDef& meta)
{
    auto tensors = [](const google::protobuf::Map<std::string, tensorflow::TensorInfo>& map) {
        std::vector<SignatureTensor> out;
        for (const auto& [key, info] : map) {
            SignatureTensor t;
            t.key = key;
            if (info.encoding_case() == tensorflow::TensorInfo::kName)
                t.tensorName = info.name();
            else if (info.encoding_case() == tensorflow::TensorInfo::kCooSparse)
                t.sparse = SignatureTensor::CooSparse{info.coo_sparse().indices_tensor_name(),
                                                      info.coo_sparse().values_tensor_name(),
                                                      info.coo_sparse().dense_shape_tensor_name()};
            t.dtype = info.dtype();
            if (info.has_tensor_shape())
                if (auto shape = TensorShape::fromProto(info.tensor_shape()))
                    t.shape = std::move(*shape);
            out.push_back(std::move(t));
        }
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
        return out;
    };
    std::vector<SignatureInfo> out;
    for (const auto& [key, def] : meta.signature_def())
        out.push_back({key, def.method_name(), tensors(def.inputs()), tensors(def.outputs())});
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    return out;
}

Expected<SignatureInfo> SavedModelBundle::signature(std::string_view key) const
{
    std::vector<SignatureInfo> all = signatures();
    std::vector<std::string> keys;
    for (SignatureInfo& info : all) {
        if (info.key == key)
            return std::move(info);
        keys.push_back(info.key);
    }
    return unexpected(
        notFoundError("Signature '" + std::string(key) + "' not found in the SavedModel's MetaGraph; " +
                      (keys.empty() ? std::string("it has no signatures") : "its signatures: " + joinNames(keys))));
}

Expected<std::map<std::string, Tensor>> SavedModelBundle::runSignature(std::string_view key,
                                                                       const std::map<std::string, Tensor>& inputs)
{
    auto info = signature(key);
    if (!info)
        return unexpected(info.error());
    const std::string where = "signature '" + info->key + "'";
    std::vector<std::string> inputKeys; // as the caller gives them: a sparse input's three components
    for (const SignatureTensor& t : info->inputs) {
        if (t.sparse) {
            for (std::string_view suffix : {saved_model::kSparseIndicesSuffix, saved_model::kSparseValuesSuffix,
                                            saved_model::kSparseDenseShapeSuffix})
                inputKeys.push_back(t.key + std::string(suffix));
        } else {
            inputKeys.push_back(t.key);
        }
    }
    for (const auto& [name, tensor] : inputs) {
        if (std::find(inputKeys.begin(), inputKeys.end(), name) == inputKeys.end())
            return unexpected(
                invalidArgumentError(where + " has no input '" + name + "'; its inputs: " + joinNames(inputKeys)));
    }
    std::vector<std::pair<std::string, Tensor>> feeds;
    for (const SignatureTensor& t : info->inputs) {
        if (t.sparse) {
            // tf.SparseTensor's components: int64 indices and dense_shape, values of the signature's dtype.
            const std::pair<std::string_view, const std::string*> parts[] = {
                {saved_model::kSparseIndicesSuffix, &t.sparse->indices},
                {saved_model::kSparseValuesSuffix, &t.sparse->values},
                {saved_model::kSparseDenseShapeSuffix, &t.sparse->denseShape}};
            for (const auto& [suffix, tensorName] : parts) {
                const std::string part = t.key + std::string(suffix);
                auto given = inputs.find(part);
                if (given == inputs.end())
                    return unexpected(invalidArgumentError("input '" + part + "' of " + where +
                                                           " (the sparse input '" + t.key + "', tensor " +
                                                           *tensorName + ") was not given"));
                const DataType expected =
                    suffix == saved_model::kSparseValuesSuffix ? t.dtype : DataType(tensorflow::DT_INT64);
                if (expected != tensorflow::DT_INVALID && given->second.dtype() != expected)
                    return unexpected(invalidArgumentError("input '" + part + "' of " + where + " expects " +
                                                           dataTypeString(expected) + " but " +
                                                           dataTypeString(given->second.dtype()) + " was given"));
                feeds.emplace_back(m_imported.scoped(*tensorName), given->second);
            }
            continue;
        }
        if (t.tensorName.empty())
            return unexpected(unimplementedError("input '" + t.key + "' of " + where +
                                                 " is a composite tensor, which is not supported"));
        auto given = inputs.find(t.key);
        if (given == inputs.end())
            return unexpected(invalidArgumentError("input '" + t.key + "' of " + where + " (tensor " + t.tensorName +
                                                   ") was not given"));
        if (t.dtype != tensorflow::DT_INVALID && given->second.dtype() != t.dtype)
            return unexpected(invalidArgumentError("input '" + t.key + "' of " + where + " expects " +
                                                   dataTypeString(t.dtype) + " but " +
                                                   dataTypeString(given->second.dtype()) + " was given"));
        feeds.emplace_back(m_imported.scoped(t.tensorName), given->second);
    }
    std::vector<std::string> fetches;
    std::vector<std::string> fetchKeys;
    for (const SignatureTensor& t : info->outputs) {
        if (t.sparse) {
            fetches.push_back(m_imported.scoped(t.sparse->indices));
            fetchKeys.push_back(t.key + std::string(saved_model::kSparseIndicesSuffix));
            fetches.push_back(m_imported.scoped(t.sparse->values));
            fetchKeys.push_back(t.key + std::string(saved_model::kSparseValuesSuffix));
            fetches.push_back(m_imported.scoped(t.sparse->denseShape));
            fetchKeys.push_back(t.key + std::string(saved_model::kSparseDenseShapeSuffix));
            continue;
        }
        if (t.tensorName.empty())
            return unexpected(unimplementedError("output '" + t.key + "' of " + where +
                                                 " is a composite tensor, which is not supported"));
        fetches.push_back(m_imported.scoped(t.tensorName));
        fetchKeys.push_back(t.key);
    }
    std::vector<Tensor> values;
    if (Status s = m_session->run(feeds, fetches, {}, &values); !s.isOk())
        return unexpected(s);
    std::map<std::string, Tensor> out;
    for (std::size_t i = 0; i < fetchKeys.size(); ++i)
        out.emplace(fetchKeys[i], std::move(values[i]));
    return out;
}

Expected<std::unique_ptr<SavedModelBundle>> loadSavedModel(const fs::path& dir, const SessionOptions& sessionOptions,
                                                           const SavedModelLoadOptions& options)
{
    auto model = readSavedModelFile(dir);
    if (!model)
        return unexpected(model.error());
    const std::set<std::string> wanted(options.tags.begin(), options.tags.end());
    const tensorflow::MetaGraphDef* chosen = nullptr;
    for (const tensorflow::MetaGraphDef& meta : model->meta_graphs()) {
        const auto& tags = meta.meta_info_def().tags();
        if (std::set<std::string>(tags.begin(), tags.end()) == wanted) {
            chosen = &meta;
            break;
        }
    }
    if (!chosen) {
        std::vector<std::string> quoted;
        for (const std::string& tag : wanted)
            quoted.push_back("'" + tag + "'");
        const std::vector<std::string> available = savedModelTagSets(*model);
        return unexpected(notFoundError("MetaGraphDef associated with tags " + joinNames(quoted) +
                                        " could not be found in SavedModel " + quote(dir) + ". Available tag sets: " +
                                        (available.empty() ? std::string("none") : joinNames(available, "; "))));
    }

    auto bundle = std::unique_ptr<SavedModelBundle>(new SavedModelBundle());
    bundle->m_dir = dir;
    bundle->m_meta = *chosen;
    {
        std::error_code ec;
        const fs::path file = dir / (fs::exists(dir / saved_model::kSavedModelPb, ec) ? saved_model::kSavedModelPb
                                                                                        : saved_model::kSavedModelPbtxt);
        auto objects = readSavedObjectGraph(*chosen, file.string());
        if (!objects)
            return unexpected(objects.error());
        bundle->m_objects = std::move(*objects);
    }
    auto imported = importMetaGraph(*chosen, {options.importScope, options.clearDevices, sessionOptions.ops});
    if (!imported)
        return unexpected(imported.error().withContext("SavedModel " + quote(dir)));
    bundle->m_imported = std::move(*imported);
    const ImportedMetaGraph& meta = bundle->m_imported;
    bundle->m_session = std::make_unique<Session>(sessionOptions);
    Session& session = *bundle->m_session;
    if (Status s = session.create(meta.graph); !s.isOk())
        return unexpected(s.withContext("SavedModel " + quote(dir)));

    // Variables: through the saver (TensorFlow's Python loader restores with the Saver that
    // import_meta_graph returns; it feeds no asset paths to the restore op).
    const fs::path prefix = dir / saved_model::kVariablesDirectory / saved_model::kVariablesFilename;
    const bool hasVariables = !meta.variables().empty();
    const bool objectVariables = !bundle->m_objects.variables.empty();
    if (options.variableRestore == VariableRestore::kSaverDef && !meta.saverDef)
        return unexpected(failedPreconditionError("SavedModel " + quote(dir) +
                                                  ": restoring through saver_def was asked for, but its MetaGraph "
                                                  "has no saver_def"));
    if (meta.saverDef || hasVariables || objectVariables) {
        std::error_code ec;
        const fs::path index = prefix.string() + ".index";
        if (!fs::exists(index, ec))
            return unexpected(notFoundError("SavedModel " + quote(dir) + " has variables but no checkpoint: file " +
                                            quote(index) + " does not exist"));
        if (objectVariables && options.variableRestore != VariableRestore::kSaverDef) {
            auto restored = restoreObjectGraphVariables(session, meta, bundle->m_meta.object_graph_def(),
                                                        bundle->m_objects, prefix.string());
            if (!restored)
                return unexpected(restored.error().withContext("SavedModel " + quote(dir)));
            for (const std::string& name : restored->withoutHandle)
                logInfo("saved_model", "The SavedModel " + quote(dir) + " has variable '" + name +
                                           "', which no node of its graph uses; it was not restored.");
        } else if (meta.saverDef) {
            auto saver = Saver::fromSaverDef(*meta.saverDef);
            if (!saver)
                return unexpected(saver.error().withContext("SavedModel " + quote(dir)));
            if (Status s = saver->restore(session, prefix.string()); !s.isOk())
                return unexpected(s);
        } else if (auto restored = restoreVariablesByName(session, prefix.string()); !restored) {
            return unexpected(restored.error());
        }
    } else {
        logInfo("saved_model", "The SavedModel " + quote(dir) + " has no variables; no checkpoint was restored.");
    }

    auto initOp = initOpOf(meta);
    if (!initOp)
        return unexpected(initOp.error());
    if (!initOp->empty()) {
        std::vector<std::pair<std::string, Tensor>> feeds;
        for (const auto& [tensor, path] : assetFeeds(dir, meta))
            feeds.emplace_back(tensor, stringScalar(bundle->m_allocator, path));
        std::vector<Tensor> none;
        if (Status s = session.run(feeds, {}, {*initOp}, &none); !s.isOk())
            return unexpected(s.withContext("SavedModel " + quote(dir) + ": init op '" + *initOp + "'"));
    }
    return bundle;
}

Status saveSavedModel(const fs::path& dir, Session& session, const std::vector<SavedModelMetaGraph>& metaGraphs,
                      const SavedModelSaveOptions& options)
{
    if (metaGraphs.empty())
        return invalidArgumentError("a SavedModel needs at least one MetaGraph; none was given for " + quote(dir));
    std::set<std::set<std::string>> tagSets;
    for (const SavedModelMetaGraph& m : metaGraphs) {
        if (!tagSets.emplace(m.tags.begin(), m.tags.end()).second)
            return invalidArgumentError("two MetaGraphs of the SavedModel " + quote(dir) + " have the tag set {" +
                                        joinNames(m.tags) + "}: loading could not tell them apart");
    }
    std::error_code ec;
    if (fs::exists(dir, ec) && (!fs::is_directory(dir, ec) || !fs::is_empty(dir, ec)))
        return Status(StatusCode::kAlreadyExists,
                      "Export directory already exists, and isn't empty. Please choose a different export directory, "
                      "or delete all the contents of the specified directory: " +
                          dir.string());
    const fs::path parent = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
    fs::create_directories(parent, ec);
    if (ec)
        return fileSystemError("create", parent, ec);

    std::random_device seed;
    TemporaryDirectory tmp(parent / ("." + dir.filename().string() + ".tmp" + std::to_string(seed() % 1000000)));
    if (!fs::create_directory(tmp.path(), ec) ||
        !fs::create_directory(tmp.path() / saved_model::kVariablesDirectory, ec))
        return fileSystemError("create", tmp.path(), ec);

    // The variables, once, through the first MetaGraph's saver (SavedModelBuilder writes them in
    // add_meta_graph_and_variables; the later MetaGraphs share that checkpoint).
    const tensorflow::MetaGraphDef& first = metaGraphs.front().metaGraph;
    auto variables = first.collection_def().find("variables");
    const bool hasVariables =
        variables != first.collection_def().end() &&
        (variables->second.bytes_list().value_size() > 0 || variables->second.node_list().value_size() > 0);
    if (first.has_saver_def()) {
        auto saver = Saver::fromSaverDef(first.saver_def());
        if (!saver)
            return saver.error();
        const fs::path prefix = tmp.path() / saved_model::kVariablesDirectory / saved_model::kVariablesFilename;
        if (auto saved = saver->save(session, prefix.string(), std::nullopt, /*writeState=*/false); !saved)
            return saved.error();
    } else if (hasVariables) {
        return failedPreconditionError("the first MetaGraph of SavedModel " + quote(dir) +
                                       " has variables but no saver_def to write them with: build a saver "
                                       "(model/saver.h) and export its SaverDef with the MetaGraph");
    }

    if (!options.assets.empty()) {
        const fs::path assets = tmp.path() / saved_model::kAssetsDirectory;
        if (!fs::create_directory(assets, ec))
            return fileSystemError("create", assets, ec);
        for (const auto& [name, source] : options.assets) {
            if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..")
                return invalidArgumentError("asset file name '" + name + "' is not a plain file name");
            if (!fs::copy_file(source, assets / name, ec))
                return ec == std::errc::no_such_file_or_directory
                           ? notFoundError("asset file " + quote(source) + " does not exist")
                           : fileSystemError("copy asset file", source, ec);
        }
    }

    tensorflow::SavedModel model;
    model.set_saved_model_schema_version(1);
    for (const SavedModelMetaGraph& m : metaGraphs) {
        tensorflow::MetaGraphDef* meta = model.add_meta_graphs();
        *meta = m.metaGraph;
        meta->mutable_meta_info_def()->clear_tags();
        for (const std::string& tag : m.tags)
            meta->mutable_meta_info_def()->add_tags(tag);
    }
    std::string bytes;
    if (options.asText) {
        if (!google::protobuf::TextFormat::PrintToString(model, &bytes))
            return internalError("cannot print the SavedModel for " + quote(dir) + " as text");
    } else {
        if (model.ByteSizeLong() > kMaxProtoMessageBytes)
            return resourceExhaustedError("SavedModel of " + std::to_string(model.ByteSizeLong()) +
                                          " bytes exceeds protobuf's 2 GiB limit; not written to " + quote(dir));
        bytes = serializeDeterministic(model);
    }
    const fs::path file = tmp.path() / (options.asText ? saved_model::kSavedModelPbtxt : saved_model::kSavedModelPb);
    if (Status s = writeFileAtomically(file, bytes); !s.isOk())
        return s;

    fs::rename(tmp.path(), dir, ec); // replaces `dir` when it is an empty directory
    if (ec)
        return fileSystemError("move the finished SavedModel to", dir, ec);
    tmp.release();
    return Status::ok();
}

} // namespace tstudio
