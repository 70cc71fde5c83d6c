// The evaluation choices a form offers, turned into "eval" entries and read back from them.
#include "project/run/evaluation_form.h"

#include "builder/graph_builder.h"
#include "project/run/default_accuracy.h"
#include "graph/tensor_id.h"

#include <charconv>

namespace tstudio::project {
namespace {

std::string joined(const std::vector<std::string>& parts)
{
    std::string out;
    for (const std::string& p : parts)
        out += (out.empty() ? "" : ",") + p;
    return out;
}

std::vector<std::string> split(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos)
            comma = text.size();
        std::string part = text.substr(start, comma - start);
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        if (first != std::string::npos)
            out.push_back(part.substr(first, last - first + 1));
        start = comma + 1;
    }
    return out;
}

/// What kOther holds in `source` now (evalOtherKind's field as text).
std::string otherOf(const DataSource& source)
{
    if (const auto* w = std::get_if<WordTextParams>(&source.params))
        return w->file;
    if (const auto* m = std::get_if<MnistParams>(&source.params))
        return m->dir.value_or("");
    if (const auto* c = std::get_if<Cifar10Params>(&source.params))
        return joined(c->files);
    if (const auto* i = std::get_if<ImageFolderParams>(&source.params))
        return i->dir;
    if (const auto* n = std::get_if<NumpyParams>(&source.params))
        return joined(n->files);
    if (const auto* c = std::get_if<CsvParams>(&source.params))
        return joined(c->files);
    if (const auto* t = std::get_if<TfRecordParams>(&source.params))
        return joined(t->files);
    return std::to_string(std::get<TwoSpiralsParams>(source.params).seed);
}

std::string tensorName(const std::string& name)
{
    auto id = parseTensorId(name);
    return id && !id->isControl() ? id->node + ":" + std::to_string(id->index) : name;
}

} // namespace

std::string evalOtherKind(const DataSource& source)
{
    if (std::holds_alternative<WordTextParams>(source.params))
        return "file";
    if (std::holds_alternative<MnistParams>(source.params) || std::holds_alternative<ImageFolderParams>(source.params))
        return "dir";
    if (std::holds_alternative<TwoSpiralsParams>(source.params))
        return "seed";
    return "files";
}

std::vector<EvalDataChoice::Mode> evalModes(const DataSource& source)
{
    std::vector<EvalDataChoice::Mode> modes;
    if (splitOf(source, 0, -1))
        modes.push_back(EvalDataChoice::Mode::kSplit);
    modes.push_back(EvalDataChoice::Mode::kOther);
    modes.push_back(EvalDataChoice::Mode::kSame);
    return modes;
}

