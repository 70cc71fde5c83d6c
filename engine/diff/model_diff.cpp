// diffModels: two graphs or two checkpoints, compared by what they are.
#include "diff/model_diff.h"

#include "io/file_kind_detector.h"
#include "io/formats/open_graph.h"
#include "proto/graph.pb.h"

namespace tstudio::diff {
namespace {

bool isCheckpoint(FileKind kind)
{
    return kind == FileKind::kCheckpoint || kind == FileKind::kCheckpointV1 || kind == FileKind::kCheckpointState;
}

} // namespace

Expected<ModelDiff> diffModels(const std::filesystem::path& first, const std::filesystem::path& second)
{
    auto a = detectFileKind(first);
    if (!a)
        return unexpected(a.error());
    auto b = detectFileKind(second);
    if (!b)
        return unexpected(b.error());
    ModelDiff out;
    out.first = first.string();
    out.second = second.string();
    if (isCheckpoint(a->kind) && isCheckpoint(b->kind)) {
        auto readerA = CheckpointReader::open(a->checkpointPrefix.empty() ? out.first : a->checkpointPrefix);
        if (!readerA)
            return unexpected(readerA.error());
        auto readerB = CheckpointReader::open(b->checkpointPrefix.empty() ? out.second : b->checkpointPrefix);
        if (!readerB)
            return unexpected(readerB.error());
        auto d = checkpointDiff(*readerA, *readerB);
        if (!d)
            return unexpected(d.error());
        out.result = std::move(*d);
        return out;
    }
    if (isCheckpoint(a->kind) || isCheckpoint(b->kind) || a->kind == FileKind::kUnknown ||
        b->kind == FileKind::kUnknown)
        return unexpected(invalidArgumentError(
            "'" + out.first + "' is " + std::string(fileKindDescription(a->kind)) + " and '" + out.second + "' is " +
            std::string(fileKindDescription(b->kind)) + ": compare two graphs or two checkpoints"));
    auto graphA = formats::openGraph(*a);
    if (!graphA)
        return unexpected(graphA.error());
    auto graphB = formats::openGraph(*b);
    if (!graphB)
        return unexpected(graphB.error());
    out.result = graphDiff(*graphA->graph, *graphB->graph);
    return out;
}

} // namespace tstudio::diff
