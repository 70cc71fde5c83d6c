// Documents as projects: the document into a project's graph, editor state, training and data; and back.
#include "node_editor/document_project.h"

#include "builder/attr_values.h"
#include "core/try.h"
#include "io/formats/graph_def_io.h"
#include "graph/tensor_id.h"
#include "layers/data_source_nodes.h"
#include "layers/layer_catalog.h"
#include "node_editor/document_builder.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

namespace tstudio::node_editor {
namespace {

using nlohmann::json;

bool isOptimizerNode(const DocNode& node)
{
    if (node.kind != NodeKind::kLayer)
        return false;
    const layers::LayerType* type = layers::findLayerType(node.type);
    return type && type->category == "Training";
}

/// A layer node's string parameter, or the catalogue's default.
std::string layerString(const DocNode& node, const std::string& param)
{
    if (auto it = node.attrs.find(param); it != node.attrs.end())
        return it->second.s();
    if (const layers::LayerType* type = layers::findLayerType(node.type))
        for (const layers::LayerParam& p : type->params)
            if (p.name == param)
                return p.defaultValue.s();
    return {};
}

bool layerBool(const DocNode& node, const std::string& param, bool fallback)
{
    if (auto it = node.attrs.find(param); it != node.attrs.end())
        return it->second.b();
    return fallback;
}

/// A layer node's param as given, or the catalogue's default.
tensorflow::AttrValue layerParam(const DocNode& node, const std::string& param)
{
    if (auto it = node.attrs.find(param); it != node.attrs.end())
        return it->second;
    if (const layers::LayerType* type = layers::findLayerType(node.type))
        for (const layers::LayerParam& p : type->params)
            if (p.name == param)
                return p.defaultValue;
    return {};
}

/// A float param as the decimal it was typed as (0.04f -> 0.04, not 0.03999999910593033).
double layerNumber(const DocNode& node, const std::string& param)
{
    const tensorflow::AttrValue v = layerParam(node, param);
    if (v.value_case() == tensorflow::AttrValue::kI)
        return static_cast<double>(v.i());
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, v.f()).ptr;
    return std::strtod(std::string(text, end).c_str(), nullptr);
}
const tensorflow::NodeDef* findNodeDef(const tensorflow::GraphDef& graph, const std::string& name)
{
    for (const tensorflow::NodeDef& n : graph.node())
        if (n.name() == name)
            return &n;
    return nullptr;
}

/// The node part of a tensor name ("x:0" -> "x", "^x" and "x" -> "x").
std::string nodeOf(const std::string& tensor)
{
    auto id = parseTensorId(tensor);
    return id ? id->node : tensor;
}

std::string quoteList(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& n : names)
        out += (out.empty() ? "'" : ", '") + n + "'";
    return out;
}

