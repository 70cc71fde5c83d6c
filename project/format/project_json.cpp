// JsonReader (typed reads with path-naming errors) and the data sources' JSON form.
#include "project/format/project_json.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace tstudio::project {
namespace {

using json = nlohmann::json;
using ordered = nlohmann::ordered_json;

const json* find(const json& object, const std::string& key)
{
    auto it = object.find(key);
    return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const std::string& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

/// `value` as a T when `ok`, else "<path>: expected <what>, got <value>".
template <typename T>
Expected<T> typed(const JsonReader& r, const json& value, const std::string& path, bool ok, const char* what)
{
    if (!ok)
        return unexpected(r.error(path, std::string("expected ") + what + ", got " + describeJson(value)));
    return value.get<T>();
}

/// The shared shape of the scalar key reads: an absent (or null) key takes `fallback`, or is
/// "required" without one; a present value goes through `read(value, path)`.
template <typename T, typename Read>
Expected<T> scalarKey(const JsonReader& r, const json& object, const std::string& path, const std::string& key,
                      const std::optional<T>& fallback, Read read)
{
    const std::string p = jsonChild(path, key);
    const json* v = find(object, key);
    if (!v) {
        if (!fallback)
            return unexpected(r.error(p, "required"));
        return *fallback;
    }
    return read(*v, p);
}

/// The shared shape of the list key reads: a required array (`what` names it in the error; with
/// `nonEmpty` an empty one is refused too) whose items go through `readItem(item, "<path>[i]")`.
template <typename T, typename ReadItem>
Expected<std::vector<T>> listKey(const JsonReader& r, const json& object, const std::string& path,
                                 const std::string& key, const char* what, bool nonEmpty, ReadItem readItem)
{
    const std::string p = jsonChild(path, key);
    const json* v = find(object, key);
    if (!v)
        return unexpected(r.error(p, "required"));
    if (!v->is_array() || (nonEmpty && v->empty()))
        return unexpected(r.error(p, std::string("expected ") + what + ", got " + describeJson(*v)));
    std::vector<T> out;
    for (std::size_t i = 0; i < v->size(); ++i) {
        TSTUDIO_TRY(item, readItem((*v)[i], p + "[" + std::to_string(i) + "]"));
        out.push_back(std::move(item));
    }
    return out;
}

const std::vector<DataType> kFeatureTypes = {tensorflow::DT_FLOAT, tensorflow::DT_INT64, tensorflow::DT_STRING};
const std::vector<DataType> kColumnTypes = {tensorflow::DT_FLOAT, tensorflow::DT_DOUBLE, tensorflow::DT_INT32,
                                            tensorflow::DT_INT64, tensorflow::DT_STRING};

/// "skip" (0 or more) and "take" (-1 for all, or 1 or more), as mnist, numpy and cifar10 have them.
Status readSkipTake(const JsonReader& r, const json& v, const std::string& path, std::int64_t& skip, std::int64_t& take)
{
    auto s = r.intKey(v, path, "skip", skip);
    if (!s)
        return s.error();
    auto t = r.intKey(v, path, "take", take);
    if (!t)
        return t.error();
    if (*s < 0)
        return r.error(jsonChild(path, "skip"), "expected 0 or more, got " + std::to_string(*s));
    if (*t == 0 || *t < -1)
        return r.error(jsonChild(path, "take"), "expected -1 (all) or 1 or more, got " + std::to_string(*t));
    skip = *s;
    take = *t;
    return Status::ok();
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Expected<SourceParams> readNumpy(const JsonReader& r, const json& v, const std::string& path,
                                 std::vector<std::string>& keys)
{
    keys.insert(keys.end(), {"files", "keys", "skip", "take"});
    NumpyParams p;
    TSTUDIO_TRY(files, r.stringListKey(v, path, "files"));
    const std::string fpath = jsonChild(path, "files");
    const bool archive = files.size() == 1 && endsWith(files.front(), ".npz");
    std::set<std::string> names;
    if (!archive) {
        for (std::size_t i = 0; i < files.size(); ++i) {
            const std::string item = fpath + "[" + std::to_string(i) + "]";
            if (endsWith(files[i], ".npz"))
                return unexpected(r.error(item, "an .npz archive must be the only file (its arrays are the "
                                                "components), got '" +
                                                    files[i] + "' among " + std::to_string(files.size()) + " files"));
            if (!endsWith(files[i], ".npy"))
                return unexpected(r.error(item, "expected a .npy file or one .npz archive, got '" + files[i] + "'"));
            const std::string stem = std::filesystem::path(files[i]).stem().string();
            if (stem.empty())
                return unexpected(r.error(item, "'" + files[i] + "' gives no component name"));
            if (!names.insert(stem).second)
                return unexpected(r.error(item, "component '" + stem + "' comes from two files"));
        }
        if (find(v, "keys"))
            return unexpected(r.error(jsonChild(path, "keys"), "only applies to an .npz archive (a .npy file's "
                                                               "component is named after the file)"));
    } else {
        if (!find(v, "keys"))
            return unexpected(r.error(jsonChild(path, "keys"),
                                      "required for an .npz archive: the arrays to read, e.g. [\"x\", \"y\"]"));
        TSTUDIO_TRY(arrays, r.stringListKey(v, path, "keys"));
        for (std::size_t i = 0; i < arrays.size(); ++i)
            if (arrays[i].empty() || !names.insert(arrays[i]).second)
                return unexpected(r.error(jsonChild(path, "keys") + "[" + std::to_string(i) + "]",
                                          arrays[i].empty() ? std::string("expected a non-empty name")
                                                            : "key '" + arrays[i] + "' is named twice"));
        p.keys = arrays;
    }
    p.files = files;
    if (Status s = readSkipTake(r, v, path, p.skip, p.take); !s.isOk())
        return unexpected(s);
    return p;
}

Expected<SourceParams> readImageFolder(const JsonReader& r, const json& v, const std::string& path,
                                       std::vector<std::string>& keys)
{
    keys.insert(keys.end(), {"dir", "height", "width", "channels", "labels", "classes"});
    ImageFolderParams p;
    TSTUDIO_TRY(dir, r.stringKey(v, path, "dir", std::nullopt));
    if (dir.empty())
        return unexpected(r.error(jsonChild(path, "dir"), "expected a folder with one subfolder per class"));
    TSTUDIO_TRY(height, r.positiveIntKey(v, path, "height", p.height));
    TSTUDIO_TRY(width, r.positiveIntKey(v, path, "width", p.width));
    TSTUDIO_TRY(channels, r.intKey(v, path, "channels", p.channels));
    TSTUDIO_TRY(labels, r.oneOf(v, path, "labels", {"sparse", "one_hot"}, p.labels));
    // Resized images are float32 [height, width, channels]; keep one image well inside 2^31 bytes.
    constexpr std::int64_t kMaxSide = 16384;
    if (height > kMaxSide)
        return unexpected(r.error(jsonChild(path, "height"),
                                  "expected at most " + std::to_string(kMaxSide) + ", got " + std::to_string(height)));
    if (width > kMaxSide)
        return unexpected(r.error(jsonChild(path, "width"),
                                  "expected at most " + std::to_string(kMaxSide) + ", got " + std::to_string(width)));
    if (channels != 1 && channels != 3)
        return unexpected(
            r.error(jsonChild(path, "channels"), "expected 1 (grey) or 3 (RGB), got " + std::to_string(channels)));
    p.dir = dir;
    p.height = height;
    p.width = width;
    p.channels = channels;
    p.labels = labels;
    if (find(v, "classes")) {
        TSTUDIO_TRY(classes, r.positiveIntKey(v, path, "classes", std::nullopt));
        p.classes = classes;
    }
    return p;
}

/// The components one tfrecord feature gives a batch (see FeatureSpec).
std::vector<std::string> featureComponents(const std::string& name, const FeatureSpec& f)
{
    if (f.varlen && f.pad)
        return {name, name + ".length"};
    if (f.varlen)
        return {name + ".indices", name + ".values", name + ".dense_shape"};
    return {name};
}

/// An "image" object of a tfrecord feature (ImageDecodeSpec), at `path`.
Expected<ImageDecodeSpec> readImageDecode(const JsonReader& r, const json& v, const std::string& path)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object {\"channels\", \"height\", \"width\", \"encoding\", "
                                        "\"method\"}, got " +
                                            describeJson(v)));
    if (Status s = r.checkKeys(v, path, {"channels", "height", "width", "encoding", "method"}); !s.isOk())
        return unexpected(s);
    ImageDecodeSpec image;
    TSTUDIO_TRY(channels, r.intKey(v, path, "channels", image.channels));
    if (channels != 1 && channels != 3)
        return unexpected(
            r.error(jsonChild(path, "channels"), "expected 1 (grey) or 3 (RGB), got " + std::to_string(channels)));
    TSTUDIO_TRY(height, r.positiveIntKey(v, path, "height", std::nullopt));
    TSTUDIO_TRY(width, r.positiveIntKey(v, path, "width", std::nullopt));
    // Images are float32 [height, width, channels]; keep one well inside 2^31 bytes (as image_folder).
    constexpr std::int64_t kMaxSide = 16384;
    for (const auto& [key, side] : {std::pair{"height", height}, std::pair{"width", width}})
        if (side > kMaxSide)
            return unexpected(r.error(jsonChild(path, key), "expected at most " + std::to_string(kMaxSide) + ", got " +
                                                                std::to_string(side)));
    TSTUDIO_TRY(encoding, r.oneOf(v, path, "encoding", {"encoded", "raw"}, image.encoding));
    TSTUDIO_TRY(method, r.stringKey(v, path, "method", image.method));
    if (method != "bilinear")
        return unexpected(r.error(jsonChild(path, "method"),
                                  "expected bilinear (tf.image.resize_images' default; no other method is "
                                  "implemented), got '" +
                                      method + "'"));
    if (encoding == "raw" && find(v, "method"))
        return unexpected(r.error(jsonChild(path, "method"),
                                  "only applies to \"encoding\": \"encoded\" (raw pixels are not resized)"));
    image.channels = channels;
    image.height = height;
    image.width = width;
    image.encoding = encoding;
    image.method = method;
    return image;
}

/// One feature object of a tfrecord source, at `path` ("data.sources[0].features.x").
Expected<FeatureSpec> readFeature(const JsonReader& r, const json& spec, const std::string& sp)
{
    if (!spec.is_object())
        return unexpected(r.error(sp, "expected an object, got " + describeJson(spec)));
    if (Status s = r.checkKeys(spec, sp, {"dtype", "shape", "default", "varlen", "pad", "image"}); !s.isOk())
        return unexpected(s);
    FeatureSpec f;
    TSTUDIO_TRY(dtype, r.dtypeKey(spec, sp, "dtype", kFeatureTypes));
    TSTUDIO_TRY(varlen, r.boolKey(spec, sp, "varlen", false));
    TSTUDIO_TRY(pad, r.boolKey(spec, sp, "pad", false));
    f.dtype = dtype;
    f.varlen = varlen;
    f.pad = pad;
    const json* image = find(spec, "image");
    const json* shape = find(spec, "shape");
    const json* fallback = find(spec, "default");
    if (pad && !varlen)
        return unexpected(r.error(jsonChild(sp, "pad"), "only applies with \"varlen\": true"));
    if (image) {
        if (dtype != tensorflow::DT_STRING)
            return unexpected(r.error(jsonChild(sp, "image"), "an image feature holds bytes: its dtype must be "
                                                              "string, got " +
                                                                  dataTypeName(dtype)));
        if (varlen)
            return unexpected(r.error(jsonChild(sp, "varlen"), "an image feature holds one image (no varlen)"));
        if (shape)
            return unexpected(r.error(jsonChild(sp, "shape"), "not allowed with \"image\" (the image's shape is "
                                                              "[height, width, channels])"));
        if (fallback)
            return unexpected(r.error(jsonChild(sp, "default"), "not allowed with \"image\" (every example must "
                                                                "hold its image)"));
        TSTUDIO_TRY(decode, readImageDecode(r, *image, jsonChild(sp, "image")));
        f.image = decode;
        return f;
    }
    if (varlen) {
        if (shape)
            return unexpected(r.error(jsonChild(sp, "shape"), "not allowed with \"varlen\": true (a VarLenFeature "
                                                              "has any number of values)"));
        if (fallback && !pad)
            return unexpected(r.error(jsonChild(sp, "default"), "a sparse varlen feature has no default (give "
                                                                "\"pad\": true to pad the batch with it)"));
        if (fallback) {
            const bool ok = dtype == tensorflow::DT_STRING  ? fallback->is_string()
                            : dtype == tensorflow::DT_INT64 ? fallback->is_number_integer()
                                                            : fallback->is_number();
            if (!ok)
                return unexpected(r.error(jsonChild(sp, "default"), "expected one " + dataTypeName(dtype) +
                                                                        " value to pad with, got " +
                                                                        describeJson(*fallback)));
            f.defaultValue = *fallback;
        }
        return f;
    }
    if (shape) {
        TSTUDIO_TRY(dims, r.intListKey(spec, sp, "shape"));
        if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; }))
            return unexpected(r.error(jsonChild(sp, "shape"), "dimensions must be 0 or more (fixed length)"));
        f.shape = dims;
    }
    if (fallback)
        f.defaultValue = *fallback;
    return f;
}

