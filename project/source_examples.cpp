// A data source's examples before shuffling and batching: two_spirals generated, mnist, csv, numpy
// and image folders read into tensors, tfrecord files as a stream of parsed examples.
#include "source_examples.h"

#include "data/csv_decoder.h"
#include "data/example_parser.h"
#include "data/input_stream.h"
#include "data/mnist.h"
#include "data_sources.h"
#include "image_folder_source.h"
#include "io/atomic_file.h"
#include "numpy_source.h"
#include "project_json.h"
#include "two_spirals_data.h"

#include <algorithm>
#include <cstring>

namespace tstudio::project {
namespace {

using json = nlohmann::json;

/// The most bytes of CSV text read into memory.
constexpr std::uint64_t kMaxCsvBytes = 1ull << 30;
using Examples = SourceExamples;

Expected<Tensor> labelsFromInt32(const Tensor& labels, bool oneHot, std::int64_t depth, Allocator& allocator)
{
    const auto values = labels.values<std::int32_t>();
    const auto n = static_cast<std::int64_t>(values.size());
    if (!oneHot) {
        auto out = Tensor::allocate(allocator, tensorflow::DT_INT64, TensorShape({n}));
        if (!out)
            return unexpected(out.error());
        for (std::int64_t i = 0; i < n; ++i)
            out->values<std::int64_t>()[static_cast<std::size_t>(i)] = values[static_cast<std::size_t>(i)];
        return out;
    }
    auto out = Tensor::allocate(allocator, tensorflow::DT_FLOAT, TensorShape({n, depth}));
    if (!out)
        return unexpected(out.error());
    auto dst = out->values<float>();
    std::fill(dst.begin(), dst.end(), 0.0f);
    for (std::int64_t i = 0; i < n; ++i)
        dst[static_cast<std::size_t>(i * depth + values[static_cast<std::size_t>(i)])] = 1.0f;
    return out;
}

/// Rows [begin, end) of a tensor of a plain numeric dtype.
Expected<Tensor> sliceRows(const Tensor& t, std::int64_t begin, std::int64_t end, Allocator& allocator)
{
    std::vector<std::int64_t> dims(t.shape().dims().begin(), t.shape().dims().end());
    const std::int64_t rows = dims.front();
    dims.front() = end - begin;
    auto out = Tensor::allocate(allocator, t.dtype(), TensorShape(dims));
    if (!out)
        return unexpected(out.error());
    const std::size_t rowBytes = rows == 0 ? 0 : t.totalBytes() / static_cast<std::size_t>(rows);
    if (rowBytes > 0)
        std::memcpy(out->tensorData().data(), t.tensorData().data() + static_cast<std::size_t>(begin) * rowBytes,
                    static_cast<std::size_t>(end - begin) * rowBytes);
    return out;
}

Expected<Examples> twoSpirals(const TwoSpiralsParams& p, Allocator& allocator)
{
    examples::TwoSpiralsOptions options;
    options.pointsPerClass = p.pointsPerClass;
    options.turns = p.turns;
    options.noise = p.noise;
    options.seed = static_cast<std::uint64_t>(p.seed);
    auto spirals = examples::makeTwoSpirals(allocator, options);
    if (!spirals)
        return unexpected(spirals.error());
    const bool oneHot = p.labels == "one_hot";
    auto labels = labelsFromInt32(spirals->labels, oneHot, 2, allocator);
    if (!labels)
        return unexpected(labels.error());
    Examples e;
    e.names = {"points", "labels"};
    e.dtypes = {tensorflow::DT_FLOAT, labels->dtype()};
    e.shapes = {TensorShape({2}), oneHot ? TensorShape({2}) : TensorShape::scalar()};
    e.tensors = {spirals->points, *labels};
    return e;
}

/// <dir>/<name>.gz or <dir>/<name>, or nullopt.
std::optional<std::filesystem::path> idxFile(const std::filesystem::path& dir, const std::string& name)
{
    std::error_code ec;
    for (const std::string& candidate : {name + ".gz", name}) {
        if (std::filesystem::is_regular_file(dir / candidate, ec))
            return dir / candidate;
    }
    return std::nullopt;
}

/// Rows [skip, skip + take) of every tensor (take -1: to the end), all holding `n` rows. `what`
/// says what holds them in the error ("the files", "the arrays").
Expected<std::vector<Tensor>> selectRows(std::vector<Tensor> tensors, std::int64_t n, std::int64_t skip,
                                         std::int64_t take, const std::string& where, const std::string& what,
                                         Allocator& allocator)
{
    const std::int64_t end = take < 0 ? n : skip + take;
    if (skip >= n || end > n)
        return unexpected(invalidArgumentError(
            where + ": skip " + std::to_string(skip) + " and take " + std::to_string(take) + " ask for examples " +
            std::to_string(skip) + " to " + std::to_string(end - 1) + " but " + what + " hold " + std::to_string(n)));
    if (skip == 0 && end == n)
        return tensors;
    std::vector<Tensor> out;
    for (const Tensor& t : tensors) {
        auto part = sliceRows(t, skip, end, allocator);
        if (!part)
            return unexpected(part.error());
        out.push_back(std::move(*part));
    }
    return out;
}

Expected<Examples> mnist(const Project& project, const MnistParams& p, const std::string& where,
                         std::int64_t maxExamples, Allocator& allocator)
{
    const std::string images = p.set + "-images-idx3-ubyte";
    const std::string labelsName = p.set + "-labels-idx1-ubyte";
    const std::optional<std::string> dirText = p.dir ? p.dir : project.dataDir;
    if (!dirText)
        return unexpected(invalidArgumentError(where +
                                               ": data.dir is not set; pass --set data.dir=DIR (a folder holding " +
                                               images + "[.gz] and " + labelsName + "[.gz])"));
    const std::filesystem::path dir = project.resolve(*dirText);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return unexpected(notFoundError(where + ": '" + dir.string() + "' is not a directory"));
    const auto imageFile = idxFile(dir, images);
    if (!imageFile)
        return unexpected(notFoundError(where + ": directory '" + dir.string() + "' has no " + images + "[.gz]"));
    const auto labelFile = idxFile(dir, labelsName);
    if (!labelFile)
        return unexpected(notFoundError(where + ": directory '" + dir.string() + "' has no " + labelsName + "[.gz]"));
    data::MnistOptions options;
    options.scaleToFloat = p.scale;
    options.oneHot = p.labels == "one_hot";
    // A preview (maxExamples) of "all" reads no more than it shows; with a take it reads what the
    // pipeline reads, so that both report the same errors.
    options.maxItems = p.take >= 0 ? p.skip + p.take : maxExamples >= 0 ? p.skip + maxExamples : -1;
    auto loaded = data::loadMnist(*imageFile, *labelFile, allocator, options);
    if (!loaded)
        return unexpected(loaded.error().withContext(where));
    const std::int64_t n = loaded->images.shape().dim(0);
    Examples e;
    e.names = {"images", "labels"};
    e.dtypes = {loaded->images.dtype(), loaded->labels.dtype()};
    e.shapes = {TensorShape({loaded->images.shape().dim(1)}),
                options.oneHot ? TensorShape({loaded->labels.shape().dim(1)}) : TensorShape::scalar()};
    auto rows = selectRows({loaded->images, loaded->labels}, n, p.skip, p.take, where, "the files", allocator);
    if (!rows)
        return unexpected(rows.error());
    e.tensors = std::move(*rows);
    return e;
}

/// A JSON default (a number, string, or array of them) as a tensor of `dtype` and `shape`.
Expected<Tensor> defaultTensor(const json& value, DataType dtype, const TensorShape& shape, const std::string& where,
                               Allocator& allocator)
{
    std::vector<json> items;
    if (value.is_array())
        items.assign(value.begin(), value.end());
    else
        items.push_back(value);
    auto count = shape.numElements();
    if (!count)
        return unexpected(count.error());
    if (static_cast<std::int64_t>(items.size()) != *count)
        return unexpected(invalidArgumentError(where + ": expected " + std::to_string(*count) + " values for shape " +
                                               shape.toString() + ", got " + std::to_string(items.size())));
    auto t = Tensor::allocate(allocator, dtype, shape);
    if (!t)
        return unexpected(t.error());
    for (std::size_t i = 0; i < items.size(); ++i) {
        const json& v = items[i];
        const bool ok = dtype == tensorflow::DT_STRING                                     ? v.is_string()
                        : (dtype == tensorflow::DT_INT64 || dtype == tensorflow::DT_INT32) ? v.is_number_integer()
                                                                                           : v.is_number();
        if (!ok)
            return unexpected(
                invalidArgumentError(where + ": expected " + dataTypeName(dtype) + " values, got " + describeJson(v)));
        switch (dtype) {
        case tensorflow::DT_FLOAT: t->values<float>()[i] = v.get<float>(); break;
        case tensorflow::DT_DOUBLE: t->values<double>()[i] = v.get<double>(); break;
        case tensorflow::DT_INT32: t->values<std::int32_t>()[i] = v.get<std::int32_t>(); break;
        case tensorflow::DT_INT64: t->values<std::int64_t>()[i] = v.get<std::int64_t>(); break;
        default: t->strings()[i] = v.get<std::string>(); break;
        }
    }
    return t;
}

std::vector<std::filesystem::path> sourceFiles(const Project& project, const std::vector<std::string>& files)
{
    std::vector<std::filesystem::path> out;
    for (const std::string& f : files) {
        const std::filesystem::path p(f);
        if (project.dataDir && !p.is_absolute())
            out.push_back(project.resolve(*project.dataDir) / p);
        else
            out.push_back(project.resolve(f));
    }
    return out;
}

Expected<Examples> tfRecords(const Project& project, const TfRecordParams& p, const std::string& where,
                             const std::string& fieldPath, Allocator& allocator)
{
    data::ExampleFeatures spec;
    Examples e;
    for (const auto& [name, f] : p.features) {
        data::FixedLenFeature feature;
        feature.key = name;
        feature.dtype = f.dtype;
        feature.shape = TensorShape(f.shape);
        if (!f.defaultValue.is_null()) {
            auto d = defaultTensor(f.defaultValue, f.dtype, feature.shape, fieldPath + ".features." + name + ".default",
                                   allocator);
            if (!d)
                return unexpected(d.error());
            feature.defaultValue = *d;
        }
        spec.dense.push_back(feature);
        e.names.push_back(name);
        e.dtypes.push_back(f.dtype);
        e.shapes.push_back(feature.shape);
    }
    const data::Compression compression = p.compression == "gzip"   ? data::Compression::kGzip
                                          : p.compression == "zlib" ? data::Compression::kZlib
                                                                    : data::Compression::kNone;
    const std::vector<std::filesystem::path> files = sourceFiles(project, p.files);
    std::error_code ec;
    for (const auto& f : files)
        if (!std::filesystem::is_regular_file(f, ec))
            return unexpected(notFoundError(where + ": no file '" + f.string() + "'"));
    Allocator* alloc = &allocator;
    const std::vector<std::string> names = e.names;
    e.stream = data::Dataset::tfRecordFiles(files, allocator, compression)
                   .map([spec, alloc, names, where](data::Element record) -> Expected<data::Element> {
                       auto parsed = data::parseSingleExample(record.front().strings()[0], spec, *alloc);
                       if (!parsed)
                           return unexpected(parsed.error().withContext(where));
                       data::Element out;
                       for (const std::string& n : names)
                           out.push_back(parsed->dense.at(n));
                       return out;
                   });
    return e;
}

Expected<Examples> csv(const Project& project, const CsvParams& p, const std::string& where,
                       const std::string& fieldPath, Allocator& allocator)
{
    std::vector<std::string> records;
    for (const auto& file : sourceFiles(project, p.files)) {
        auto text = readWholeFile(file, kMaxCsvBytes);
        if (!text)
            return unexpected(text.error().withContext(where));
        std::size_t pos = 0;
        bool first = true;
        while (pos < text->size()) {
            std::size_t end = text->find('\n', pos);
            if (end == std::string::npos)
                end = text->size();
            std::string line = text->substr(pos, end - pos);
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            pos = end + 1;
            if (first && p.header) {
                first = false;
                continue;
            }
            first = false;
            if (!line.empty())
                records.push_back(std::move(line));
        }
    }
    if (records.empty())
        return unexpected(invalidArgumentError(where + ": the files hold no records"));
    std::vector<Tensor> defaults;
    Examples e;
    for (const CsvColumn& c : p.columns) {
        if (c.defaultValue.is_null()) {
            auto none = Tensor::allocate(allocator, c.dtype, TensorShape({0}));
            if (!none)
                return unexpected(none.error());
            defaults.push_back(*none);
        } else {
            auto d = defaultTensor(c.defaultValue, c.dtype, TensorShape({1}),
                                   fieldPath + ".columns." + c.name + ".default", allocator);
            if (!d)
                return unexpected(d.error());
            defaults.push_back(*d);
        }
        e.names.push_back(c.name);
        e.dtypes.push_back(c.dtype);
        e.shapes.push_back(TensorShape::scalar());
    }
    data::CsvOptions options;
    options.fieldDelim = p.fieldDelim.front();
    auto columns = data::decodeCsv(records, defaults, allocator, options);
    if (!columns)
        return unexpected(columns.error().withContext(where));
    e.tensors = std::move(*columns);
    return e;
}

Expected<Examples> numpy(const Project& project, const NumpyParams& p, const std::string& where,
                         const DataSource& source, Allocator& allocator)
{
    auto arrays = loadNumpyArrays(sourceFiles(project, p.files), p.keys, allocator);
    if (!arrays)
        return unexpected(arrays.error().withContext(where));
    Examples e;
    e.names = sourceComponents(source);
    for (const Tensor& t : *arrays) {
        e.dtypes.push_back(t.dtype());
        const auto dims = t.shape().dims();
        e.shapes.push_back(TensorShape(std::vector<std::int64_t>(dims.begin() + 1, dims.end())));
    }
    const std::int64_t n = arrays->front().shape().dim(0);
    auto rows = selectRows(std::move(*arrays), n, p.skip, p.take, where, "the arrays", allocator);
    if (!rows)
        return unexpected(rows.error());
    e.tensors = std::move(*rows);
    return e;
}

Expected<Examples> imageFolder(const Project& project, const ImageFolderParams& p, const std::string& where,
                               std::int64_t maxExamples, Allocator& allocator)
{
    ImageFolderOptions options;
    options.height = static_cast<int>(p.height);
    options.width = static_cast<int>(p.width);
    options.channels = static_cast<int>(p.channels);
    options.oneHot = p.labels == "one_hot";
    options.classes = p.classes;
    options.maxExamples = maxExamples;
    auto loaded = loadImageFolder(sourceFiles(project, {p.dir}).front(), options, allocator);
    if (!loaded)
        return unexpected(loaded.error().withContext(where));
    Examples e;
    e.names = {"images", "labels"};
    e.dtypes = {tensorflow::DT_FLOAT, loaded->labels.dtype()};
    e.shapes = {TensorShape({p.height, p.width, p.channels}),
                options.oneHot ? TensorShape({static_cast<std::int64_t>(loaded->classes.size())})
                               : TensorShape::scalar()};
    e.tensors = {std::move(loaded->images), std::move(loaded->labels)};
    return e;
}

} // namespace

Expected<SourceExamples> loadSourceExamples(const Project& project, std::size_t index, Allocator& allocator,
                                            std::int64_t maxExamples)
{
    if (index >= project.sources.size())
        return unexpected(invalidArgumentError("the project has no data source " + std::to_string(index)));
    return loadSourceExamples(project, project.sources[index], "data.sources[" + std::to_string(index) + "]",
                              allocator, maxExamples);
}

Expected<SourceExamples> loadSourceExamples(const Project& project, const DataSource& source, const std::string& path,
                                            Allocator& allocator, std::int64_t maxExamples)
{
    const std::string where = projectLabel(project) + path + " (" + source.type() + ")";
    Expected<Examples> examples = unexpected(internalError("no source"));
    if (const auto* s = std::get_if<TwoSpiralsParams>(&source.params))
        examples = twoSpirals(*s, allocator);
    else if (const auto* m = std::get_if<MnistParams>(&source.params))
        examples = mnist(project, *m, where, maxExamples, allocator);
    else if (const auto* t = std::get_if<TfRecordParams>(&source.params))
        examples = tfRecords(project, *t, where, projectLabel(project) + path, allocator);
    else if (const auto* c = std::get_if<CsvParams>(&source.params))
        examples = csv(project, *c, where, projectLabel(project) + path, allocator);
    else if (const auto* n = std::get_if<NumpyParams>(&source.params))
        examples = numpy(project, *n, where, source, allocator);
    else
        examples = imageFolder(project, std::get<ImageFolderParams>(source.params), where, maxExamples, allocator);
    if (!examples)
        return unexpected(examples.error().message().starts_with(projectLabel(project) + path)
                              ? examples.error()
                              : examples.error().withContext(where));
    return examples;
}

} // namespace tstudio::project
