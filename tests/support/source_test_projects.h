// Projects around one data source, for the data-source tests: a project whose graph is a NoOp
// trained by itself, holding `source` as its only source (JSON as a .tsproj holds it).
#pragma once

#include "core/expected.h"
#include "project/format/project_file.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <string>

namespace tstudio::test {

// (No raw strings: moc's tokenizer reads the quote characters inside one as character literals.)
inline nlohmann::json sourceProjectJson(const nlohmann::json& source, std::int64_t batchSize = 100)
{
    nlohmann::json doc =
        nlohmann::json::parse("{\"format\": \"tensorstudio-project\", \"version\": 1, \"graph\": {\"pbtxt\": "
                              "\"node { name: \\\"x\\\" op: \\\"NoOp\\\" }\"}, \"training\": {\"train_op\": \"x\"}}");
    doc["data"] = {{"sources", nlohmann::json::array({source})}};
    doc["batch_size"] = batchSize;
    return doc;
}

/// The project of `source`, located in `dir` as "x.tsproj" (relative files resolve there).
inline Expected<project::Project> sourceProject(const nlohmann::json& source, const std::filesystem::path& dir,
                                                std::int64_t batchSize = 100)
{
    auto p = project::parseProject(sourceProjectJson(source, batchSize).dump(), "x.tsproj");
    if (p)
        p->location = dir / "x.tsproj";
    return p;
}

/// parseProject's error for `source`, or "(parsed)".
inline std::string sourceParseError(const nlohmann::json& source)
{
    auto p = project::parseProject(sourceProjectJson(source).dump(), "x.tsproj");
    return p ? std::string("(parsed)") : p.error().message();
}

} // namespace tstudio::test
