// A data source's examples before shuffling and batching: two_spirals generated, mnist, cifar10,
// csv, numpy and image folders read into tensors, tfrecord files as a stream of parsed (and image-decoded)
// examples.
#include "project/sources/source_examples.h"

#include "data/cifar10.h"
#include "data/csv_decoder.h"
#include "data/example_parser.h"
#include "data/input_stream.h"
#include "data/mnist.h"
#include "core/log.h"
#include "core/try.h"
#include "project/sources/image_decoder.h"
#include "project/sources/image_folder_source.h"
#include "project/sources/image_resize.h"
#include "io/atomic_file.h"
#include "project/sources/numpy_source.h"
#include "project/format/project_json.h"
#include "project/format/setting_advice.h"
#include "two_spirals_data.h"
#include "project/sources/skip_gram_source.h"
#include "project/sources/word_text_source.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string_view>

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

/// `path` is the source's JSON path ("data.sources[0]"): a folder problem names the field to change
/// (its own "dir" when it has one, else data.dir) and leaves the remedy to the front end.
Expected<Examples> mnist(const Project& project, const MnistParams& p, const std::string& where, const std::string& path,
                         std::int64_t maxExamples, Allocator& allocator)
{
    const std::string images = p.set + "-images-idx3-ubyte";
    const std::string labelsName = p.set + "-labels-idx1-ubyte";
    const std::optional<std::string> dirText = p.dir ? p.dir : project.dataDir;
    const std::string field = p.dir ? path + ".dir" : std::string("data.dir");
    if (!dirText)
        return unexpected(invalidArgumentError(where + ": " +
                                               settingProblem(field, "not set; it must name a folder holding " + images +
                                                                         "[.gz] and " + labelsName + "[.gz]")));
    const std::filesystem::path dir = project.resolve(*dirText);
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
        return unexpected(notFoundError(where + ": " + settingProblem(field, "'" + dir.string() + "' is not a directory")));
    const auto imageFile = idxFile(dir, images);
    if (!imageFile)
        return unexpected(notFoundError(
            where + ": " + settingProblem(field, "directory '" + dir.string() + "' has no " + images + "[.gz]")));
    const auto labelFile = idxFile(dir, labelsName);
    if (!labelFile)
        return unexpected(notFoundError(
            where + ": " + settingProblem(field, "directory '" + dir.string() + "' has no " + labelsName + "[.gz]")));
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

/// The CIFAR-10 batch files of `p` (relative to its folder) read as data/cifar10.h reads them.
/// Folder problems name the field as mnist's do, and say where the data comes from.
Expected<Examples> cifar10(const Project& project, const Cifar10Params& p, const std::string& where,
                           const std::string& path, std::int64_t maxExamples, Allocator& allocator)
{
    const std::optional<std::string> dirText = p.dir ? p.dir : project.dataDir;
    const std::string field = p.dir ? path + ".dir" : std::string("data.dir");
    const std::string download = "the cifar-10-batches-bin folder of " + std::string(data::kCifar10Url);
    bool relative = false;
    for (const std::string& f : p.files)
        relative = relative || !std::filesystem::path(f).is_absolute();
    std::filesystem::path dir;
    if (relative) {
        if (!dirText)
            return unexpected(invalidArgumentError(
                where + ": " + settingProblem(field, "not set; it must name " + download + " (holding " +
                                                         p.files.front() + ")")));
        dir = project.resolve(*dirText);
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec))
            return unexpected(
                notFoundError(where + ": " + settingProblem(field, "'" + dir.string() + "' is not a directory")));
    }
    std::vector<std::filesystem::path> files;
    for (const std::string& f : p.files) {
        const std::filesystem::path file = std::filesystem::path(f).is_absolute() ? std::filesystem::path(f) : dir / f;
        std::error_code ec;
        if (!std::filesystem::path(f).is_absolute() && !std::filesystem::exists(file, ec))
            return unexpected(notFoundError(
                where + ": " + settingProblem(field, "directory '" + dir.string() + "' has no " + f +
                                                         "; it must be " + download)));
        files.push_back(file);
    }
    data::Cifar10Options options;
    options.scaleToFloat = p.scale;
    options.oneHot = p.labels == "one_hot";
    options.skip = p.skip;
    options.take = p.take;
    // A preview (maxExamples) of "all" reads no more than it shows; with a take it reads what the
    // pipeline reads, so that both report the same errors.
    if (p.take < 0 && maxExamples >= 0) {
        auto total = data::cifar10RecordCount(files);
        if (!total)
            return unexpected(total.error());
        options.take = std::max<std::int64_t>(1, std::min(maxExamples, *total - p.skip));
    }
    auto loaded = data::loadCifar10(files, allocator, options);
    if (!loaded)
        return unexpected(loaded.error());
    Examples e;
    e.names = {"images", "labels"};
    e.dtypes = {loaded->images.dtype(), loaded->labels.dtype()};
    e.shapes = {TensorShape({data::kCifar10ImageBytes}), options.oneHot ? TensorShape({10}) : TensorShape::scalar()};
    e.tensors = {loaded->images, loaded->labels};
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