Expected<SourceParams> readWordText(const JsonReader& r, const json& v, const std::string& path,
                                    std::vector<std::string>& keys)
{
    keys.insert(keys.end(), {"file", "vocab_from", "vocab_file", "num_steps", "vocab_size"});
    WordTextParams p;
    TSTUDIO_TRY(file, r.stringKey(v, path, "file", std::nullopt));
    if (file.empty())
        return unexpected(r.error(jsonChild(path, "file"), "expected a text file (ptb.train.txt), got ''"));
    TSTUDIO_TRY(vocabFrom, r.optionalStringKey(v, path, "vocab_from"));
    TSTUDIO_TRY(vocabFile, r.optionalStringKey(v, path, "vocab_file"));
    if (vocabFrom && vocabFile)
        return unexpected(r.error(jsonChild(path, "vocab_file"),
                                  "give either vocab_from (a text file to count) or vocab_file, not both"));
    TSTUDIO_TRY(numSteps, r.positiveIntKey(v, path, "num_steps", p.numSteps));
    if (find(v, "vocab_size")) {
        TSTUDIO_TRY(size, r.positiveIntKey(v, path, "vocab_size", std::nullopt));
        p.vocabSize = size;
    }
    p.file = file;
    p.vocabFrom = vocabFrom.value_or("");
    p.vocabFile = vocabFile.value_or("");
    p.numSteps = numSteps;
    return p;
}

