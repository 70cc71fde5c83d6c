// The data-source node types: their params, their components parsed from the params, and their
// placeholders.
#include "layers/data_source_nodes.h"

#include "builder/attr_values.h"
#include "builder/ops_sugar.h"
#include "core/try.h"

#include <algorithm>
#include <set>

namespace tstudio::layers {
namespace {

using tensorflow::AttrValue;
using ParamMap = std::map<std::string, AttrValue>;

LayerParam param(std::string name, AttrValue value, std::string doc, std::vector<std::string> choices = {})
{
    return LayerParam{std::move(name), std::move(value), std::move(doc), std::move(choices)};
}

LayerType sourceType(std::string type, std::string doc, std::vector<LayerParam> params,
                     std::vector<std::string> outputs)
{
    LayerType t;
    t.type = std::move(type);
    t.category = "Input";
    t.doc = std::move(doc);
    t.inputs = 0;
    t.outputs = static_cast<int>(outputs.size());
    t.params = std::move(params);
    t.outputNames = std::move(outputs);
    return t;
}

const std::vector<std::string> kLabels{"sparse", "one_hot"};

std::vector<LayerParam> skipTake()
{
    return {param("skip", attr::i(0), "Leave out the first examples."),
            param("take", attr::i(-1), "Use this many examples after skip (-1: all).")};
}

const char* kSpecDoc = "comma-separated name:dtype[:shape] entries, the shape's sizes joined by x (28x28x1; none "
                       "for a scalar)";

/// What the component list of a type accepts.
struct SpecRules {
    const char* param;
    std::vector<DataType> dtypes;
    bool shapes;
    bool defaults;
};

const SpecRules* specRules(std::string_view type)
{
    static const SpecRules numpy{"components",
                                 {tensorflow::DT_HALF, tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE, tensorflow::DT_INT8,
                                  tensorflow::DT_INT16, tensorflow::DT_INT32, tensorflow::DT_INT64,
                                  tensorflow::DT_UINT8, tensorflow::DT_UINT16, tensorflow::DT_UINT32,
                                  tensorflow::DT_UINT64, tensorflow::DT_BOOL},
                                 true,
                                 false};
    static const SpecRules csv{"columns",
                               {tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE, tensorflow::DT_INT32, tensorflow::DT_INT64,
                                tensorflow::DT_STRING},
                               false,
                               true};
    static const SpecRules tfrecord{
        "features", {tensorflow::DT_FLOAT, tensorflow::DT_INT64, tensorflow::DT_STRING}, true, true};
    if (type == "NumpySource")
        return &numpy;
    if (type == "CsvSource")
        return &csv;
    if (type == "TfRecordSource")
        return &tfrecord;
    return nullptr;
}

std::string trim(std::string_view s)
{
    const auto begin = s.find_first_not_of(" \t");
    if (begin == std::string_view::npos)
        return {};
    const auto end = s.find_last_not_of(" \t");
    return std::string(s.substr(begin, end - begin + 1));
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

/// The param as given, else its default in `type`.
const AttrValue& paramOf(const LayerType& type, const ParamMap& params, const std::string& name)
{
    return paramOrDefault(type, params, name);
}

Expected<std::vector<SourceComponent>> parseSpec(const SpecRules& rules, const std::string& text,
                                                 const std::string& label)
{
    const auto fail = [&](const std::string& what) {
        return unexpected(invalidArgumentError(label + ": param '" + rules.param + "'" + what));
    };
    std::vector<SourceComponent> out;
    std::set<std::string> names;
    const std::vector<std::string> entries = splitList(text);
    if (entries.empty())
        return fail(" is empty; expected " + std::string(kSpecDoc));
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const std::string& entry = entries[e];
        const std::string where = " entry " + std::to_string(e + 1) + " ('" + entry + "')";
        SourceComponent c;
        std::string body = entry;
        if (const auto eq = body.find('='); eq != std::string::npos) {
            if (!rules.defaults)
                return fail(where + ": defaults are not taken here");
            c.defaultValue = trim(body.substr(eq + 1));
            body = body.substr(0, eq);
            if (c.defaultValue.empty())
                return fail(where + ": '=' needs a value after it");
        }
        std::vector<std::string> parts;
        std::size_t start = 0;
        for (;;) {
            const auto colon = body.find(':', start);
            parts.push_back(trim(std::string_view(body).substr(start, colon - start)));
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
        if (parts.size() < 2 || parts.size() > 3 || parts[0].empty())
            return fail(where + ": expected name:dtype" + std::string(rules.shapes ? "[:shape]" : ""));
        c.name = parts[0];
        auto dtype = dataTypeFromName(parts[1]);
        if (!dtype || std::find(rules.dtypes.begin(), rules.dtypes.end(), *dtype) == rules.dtypes.end()) {
            std::vector<std::string> allowed;
            for (DataType t : rules.dtypes)
                allowed.push_back(dataTypeName(t));
            return fail(where + ": unknown dtype '" + parts[1] + "' (expected one of " + joined(allowed) + ")");
        }
        c.dtype = *dtype;
        c.exampleShape = TensorShape::scalar();
        if (parts.size() == 3 && !parts[2].empty()) {
            if (!rules.shapes)
                return fail(where + ": columns are scalars; no shape is taken");
            std::vector<std::int64_t> dims;
            std::size_t from = 0;
            for (;;) {
                const auto x = parts[2].find('x', from);
                const std::string dim = trim(std::string_view(parts[2]).substr(from, x - from));
                if (dim.empty() || dim.size() > 9 ||
                    !std::all_of(dim.begin(), dim.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
                    return fail(where + ": shape '" + parts[2] + "' is not sizes joined by x (e.g. 28x28)");
                dims.push_back(std::stoll(dim));
                if (x == std::string::npos)
                    break;
                from = x + 1;
            }
            c.exampleShape = TensorShape(dims);
        }
        if (!c.defaultValue.empty() && c.exampleShape.rank() != 0)
            return fail(where + ": only scalar entries take a default");
        if (!names.insert(c.name).second)
            return fail(": '" + c.name + "' is named twice");
        out.push_back(std::move(c));
    }
    return out;
}

Status checkSkipTake(const LayerType& type, const ParamMap& params, const std::string& label)
{
    const std::int64_t skip = paramOf(type, params, "skip").i();
    const std::int64_t take = paramOf(type, params, "take").i();
    if (skip < 0)
        return invalidArgumentError(label + ": param 'skip' must be 0 or more, got " + std::to_string(skip));
    if (take == 0 || take < -1)
        return invalidArgumentError(label + ": param 'take' must be -1 (all) or positive, got " + std::to_string(take));
    return Status::ok();
}

SourceComponent component(std::string name, DataType dtype, TensorShape shape)
{
    return SourceComponent{std::move(name), dtype, std::move(shape), {}};
}

SourceComponent labelsComponent(const std::string& labels, std::int64_t classes)
{
    return labels == "one_hot" ? component("labels", tensorflow::DT_FLOAT, TensorShape({classes}))
                               : component("labels", tensorflow::DT_INT64, TensorShape::scalar());
}

std::string defaultScope(std::string_view type)
{
    if (type == "MnistSource")
        return "mnist";
    if (type == "SpiralsSource")
        return "spirals";
    if (type == "ImageFolderSource")
        return "images";
    if (type == "NumpySource")
        return "numpy";
    if (type == "CsvSource")
        return "csv";
    return "tfrecord";
}

} // namespace

std::vector<std::string> splitList(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        std::string item =
            trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (!item.empty())
            out.push_back(std::move(item));
        if (comma == std::string_view::npos)
            break;
        start = comma + 1;
    }
    return out;
}

std::vector<LayerType> dataSourceLayerTypes()
{
    std::vector<LayerType> c;
    std::vector<LayerParam> mnist{
        param("dir", attr::s(""), "Folder of the idx files (empty: the project's data.dir)."),
        param("set", attr::s("train"), "train (60,000 examples) or t10k (10,000).", {"train", "t10k"})};
    for (LayerParam& p : skipTake())
        mnist.push_back(std::move(p));
    mnist.push_back(param("labels", attr::s("sparse"), "int64 class ids or float32 one-hot rows.", kLabels));
    mnist.push_back(param("scale", attr::b(true), "float32 pixels in [0, 1] (false: uint8)."));
    c.push_back(sourceType("MnistSource",
                           "MNIST idx files fed by the runner: placeholders <name>/images, <name>/labels.",
                           std::move(mnist), {"images", "labels"}));

    c.push_back(sourceType("SpiralsSource",
                           "Two interleaved spirals, generated: placeholders <name>/points, <name>/labels.",
                           {param("points_per_class", attr::i(500), "Points on each spiral."),
                            param("turns", attr::f(1.75f), "Turns of each spiral."),
                            param("noise", attr::f(0.04f), "Standard deviation of the noise on each coordinate."),
                            param("seed", attr::i(1), "Seed of the generator."),
                            param("labels", attr::s("sparse"), "int64 class ids or float32 one-hot rows.", kLabels)},
                           {"points", "labels"}));

    c.push_back(
        sourceType("ImageFolderSource",
                   "A folder with one subfolder of PNG / JPEG images per class (Keras' image_dataset_from_directory): "
                   "placeholders <name>/images, <name>/labels.",
                   {param("dir", attr::s(""), "The folder of class subfolders."),
                    param("height", attr::i(256), "Images are resized (bilinear) to this height."),
                    param("width", attr::i(256), "Images are resized (bilinear) to this width."),
                    param("channels", attr::i(3), "1 (grey) or 3 (RGB)."),
                    param("labels", attr::s("sparse"), "int64 class ids or float32 one-hot rows.", kLabels),
                    param("classes", attr::i(0), "Number of class folders (0: any; one_hot labels need it).")},
                   {"images", "labels"}));

    std::vector<LayerParam> numpy{
        param("files", attr::s(""),
              "Comma-separated .npy files (one per component, named after the file) or one .npz."),
        param("components", attr::s("x:float32:784, y:int64"),
              std::string("The arrays per example (first dimension left out): ") + kSpecDoc +
                  ". .npy files: their stems in order; .npz: its keys.")};
    for (LayerParam& p : skipTake())
        numpy.push_back(std::move(p));
    c.push_back(sourceType("NumpySource",
                           "NumPy .npy files or an .npz archive: a placeholder <name>/<array> per array.",
                           std::move(numpy), {"x", "y"}));

    c.push_back(sourceType(
        "CsvSource", "CSV text files (tf.io.decode_csv): a scalar placeholder <name>/<column> per column.",
        {param("files", attr::s(""), "Comma-separated CSV files."),
         param("header", attr::b(false), "Skip each file's first line."),
         param("field_delim", attr::s(","), "The one-character field delimiter."),
         param("columns", attr::s("x:float32, y:int64"),
               "The columns in order: comma-separated name:dtype[=default] entries (no default: required).")},
        {"x", "y"}));

    c.push_back(
        sourceType("TfRecordSource", "TFRecord files of tf.train.Example: a placeholder <name>/<feature> per feature.",
                   {param("files", attr::s(""), "Comma-separated TFRecord files."),
                    param("compression", attr::s("none"), "Compression of the files.", {"none", "zlib", "gzip"}),
                    param("features", attr::s("x:float32:784, y:int64"),
                          std::string("Fixed-length features: ") + kSpecDoc + ", =default for a scalar.")},
                   {"x", "y"}));
    return c;
}

bool isDataSourceType(std::string_view type)
{
    return type == "MnistSource" || type == "SpiralsSource" || type == "ImageFolderSource" || type == "NumpySource" ||
           type == "CsvSource" || type == "TfRecordSource";
}

Expected<std::vector<SourceComponent>> dataSourceComponents(std::string_view type, std::string_view name,
                                                            const ParamMap& params)
{
    const LayerType* t = findLayerType(type);
    const std::string label = name.empty() ? "layer (" + std::string(type) + ")"
                                           : "layer '" + std::string(name) + "' (" + std::string(type) + ")";
    if (!t || !isDataSourceType(type))
        return unexpected(invalidArgumentError(label + ": not a data-source node type"));
    const auto s = [&](const std::string& n) { return paramOf(*t, params, n).s(); };
    const auto i = [&](const std::string& n) { return paramOf(*t, params, n).i(); };
    if (type == "MnistSource") {
        if (Status st = checkSkipTake(*t, params, label); !st.isOk())
            return unexpected(st);
        const bool scale = paramOf(*t, params, "scale").b();
        return std::vector<SourceComponent>{
            component("images", scale ? tensorflow::DT_FLOAT : tensorflow::DT_UINT8, TensorShape({784})),
            labelsComponent(s("labels"), 10)};
    }
    if (type == "SpiralsSource") {
        if (i("points_per_class") <= 0)
            return unexpected(invalidArgumentError(label + ": param 'points_per_class' must be positive, got " +
                                                   std::to_string(i("points_per_class"))));
        return std::vector<SourceComponent>{component("points", tensorflow::DT_FLOAT, TensorShape({2})),
                                            labelsComponent(s("labels"), 2)};
    }
    if (type == "ImageFolderSource") {
        for (const char* side : {"height", "width"})
            if (i(side) <= 0 || i(side) > 16384)
                return unexpected(invalidArgumentError(label + ": param '" + side + "' must be in 1..16384, got " +
                                                       std::to_string(i(side))));
        if (i("channels") != 1 && i("channels") != 3)
            return unexpected(invalidArgumentError(label + ": param 'channels' must be 1 (grey) or 3 (RGB), got " +
                                                   std::to_string(i("channels"))));
        if (i("classes") < 0 || (s("labels") == "one_hot" && i("classes") == 0))
            return unexpected(invalidArgumentError(
                label + ": param 'classes' must be positive for one_hot labels (the number of class folders), got " +
                std::to_string(i("classes"))));
        return std::vector<SourceComponent>{
            component("images", tensorflow::DT_FLOAT, TensorShape({i("height"), i("width"), i("channels")})),
            labelsComponent(s("labels"), i("classes"))};
    }
    if (type == "NumpySource") {
        if (Status st = checkSkipTake(*t, params, label); !st.isOk())
            return unexpected(st);
    }
    if (type == "CsvSource" && s("field_delim").size() != 1)
        return unexpected(invalidArgumentError(label + ": param 'field_delim' must be one character, got '" +
                                               s("field_delim") + "'"));
    const SpecRules* rules = specRules(type);
    return parseSpec(*rules, s(rules->param), label);
}

std::vector<std::string> layerOutputNames(const LayerType& type, const ParamMap& params)
{
    if (!isDataSourceType(type.type))
        return type.outputNames;
    auto components = dataSourceComponents(type.type, "", params);
    if (!components)
        return type.outputNames;
    std::vector<std::string> out;
    for (const SourceComponent& c : *components)
        out.push_back(c.name);
    return out;
}

Status checkSourceBinding(std::string_view input, DataType dtype, const TensorShape& shape, std::string_view source,
                          const SourceComponent& component)
{
    const TensorShape fed = TensorShape({-1}).concatenate(component.exampleShape);
    if (dtype == component.dtype && shape.isCompatibleWith(fed))
        return Status::ok();
    std::string typed = "[-1"; // as the shape is typed in the Input's params
    for (std::int64_t d : component.exampleShape.dims())
        typed += "," + std::to_string(d);
    typed += "]";
    return invalidArgumentError(
        "Input '" + std::string(input) + "' is " + dataTypeName(dtype) + " " + shape.toString() + " but port '" +
        component.name + "' of '" + std::string(source) + "' is " + dataTypeName(component.dtype) + " " +
        fed.toString() + ": bound to it through port 'data', the Input needs dtype " + dataTypeName(component.dtype) +
        " and a shape that fits " + fed.toString() + ", such as " + typed);
}

Expected<std::vector<Output>> expandDataSource(GraphBuilder& b, std::string_view type, std::string_view name,
                                               const ParamMap& params)
{
    TSTUDIO_TRY(components, dataSourceComponents(type, name, params));
    TSTUDIO_TRY(scope, b.nameScope(name.empty() ? defaultScope(type) : std::string(name)));
    std::vector<Output> out;
    for (const SourceComponent& c : components) {
        TSTUDIO_TRY(x, ops::placeholder(b, c.dtype, TensorShape({-1}).concatenate(c.exampleShape), c.name));
        out.push_back(x);
    }
    return out;
}

} // namespace tstudio::layers