/// Parses one record: its bytes, the file as the project names it, the record's index in the file.
using RecordParser =
    std::function<Expected<data::Element>(const std::string& record, const std::string& file, std::int64_t index)>;

/// The records of TFRecord files, one file after the other, each parsed by a RecordParser that knows
/// where the record came from (its errors name the source, file and record). The reader's own errors
/// (DataLoss naming the file and offset) get "<where>: '<file>' record <n>: " before them.
class ExampleFilesIterator final : public data::DatasetIterator {
public:
    ExampleFilesIterator(std::vector<std::filesystem::path> files, std::vector<std::string> labels,
                         data::Compression compression, RecordParser parse, std::string where, Allocator& allocator)
        : m_files(std::move(files)), m_labels(std::move(labels)), m_compression(compression), m_parse(std::move(parse)),
          m_where(std::move(where)), m_allocator(allocator)
    {
    }

protected:
    Expected<std::optional<data::Element>> next() override
    {
        for (;;) {
            if (!m_reader) {
                if (m_file == m_files.size())
                    return std::optional<data::Element>();
                m_reader = data::Dataset::tfRecordFiles({m_files[m_file]}, m_allocator, m_compression).makeIterator();
                m_record = 0;
            }
            auto record = m_reader->getNext();
            if (!record)
                return unexpected(record.error().withContext(m_where + ": " + recordLabel()));
            if (!*record) {
                m_reader.reset();
                ++m_file;
                continue;
            }
            auto parsed = m_parse((**record).front().strings()[0], m_labels[m_file], m_record);
            ++m_record;
            if (!parsed)
                return unexpected(parsed.error());
            return std::optional<data::Element>(std::move(*parsed));
        }
    }

private:
    std::string recordLabel() const { return "'" + m_labels[m_file] + "' record " + std::to_string(m_record); }

    std::vector<std::filesystem::path> m_files;
    std::vector<std::string> m_labels; ///< the files as the project names them
    data::Compression m_compression;
    RecordParser m_parse;
    std::string m_where; ///< the source, before every error
    Allocator& m_allocator;
    std::size_t m_file = 0;
    std::int64_t m_record = 0;
    std::unique_ptr<data::DatasetIterator> m_reader;
};

class ExampleFilesNode final : public data::DatasetNode {
public:
    ExampleFilesNode(std::vector<std::filesystem::path> files, std::vector<std::string> labels,
                     data::Compression compression, RecordParser parse, std::string where, Allocator& allocator)
        : m_files(std::move(files)), m_labels(std::move(labels)), m_compression(compression), m_parse(std::move(parse)),
          m_where(std::move(where)), m_allocator(allocator)
    {
    }
    std::unique_ptr<data::DatasetIterator> makeIterator() const override
    {
        return std::make_unique<ExampleFilesIterator>(m_files, m_labels, m_compression, m_parse, m_where,
                                                      m_allocator);
    }
    std::string describe() const override
    {
        return "TFRecord(" + std::to_string(m_files.size()) + " files) -> ParseExample";
    }
    Allocator& allocator() const override { return m_allocator; }

private:
    std::vector<std::filesystem::path> m_files;
    std::vector<std::string> m_labels;
    data::Compression m_compression;
    RecordParser m_parse;
    std::string m_where;
    Allocator& m_allocator;
};