Expected<SourceParams> readSkipGram(const JsonReader& r, const json& v, const std::string& path,
                                    std::vector<std::string>& keys)
{
    keys.insert(keys.end(), {"file", "vocab_size", "skip_window", "num_skips", "seed"});
    SkipGramParams p;
    TSTUDIO_TRY(file, r.stringKey(v, path, "file", std::nullopt));
    if (file.empty())
        return unexpected(r.error(jsonChild(path, "file"), "expected a text file (ptb.train.txt), got ''"));
    TSTUDIO_TRY(vocabSize, r.positiveIntKey(v, path, "vocab_size", p.vocabSize));
    if (vocabSize < 2)
        return unexpected(r.error(jsonChild(path, "vocab_size"), "expected at least 2 (UNK and one word), got " +
                                                                     std::to_string(vocabSize)));
    TSTUDIO_TRY(skipWindow, r.positiveIntKey(v, path, "skip_window", p.skipWindow));
    TSTUDIO_TRY(numSkips, r.positiveIntKey(v, path, "num_skips", p.numSkips));
    if (numSkips > 2 * skipWindow)
        return unexpected(r.error(jsonChild(path, "num_skips"), "expected at most 2 * skip_window = " +
                                                                    std::to_string(2 * skipWindow) + ", got " +
                                                                    std::to_string(numSkips)));
    TSTUDIO_TRY(seed, r.intKey(v, path, "seed", p.seed));
    p.file = file;
    p.vocabSize = vocabSize;
    p.skipWindow = skipWindow;
    p.numSkips = numSkips;
    p.seed = seed;
    return p;
}

