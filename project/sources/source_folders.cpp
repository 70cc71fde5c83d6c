// The source folders of a project as fields.
#include "project/sources/source_folders.h"

namespace tstudio::project {
namespace {

std::string fieldOf(const char* list, std::size_t i)
{
    return std::string(list) + ".sources[" + std::to_string(i) + "].dir";
}

void add(std::vector<SourceFolder>& out, const DataSource& s, const std::string& field)
{
    if (const auto* m = std::get_if<MnistParams>(&s.params); m && m->dir)
        out.push_back({field, s.type(), *m->dir, true});
    else if (const auto* c = std::get_if<Cifar10Params>(&s.params); c && c->dir)
        out.push_back({field, s.type(), *c->dir, true});
    else if (const auto* i = std::get_if<ImageFolderParams>(&s.params))
        out.push_back({field, s.type(), i->dir, false});
}

DataSource* sourceOf(Project& project, const std::string& field)
{
    for (std::size_t i = 0; i < project.sources.size(); ++i)
        if (fieldOf("data", i) == field)
            return &project.sources[i];
    if (project.eval)
        for (std::size_t i = 0; i < project.eval->sources.size(); ++i)
            if (fieldOf("eval", i) == field && !project.eval->sources[i].from)
                return &project.eval->sources[i].source;
    return nullptr;
}

} // namespace

std::vector<SourceFolder> sourceFolders(const Project& project)
{
    std::vector<SourceFolder> out;
    for (std::size_t i = 0; i < project.sources.size(); ++i)
        add(out, project.sources[i], fieldOf("data", i));
    if (project.eval)
        for (std::size_t i = 0; i < project.eval->sources.size(); ++i)
            if (!project.eval->sources[i].from)
                add(out, project.eval->sources[i].source, fieldOf("eval", i));
    return out;
}

Status setSourceFolder(Project& project, const std::string& field, const std::string& value)
{
    DataSource* s = sourceOf(project, field);
    if (auto* m = s ? std::get_if<MnistParams>(&s->params) : nullptr) {
        if (value.empty())
            m->dir.reset();
        else
            m->dir = value;
        return Status::ok();
    }
    if (auto* c = s ? std::get_if<Cifar10Params>(&s->params) : nullptr) {
        if (value.empty())
            c->dir.reset();
        else
            c->dir = value;
        return Status::ok();
    }
    if (auto* i = s ? std::get_if<ImageFolderParams>(&s->params) : nullptr) {
        if (value.empty())
            return invalidArgumentError(field + ": an image folder source needs a folder");
        i->dir = value;
        return Status::ok();
    }
    return invalidArgumentError(field + ": not a source folder of the project");
}

} // namespace tstudio::project