/// Training from the document's optimizer node, or base's set-up checked against the graph.
Status setTraining(project::Project& p, const GraphDocument& document, const DocumentBuild& build,
                   const tensorflow::GraphDef& graph)
{
    std::vector<const DocNode*> optimizers;
    for (DocNodeId id : document.nodes())
        if (const DocNode* n = document.node(id); n && isOptimizerNode(*n))
            optimizers.push_back(n);
    if (optimizers.size() > 1) {
        std::vector<std::string> names;
        for (const DocNode* n : optimizers)
            names.push_back(n->name);
        return invalidArgumentError("the graph has " + std::to_string(optimizers.size()) + " optimizer nodes (" +
                                    quoteList(names) + "); a project trains one train op");
    }
    if (optimizers.empty()) {
        project::TrainingSetup& t = p.training;
        if (t.trainOp) {
            if (!findNodeDef(graph, nodeOf(*t.trainOp)))
                return invalidArgumentError("training.train_op: '" + *t.trainOp + "' is not in the graph any more");
        } else if (!t.optimizer) {
            return invalidArgumentError("the graph has no optimizer node, so a project cannot train it: add one from "
                                        "the palette's Training group (it names the loss to minimise)");
        }
        if (!t.loss.empty() && !findNodeDef(graph, nodeOf(t.loss)))
            return invalidArgumentError("training.loss: '" + t.loss + "' is not in the graph any more");
        return Status::ok();
    }

    const DocNode& optimizer = *optimizers.front();
    const std::string globalStep = layerString(optimizer, "global_step");
    if (globalStep == "none")
        return invalidArgumentError("optimizer '" + optimizer.name +
                                    "' has global_step 'none'; the training loop counts steps on a global step: "
                                    "set global_step to global_step or Variable");
    if (build.targets.size() != 1)
        return internalError("optimizer '" + optimizer.name + "' built " + std::to_string(build.targets.size()) +
                             " train ops");
    project::TrainingSetup t;
    t.trainOp = build.targets.front();
    const std::vector<Connection> inputs = document.inputsOf(optimizer.id);
    if (!inputs.empty() && !inputs.front().isControl()) {
        auto tensors = build.tensors.find(inputs.front().from);
        if (tensors != build.tensors.end() && inputs.front().output < static_cast<int>(tensors->second.size()))
            t.loss = tensors->second[static_cast<std::size_t>(inputs.front().output)];
    }
    if (globalStep == "Variable") {
        // The train op of minimize(loss, global_step=v) is the AssignAdd of v.
        const tensorflow::NodeDef* train = findNodeDef(graph, *t.trainOp);
        if (!train || train->op() != "AssignAdd" || train->input_size() < 1)
            return internalError("optimizer '" + optimizer.name + "': its train op does not step a variable");
        t.globalStep = nodeOf(train->input(0)) + ":0";
    }
    if (const tensorflow::NodeDef* init = findNodeDef(graph, "init"); init && init->op() == "NoOp")
        t.initOp = "init";
    p.training = std::move(t);
    return Status::ok();
}

/// A component's default as JSON: the text itself for strings, else the number it spells.
Expected<json> defaultJson(const layers::SourceComponent& c, const std::string& label)
{
    if (c.defaultValue.empty())
        return json();
    if (c.dtype == tensorflow::DT_STRING)
        return json(c.defaultValue);
    json number = json::parse(c.defaultValue, nullptr, false);
    const bool integral = c.dtype == tensorflow::DT_INT32 || c.dtype == tensorflow::DT_INT64;
    if (number.is_discarded() || !(integral ? number.is_number_integer() : number.is_number()))
        return unexpected(invalidArgumentError(label + ": '" + c.name + "' has the default '" + c.defaultValue +
                                               "', which is not " + (integral ? "an integer" : "a number")));
    return number;
}