Expected<EvalSource> evalSourceFor(const Project& project, const EvalDataChoice& choice)
{
    if (choice.source >= project.sources.size())
        return unexpected(invalidArgumentError("eval.sources: the project has no data source " +
                                               std::to_string(choice.source + 1)));
    const DataSource& base = project.sources[choice.source];
    EvalSource out;
    if (choice.mode == EvalDataChoice::Mode::kSplit) {
        auto split = splitOf(base, choice.skip, choice.take);
        if (!split)
            return unexpected(invalidArgumentError("eval.sources: a " + base.type() +
                                                   " source has no skip and take to hold examples out with"));
        out.from = static_cast<std::int64_t>(choice.source);
        out.skip = choice.skip;
        out.take = choice.take;
        out.source = std::move(*split);
        return out;
    }
    out.source = base;
    if (choice.mode == EvalDataChoice::Mode::kSame)
        return out;
    const std::string kind = evalOtherKind(base);
    if (choice.other.empty())
        return unexpected(invalidArgumentError("eval.sources: name the " +
                                               std::string(kind == "seed" ? "seed" : kind == "dir" ? "folder" : kind) +
                                               " to evaluate on"));
    if (auto* w = std::get_if<WordTextParams>(&out.source.params)) {
        // The ids must mean the same words as in training: the vocabulary stays the training file's.
        if (w->vocabFile.empty() && w->vocabFrom.empty())
            w->vocabFrom = w->file;
        w->file = choice.other;
    } else if (auto* m = std::get_if<MnistParams>(&out.source.params)) {
        m->dir = choice.other;
    } else if (auto* c = std::get_if<Cifar10Params>(&out.source.params)) {
        c->files = split(choice.other);
    } else if (auto* i = std::get_if<ImageFolderParams>(&out.source.params)) {
        i->dir = choice.other;
    } else if (auto* n = std::get_if<NumpyParams>(&out.source.params)) {
        n->files = split(choice.other);
    } else if (auto* c = std::get_if<CsvParams>(&out.source.params)) {
        c->files = split(choice.other);
    } else if (auto* t = std::get_if<TfRecordParams>(&out.source.params)) {
        t->files = split(choice.other);
    } else if (auto* s = std::get_if<TwoSpiralsParams>(&out.source.params)) {
        std::int64_t seed = 0;
        const auto [end, ec] = std::from_chars(choice.other.data(), choice.other.data() + choice.other.size(), seed);
        if (ec != std::errc() || end != choice.other.data() + choice.other.size())
            return unexpected(invalidArgumentError("eval.sources: the seed must be a whole number, got '" +
                                                   choice.other + "'"));
        s->seed = seed;
    }
    return out;
}

std::optional<EvalDataChoice> evalDataChoiceOf(const Project& project, const EvalSource& eval)
{
    if (eval.from) {
        if (*eval.from < 0 || static_cast<std::size_t>(*eval.from) >= project.sources.size())
            return std::nullopt;
        return EvalDataChoice{static_cast<std::size_t>(*eval.from), EvalDataChoice::Mode::kSplit, eval.skip, eval.take, {}};
    }
    for (std::size_t i = 0; i < project.sources.size(); ++i) {
        if (project.sources[i].type() != eval.source.type())
            continue;
        if (project.sources[i] == eval.source)
            return EvalDataChoice{i, EvalDataChoice::Mode::kSame, 0, -1, {}};
        EvalDataChoice other{i, EvalDataChoice::Mode::kOther, 0, -1, otherOf(eval.source)};
        if (auto made = evalSourceFor(project, other); made && made->source == eval.source)
            return other;
    }
    return std::nullopt;
}

std::optional<ClassifierTensors> projectClassifier(const Project& project, const OpRegistry& ops)
{
    if (project.training.loss.empty())
        return std::nullopt;
    auto graph = readProjectGraph(project);
    if (!graph)
        return std::nullopt;
    GraphBuilder b(ops);
    if (!b.importGraphDef(*graph).isOk())
        return std::nullopt;
    auto classifier = classifierOfLoss(b, tensorName(project.training.loss));
    if (!classifier)
        return std::nullopt;
    return ClassifierTensors{classifier->logits, classifier->labels};
}

std::vector<std::string> evalFormMetricKinds(const Project& project, const std::optional<ClassifierTensors>& classifier)
{
    std::vector<std::string> kinds;
    if (!project.training.loss.empty())
        kinds.push_back("loss");
    if (classifier) {
        kinds.push_back("accuracy");
        kinds.push_back("top_k_accuracy");
        kinds.push_back("pr_curve");
    }
    if (!project.perplexity.empty())
        kinds.push_back("perplexity");
    return kinds;
}

EvalMetricSpec evalFormMetric(const std::string& kind, const std::optional<ClassifierTensors>& classifier, std::int64_t k)
{
    EvalMetricSpec spec;
    spec.kind = kind;
    if ((kind == "accuracy" || kind == "top_k_accuracy" || kind == "pr_curve") && classifier) {
        spec.logits = classifier->logits;
        spec.labels = classifier->labels;
    }
    if (kind == "top_k_accuracy")
        spec.k = k;
    return spec;
}

} // namespace tstudio::project