Expected<SourceParams> readParams(const JsonReader& r, const json& v, const std::string& path, const std::string& type,
                                  std::vector<std::string>& keys)
{
    if (type == "word_text")
        return readWordText(r, v, path, keys);
    if (type == "skip_gram")
        return readSkipGram(r, v, path, keys);
    if (type == "two_spirals") {
        keys.insert(keys.end(), {"points_per_class", "turns", "noise", "seed", "labels"});
        TwoSpiralsParams p;
        TSTUDIO_TRY(points, r.positiveIntKey(v, path, "points_per_class", p.pointsPerClass));
        TSTUDIO_TRY(turns, r.numberKey(v, path, "turns", p.turns));
        TSTUDIO_TRY(noise, r.numberKey(v, path, "noise", p.noise));
        TSTUDIO_TRY(seed, r.intKey(v, path, "seed", p.seed));
        TSTUDIO_TRY(labels, r.oneOf(v, path, "labels", {"sparse", "one_hot"}, p.labels));
        p.pointsPerClass = points;
        p.turns = turns;
        p.noise = noise;
        p.seed = seed;
        p.labels = labels;
        return p;
    }
    if (type == "mnist") {
        keys.insert(keys.end(), {"dir", "set", "skip", "take", "labels", "scale"});
        MnistParams p;
        TSTUDIO_TRY(dir, r.optionalStringKey(v, path, "dir"));
        TSTUDIO_TRY(set, r.oneOf(v, path, "set", {"train", "t10k"}, p.set));
        if (Status s = readSkipTake(r, v, path, p.skip, p.take); !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(labels, r.oneOf(v, path, "labels", {"sparse", "one_hot"}, p.labels));
        TSTUDIO_TRY(scale, r.boolKey(v, path, "scale", p.scale));
        p.dir = dir;
        p.set = set;
        p.labels = labels;
        p.scale = scale;
        return p;
    }
    if (type == "cifar10") {
        keys.insert(keys.end(), {"dir", "files", "skip", "take", "labels", "scale"});
        Cifar10Params p;
        TSTUDIO_TRY(dir, r.optionalStringKey(v, path, "dir"));
        if (find(v, "files")) {
            TSTUDIO_TRY(files, r.stringListKey(v, path, "files"));
            std::set<std::string> seen;
            for (std::size_t i = 0; i < files.size(); ++i) {
                const std::string item = jsonChild(path, "files") + "[" + std::to_string(i) + "]";
                if (files[i].empty())
                    return unexpected(r.error(item, "expected a batch file name (e.g. \"data_batch_1.bin\"), got ''"));
                if (!seen.insert(files[i]).second)
                    return unexpected(r.error(item, "'" + files[i] + "' is named twice"));
            }
            p.files = files;
        }
        if (Status s = readSkipTake(r, v, path, p.skip, p.take); !s.isOk())
            return unexpected(s);
        TSTUDIO_TRY(labels, r.oneOf(v, path, "labels", {"sparse", "one_hot"}, p.labels));
        TSTUDIO_TRY(scale, r.boolKey(v, path, "scale", p.scale));
        p.dir = dir;
        p.labels = labels;
        p.scale = scale;
        return p;
    }
    if (type == "tfrecord") {
        keys.insert(keys.end(), {"files", "compression", "features"});
        TfRecordParams p;
        TSTUDIO_TRY(files, r.stringListKey(v, path, "files"));
        TSTUDIO_TRY(compression, r.oneOf(v, path, "compression", {"none", "zlib", "gzip"}, p.compression));
        p.files = files;
        p.compression = compression;
        const std::string fpath = jsonChild(path, "features");
        const json* features = find(v, "features");
        if (!features || !features->is_object() || features->empty())
            return unexpected(r.error(fpath, "expected an object of features {\"name\": {\"dtype\", \"shape\", "
                                             "\"default\"}}, got " +
                                                 (features ? describeJson(*features) : "nothing")));
        std::set<std::string> components;
        for (const auto& [name, spec] : features->items()) {
            const std::string sp = jsonChild(fpath, name);
            TSTUDIO_TRY(f, readFeature(r, spec, sp));
            for (const std::string& c : featureComponents(name, f))
                if (!components.insert(c).second)
                    return unexpected(r.error(sp, "gives the component '" + c + "', which another feature gives too"));
            p.features[name] = std::move(f);
        }
        return p;
    }
    if (type == "numpy")
        return readNumpy(r, v, path, keys);
    if (type == "image_folder")
        return readImageFolder(r, v, path, keys);
    // csv
    keys.insert(keys.end(), {"files", "header", "field_delim", "columns"});
    CsvParams p;
    TSTUDIO_TRY(files, r.stringListKey(v, path, "files"));
    TSTUDIO_TRY(header, r.boolKey(v, path, "header", p.header));
    TSTUDIO_TRY(delim, r.stringKey(v, path, "field_delim", p.fieldDelim));
    if (delim.size() != 1)
        return unexpected(r.error(jsonChild(path, "field_delim"), "expected one character, got '" + delim + "'"));
    p.files = files;
    p.header = header;
    p.fieldDelim = delim;
    const std::string cpath = jsonChild(path, "columns");
    const json* columns = find(v, "columns");
    if (!columns || !columns->is_array() || columns->empty())
        return unexpected(r.error(cpath, "expected an array of columns [{\"name\", \"dtype\", \"default\"}], got " +
                                             (columns ? describeJson(*columns) : "nothing")));
    std::set<std::string> names;
    for (std::size_t i = 0; i < columns->size(); ++i) {
        const json& c = (*columns)[i];
        const std::string cp = cpath + "[" + std::to_string(i) + "]";
        if (!c.is_object())
            return unexpected(r.error(cp, "expected an object, got " + describeJson(c)));
        if (Status s = r.checkKeys(c, cp, {"name", "dtype", "default"}); !s.isOk())
            return unexpected(s);
        CsvColumn col;
        TSTUDIO_TRY(name, r.stringKey(c, cp, "name", std::nullopt));
        TSTUDIO_TRY(dtype, r.dtypeKey(c, cp, "dtype", kColumnTypes));
        if (!names.insert(name).second)
            return unexpected(r.error(jsonChild(cp, "name"), "column '" + name + "' is named twice"));
        col.name = name;
        col.dtype = dtype;
        if (const json* d = find(c, "default"))
            col.defaultValue = *d;
        p.columns.push_back(std::move(col));
    }
    return p;
}

} // namespace