/// A string feature's image (ImageDecodeSpec) as float32 [height, width, channels] in [0, 1]:
/// decode_image with `channels` and resize_images' bilinear when the size differs (encoded), or the
/// bytes as uint8 pixels (raw), then convert_image_dtype's uint8 -> float32 (times 1/255). `what`
/// names file, record and feature in errors.
Expected<Tensor> decodeFeatureImage(const std::string& bytes, const ImageDecodeSpec& image, const std::string& what,
                                    Allocator& allocator)
{
    const auto h = static_cast<int>(image.height);
    const auto w = static_cast<int>(image.width);
    const auto c = static_cast<int>(image.channels);
    const std::size_t count = static_cast<std::size_t>(h) * static_cast<std::size_t>(w) * static_cast<std::size_t>(c);
    constexpr float kScale = 1.0f / 255.0f;
    TSTUDIO_TRY(out, Tensor::allocateUninitialized(allocator, tensorflow::DT_FLOAT, TensorShape({h, w, c})));
    float* dst = out.values<float>().data();
    if (image.encoding == "raw") {
        if (bytes.size() != count)
            return unexpected(invalidArgumentError(what + " has " + std::to_string(bytes.size()) + " bytes; height " +
                                                   std::to_string(h) + " x width " + std::to_string(w) +
                                                   " x channels " + std::to_string(c) + " = " + std::to_string(count) +
                                                   " expected"));
        for (std::size_t i = 0; i < count; ++i)
            dst[i] = static_cast<float>(static_cast<unsigned char>(bytes[i])) * kScale;
        return out;
    }
    TSTUDIO_TRY(decoded, decodeImage(bytes, c, what));
    if (decoded.height == h && decoded.width == w) { // resize_images returns a same-size image as it is
        for (std::size_t i = 0; i < count; ++i)
            dst[i] = static_cast<float>(decoded.pixels[i]) * kScale;
        return out;
    }
    const std::vector<float> resized =
        resizeBilinear(decoded.pixels, decoded.height, decoded.width, decoded.channels, h, w, kScale);
    std::memcpy(dst, resized.data(), count * sizeof(float));
    return out;
}

