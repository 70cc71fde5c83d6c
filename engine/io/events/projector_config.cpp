#include "io/events/projector_config.h"

#include "framework/allocator.h"
#include "io/atomic_file.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/checkpoint/checkpoint_state.h"
#include "io/proto_parse.h"
#include "proto/projector_config.pb.h"

#include <charconv>
#include <optional>
#include <string_view>

namespace tstudio::events {
namespace {

namespace fs = std::filesystem;

/// Files a projector reads are at most this large (a 10,000 x 1,000 TSV is about 100 MB).
constexpr std::uint64_t kMaxProjectorFileBytes = std::uint64_t(2) << 30;

fs::path resolve(const fs::path& folder, const std::string& path)
{
    if (path.empty())
        return {};
    const fs::path p(path);
    return p.is_absolute() ? p : (folder / p).lexically_normal();
}

/// The lines of `text` without their line ends; a last empty line (the file's final newline) left out.
std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(at, end - at);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out.push_back(line);
        at = end + 1;
    }
    return out;
}

std::vector<std::string_view> fields(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t at = 0;
    for (;;) {
        const std::size_t tab = line.find('\t', at);
        out.push_back(line.substr(at, tab == std::string_view::npos ? std::string_view::npos : tab - at));
        if (tab == std::string_view::npos)
            return out;
        at = tab + 1;
    }
}

Expected<EmbeddingValues> valuesFromTsv(const fs::path& path)
{
    auto text = readWholeFile(path, kMaxProjectorFileBytes);
    if (!text)
        return unexpected(text.error());
    EmbeddingValues out;
    const auto all = lines(*text);
    for (std::size_t n = 0; n < all.size(); ++n) {
        if (all[n].empty() && n + 1 == all.size())
            break;
        const auto parts = fields(all[n]);
        if (out.rows == 0)
            out.dims = parts.size();
        else if (parts.size() != out.dims)
            return unexpected(invalidArgumentError("embedding tensor '" + path.string() + "' line " +
                                                   std::to_string(n + 1) + ": " + std::to_string(parts.size()) +
                                                   " values (the first line has " + std::to_string(out.dims) + ")"));
        for (std::string_view part : parts) {
            // Python's float() takes surrounding spaces: so do we.
            while (!part.empty() && part.front() == ' ')
                part.remove_prefix(1);
            while (!part.empty() && part.back() == ' ')
                part.remove_suffix(1);
            float v = 0;
            const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
            if (ec != std::errc() || end != part.data() + part.size())
                return unexpected(invalidArgumentError("embedding tensor '" + path.string() + "' line " +
                                                       std::to_string(n + 1) + ": '" + std::string(part) +
                                                       "' is not a number"));
            out.values.push_back(v);
        }
        ++out.rows;
    }
    if (out.rows == 0)
        return unexpected(invalidArgumentError("embedding tensor '" + path.string() + "' holds no values"));
    return out;
}

Expected<EmbeddingValues> valuesFromCheckpoint(const ProjectorConfig& config, const ProjectorEmbedding& embedding)
{
    if (config.checkpoint.empty())
        return unexpected(notFoundError("embedding '" + embedding.tensorName + "' has no tensor_path and '" +
                                        config.runFolder.string() + "' has no checkpoint to read it from"));
    std::string name = embedding.tensorName;
    if (const auto colon = name.rfind(':'); colon != std::string::npos &&
                                            name.find_first_not_of("0123456789", colon + 1) == std::string::npos)
        name.resize(colon); // "embed_var:0" is the variable embed_var
    auto reader = CheckpointReader::open(config.checkpoint.string());
    if (!reader)
        return unexpected(reader.error());
    CpuAllocator allocator;
    auto tensor = reader->read(name, allocator);
    if (!tensor)
        return unexpected(tensor.error().withContext("embedding '" + embedding.tensorName + "' in checkpoint '" +
                                                     config.checkpoint.string() + "'"));
    const int rank = tensor->shape().rank();
    if (rank != 1 && rank != 2)
        return unexpected(invalidArgumentError("embedding '" + name + "' in checkpoint '" + config.checkpoint.string() +
                                               "' has rank " + std::to_string(rank) + " (expected [N, D])"));
    EmbeddingValues out;
    out.rows = static_cast<std::size_t>(tensor->shape().dim(0));
    out.dims = rank == 2 ? static_cast<std::size_t>(tensor->shape().dim(1)) : 1;
    out.values.reserve(out.rows * out.dims);
    if (tensor->dtype() == tensorflow::DT_FLOAT) {
        for (float v : tensor->values<float>())
            out.values.push_back(v);
    } else if (tensor->dtype() == tensorflow::DT_DOUBLE) {
        for (double v : tensor->values<double>())
            out.values.push_back(static_cast<float>(v));
    } else {
        return unexpected(invalidArgumentError("embedding '" + name + "' in checkpoint '" + config.checkpoint.string() +
                                               "' is not float or double"));
    }
    return out;
}

} // namespace