/// The project source a data-source node stands for (the data_source_nodes.h type -> the project
/// source type of the same kind), without its feeds.
Expected<project::SourceParams> sourceParamsOf(const DocNode& node, const std::vector<layers::SourceComponent>& parts)
{
    const std::string label = "node '" + node.name + "' (" + node.type + ")";
    const auto s = [&](const std::string& p) { return layerParam(node, p).s(); };
    const auto i = [&](const std::string& p) { return layerParam(node, p).i(); };
    const auto files = [&]() -> Expected<std::vector<std::string>> {
        std::vector<std::string> list = layers::splitList(s("files"));
        if (list.empty())
            return unexpected(invalidArgumentError(label + ": param 'files' is empty; set the files to read"));
        return list;
    };
    if (node.type == "MnistSource") {
        project::MnistParams m;
        if (!s("dir").empty())
            m.dir = s("dir");
        m.set = s("set");
        m.skip = i("skip");
        m.take = i("take");
        m.labels = s("labels");
        m.scale = layerParam(node, "scale").b();
        return m;
    }
    if (node.type == "SpiralsSource") {
        project::TwoSpiralsParams t;
        t.pointsPerClass = i("points_per_class");
        t.turns = layerNumber(node, "turns");
        t.noise = layerNumber(node, "noise");
        t.seed = i("seed");
        t.labels = s("labels");
        return t;
    }
    if (node.type == "ImageFolderSource") {
        if (s("dir").empty())
            return unexpected(invalidArgumentError(label + ": param 'dir' is empty; set the folder of class folders"));
        project::ImageFolderParams f;
        f.dir = s("dir");
        f.height = i("height");
        f.width = i("width");
        f.channels = i("channels");
        f.labels = s("labels");
        if (i("classes") > 0)
            f.classes = i("classes");
        return f;
    }
    TSTUDIO_TRY(list, files());
    if (node.type == "NumpySource") {
        project::NumpyParams n;
        n.files = list;
        n.skip = i("skip");
        n.take = i("take");
        const bool archive = list.size() == 1 && std::filesystem::path(list.front()).extension() == ".npz";
        if (archive) {
            for (const layers::SourceComponent& c : parts)
                n.keys.push_back(c.name);
            return n;
        }
        if (list.size() != parts.size())
            return unexpected(invalidArgumentError(label + ": param 'files' names " + std::to_string(list.size()) +
                                                   " .npy files but param 'components' " +
                                                   std::to_string(parts.size()) + " components"));
        for (std::size_t k = 0; k < list.size(); ++k) {
            const std::string stem = std::filesystem::path(list[k]).stem().string();
            if (stem != parts[k].name)
                return unexpected(invalidArgumentError(label + ": file '" + list[k] + "' gives the component '" + stem +
                                                       "' but param 'components' names '" + parts[k].name +
                                                       "' in its place"));
        }
        return n;
    }
    if (node.type == "CsvSource") {
        project::CsvParams c;
        c.files = list;
        c.header = layerParam(node, "header").b();
        c.fieldDelim = s("field_delim");
        for (const layers::SourceComponent& part : parts) {
            TSTUDIO_TRY(fallback, defaultJson(part, label));
            c.columns.push_back(project::CsvColumn{part.name, part.dtype, fallback});
        }
        return c;
    }
    project::TfRecordParams t;
    t.files = list;
    t.compression = s("compression");
    for (const layers::SourceComponent& part : parts) {
        TSTUDIO_TRY(fallback, defaultJson(part, label));
        const auto dims = part.exampleShape.dims();
        t.features[part.name] =
            project::FeatureSpec{part.dtype, std::vector<std::int64_t>(dims.begin(), dims.end()), fallback};
    }
    return t;
}

/// The component names of a data-source node in port order (dataSourceComponents' order).
std::vector<std::string> componentNames(const DocNode& node)
{
    std::vector<std::string> out;
    if (auto parts = layers::dataSourceComponents(node.type, node.name, node.attrs))
        for (const layers::SourceComponent& c : *parts)
            out.push_back(c.name);
    return out;
}

