// relocatedProject: a project's name, log folder and relative paths (data, eval sources, export) after Save As.
#include "project_relocation.h"

#include <system_error>

namespace tstudio::project {
namespace {

std::filesystem::path absoluteFolder(const std::filesystem::path& file)
{
    std::error_code ec;
    const std::filesystem::path folder = file.empty() ? std::filesystem::current_path(ec) : file.parent_path();
    return std::filesystem::absolute(folder, ec).lexically_normal();
}

/// `relative` (read from `from`) as a path read from `to`; absolute and empty paths unchanged.
std::string rebased(const std::string& relative, const std::filesystem::path& from, const std::filesystem::path& to)
{
    const std::filesystem::path p(relative);
    if (relative.empty() || p.is_absolute())
        return relative;
    const std::filesystem::path target = (from / p).lexically_normal();
    const std::filesystem::path out = target.lexically_relative(to);
    return out.empty() ? target.string() : out.generic_string();
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
    if (!logdir.is_absolute() && !oldName.empty() && logdir.filename() == oldName)
        p.logdir = (logdir.parent_path() / newName).generic_string();

    const auto move = [&](std::string& path) { path = rebased(path, from, to); };
    if (!p.graph.file.empty())
        move(p.graph.file);
    if (p.dataDir)
        move(*p.dataDir);
    const auto moveSource = [&](DataSource& source) {
        if (auto* mnist = std::get_if<MnistParams>(&source.params)) {
            if (mnist->dir)
                move(*mnist->dir);
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

} // namespace tstudio::project