Expected<ProjectorConfig> readProjectorConfig(const fs::path& runFolder)
{
    const fs::path file = runFolder / kProjectorConfigFile;
    std::error_code ec;
    if (!fs::exists(file, ec))
        return unexpected(notFoundError("'" + runFolder.string() + "' has no " + kProjectorConfigFile));
    auto text = readWholeFile(file, kMaxProjectorFileBytes);
    if (!text)
        return unexpected(text.error());
    tensorboard::projector::ProjectorConfig proto;
    std::string error;
    if (!parseTextProto(*text, proto, &error))
        return unexpected(invalidArgumentError("'" + file.string() + "' is not a ProjectorConfig: " + error));
    ProjectorConfig config;
    config.runFolder = runFolder;
    if (!proto.model_checkpoint_path().empty()) {
        config.checkpoint = resolve(runFolder, proto.model_checkpoint_path());
    } else {
        const fs::path dir = proto.model_checkpoint_dir().empty() ? runFolder
                                                                   : resolve(runFolder, proto.model_checkpoint_dir());
        if (auto latest = latestCheckpoint(dir))
            config.checkpoint = *latest;
    }
    for (const auto& e : proto.embeddings()) {
        ProjectorEmbedding embedding;
        embedding.tensorName = e.tensor_name();
        embedding.tensorPath = resolve(runFolder, e.tensor_path());
        embedding.metadataPath = resolve(runFolder, e.metadata_path());
        if (e.has_sprite()) {
            embedding.spritePath = resolve(runFolder, e.sprite().image_path());
            if (e.sprite().single_image_dim_size() >= 2) {
                embedding.spriteImageWidth = static_cast<int>(e.sprite().single_image_dim(0));
                embedding.spriteImageHeight = static_cast<int>(e.sprite().single_image_dim(1));
            }
        }
        embedding.tensorShape.assign(e.tensor_shape().begin(), e.tensor_shape().end());
        config.embeddings.push_back(std::move(embedding));
    }
    return config;
}

Expected<ProjectorConfig> readProjectorRun(const fs::path& runFolder)
{
    std::error_code ec;
    ProjectorConfig config;
    if (fs::exists(runFolder / kProjectorConfigFile, ec)) {
        auto read = readProjectorConfig(runFolder);
        if (!read)
            return unexpected(read.error());
        config = std::move(*read);
    } else {
        config.runFolder = runFolder;
        if (auto latest = latestCheckpoint(runFolder))
            config.checkpoint = *latest;
    }
    if (!config.checkpoint.empty()) {
        auto reader = CheckpointReader::open(config.checkpoint.string());
        if (!reader)
            return unexpected(reader.error().withContext("the projector's checkpoint of '" + runFolder.string() + "'"));
        // TensorBoard's "special" embedding: a first entry without a tensor name describes the rest.
        std::optional<ProjectorEmbedding> special;
        if (!config.embeddings.empty() && config.embeddings.front().tensorName.empty()) {
            special = config.embeddings.front();
            config.embeddings.erase(config.embeddings.begin());
        }
        auto named = [&](const std::string& variable) {
            for (const ProjectorEmbedding& e : config.embeddings)
                if (e.tensorName == variable || e.tensorName == variable + ":0")
                    return true;
            return false;
        };
        for (const BundleTensorInfo& t : reader->tensors()) {
            if (t.shape.rank() != 2 || (t.dtype != tensorflow::DT_FLOAT && t.dtype != tensorflow::DT_DOUBLE) ||
                t.name.find(".OPTIMIZER_SLOT") != std::string::npos || named(t.name))
                continue;
            ProjectorEmbedding e;
            if (special) {
                e.metadataPath = special->metadataPath;
                e.spritePath = special->spritePath;
                e.spriteImageWidth = special->spriteImageWidth;
                e.spriteImageHeight = special->spriteImageHeight;
            }
            e.tensorName = t.name;
            e.tensorShape = {static_cast<std::uint32_t>(t.shape.dim(0)), static_cast<std::uint32_t>(t.shape.dim(1))};
            config.embeddings.push_back(std::move(e));
        }
    }
    if (config.embeddings.empty())
        return unexpected(notFoundError("'" + runFolder.string() + "' has no " + kProjectorConfigFile +
                                        " and no checkpoint variable of rank 2"));
    return config;
}

Expected<EmbeddingValues> readEmbeddingValues(const ProjectorConfig& config, const ProjectorEmbedding& embedding)
{
    return embedding.tensorPath.empty() ? valuesFromCheckpoint(config, embedding) : valuesFromTsv(embedding.tensorPath);
}

Expected<EmbeddingMetadata> readEmbeddingMetadata(const fs::path& path, std::size_t points)
{
    auto text = readWholeFile(path, kMaxProjectorFileBytes);
    if (!text)
        return unexpected(text.error());
    auto all = lines(*text);
    if (!all.empty() && all.back().empty())
        all.pop_back();
    EmbeddingMetadata out;
    const bool header = !all.empty() && fields(all.front()).size() > 1;
    if (header) {
        for (std::string_view column : fields(all.front()))
            out.columns.emplace_back(column);
        all.erase(all.begin());
    } else {
        out.columns.push_back("label");
    }
    if (all.size() != points)
        return unexpected(invalidArgumentError("metadata '" + path.string() + "' has " + std::to_string(all.size()) +
                                               " rows for " + std::to_string(points) + " points"));
    for (std::size_t n = 0; n < all.size(); ++n) {
        auto parts = fields(all[n]);
        if (parts.size() != out.columns.size())
            return unexpected(invalidArgumentError("metadata '" + path.string() + "' line " +
                                                   std::to_string(n + 1 + (header ? 1 : 0)) + ": " +
                                                   std::to_string(parts.size()) + " columns (expected " +
                                                   std::to_string(out.columns.size()) + ")"));
        out.rows.emplace_back(parts.begin(), parts.end());
    }
    return out;
}

} // namespace tstudio::events