std::string describeJson(const json& value)
{
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case json::value_t::string: {
        std::string s = value.get<std::string>();
        if (s.size() > 60)
            s = s.substr(0, 57) + "...";
        return "'" + s + "'";
    }
    default: return value.dump();
    }
}

std::string jsonChild(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

Status JsonReader::error(const std::string& path, const std::string& message) const
{
    return invalidArgumentError(m_label + ": " + (path.empty() ? std::string() : path + ": ") + message);
}

Status JsonReader::checkKeys(const json& object, const std::string& path, const std::vector<std::string>& allowed) const
{
    for (const auto& [key, value] : object.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
            return error(jsonChild(path, key), "unknown key (expected one of " + joined(allowed) + ")");
    }
    return Status::ok();
}

Expected<double> JsonReader::number(const json& value, const std::string& path) const
{
    return typed<double>(*this, value, path, value.is_number(), "a number");
}

Expected<double> JsonReader::numberKey(const json& object, const std::string& path, const std::string& key,
                                       std::optional<double> fallback) const
{
    return scalarKey(*this, object, path, key, fallback,
                     [this](const json& v, const std::string& p) { return number(v, p); });
}

Expected<std::optional<double>> JsonReader::optionalNumberKey(const json& object, const std::string& path,
                                                              const std::string& key) const
{
    const json* v = find(object, key);
    if (!v)
        return std::optional<double>{};
    TSTUDIO_TRY(n, number(*v, jsonChild(path, key)));
    return std::optional<double>{n};
}

Expected<std::int64_t> JsonReader::intKey(const json& object, const std::string& path, const std::string& key,
                                          std::optional<std::int64_t> fallback) const
{
    return scalarKey(*this, object, path, key, fallback, [this](const json& v, const std::string& p) {
        const bool fits = v.is_number_integer() &&
                          !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX));
        return typed<std::int64_t>(*this, v, p, fits, "an integer");
    });
}

Expected<std::int64_t> JsonReader::positiveIntKey(const json& object, const std::string& path, const std::string& key,
                                                  std::optional<std::int64_t> fallback) const
{
    TSTUDIO_TRY(n, intKey(object, path, key, fallback));
    if (n < 1)
        return unexpected(error(jsonChild(path, key), "expected a positive integer, got " + std::to_string(n)));
    return n;
}

Expected<bool> JsonReader::boolKey(const json& object, const std::string& path, const std::string& key,
                                   bool fallback) const
{
    return scalarKey(*this, object, path, key, std::optional<bool>(fallback),
                     [this](const json& v, const std::string& p) {
                         return typed<bool>(*this, v, p, v.is_boolean(), "true or false");
                     });
}

Expected<std::string> JsonReader::stringKey(const json& object, const std::string& path, const std::string& key,
                                            std::optional<std::string> fallback) const
{
    return scalarKey(*this, object, path, key, fallback, [this](const json& v, const std::string& p) {
        return typed<std::string>(*this, v, p, v.is_string(), "a string");
    });
}

Expected<std::optional<std::string>> JsonReader::optionalStringKey(const json& object, const std::string& path,
                                                                   const std::string& key) const
{
    if (!find(object, key))
        return std::optional<std::string>{};
    TSTUDIO_TRY(s, stringKey(object, path, key, std::nullopt));
    return std::optional<std::string>{s};
}

Expected<std::string> JsonReader::oneOf(const json& object, const std::string& path, const std::string& key,
                                        const std::vector<std::string>& options,
                                        std::optional<std::string> fallback) const
{
    TSTUDIO_TRY(s, stringKey(object, path, key, fallback));
    if (std::find(options.begin(), options.end(), s) == options.end())
        return unexpected(error(jsonChild(path, key), "expected one of " + joined(options) + ", got '" + s + "'"));
    return s;
}

Expected<std::vector<std::int64_t>> JsonReader::intListKey(const json& object, const std::string& path,
                                                           const std::string& key) const
{
    return listKey<std::int64_t>(*this, object, path, key, "an array of integers", false,
                                 [this](const json& v, const std::string& p) {
                                     return typed<std::int64_t>(*this, v, p, v.is_number_integer(), "an integer");
                                 });
}

Expected<std::vector<double>> JsonReader::numberListKey(const json& object, const std::string& path,
                                                        const std::string& key) const
{
    return listKey<double>(*this, object, path, key, "an array of numbers", false,
                           [this](const json& v, const std::string& p) { return number(v, p); });
}

Expected<std::vector<std::string>> JsonReader::stringListKey(const json& object, const std::string& path,
                                                             const std::string& key) const
{
    return listKey<std::string>(*this, object, path, key, "a non-empty array of strings", true,
                                [this](const json& v, const std::string& p) {
                                    return typed<std::string>(*this, v, p, v.is_string(), "a string");
                                });
}

Expected<DataType> JsonReader::dtypeKey(const json& object, const std::string& path, const std::string& key,
                                        const std::vector<DataType>& allowed) const
{
    TSTUDIO_TRY(name, stringKey(object, path, key, std::nullopt));
    auto dtype = dataTypeFromName(name);
    if (!dtype || std::find(allowed.begin(), allowed.end(), *dtype) == allowed.end()) {
        std::vector<std::string> names;
        for (DataType t : allowed)
            names.push_back(dataTypeName(t));
        return unexpected(error(jsonChild(path, key), "expected one of " + joined(names) + ", got '" + name + "'"));
    }
    return *dtype;
}

