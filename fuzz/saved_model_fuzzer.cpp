// Fuzz target: a SavedModel directory (saved_model.pb plus its variables) opened as `tstudio inspect`
// and the viewer open one: detected by content (detectFileKind), its tag sets and signatures listed,
// a TensorFlow 2 object graph read and checked, every MetaGraph imported as loader.load imports it
// (then shape-inferred and placed), the variables checkpoint opened with every tensor read, and each
// object-graph variable's key looked up in the checkpoint's own object graph as the TF 2 loader
// does. Nothing is run: a SavedModel's init op is arbitrary code.
// Input: 4 bytes little-endian N, N bytes of saved_model.pb, 4 bytes little-endian M, M bytes of
// variables/variables.index, then the rest as variables/variables.data-00000-of-00001; M = 0 (or an
// input that ends early) leaves the variables folder out, as in a SavedModel without variables.
#include "fuzz_support.h"
#include "io/checkpoint/checkpoint_reader.h"
#include "io/file_kind_detector.h"
#include "io/formats/saved_model_format.h"
#include "model/meta_graph.h"
#include "model/object_graph_restore.h"
#include "model/saved_model.h"
#include "model/saved_object_graph.h"

#include <algorithm>

namespace {

/// The next 4-byte little-endian length and that many bytes (fewer where the input ends).
std::string_view nextPart(std::string_view& rest)
{
    if (rest.size() < 4)
        return rest = {};
    const auto byte = [&](int i) { return std::size_t(static_cast<unsigned char>(rest[static_cast<std::size_t>(i)])); };
    const std::size_t length = std::min(byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24, rest.size() - 4);
    const std::string_view part = rest.substr(4, length);
    rest.remove_prefix(4 + length);
    return part;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace tstudio;
    fuzz::quietLogs();
    std::string_view rest(reinterpret_cast<const char*>(data), size);
    const std::string_view model = nextPart(rest);
    const std::string_view index = nextPart(rest);
    const std::string_view shard = rest;

    const std::filesystem::path dir = fuzz::scratchDirectory() / "saved_model";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    fuzz::scratchFile("saved_model/saved_model.pb", model);
    if (!index.empty()) {
        std::filesystem::create_directories(dir / "variables");
        fuzz::scratchFile("saved_model/variables/variables.index", index);
        fuzz::scratchFile("saved_model/variables/variables.data-00000-of-00001", shard);
    }

    auto report = detectFileKind(dir);
    if (!report || report->kind != FileKind::kSavedModel)
        return 0;
    auto savedModel = formats::savedModelOf(*report);
    if (!savedModel)
        return 0;
    fuzz::require(formats::savedModelTagSets(**savedModel).size() ==
                      static_cast<std::size_t>((*savedModel)->meta_graphs_size()),
                  "a tag set per MetaGraph");

    std::vector<SavedObjectGraphInfo> objectGraphs;
    for (const tensorflow::MetaGraphDef& meta : (*savedModel)->meta_graphs()) {
        for (const SignatureInfo& signature : signaturesOf(meta))
            fuzz::require(std::is_sorted(signature.inputs.begin(), signature.inputs.end(),
                                         [](const auto& a, const auto& b) { return a.key < b.key; }),
                          "a signature's inputs out of key order");
        if (auto objects = readSavedObjectGraph(meta, (dir / "saved_model.pb").string()))
            objectGraphs.push_back(std::move(*objects));
        if (auto imported = importMetaGraph(meta))
            fuzz::checkGraph(imported->graph);
    }

    auto reader = CheckpointReader::open((dir / "variables" / "variables").string());
    if (!reader)
        return 0;
    CpuAllocator allocator(fuzz::kTensorBytesLimit);
    for (const BundleTensorInfo& info : reader->tensors()) {
        auto tensor = reader->read(info.name, allocator);
        if (tensor)
            fuzz::require(tensor->dtype() == info.dtype && tensor->shape() == info.shape,
                          "a variable read differs from its index entry");
    }
    if (auto checkpointGraph = readCheckpointObjectGraph(*reader)) {
        for (const SavedObjectGraphInfo& objects : objectGraphs)
            for (const SavedObjectVariable& variable : objects.variables)
                (void)variableCheckpointKey(variable, *checkpointGraph, reader->prefix());
    }
    return 0;
}