Expected<Examples> tfRecords(const Project& project, const TfRecordParams& p, const std::string& where,
                             const std::string& fieldPath, Allocator& allocator)
{
    data::ExampleFeatures spec;
    Examples e;
    for (const auto& [name, f] : p.features) {
        e.names.push_back(name);
        if (f.image) {
            spec.dense.push_back(data::FixedLenFeature{name, tensorflow::DT_STRING, TensorShape::scalar(), {}});
            e.dtypes.push_back(tensorflow::DT_FLOAT);
            e.shapes.push_back(TensorShape({f.image->height, f.image->width, f.image->channels}));
            e.forms.push_back(BatchForm::kStacked);
            e.padValues.emplace_back();
            continue;
        }
        e.dtypes.push_back(f.dtype);
        if (f.varlen) {
            spec.sparse.push_back(data::VarLenFeature{name, f.dtype});
            e.shapes.push_back(TensorShape({-1}));
            e.forms.push_back(f.pad ? BatchForm::kPadded : BatchForm::kSparse);
            // A padded batch is what tf.sparse.to_dense gives: 0 / "" unless a default is set.
            Tensor pad;
            if (f.pad) {
                const json fill = !f.defaultValue.is_null() ? f.defaultValue
                                  : f.dtype == tensorflow::DT_STRING ? json("")
                                                                      : json(0);
                TSTUDIO_TRY(t, defaultTensor(fill, f.dtype, TensorShape::scalar(),
                                             fieldPath + ".features." + name + ".default", allocator));
                pad = t;
            }
            e.padValues.push_back(pad);
            continue;
        }
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
        e.shapes.push_back(feature.shape);
        e.forms.push_back(BatchForm::kStacked);
        e.padValues.emplace_back();
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
    const std::map<std::string, FeatureSpec> features = p.features;
    // parse_example on a batch of one: its errors say what was expected and what was found
    // ("Key: x, Index: 0.  Data types don't match. Data type: int64 but expected type: float").
    RecordParser parse = [spec, alloc, features, where](const std::string& record, const std::string& file,
                                                        std::int64_t index) -> Expected<data::Element> {
        const std::string at = where + ": '" + file + "' record " + std::to_string(index);
        auto parsed = data::parseExample(std::span<const std::string>(&record, 1), spec, *alloc);
        if (!parsed) {
            // The prefix names the record; the batch of one's "Name: <unknown>, " would only confuse.
            constexpr std::string_view kUnnamed = "Name: <unknown>, ";
            std::string message = parsed.error().message();
            if (message.starts_with(kUnnamed))
                message.erase(0, kUnnamed.size());
            return unexpected(Status(parsed.error().code(), at + ": " + message));
        }
        data::Element out;
        for (const auto& [name, f] : features) {
            if (f.varlen) {
                out.push_back(parsed->sparse.at(name).values);
                continue;
            }
            const Tensor& batched = parsed->dense.at(name);
            if (f.image) {
                TSTUDIO_TRY(image, decodeFeatureImage(batched.strings()[0], *f.image, at + ": feature '" + name + "'",
                                                      *alloc));
                out.push_back(std::move(image));
                continue;
            }
            TSTUDIO_TRY(one, batched.reshapedView(TensorShape(f.shape)));
            out.push_back(std::move(one));
        }
        return out;
    };
    e.stream = data::Dataset(
        std::make_shared<ExampleFilesNode>(files, p.files, compression, std::move(parse), where, allocator));
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
                               const std::string& path, std::int64_t maxExamples, Allocator& allocator)
{
    ImageFolderOptions options;
    options.height = static_cast<int>(p.height);
    options.width = static_cast<int>(p.width);
    options.channels = static_cast<int>(p.channels);
    options.oneHot = p.labels == "one_hot";
    options.classes = p.classes;
    options.maxExamples = maxExamples;
    auto loaded = loadImageFolder(sourceFiles(project, {p.dir}).front(), options, allocator);
    if (!loaded) {
        // A folder that is missing or not one is fixed by choosing another ("dir").
        const Status& e = loaded.error();
        const bool folder = e.code() == StatusCode::kNotFound || e.message().find("' is not a folder") != std::string::npos;
        return unexpected(
            folder ? Status(e.code(), where + ": " + settingProblem(path + ".dir", e.message())) : e.withContext(where));
    }
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

Expected<SourceExamples> wordTextExamples(const Project& project, const WordTextParams& params,
                                          const std::string& where, std::int64_t batchSize, Allocator& allocator)
{
    TSTUDIO_TRY(data, loadWordText(project, params, batchSize, where, allocator));
    logInfo("data", where + ": " + std::to_string(data.ids.size()) + " words, a vocabulary of " +
                        std::to_string(data.vocabulary.words.size()) + " distinct words" +
                        (params.vocabSize ? " (vocab_size " + std::to_string(*params.vocabSize) + ")" : ""));
    Examples e;
    e.names = {"x", "y"};
    e.dtypes = {tensorflow::DT_INT32, tensorflow::DT_INT32};
    e.shapes = {TensorShape({params.numSteps}), TensorShape({params.numSteps})};
    e.tensors = {std::move(data.batches.x), std::move(data.batches.y)};
    return e;
}

Expected<SourceExamples> skipGramExamples(const Project& project, const SkipGramParams& params,
                                          const std::string& where, Allocator& allocator)
{
    TSTUDIO_TRY(data, loadSkipGram(project, params, where, allocator));
    logInfo("data", where + ": " + std::to_string(data.vocabulary.ids.size()) + " words, " +
                        std::to_string(data.inputs.numElements()) + " skip-gram pairs, a vocabulary of " +
                        std::to_string(data.vocabulary.words.size()) + " words (" +
                        std::to_string(data.vocabulary.counts[0]) + " words became UNK)");
    Examples e;
    e.names = {"inputs", "labels"};
    e.dtypes = {tensorflow::DT_INT32, tensorflow::DT_INT64};
    e.shapes = {TensorShape::scalar(), TensorShape({1})};
    e.tensors = {std::move(data.inputs), std::move(data.labels)};
    return e;
}

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
        examples = mnist(project, *m, where, path, maxExamples, allocator);
    else if (const auto* t = std::get_if<TfRecordParams>(&source.params))
        examples = tfRecords(project, *t, where, projectLabel(project) + path, allocator);
    else if (const auto* c = std::get_if<CsvParams>(&source.params))
        examples = csv(project, *c, where, projectLabel(project) + path, allocator);
    else if (const auto* n = std::get_if<NumpyParams>(&source.params))
        examples = numpy(project, *n, where, source, allocator);
    else if (const auto* w = std::get_if<WordTextParams>(&source.params))
        examples = wordTextExamples(project, *w, where, project.batchSize, allocator);
    else if (const auto* g = std::get_if<SkipGramParams>(&source.params))
        examples = skipGramExamples(project, *g, where, allocator);
    else if (const auto* c = std::get_if<Cifar10Params>(&source.params))
        examples = cifar10(project, *c, where, path, maxExamples, allocator);
    else
        examples = imageFolder(project, std::get<ImageFolderParams>(source.params), where, path, maxExamples, allocator);
    if (!examples)
        return unexpected(examples.error().message().starts_with(projectLabel(project) + path)
                              ? examples.error()
                              : examples.error().withContext(where));
    return examples;
}

} // namespace tstudio::project