std::vector<std::string> sourceComponents(const DataSource& source)
{
    if (std::holds_alternative<TwoSpiralsParams>(source.params))
        return {"points", "labels"};
    if (std::holds_alternative<MnistParams>(source.params) || std::holds_alternative<ImageFolderParams>(source.params) ||
        std::holds_alternative<Cifar10Params>(source.params))
        return {"images", "labels"};
    if (std::holds_alternative<WordTextParams>(source.params))
        return {"x", "y"};
    if (std::holds_alternative<SkipGramParams>(source.params))
        return {"inputs", "labels"};
    if (const auto* n = std::get_if<NumpyParams>(&source.params)) {
        if (!n->keys.empty())
            return n->keys;
        std::vector<std::string> stems;
        for (const std::string& f : n->files)
            stems.push_back(std::filesystem::path(f).stem().string());
        return stems;
    }
    std::vector<std::string> out;
    if (const auto* t = std::get_if<TfRecordParams>(&source.params))
        for (const auto& [name, spec] : t->features)
            for (std::string& c : featureComponents(name, spec))
                out.push_back(std::move(c));
    if (const auto* c = std::get_if<CsvParams>(&source.params))
        for (const CsvColumn& col : c->columns)
            out.push_back(col.name);
    return out;
}

Expected<DataSource> readDataSource(const JsonReader& r, const json& v, const std::string& path)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(v)));
    TSTUDIO_TRY(type, r.oneOf(v, path, "type",
                              {"two_spirals", "mnist", "tfrecord", "csv", "numpy", "image_folder", "word_text",
                               "cifar10", "skip_gram"},
                              std::nullopt));
    std::vector<std::string> keys = {"type", "shuffle_buffer", "shuffle_seed", "feeds"};
    TSTUDIO_TRY(params, readParams(r, v, path, type, keys));
    if (Status s = r.checkKeys(v, path, keys); !s.isOk())
        return unexpected(s);
    DataSource source;
    source.params = std::move(params);
    if (find(v, "shuffle_buffer")) {
        TSTUDIO_TRY(buffer, r.positiveIntKey(v, path, "shuffle_buffer", std::nullopt));
        source.shuffleBuffer = buffer;
    }
    TSTUDIO_TRY(seed, r.intKey(v, path, "shuffle_seed", source.shuffleSeed));
    source.shuffleSeed = seed;
    const std::string fpath = jsonChild(path, "feeds");
    const json* feeds = find(v, "feeds");
    if (!feeds || !feeds->is_object() || feeds->empty())
        return unexpected(r.error(fpath, "expected an object {\"placeholder\": \"component\"}, got " +
                                             (feeds ? describeJson(*feeds) : "nothing")));
    const std::vector<std::string> components = sourceComponents(source);
    for (const auto& [placeholder, value] : feeds->items()) {
        const std::string p = jsonChild(fpath, placeholder);
        std::vector<std::string> names;
        if (value.is_string()) {
            names.push_back(value.get<std::string>());
        } else if (value.is_array() && !value.empty() &&
                   std::all_of(value.begin(), value.end(), [](const json& x) { return x.is_string(); })) {
            for (const json& x : value)
                names.push_back(x.get<std::string>());
        } else {
            return unexpected(r.error(p, "expected a component name or an array of them, got " + describeJson(value)));
        }
        for (const std::string& n : names) {
            if (std::find(components.begin(), components.end(), n) == components.end())
                return unexpected(r.error(p, "the " + type + " source has no component '" + n + "' (it has " +
                                                 joined(components) + ")"));
        }
        source.feeds[placeholder] = std::move(names);
    }
    return source;
}

Expected<ExportSettings> readExportSettings(const JsonReader& r, const json& v, const std::string& path)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object {\"outputs\": [...], \"saved_model\": DIR, ...}, got " +
                                            describeJson(v)));
    if (Status s = r.checkKeys(v, path, {"saved_model", "frozen_graph", "inputs", "outputs", "moving_average"});
        !s.isOk())
        return unexpected(s);
    ExportSettings settings;
    for (const auto& [key, field] : {std::pair{"saved_model", &settings.savedModel}, std::pair{"frozen_graph", &settings.frozenGraph}}) {
        TSTUDIO_TRY(value, r.optionalStringKey(v, path, key));
        if (value && value->empty())
            return unexpected(r.error(jsonChild(path, key), "expected a path, got \"\" (leave the key out for none)"));
        *field = value.value_or("");
    }
    for (const auto& [key, field] : {std::pair{"inputs", &settings.inputs}, std::pair{"outputs", &settings.outputs}}) {
        const json* list = find(v, key);
        if (!list || list->is_null())
            continue;
        const std::string p = jsonChild(path, key);
        if (!list->is_array())
            return unexpected(r.error(p, "expected an array of tensor names, got " + describeJson(*list)));
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string at = p + "[" + std::to_string(i) + "]";
            const json& item = (*list)[i];
            if (!item.is_string() || item.get<std::string>().empty())
                return unexpected(r.error(at, "expected a tensor name (\"x\" or \"x:0\"), got " + describeJson(item)));
            const std::string name = item.get<std::string>();
            if (std::find(field->begin(), field->end(), name) != field->end())
                return unexpected(r.error(at, "'" + name + "' is listed twice"));
            field->push_back(name);
        }
    }
    TSTUDIO_TRY(movingAverage, r.boolKey(v, path, "moving_average", false));
    settings.movingAverage = movingAverage;
    return settings;
}

