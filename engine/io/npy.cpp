// .npy encoding and decoding (format facts: NumPy's "NEP 1" .npy specification).
#include "io/npy.h"

#include "io/atomic_file.h"
#include "core/varint.h"

#include <algorithm>
#include <cstring>

namespace tstudio {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::uint64_t kMaxNpyBytes = 1ull << 40;

struct DtypeCode {
    const char* descr;
    DataType dtype;
};
constexpr DtypeCode kCodes[] = {
    {"<f2", tensorflow::DT_HALF},   {"<f4", tensorflow::DT_FLOAT},   {"<f8", tensorflow::DT_DOUBLE},
    {"|i1", tensorflow::DT_INT8},   {"<i2", tensorflow::DT_INT16},   {"<i4", tensorflow::DT_INT32},
    {"<i8", tensorflow::DT_INT64},  {"|u1", tensorflow::DT_UINT8},   {"<u2", tensorflow::DT_UINT16},
    {"<u4", tensorflow::DT_UINT32}, {"<u8", tensorflow::DT_UINT64},  {"|b1", tensorflow::DT_BOOL},
    {"<c8", tensorflow::DT_COMPLEX64}, {"<c16", tensorflow::DT_COMPLEX128},
};

std::optional<DataType> dtypeFromDescr(std::string descr)
{
    // Single-byte types may be written with any byte-order mark; '=' means native (little here).
    if (descr.size() >= 2 && (descr[0] == '<' || descr[0] == '|' || descr[0] == '=')) {
        for (const auto& c : kCodes) {
            if (descr.substr(1) == std::string(c.descr).substr(1) && (descr[0] != '|' || c.descr[0] == '|' || descr.size() == 3))
                return c.dtype;
        }
    }
    return std::nullopt;
}

const char* descrOf(DataType dtype)
{
    for (const auto& c : kCodes)
        if (c.dtype == dtype)
            return c.descr;
    return nullptr;
}

/// Finds `'key':` in the header dict and returns the text after it.
std::optional<std::string_view> valueAfter(std::string_view header, std::string_view key)
{
    for (const char quote : {'\'', '"'}) {
        const std::string pattern = std::string(1, quote) + std::string(key) + std::string(1, quote);
        auto pos = header.find(pattern);
        if (pos == std::string_view::npos)
            continue;
        pos = header.find(':', pos + pattern.size());
        if (pos == std::string_view::npos)
            return std::nullopt;
        std::string_view rest = header.substr(pos + 1);
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        return rest;
    }
    return std::nullopt;
}

} // namespace

