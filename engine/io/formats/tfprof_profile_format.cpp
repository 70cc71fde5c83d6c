// tfprof's ProfileProto (tf.profiler.Profiler.serialize_to_string, ProfileContext's
// "profile_<step>" files): recognised by parsing it whole; the profiler reads it.
#include "io/formats/formats.h"

#include "io/formats/probe_file.h"
#include "io/formats/probe_support.h"
#include "proto/tfprof_log.pb.h"

#include <google/protobuf/unknown_field_set.h>

namespace tstudio::formats {
namespace {

bool hasUnknownFields(const google::protobuf::Message& message)
{
    return !message.GetReflection()->GetUnknownFields(message).empty();
}

/// Nodes, every one named, none with fields this schema does not know, at least one profiled.
bool plausibleProfile(const tensorflow::tfprof::ProfileProto& profile)
{
    if (profile.nodes().empty() || hasUnknownFields(profile))
        return false;
    bool executed = false;
    for (const auto& [id, node] : profile.nodes()) {
        if (node.name().empty() || hasUnknownFields(node))
            return false;
        executed = executed || !node.execs().empty();
    }
    return executed;
}

bool probeFile(ProbeFile& file, const FileKindDetectorOptions& options, FileKindReport& report)
{
    if (looksLikeText(file.head()))
        return false;
    bool text = false;
    auto profile = parseWholeFile<tensorflow::tfprof::ProfileProto>(file, options, plausibleProfile, text);
    if (!profile)
        return false;
    report.kind = FileKind::kTfprofProfile;
    report.nodeCount = profile->nodes_size();
    report.detail = "tfprof ProfileProto with " + std::to_string(profile->nodes_size()) + " nodes and " +
                    std::to_string(profile->steps_size()) + " traced step(s), opened in the profiler";
    return true;
}

} // namespace

const FormatModule& tfprofProfileFormat()
{
    static const FormatModule module{
        .name = "tfprof-profile",
        .kinds = {{FileKind::kTfprofProfile, "tfprof-profile", "tfprof profile (ProfileProto)", Viewer::kProfiler}},
        .probeFile = probeFile,
    };
    return module;
}

} // namespace tstudio::formats