ordered exportSettingsJson(const ExportSettings& s)
{
    ordered o;
    o["saved_model"] = s.savedModel.empty() ? ordered(nullptr) : ordered(s.savedModel);
    o["frozen_graph"] = s.frozenGraph.empty() ? ordered(nullptr) : ordered(s.frozenGraph);
    o["inputs"] = s.inputs;
    o["outputs"] = s.outputs;
    o["moving_average"] = s.movingAverage;
    return o;
}

Expected<SummarySpec> readSummarySpec(const JsonReader& r, const json& v, const std::string& path,
                                      const std::vector<DataSource>& sources)
{
    if (!v.is_object())
        return unexpected(r.error(path, "expected an object, got " + describeJson(v)));
    if (Status s = r.checkKeys(
            v, path, {"kind", "tensor", "source", "component", "tag", "family", "max_outputs", "sample_rate", "shape"});
        !s.isOk())
        return unexpected(s);
    SummarySpec spec;
    TSTUDIO_TRY(kind, r.oneOf(v, path, "kind", {"scalar", "histogram", "image", "audio", "text"}, std::nullopt));
    spec.kind = kind;
    const bool media = kind == "image" || kind == "audio";
    const bool hasTensor = find(v, "tensor") != nullptr;
    const bool hasSource = find(v, "source") != nullptr;
    if (hasTensor == hasSource)
        return unexpected(r.error(path, hasTensor ? "give either \"tensor\" (a tensor of the graph) or \"source\" (a "
                                                    "data source's component), not both"
                                                  : "needs \"tensor\" (a tensor of the graph) or \"source\" (an "
                                                    "index of data.sources) with \"component\""));
    if (hasTensor) {
        TSTUDIO_TRY(tensor, r.stringKey(v, path, "tensor", std::nullopt));
        if (tensor.empty())
            return unexpected(r.error(jsonChild(path, "tensor"), "expected a tensor name such as \"dense/kernel:0\""));
        if (find(v, "component"))
            return unexpected(r.error(jsonChild(path, "component"), "only applies with \"source\""));
        spec.tensor = tensor;
    } else {
        TSTUDIO_TRY(index, r.intKey(v, path, "source", std::nullopt));
        const std::string spath = jsonChild(path, "source");
        if (sources.empty())
            return unexpected(r.error(spath, "the project has no data sources (data.sources is empty)"));
        if (index < 0 || index >= static_cast<std::int64_t>(sources.size()))
            return unexpected(r.error(spath, "expected an index of data.sources (0 to " +
                                                 std::to_string(sources.size() - 1) + "), got " +
                                                 std::to_string(index)));
        const DataSource& source = sources[static_cast<std::size_t>(index)];
        const std::vector<std::string> components = sourceComponents(source);
        const std::string cpath = jsonChild(path, "component");
        if (!find(v, "component"))
            return unexpected(r.error(cpath, "required with \"source\" (one of " + joined(components) + ")"));
        TSTUDIO_TRY(component, r.stringKey(v, path, "component", std::nullopt));
        if (std::find(components.begin(), components.end(), component) == components.end())
            return unexpected(r.error(cpath, "the " + source.type() + " source has no component '" + component +
                                                 "' (it has " + joined(components) + ")"));
        const bool fedAlone = std::any_of(source.feeds.begin(), source.feeds.end(), [&](const auto& feed) {
            return feed.second == std::vector<std::string>{component};
        });
        if (!fedAlone)
            return unexpected(r.error(cpath, "data.sources[" + std::to_string(index) + "] feeds '" + component +
                                                 "' to no placeholder on its own; the summary shows what a "
                                                 "placeholder is fed"));
        spec.source = index;
        spec.component = component;
    }
    TSTUDIO_TRY(tag, r.stringKey(v, path, "tag", std::string()));
    if (find(v, "tag") && tag.empty())
        return unexpected(r.error(jsonChild(path, "tag"), "must not be empty (leave it out for the tensor's name)"));
    spec.tag = tag;
    TSTUDIO_TRY(family, r.stringKey(v, path, "family", std::string()));
    if (!family.empty() && kind == "text")
        return unexpected(r.error(jsonChild(path, "family"), "tf.summary.text takes no family"));
    spec.family = family;
    const auto onlyFor = [&](const char* key, bool applies, const char* what) -> Status {
        if (find(v, key) && !applies)
            return r.error(jsonChild(path, key), std::string("only applies to ") + what);
        return Status::ok();
    };
    if (Status s = onlyFor("max_outputs", media, "image and audio summaries"); !s.isOk())
        return unexpected(s);
    if (Status s = onlyFor("shape", media, "image and audio summaries"); !s.isOk())
        return unexpected(s);
    if (Status s = onlyFor("sample_rate", kind == "audio", "audio summaries"); !s.isOk())
        return unexpected(s);
    TSTUDIO_TRY(maxOutputs, r.positiveIntKey(v, path, "max_outputs", spec.maxOutputs));
    if (maxOutputs > (1 << 30))
        return unexpected(
            r.error(jsonChild(path, "max_outputs"), "expected at most 1073741824, got " + std::to_string(maxOutputs)));
    spec.maxOutputs = maxOutputs;
    if (kind == "audio") {
        if (!find(v, "sample_rate"))
            return unexpected(r.error(jsonChild(path, "sample_rate"),
                                      "required for an audio summary (samples per second, e.g. 16000)"));
        TSTUDIO_TRY(rate, r.numberKey(v, path, "sample_rate", std::nullopt));
        if (!(rate > 0))
            return unexpected(r.error(jsonChild(path, "sample_rate"),
                                      "expected a positive number, got " + describeJson(v.at("sample_rate"))));
        spec.sampleRate = rate;
    }
    if (find(v, "shape")) {
        TSTUDIO_TRY(shape, r.intListKey(v, path, "shape"));
        if (shape.empty() || std::any_of(shape.begin(), shape.end(), [](std::int64_t d) { return d < 1; }))
            return unexpected(r.error(jsonChild(path, "shape"),
                                      "expected the sizes of one example, each 1 or more (e.g. [28, 28, 1]), got " +
                                          v.at("shape").dump()));
        spec.shape = shape;
    }
    return spec;
}

