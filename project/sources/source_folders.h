// The folders a project's sources name themselves (beside data.dir): an mnist or cifar10 source's
// "dir" and an image_folder source's "dir", in data.sources and in eval.sources, as fields a form can show and set.
#pragma once

#include "core/status.h"
#include "project/format/project_file.h"

#include <string>
#include <vector>

namespace tstudio::project {

struct SourceFolder {
    std::string field; ///< "data.sources[0].dir", "eval.sources[1].dir"
    std::string type;  ///< the source's type ("mnist", "cifar10", "image_folder")
    std::string value; ///< as the project holds it (relative to data.dir or the .tsproj, or absolute)
    /// An mnist or cifar10 source's dir may be empty (null: it reads data.dir); an image folder's may not.
    bool optional = false;
};

/// Every source folder of `project`, data sources first: each image_folder source's, and each mnist
/// or cifar10 source's that names one (one without reads data.dir). Eval splits ({"from": i}) have none of
/// their own.
std::vector<SourceFolder> sourceFolders(const Project& project);

/// Sets the folder `field` (one of sourceFolders' fields) to `value` (an mnist or cifar10 source's ""
/// is null).
/// InvalidArgument "<field>: not a source folder of the project" for another field, "<field>: an
/// image folder source needs a folder" for an empty image folder.
Status setSourceFolder(Project& project, const std::string& field, const std::string& value);

} // namespace tstudio::project