Expected<Tensor> parseNpy(const std::string& bytes, Allocator& allocator, const std::string& what)
{
    auto bad = [&](const std::string& why) { return unexpected(invalidArgumentError(what + ": not a valid .npy file: " + why)); };
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0)
        return bad("missing the \\x93NUMPY magic");
    const int major = static_cast<unsigned char>(bytes[6]);
    std::size_t headerStart = 10;
    std::uint64_t headerLength = 0;
    if (major == 1) {
        headerLength = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned>(static_cast<unsigned char>(bytes[9])) << 8);
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            return bad("truncated header");
        headerLength = varint::loadFixed32(bytes.data() + 8);
        headerStart = 12;
    } else {
        return bad("format version " + std::to_string(major) + " is not 1, 2 or 3");
    }
    if (headerStart + headerLength > bytes.size())
        return unexpected(dataLossError(what + ": .npy header declares " + std::to_string(headerLength) +
                                        " bytes but the file is shorter"));
    const std::string_view header(bytes.data() + headerStart, headerLength);

    auto descrText = valueAfter(header, "descr");
    if (!descrText || descrText->empty() || ((*descrText)[0] != '\'' && (*descrText)[0] != '"'))
        return bad("no 'descr' string in the header");
    const char quote = (*descrText)[0];
    const auto descrEnd = descrText->find(quote, 1);
    if (descrEnd == std::string_view::npos)
        return bad("unterminated 'descr'");
    const std::string descr(descrText->substr(1, descrEnd - 1));
    const auto dtype = dtypeFromDescr(descr);
    if (!dtype)
        return unexpected(invalidArgumentError(what + ": .npy dtype '" + descr +
                                               "' is not supported (big-endian, structured or object arrays are not)"));

    auto fortranText = valueAfter(header, "fortran_order");
    if (!fortranText)
        return bad("no 'fortran_order' in the header");
    const bool fortran = fortranText->substr(0, 4) == "True";
    if (!fortran && fortranText->substr(0, 5) != "False")
        return bad("'fortran_order' must be True or False");

    auto shapeText = valueAfter(header, "shape");
    if (!shapeText || shapeText->empty() || (*shapeText)[0] != '(')
        return bad("no 'shape' tuple in the header");
    const auto close = shapeText->find(')');
    if (close == std::string_view::npos)
        return bad("unterminated 'shape'");
    std::vector<std::int64_t> dims;
    std::string_view inside = shapeText->substr(1, close - 1);
    while (!inside.empty()) {
        while (!inside.empty() && (inside.front() == ' ' || inside.front() == ','))
            inside.remove_prefix(1);
        if (inside.empty())
            break;
        std::size_t digits = 0;
        while (digits < inside.size() && inside[digits] >= '0' && inside[digits] <= '9')
            ++digits;
        if (digits == 0 || digits > 18)
            return bad("shape entries must be non-negative integers");
        dims.push_back(std::stoll(std::string(inside.substr(0, digits))));
        inside.remove_prefix(digits);
        while (!inside.empty() && inside.front() == 'L')  // Python 2 longs
            inside.remove_prefix(1);
    }
    auto shape = TensorShape::fromDims(dims);
    if (!shape)
        return unexpected(shape.error().withContext(what));
    auto count = shape->numElements();
    const std::size_t elementSize = dataTypeSize(*dtype);
    if (!count || static_cast<std::uint64_t>(*count) > kMaxNpyBytes / std::max<std::size_t>(elementSize, 1))
        return unexpected(resourceExhaustedError(what + ": .npy shape " + shape->toString() + " is too large"));
    const std::uint64_t dataBytes = static_cast<std::uint64_t>(*count) * elementSize;
    const std::size_t dataStart = headerStart + headerLength;
    if (bytes.size() - dataStart < dataBytes)
        return unexpected(dataLossError(what + ": .npy data is truncated: shape " + shape->toString() + " needs " +
                                        std::to_string(dataBytes) + " bytes, the file has " +
                                        std::to_string(bytes.size() - dataStart)));
    auto tensor = Tensor::allocate(allocator, *dtype, *shape);
    if (!tensor)
        return unexpected(tensor.error().withContext(what));
    auto out = tensor->tensorData();
    const char* src = bytes.data() + dataStart;
    if (dataBytes == 0)
        return tensor;  // no elements: nothing to copy (and no buffer to copy into)
    if (!fortran || dims.size() < 2) {
        std::memcpy(out.data(), src, dataBytes);
        return tensor;
    }
    // Fortran order: the first index varies fastest. Walk C-order positions and gather.
    const std::size_t rank = dims.size();
    std::vector<std::int64_t> index(rank, 0);
    std::vector<std::int64_t> fortranStride(rank, 1);
    for (std::size_t d = 1; d < rank; ++d)
        fortranStride[d] = fortranStride[d - 1] * dims[d - 1];
    for (std::int64_t c = 0; c < *count; ++c) {
        std::int64_t f = 0;
        for (std::size_t d = 0; d < rank; ++d)
            f += index[d] * fortranStride[d];
        std::memcpy(out.data() + c * static_cast<std::int64_t>(elementSize), src + f * static_cast<std::int64_t>(elementSize),
                    elementSize);
        for (std::size_t d = rank; d-- > 0;) {
            if (++index[d] < dims[d])
                break;
            index[d] = 0;
        }
    }
    return tensor;
}

Expected<Tensor> readNpy(const std::filesystem::path& path, Allocator& allocator)
{
    auto bytes = readWholeFile(path, kMaxNpyBytes);
    if (!bytes)
        return unexpected(bytes.error());
    return parseNpy(*bytes, allocator, "file '" + path.string() + "'");
}

Expected<std::string> encodeNpy(const Tensor& tensor)
{
    const char* descr = descrOf(tensor.dtype());
    if (!descr)
        return unexpected(unimplementedError("cannot write a " + std::string(dataTypeName(tensor.dtype())) +
                                             " tensor as .npy"));
    std::string shape = "(";
    for (int d = 0; d < tensor.rank(); ++d)
        shape += std::to_string(tensor.shape().dim(d)) + (tensor.rank() == 1 ? "," : (d + 1 < tensor.rank() ? ", " : ""));
    shape += ")";
    std::string header = "{'descr': '" + std::string(descr) + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces so that the data starts on a 64-byte boundary, ending with a newline.
    const std::size_t unpadded = 10 + header.size() + 1;
    header.append((64 - unpadded % 64) % 64, ' ');
    header.push_back('\n');
    std::string out(kMagic, 6);
    out.push_back('\x01');
    out.push_back('\x00');
    out.push_back(static_cast<char>(header.size() & 0xff));
    out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
    out += header;
    const auto data = tensor.tensorData();
    out.append(reinterpret_cast<const char*>(data.data()), data.size());
    return out;
}

Status writeNpy(const std::filesystem::path& path, const Tensor& tensor)
{
    auto bytes = encodeNpy(tensor);
    if (!bytes)
        return bytes.error().withContext("file '" + path.string() + "'");
    return writeFileAtomically(path, *bytes);
}

} // namespace tstudio