/// The sources of the document's data nodes. A Dataset node (old documents) gets an "mnist" source
/// unless one of base's sources feeds its placeholders already. A data-source node's params are
/// its source: it replaces any source of base that feeds its placeholders (keeping that one's
/// shuffle settings), so that the node and the project never disagree.
/// `origin` says, for each source, its index in p.sources before (nullopt: added here).
Status addDatasetSources(project::Project& p, const GraphDocument& document, const DocumentBuild& build,
                         std::vector<std::optional<std::size_t>>& origin)
{
    origin.clear();
    for (std::size_t k = 0; k < p.sources.size(); ++k)
        origin.push_back(k);
    std::set<std::string> fed;
    for (const project::DataSource& s : p.sources)
        for (const auto& [placeholder, components] : s.feeds)
            fed.insert(nodeOf(placeholder));
    for (DocNodeId id : document.nodes()) {
        const DocNode* node = document.node(id);
        if (!node || node->kind != NodeKind::kLayer)
            continue;
        auto tensors = build.tensors.find(id);
        if (layers::isDataSourceType(node->type)) {
            auto made = dataSourceOfNode(*node);
            if (!made)
                return made.error();
            project::DataSource source = std::move(*made);
            const std::vector<std::string> components = componentNames(*node);
            if (tensors == build.tensors.end() || tensors->second.size() != components.size())
                return internalError("node '" + node->name + "' built " +
                                     std::to_string(tensors == build.tensors.end() ? 0 : tensors->second.size()) +
                                     " placeholders for " + std::to_string(components.size()) + " components");
            source.feeds.clear(); // the built names: the scope may have been made unique
            std::set<std::string> own;
            for (std::size_t k = 0; k < components.size(); ++k) {
                own.insert(nodeOf(tensors->second[k]));
                source.feeds[nodeOf(tensors->second[k])] = {components[k]};
            }
            // Input nodes bound to a component are fed it as well. The node's own placeholder stays
            // and stays fed even when only bindings use it (see documentProject).
            for (const SourceBinding& b : build.bindings)
                if (b.source == id)
                    source.feeds[nodeOf(b.placeholder)] = {b.component};
            // The source this node had in base is the one feeding its own placeholders.
            auto old = std::find_if(p.sources.begin(), p.sources.end(), [&](const project::DataSource& s) {
                return std::any_of(s.feeds.begin(), s.feeds.end(),
                                   [&](const auto& f) { return own.count(nodeOf(f.first)) > 0; });
            });
            if (old != p.sources.end()) {
                source.shuffleBuffer = old->shuffleBuffer;
                source.shuffleSeed = old->shuffleSeed;
            }
            const auto ours = source.feeds;
            const std::size_t index = static_cast<std::size_t>(old - p.sources.begin());
            if (old != p.sources.end()) {
                *old = std::move(source);
            } else {
                p.sources.push_back(std::move(source));
                origin.push_back(std::nullopt);
            }
            // Any other source feeding these placeholders (an Input fed by hand before it was bound)
            // would feed them twice: those feeds go, and a source left with none goes too.
            std::vector<project::DataSource> kept;
            std::vector<std::optional<std::size_t>> keptOrigin;
            for (std::size_t k = 0; k < p.sources.size(); ++k) {
                if (k != index)
                    std::erase_if(p.sources[k].feeds, [&](const auto& f) { return ours.count(nodeOf(f.first)) > 0; });
                if (!p.sources[k].feeds.empty()) {
                    kept.push_back(std::move(p.sources[k]));
                    keptOrigin.push_back(origin[k]);
                }
            }
            p.sources = std::move(kept);
            origin = std::move(keptOrigin);
            continue;
        }
        if (node->type != "Dataset")
            continue;
        if (tensors == build.tensors.end() || tensors->second.size() != 2)
            continue;
        const std::string images = nodeOf(tensors->second[0]);
        const std::string labels = nodeOf(tensors->second[1]);
        if (fed.count(images) || fed.count(labels))
            continue;
        project::MnistParams mnist;
        mnist.labels = layerString(*node, "labels");
        mnist.scale = layerBool(*node, "scale", true);
        project::DataSource source;
        source.params = mnist;
        source.feeds = {{images, {"images"}}, {labels, {"labels"}}};
        p.sources.push_back(std::move(source));
        origin.push_back(std::nullopt);
    }
    return Status::ok();
}

