// relocatedProject: a project's name, log folder and relative paths (data, eval sources, export)
// after Save As; storedLogDirectory: a chosen log folder as the project file keeps it.
#include "project/format/project_relocation.h"

#include "io/checkpoint/checkpoint_state.h"

#include <optional>
#include <system_error>

namespace tstudio::project {
namespace {

std::filesystem::path absoluteFolder(const std::filesystem::path& file)
{
    std::error_code ec;
    const std::filesystem::path folder = file.empty() ? std::filesystem::current_path(ec) : file.parent_path();
    return std::filesystem::absolute(folder, ec).lexically_normal();
}

std::filesystem::path absoluteNormal(const std::filesystem::path& p)
{
    std::error_code ec;
    const std::filesystem::path a = std::filesystem::absolute(p, ec);
    return (ec ? p : a).lexically_normal();
}

/// `target` (absolute, normalised) as a path read from `folder`; nullopt when none can be said,
/// or, with `insideOnly`, when it would climb out of `folder` ("../x").
std::optional<std::filesystem::path> relativeTo(const std::filesystem::path& target,
                                                const std::filesystem::path& folder, bool insideOnly)
{
    const std::filesystem::path relative = target.lexically_relative(folder);
    if (relative.empty() || (insideOnly && *relative.begin() == ".."))
        return std::nullopt;
    return relative;
}

/// `relative` (read from `from`) as a path read from `to`; absolute and empty paths unchanged. A
/// path the user wrote relative stays relative, "../" and all.
std::string rebased(const std::string& relative, const std::filesystem::path& from, const std::filesystem::path& to)
{
    const std::filesystem::path p(relative);
    if (relative.empty() || p.is_absolute())
        return relative;
    const std::filesystem::path target = (from / p).lexically_normal();
    const auto out = relativeTo(target, to, /*insideOnly=*/false);
    return out ? out->generic_string() : target.string();
}

/// A folder a run trained in: it holds a checkpoint state file.
bool holdsTrainedRun(const std::filesystem::path& folder)
{
    std::error_code ec;
    return std::filesystem::exists(folder / kCheckpointStateFileName, ec);
}

} // namespace

Project relocatedProject(Project p, const std::filesystem::path& newLocation)
{
    const std::filesystem::path from = absoluteFolder(p.location);
    std::error_code ec;
    const std::filesystem::path absoluteNew = std::filesystem::absolute(newLocation, ec).lexically_normal();
    const std::filesystem::path to = absoluteNew.parent_path();
    const std::string oldName = p.location.empty() ? p.name : p.location.stem().string();
    const std::string newName = absoluteNew.stem().string();

    if (p.name.empty() || p.name == oldName)
        p.name = newName;
    const std::filesystem::path logdir(p.logdir);
    const std::filesystem::path trained = (from / logdir).lexically_normal(); // logdir itself when absolute
    if (!logdir.is_absolute() && !oldName.empty() && logdir.filename() == oldName)
        p.logdir = (logdir.parent_path() / newName).generic_string();
    // The folder a run trained in stays the project's wherever the file goes (Continue goes on with it).
    if (!p.logdir.empty() && (to / p.logdir).lexically_normal() != trained && holdsTrainedRun(trained)) {
        p.location = absoluteNew;
        p.logdir = storedLogDirectory(p, trained);
    }

    const auto move = [&](std::string& path) { path = rebased(path, from, to); };
    if (!p.graph.file.empty())
        move(p.graph.file);
    if (p.dataDir)
        move(*p.dataDir);
    const auto moveSource = [&](DataSource& source) {
        if (auto* mnist = std::get_if<MnistParams>(&source.params)) {
            if (mnist->dir)
                move(*mnist->dir);
        } else if (auto* cifar = std::get_if<Cifar10Params>(&source.params)) {
            if (cifar->dir)
                move(*cifar->dir);
        } else if (!p.dataDir) {
            // Files relative to data.dir move with it; the others are read from the .tsproj's folder.
            if (auto* records = std::get_if<TfRecordParams>(&source.params))
                for (std::string& f : records->files)
                    move(f);
            else if (auto* csv = std::get_if<CsvParams>(&source.params))
                for (std::string& f : csv->files)
                    move(f);
            else if (auto* numpy = std::get_if<NumpyParams>(&source.params))
                for (std::string& f : numpy->files)
                    move(f);
            else if (auto* images = std::get_if<ImageFolderParams>(&source.params); images && !images->dir.empty())
                move(images->dir);
        }
    };
    for (DataSource& source : p.sources)
        moveSource(source);
    if (p.eval)
        for (EvalSource& source : p.eval->sources) {
            if (source.from && *source.from >= 0 && static_cast<std::size_t>(*source.from) < p.sources.size()) {
                // A split is a copy of the (moved) training source with its own skip and take.
                if (auto split = splitOf(p.sources[static_cast<std::size_t>(*source.from)], source.skip, source.take))
                    source.source = std::move(*split);
            } else {
                moveSource(source.source);
            }
        }
    if (p.exportSettings) {
        move(p.exportSettings->savedModel);
        move(p.exportSettings->frozenGraph);
    }
    p.location = absoluteNew;
    return p;
}

std::string storedLogDirectory(const Project& p, const std::filesystem::path& chosen)
{
    const std::filesystem::path absolute = absoluteNormal(chosen);
    if (!p.location.empty())
        if (const auto relative = relativeTo(absolute, absoluteNormal(p.location).parent_path(), /*insideOnly=*/true))
            return relative->generic_string();
    return absolute.generic_string();
}

} // namespace tstudio::project
