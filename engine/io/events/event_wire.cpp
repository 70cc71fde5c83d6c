// Event wire scanning: a minimal protobuf wire-format walker for the few fields a reader needs.
#include "io/events/event_wire.h"

#include "core/varint.h"

#include <cstring>

namespace tstudio::events::wire {
namespace {

enum WireType : int { kVarint = 0, kFixed64 = 1, kLengthDelimited = 2, kFixed32 = 5 };

/// One field of a message: number, wire type and either a numeric value or bytes.
struct Field {
    int number = 0;
    int type = 0;
    std::uint64_t number64 = 0; ///< varint, fixed64 or fixed32 value
    std::string_view bytes;     ///< length-delimited payload
};

/// Reads the next field of `in`; false at the end (in empty) or on malformed bytes (`*bad` set).
bool nextField(std::string_view& in, Field& field, bool* bad)
{
    if (in.empty())
        return false;
    const auto key = varint::decode64(in);
    if (!key || (*key >> 3) == 0 || (*key >> 3) > 0x1fffffff) {
        *bad = true;
        return false;
    }
    field.number = static_cast<int>(*key >> 3);
    field.type = static_cast<int>(*key & 7u);
    switch (field.type) {
    case kVarint: {
        const auto v = varint::decode64(in);
        if (!v) {
            *bad = true;
            return false;
        }
        field.number64 = *v;
        return true;
    }
    case kFixed64:
        if (in.size() < 8) {
            *bad = true;
            return false;
        }
        field.number64 = varint::loadFixed64(in.data());
        in.remove_prefix(8);
        return true;
    case kFixed32:
        if (in.size() < 4) {
            *bad = true;
            return false;
        }
        field.number64 = varint::loadFixed32(in.data());
        in.remove_prefix(4);
        return true;
    case kLengthDelimited: {
        const auto length = varint::decode64(in);
        if (!length || *length > in.size()) {
            *bad = true;
            return false;
        }
        field.bytes = in.substr(0, static_cast<std::size_t>(*length));
        in.remove_prefix(static_cast<std::size_t>(*length));
        return true;
    }
    default: // groups (3, 4) are not used by these messages
        *bad = true;
        return false;
    }
}

double asDouble(std::uint64_t bits)
{
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}

float asFloat(std::uint32_t bits)
{
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

float halfToFloat(std::uint16_t h)
{
    const std::uint32_t sign = (h >> 15) & 1u;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0) {
        if (mantissa == 0) {
            bits = sign << 31;
        } else { // subnormal: normalise
            int e = -1;
            do {
                ++e;
                mantissa <<= 1;
            } while ((mantissa & 0x400u) == 0);
            bits = (sign << 31) | (static_cast<std::uint32_t>(127 - 15 - e) << 23) | ((mantissa & 0x3ffu) << 13);
        }
    } else if (exponent == 31) {
        bits = (sign << 31) | 0x7f800000u | (mantissa << 13);
    } else {
        bits = (sign << 31) | ((exponent + 127 - 15) << 23) | (mantissa << 13);
    }
    return asFloat(bits);
}

/// metadata.plugin_data.{plugin_name, content}
bool scanMetadata(std::string_view bytes, Value& value)
{
    Field field;
    bool bad = false;
    while (nextField(bytes, field, &bad)) {
        if (field.number != 1 || field.type != kLengthDelimited)
            continue;
        std::string_view plugin = field.bytes;
        Field inner;
        while (nextField(plugin, inner, &bad)) {
            if (inner.type != kLengthDelimited)
                continue;
            if (inner.number == 1)
                value.pluginName = inner.bytes;
            else if (inner.number == 2)
                value.pluginContent = inner.bytes;
        }
        if (bad)
            return false;
    }
    return !bad;
}

} // namespace

bool scanEvent(std::string_view bytes, Event& event)
{
    event = Event{};
    Field field;
    bool bad = false;
    while (nextField(bytes, field, &bad)) {
        switch (field.number) {
        case 1:
            if (field.type != kFixed64)
                return false;
            event.wallTime = asDouble(field.number64);
            break;
        case 2:
            if (field.type != kVarint)
                return false;
            event.step = static_cast<std::int64_t>(field.number64);
            break;
        case kFileVersion:
        case kGraphDef:
        case kSummary:
        case kLogMessage:
        case kSessionLog:
        case kTaggedRunMetadata:
        case kMetaGraphDef:
            if (field.type != kLengthDelimited)
                return false;
            event.what = field.number;
            event.whatBytes = field.bytes;
            break;
        default:
            break; // source_metadata and fields of later versions
        }
    }
    return !bad;
}

bool scanSummary(std::string_view bytes, const std::function<void(const Value&)>& visit)
{
    Field field;
    bool bad = false;
    while (nextField(bytes, field, &bad)) {
        if (field.number != 1 || field.type != kLengthDelimited)
            continue;
        Value value;
        value.whole = field.bytes;
        std::string_view in = field.bytes;
        Field inner;
        while (nextField(in, inner, &bad)) {
            switch (inner.number) {
            case 1:
                value.tag = inner.bytes;
                break;
            case 7:
                value.nodeName = inner.bytes;
                break;
            case 9:
                if (inner.type != kLengthDelimited)
                    return false;
                value.hasMetadata = true;
                value.pluginName = {};
                value.pluginContent = {};
                if (!scanMetadata(inner.bytes, value))
                    return false;
                break;
            case kSimpleValue:
                if (inner.type != kFixed32)
                    return false;
                value.value = kSimpleValue;
                value.simpleValue = asFloat(static_cast<std::uint32_t>(inner.number64));
                break;
            case kObsoleteHistogram:
            case kImage:
            case kHisto:
            case kAudio:
            case kTensor:
                if (inner.type != kLengthDelimited)
                    return false;
                value.value = inner.number;
                value.valueBytes = inner.bytes;
                break;
            default:
                break;
            }
        }
        if (bad)
            return false;
        visit(value);
    }
    return !bad;
}

std::optional<TensorScalar> tensorScalar(std::string_view tensorBytes)
{
    // DataType values of types.proto.
    constexpr int kFloat = 1, kDouble = 2, kInt32 = 3, kInt64 = 9, kBool = 10, kHalf = 19;
    int dtype = 0;
    std::string_view content;
    Field field;
    bool bad = false;
    std::string_view in = tensorBytes;
    // The typed field depends on the dtype, which may come after it: remember each candidate.
    std::optional<std::uint64_t> typed[14];
    while (nextField(in, field, &bad)) {
        if (field.number == 1 && field.type == kVarint) {
            dtype = static_cast<int>(field.number64);
        } else if (field.number == 4 && field.type == kLengthDelimited) {
            content = field.bytes;
        } else if (field.number >= 5 && field.number <= 13 && !typed[field.number]) {
            if (field.type == kLengthDelimited) { // packed: first element
                std::string_view packed = field.bytes;
                if (packed.empty())
                    continue;
                if (field.number == 5) {
                    if (packed.size() < 4)
                        return std::nullopt;
                    typed[5] = varint::loadFixed32(packed.data());
                } else if (field.number == 6) {
                    if (packed.size() < 8)
                        return std::nullopt;
                    typed[6] = varint::loadFixed64(packed.data());
                } else {
                    const auto v = varint::decode64(packed);
                    if (!v)
                        return std::nullopt;
                    typed[field.number] = *v;
                }
            } else {
                typed[field.number] = field.number64;
            }
        }
    }
    if (bad)
        return std::nullopt;
    TensorScalar out;
    switch (dtype) {
    case kFloat:
        out.float32 = true;
        if (typed[5])
            out.value = asFloat(static_cast<std::uint32_t>(*typed[5]));
        else if (content.size() >= 4)
            out.value = asFloat(varint::loadFixed32(content.data()));
        else
            return std::nullopt;
        return out;
    case kDouble:
        if (typed[6])
            out.value = asDouble(*typed[6]);
        else if (content.size() >= 8)
            out.value = asDouble(varint::loadFixed64(content.data()));
        else
            return std::nullopt;
        return out;
    case kHalf:
        out.float32 = true;
        if (typed[13])
            out.value = halfToFloat(static_cast<std::uint16_t>(*typed[13]));
        else if (content.size() >= 2)
            out.value = halfToFloat(static_cast<std::uint16_t>(static_cast<unsigned char>(content[0]) |
                                                             (static_cast<unsigned char>(content[1]) << 8)));
        else
            return std::nullopt;
        return out;
    case kInt32:
        if (typed[7])
            out.value = static_cast<double>(static_cast<std::int32_t>(*typed[7]));
        else if (content.size() >= 4)
            out.value = static_cast<double>(static_cast<std::int32_t>(varint::loadFixed32(content.data())));
        else
            return std::nullopt;
        return out;
    case kInt64:
        if (typed[10])
            out.value = static_cast<double>(static_cast<std::int64_t>(*typed[10]));
        else if (content.size() >= 8)
            out.value = static_cast<double>(static_cast<std::int64_t>(varint::loadFixed64(content.data())));
        else
            return std::nullopt;
        return out;
    case kBool:
        if (typed[11])
            out.value = *typed[11] != 0 ? 1.0 : 0.0;
        else if (!content.empty())
            out.value = content[0] != 0 ? 1.0 : 0.0;
        else
            return std::nullopt;
        return out;
    default:
        return std::nullopt;
    }
}

} // namespace tstudio::events::wire