/// Summaries and eval splits name data sources by index: after addDatasetSources dropped or
/// replaced some, they follow their source to its new index, and an eval split is cut again from
/// the source as it is now (what reading the saved file gives back).
Status followSources(project::Project& p, const std::vector<std::optional<std::size_t>>& origin)
{
    const auto now = [&](std::int64_t before) -> std::optional<std::int64_t> {
        for (std::size_t k = 0; k < origin.size(); ++k)
            if (origin[k] && static_cast<std::int64_t>(*origin[k]) == before)
                return static_cast<std::int64_t>(k);
        return std::nullopt;
    };
    const auto gone = [](const std::string& what, std::int64_t before) {
        return invalidArgumentError(what + " reads data.sources[" + std::to_string(before) +
                                    "], whose placeholders are now fed by a data-source node; point it at that "
                                    "node's source in the Training panel or remove it");
    };
    for (std::size_t i = 0; i < p.summaries.size(); ++i) {
        project::SummarySpec& spec = p.summaries[i];
        if (!spec.source)
            continue;
        const auto index = now(*spec.source);
        if (!index)
            return gone("summaries[" + std::to_string(i) + "]", *spec.source);
        spec.source = *index;
    }
    if (!p.eval)
        return Status::ok();
    for (std::size_t i = 0; i < p.eval->sources.size(); ++i) {
        project::EvalSource& eval = p.eval->sources[i];
        if (!eval.from)
            continue;
        const std::string what = "eval.sources[" + std::to_string(i) + "]";
        const auto index = now(*eval.from);
        if (!index)
            return gone(what, *eval.from);
        auto split = project::splitOf(p.sources[static_cast<std::size_t>(*index)], eval.skip, eval.take);
        if (!split)
            return invalidArgumentError(what + " splits data.sources[" + std::to_string(*index) + "], now a " +
                                        p.sources[static_cast<std::size_t>(*index)].type() +
                                        " source; only mnist, numpy and cifar10 sources split by skip and take");
        eval.from = *index;
        eval.source = std::move(*split);
    }
    return Status::ok();
}

/// A component list entry "name:dtype[:shape][=default]" (data_source_nodes.h's syntax).
std::string specEntry(const std::string& name, DataType dtype, const std::vector<std::int64_t>& shape,
                      const json& fallback)
{
    std::string out = name + ":" + dataTypeName(dtype);
    if (!shape.empty()) {
        out += ":";
        for (std::size_t k = 0; k < shape.size(); ++k)
            out += (k ? "x" : "") + std::to_string(shape[k]);
    }
    if (!fallback.is_null())
        out += "=" + (fallback.is_string() ? fallback.get<std::string>() : fallback.dump());
    return out;
}