ordered summarySpecJson(const SummarySpec& spec)
{
    ordered o;
    o["kind"] = spec.kind;
    if (spec.source) {
        o["source"] = *spec.source;
        o["component"] = spec.component;
    } else {
        o["tensor"] = spec.tensor;
    }
    if (!spec.tag.empty())
        o["tag"] = spec.tag;
    if (!spec.family.empty())
        o["family"] = spec.family;
    if (spec.kind == "image" || spec.kind == "audio")
        o["max_outputs"] = spec.maxOutputs;
    if (spec.sampleRate)
        o["sample_rate"] = *spec.sampleRate;
    if (!spec.shape.empty())
        o["shape"] = spec.shape;
    return o;
}

ordered dataSourceJson(const DataSource& s)
{
    ordered o;
    o["type"] = s.type();
    if (const auto* p = std::get_if<TwoSpiralsParams>(&s.params)) {
        o["points_per_class"] = p->pointsPerClass;
        o["turns"] = p->turns;
        o["noise"] = p->noise;
        o["seed"] = p->seed;
        o["labels"] = p->labels;
    } else if (const auto* m = std::get_if<MnistParams>(&s.params)) {
        o["dir"] = m->dir ? ordered(*m->dir) : ordered(nullptr);
        o["set"] = m->set;
        o["skip"] = m->skip;
        o["take"] = m->take;
        o["labels"] = m->labels;
        o["scale"] = m->scale;
    } else if (const auto* c = std::get_if<Cifar10Params>(&s.params)) {
        o["dir"] = c->dir ? ordered(*c->dir) : ordered(nullptr);
        // The reader refuses an empty list; a source made in code without files reads the default ones.
        if (!c->files.empty())
            o["files"] = c->files;
        o["skip"] = c->skip;
        o["take"] = c->take;
        o["labels"] = c->labels;
        o["scale"] = c->scale;
    } else if (const auto* t = std::get_if<TfRecordParams>(&s.params)) {
        o["files"] = t->files;
        o["compression"] = t->compression;
        ordered features = ordered::object();
        for (const auto& [name, f] : t->features) {
            ordered spec;
            spec["dtype"] = dataTypeName(f.dtype);
            if (f.image) {
                ordered image;
                image["channels"] = f.image->channels;
                image["height"] = f.image->height;
                image["width"] = f.image->width;
                image["encoding"] = f.image->encoding;
                if (f.image->encoding == "encoded")
                    image["method"] = f.image->method;
                spec["image"] = std::move(image);
            } else if (f.varlen) {
                spec["varlen"] = true;
                spec["pad"] = f.pad;
                if (f.pad)
                    spec["default"] = ordered::parse(f.defaultValue.dump());
            } else {
                spec["shape"] = f.shape;
                spec["default"] = ordered::parse(f.defaultValue.dump());
            }
            features[name] = std::move(spec);
        }
        o["features"] = std::move(features);
    } else if (const auto* c = std::get_if<CsvParams>(&s.params)) {
        o["files"] = c->files;
        o["header"] = c->header;
        o["field_delim"] = c->fieldDelim;
        o["columns"] = ordered::array();
        for (const CsvColumn& col : c->columns) {
            ordered j;
            j["name"] = col.name;
            j["dtype"] = dataTypeName(col.dtype);
            j["default"] = ordered::parse(col.defaultValue.dump());
            o["columns"].push_back(std::move(j));
        }
    } else if (const auto* n = std::get_if<NumpyParams>(&s.params)) {
        o["files"] = n->files;
        if (!n->keys.empty())
            o["keys"] = n->keys;
        o["skip"] = n->skip;
        o["take"] = n->take;
    } else if (const auto* f = std::get_if<ImageFolderParams>(&s.params)) {
        o["dir"] = f->dir;
        o["height"] = f->height;
        o["width"] = f->width;
        o["channels"] = f->channels;
        o["labels"] = f->labels;
        o["classes"] = f->classes ? ordered(*f->classes) : ordered(nullptr);
    } else if (const auto* w = std::get_if<WordTextParams>(&s.params)) {
        o["file"] = w->file;
        if (!w->vocabFrom.empty())
            o["vocab_from"] = w->vocabFrom;
        if (!w->vocabFile.empty())
            o["vocab_file"] = w->vocabFile;
        o["num_steps"] = w->numSteps;
        o["vocab_size"] = w->vocabSize ? ordered(*w->vocabSize) : ordered(nullptr);
    } else if (const auto* g = std::get_if<SkipGramParams>(&s.params)) {
        o["file"] = g->file;
        o["vocab_size"] = g->vocabSize;
        o["skip_window"] = g->skipWindow;
        o["num_skips"] = g->numSkips;
        o["seed"] = g->seed;
    }
    o["shuffle_buffer"] = s.shuffleBuffer ? ordered(*s.shuffleBuffer) : ordered(nullptr);
    o["shuffle_seed"] = s.shuffleSeed;
    ordered feeds = ordered::object();
    for (const auto& [placeholder, names] : s.feeds)
        feeds[placeholder] = names.size() == 1 ? ordered(names.front()) : ordered(names);
    o["feeds"] = std::move(feeds);
    return o;
}

} // namespace tstudio::project
