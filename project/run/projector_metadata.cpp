// writeProjectorMetadata: metadata.tsv and projector_config.pbtxt for a skip_gram project's run.
#include "project/run/projector_metadata.h"

#include "io/atomic_file.h"
#include "project/sources/skip_gram_source.h"
#include "project/sources/word_text_source.h"
#include "proto/projector_config.pb.h"

#include <google/protobuf/text_format.h>

namespace tstudio::project {

Status writeProjectorMetadata(const Project& project, const tensorflow::GraphDef& graph,
                              const std::filesystem::path& logdir)
{
    const SkipGramParams* params = nullptr;
    for (const DataSource& s : project.sources)
        if ((params = std::get_if<SkipGramParams>(&s.params)))
            break;
    if (!params)
        return Status::ok();
    auto words =
        readWordFile(sourcePath(project, params->file), !std::filesystem::path(params->file).is_absolute(), false);
    if (!words)
        return words.error();
    const SkipGramVocabulary vocabulary = buildSkipGramVocabulary(*words, params->vocabSize);
    // One line per row of the model's tables: a text with fewer distinct words than vocab_size
    // leaves the rows above them untrained.
    std::string tsv;
    for (const std::string& w : vocabulary.words)
        tsv += w + "\n";
    for (auto i = static_cast<std::int64_t>(vocabulary.words.size()); i < params->vocabSize; ++i)
        tsv += "(unused)\n";
    tensorboard::projector::ProjectorConfig config;
    const std::int64_t rows = params->vocabSize;
    for (const auto& node : graph.node()) {
        if (node.op() != "VariableV2" && node.op() != "VarHandleOp")
            continue;
        const auto dtype = node.attr().find("dtype");
        const auto shape = node.attr().find("shape");
        if (dtype == node.attr().end() || dtype->second.type() != tensorflow::DT_FLOAT || shape == node.attr().end())
            continue;
        const auto& dims = shape->second.shape().dim();
        if (dims.size() != 2 || dims[0].size() != rows || dims[1].size() < 1)
            continue;
        auto* embedding = config.add_embeddings();
        embedding->set_tensor_name(node.name());
        embedding->set_metadata_path("metadata.tsv");
    }
    if (config.embeddings().empty())
        return Status::ok();
    std::string text;
    google::protobuf::TextFormat::PrintToString(config, &text);
    std::error_code ec;
    std::filesystem::create_directories(logdir, ec);
    if (Status s = writeFileAtomically(logdir / "metadata.tsv", tsv); !s.isOk())
        return s;
    return writeFileAtomically(logdir / "projector_config.pbtxt", text);
}

} // namespace tstudio::project