std::string joinedList(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

/// The params of a data-source node (a fragment NodeDef) from the project source that feeds its
/// placeholders "<name>/...": what the Training panel or --set changed in the project shows in
/// the node. The component lists keep the node's order (TFRecord features are a map).
void syncNodeFromSource(tensorflow::NodeDef& n, const project::DataSource& source)
{
    // Only params the node sets, or that now differ from their defaults, are written, so that an
    // unchanged project gives back the node exactly as it was saved.
    const layers::LayerType* layerType = layers::findLayerType(n.op());
    const auto put = [&](const std::string& name, const tensorflow::AttrValue& value) {
        auto& attrs = *n.mutable_attr();
        if (!attrs.count(name) && layerType)
            for (const layers::LayerParam& p : layerType->params)
                if (p.name == name && p.defaultValue.SerializeAsString() == value.SerializeAsString())
                    return;
        attrs[name] = value;
    };
    const std::string& type = n.op();
    if (const auto* m = std::get_if<project::MnistParams>(&source.params); m && type == "MnistSource") {
        put("dir", attr::s(m->dir.value_or("")));
        put("set", attr::s(m->set));
        put("skip", attr::i(m->skip));
        put("take", attr::i(m->take));
        put("labels", attr::s(m->labels));
        put("scale", attr::b(m->scale));
    } else if (const auto* t = std::get_if<project::TwoSpiralsParams>(&source.params); t && type == "SpiralsSource") {
        put("points_per_class", attr::i(t->pointsPerClass));
        put("turns", attr::f(static_cast<float>(t->turns)));
        put("noise", attr::f(static_cast<float>(t->noise)));
        put("seed", attr::i(t->seed));
        put("labels", attr::s(t->labels));
    } else if (const auto* f = std::get_if<project::ImageFolderParams>(&source.params);
               f && type == "ImageFolderSource") {
        put("dir", attr::s(f->dir));
        put("height", attr::i(f->height));
        put("width", attr::i(f->width));
        put("channels", attr::i(f->channels));
        put("labels", attr::s(f->labels));
        put("classes", attr::i(f->classes.value_or(0)));
    } else if (const auto* np = std::get_if<project::NumpyParams>(&source.params); np && type == "NumpySource") {
        put("files", attr::s(joinedList(np->files)));
        put("skip", attr::i(np->skip));
        put("take", attr::i(np->take));
    } else if (const auto* c = std::get_if<project::CsvParams>(&source.params); c && type == "CsvSource") {
        put("files", attr::s(joinedList(c->files)));
        put("header", attr::b(c->header));
        put("field_delim", attr::s(c->fieldDelim));
        std::vector<std::string> columns;
        for (const project::CsvColumn& col : c->columns)
            columns.push_back(specEntry(col.name, col.dtype, {}, col.defaultValue));
        put("columns", attr::s(joinedList(columns)));
    } else if (const auto* r = std::get_if<project::TfRecordParams>(&source.params); r && type == "TfRecordSource") {
        put("files", attr::s(joinedList(r->files)));
        put("compression", attr::s(r->compression));
        std::vector<std::string> order; // the node's order first, then any feature it did not name
        if (auto it = n.attr().find("features"); it != n.attr().end())
            for (const std::string& entry : layers::splitList(it->second.s()))
                if (const std::string name = entry.substr(0, entry.find(':')); r->features.count(name))
                    order.push_back(name);
        for (const auto& [name, spec] : r->features)
            if (std::find(order.begin(), order.end(), name) == order.end())
                order.push_back(name);
        std::vector<std::string> features;
        for (const std::string& name : order) {
            const project::FeatureSpec& spec = r->features.at(name);
            features.push_back(specEntry(name, spec.dtype, spec.shape, spec.defaultValue));
        }
        put("features", attr::s(joinedList(features)));
    }
}

/// `fragment` with each data-source node's params taken from the project source feeding it.
tensorflow::GraphDef withSourceParams(tensorflow::GraphDef fragment, const project::Project& project)
{
    for (tensorflow::NodeDef& n : *fragment.mutable_node()) {
        if (!layers::isDataSourceType(n.op()) || !n.attr().count(std::string(kLayerMarkerAttr)))
            continue;
        const std::string prefix = n.name() + "/";
        for (const project::DataSource& s : project.sources) {
            const bool feedsNode = std::any_of(s.feeds.begin(), s.feeds.end(), [&](const auto& f) {
                const std::string node = nodeOf(f.first);
                return node.compare(0, prefix.size(), prefix) == 0 &&
                       node.find('/', prefix.size()) == std::string::npos;
            });
            if (feedsNode) {
                syncNodeFromSource(n, s);
                break;
            }
        }
    }
    return fragment;
}

json positionsJson(const std::map<std::string, QPointF>& positions)
{
    json out = json::object();
    for (const auto& [name, pos] : positions)
        out[name] = json::array({pos.x(), pos.y()});
    return out;
}

std::map<std::string, QPointF> readPositions(const json& value, std::vector<std::string>& warnings)
{
    std::map<std::string, QPointF> out;
    if (!value.is_object()) {
        if (!value.is_null())
            warnings.push_back(
                "settings.editor.positions: expected an object of [x, y] pairs; nodes are laid out again");
        return out;
    }
    int bad = 0;
    for (const auto& [name, xy] : value.items()) {
        if (xy.is_array() && xy.size() == 2 && xy[0].is_number() && xy[1].is_number() &&
            std::isfinite(xy[0].get<double>()) && std::isfinite(xy[1].get<double>()))
            out[name] = QPointF(xy[0].get<double>(), xy[1].get<double>());
        else
            ++bad;
    }
    if (bad > 0)
        warnings.push_back("settings.editor.positions: " + std::to_string(bad) +
                           " entries are not [x, y] numbers; those nodes are laid out again");
    return out;
}

/// "collapsed" and "auto_layout" of settings.editor; nullopt (with a warning when malformed) when
/// there is no view state to restore.
std::optional<EditorView> readView(const json& editor, std::vector<std::string>& warnings)
{
    if (!editor.contains("collapsed") && !editor.contains("auto_layout"))
        return std::nullopt;
    EditorView view;
    const json collapsed = editor.value("collapsed", json::array());
    const json autoLayout = editor.value("auto_layout", json(false));
    if (!collapsed.is_array() ||
        !std::all_of(collapsed.begin(), collapsed.end(), [](const json& s) { return s.is_string(); }) ||
        !autoLayout.is_boolean()) {
        warnings.push_back("settings.editor: \"collapsed\" must be an array of scope names and \"auto_layout\" "
                           "true or false; every scope is shown expanded");
        return std::nullopt;
    }
    for (const json& scope : collapsed)
        view.collapsedScopes.insert(scope.get<std::string>());
    view.autoLayout = autoLayout.get<bool>();
    return view;
}

} // namespace

Expected<project::DataSource> dataSourceOfNode(const DocNode& node)
{
    if (node.kind != NodeKind::kLayer || !layers::isDataSourceType(node.type))
        return unexpected(
            invalidArgumentError("node '" + node.name + "' (" + node.type + ") is not a data-source node"));
    auto parts = layers::dataSourceComponents(node.type, node.name, node.attrs);
    if (!parts)
        return unexpected(parts.error());
    auto params = sourceParamsOf(node, *parts);
    if (!params)
        return unexpected(params.error());
    project::DataSource source;
    source.params = std::move(*params);
    for (const layers::SourceComponent& c : *parts)
        source.feeds[node.name + "/" + c.name] = {c.name};
    return source;
}

namespace {

/// `graph` as the document keeps it: without the "_output_shapes" attrs tf.train.export_meta_graph
/// adds, and its nodes by name (the document orders a loop's nodes its own way; order means nothing).
tensorflow::GraphDef comparable(tensorflow::GraphDef graph)
{
    for (tensorflow::NodeDef& node : *graph.mutable_node())
        node.mutable_attr()->erase("_output_shapes");
    std::sort(graph.mutable_node()->begin(), graph.mutable_node()->end(),
              [](const tensorflow::NodeDef& a, const tensorflow::NodeDef& b) { return a.name() < b.name(); });
    return graph;
}

/// Whether `built` is the graph of the project's graph file (read again; unreadable: no).
bool sameGraphAsFile(const project::Project& project, const tensorflow::GraphDef& built)
{
    auto original = project::readProjectGraph(project);
    return original && google::protobuf::util::MessageDifferencer::Equals(comparable(*original), comparable(built));
}

} // namespace

project::Project newProject(const std::string& name)
{
    project::Project p;
    p.name = name;
    p.logdir = "runs/" + (name.empty() ? std::string("model") : name);
    return p;
}

Expected<project::Project> documentProject(const GraphDocument& document, const OpRegistry& ops, project::Project base,
                                           const EditorView& view)
{
    auto built = buildDocumentGraph(document, ops);
    if (!built)
        return unexpected(built.error());
    if (Status s = setTraining(base, document, built->build, built->graph); !s.isOk())
        return unexpected(s);
    std::vector<std::optional<std::size_t>> origin;
    if (Status s = addDatasetSources(base, document, built->build, origin); !s.isOk())
        return unexpected(s);
    if (Status s = followSources(base, origin); !s.isOk())
        return unexpected(s);

    auto text = serializeGraphDef(built->graph, GraphDefFormat::kText);
    if (!text)
        return unexpected(text.error());
    // A graph file the document has not changed stays the project's graph: a MetaGraphDef's
    // collections (the while-loop contexts gradients through a loop need, queue runners,
    // summaries) would be lost in an inline GraphDef.
    if (base.graph.file.empty() || !sameGraphAsFile(base, built->graph))
        base.graph = project::GraphSource{"", *text};

    const auto ids = document.nodes();
    auto fragment =
        serializeGraphDef(document.fragment(std::set<DocNodeId>(ids.begin(), ids.end())), GraphDefFormat::kText);
    if (!fragment)
        return unexpected(fragment.error());
    if (!base.settings.is_object())
        base.settings = json::object();
    // Only the scopes the document has: a collapsed scope whose nodes were deleted is no state of this graph.
    std::set<std::string> scopes;
    for (DocNodeId id : ids)
        for (std::string name = document.node(id)->name; name.rfind('/') != std::string::npos;) {
            name.resize(name.rfind('/'));
            scopes.insert(name);
        }
    json collapsed = json::array();
    for (const std::string& scope : view.collapsedScopes)
        if (scopes.count(scope) > 0)
            collapsed.push_back(scope);
    base.settings[kEditorSettingsKey] = json{{"version", kEditorSettingsVersion},
                                             {"document", *fragment},
                                             {"positions", positionsJson(document.positions())},
                                             {"collapsed", std::move(collapsed)},
                                             {"auto_layout", view.autoLayout}};
    return base;
}

Expected<EditorState> editorState(const project::Project& project, const OpRegistry& ops)
{
    auto graph = project::readProjectGraph(project);
    if (!graph)
        return unexpected(graph.error());
    EditorState state;
    state.graph = std::move(*graph);
    if (!project.settings.is_object() || !project.settings.contains(kEditorSettingsKey))
        return state;
    const json& editor = project.settings.at(kEditorSettingsKey);
    if (!editor.is_object()) {
        state.warnings.push_back("settings.editor: expected an object; the graph is shown without the editor's layout");
        return state;
    }
    if (editor.contains("version") &&
        !(editor.at("version").is_number_integer() && editor.at("version").get<int>() <= kEditorSettingsVersion))
        state.warnings.push_back("settings.editor: written by a newer TensorStudio (version " +
                                 editor.at("version").dump() + "); only the positions are used");
    state.positions = readPositions(editor.value("positions", json()), state.warnings);
    const bool positionsRead = state.warnings.empty();
    state.view = readView(editor, state.warnings); // a bad view state costs only the view
    if (!positionsRead || !editor.contains("document") || !editor.at("document").is_string())
        return state;

    auto fragment = parseGraphDef(editor.at("document").get<std::string>(), "settings.editor.document");
    if (!fragment) {
        state.warnings.push_back(fragment.error().message() + "; the graph is shown as its ops");
        return state;
    }
    // The saved document counts only while it still builds into the project's graph.
    const auto buildsTheGraph = [&](const tensorflow::GraphDef& candidate) {
        GraphDocument document(&ops);
        installLayerPorts(document);
        auto loaded = document.fromGraphDef(candidate);
        if (!loaded || !loaded->empty())
            return false;
        auto rebuilt = documentGraphDef(document, ops);
        return rebuilt && google::protobuf::util::MessageDifferencer::Equals(*rebuilt, state.graph);
    };
    // Data-source nodes show their sources as the project has them now (paths set in the Training
    // panel or by --set), as long as that still builds the same placeholders.
    tensorflow::GraphDef synced = withSourceParams(*fragment, project);
    const bool changed = !google::protobuf::util::MessageDifferencer::Equals(synced, *fragment);
    if (changed && buildsTheGraph(synced)) {
        state.graph = std::move(synced);
        state.layersKept = true;
        return state;
    }
    if (!buildsTheGraph(*fragment)) {
        state.warnings.push_back("the project's graph differs from the editor document saved with it (was it "
                                 "edited outside TensorStudio?); it is shown as TensorFlow ops, without layer nodes");
        return state;
    }
    if (changed)
        state.warnings.push_back("data.sources: a data source no longer matches the placeholders of its node in the "
                                 "graph (its dtype or shape changed); the node keeps the params it was saved with");
    state.graph = std::move(*fragment);
    state.layersKept = true;
    return state;
}

} // namespace tstudio::node_editor
