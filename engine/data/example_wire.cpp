// The protobuf wire reading behind example_wire.h: varints, length-delimited fields and the few
// tags of Example, Features, Feature and FeatureList, with the tolerance TensorFlow's parser has
// (unknown top-level fields skipped; trailing bytes after a Feature's list ignored).
#include "data/example_wire.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace tstudio::data::wire {
namespace {

namespace tf = tensorflow;

// Tags as one byte: (field number << 3) | wire type.
constexpr unsigned char kVarintTag1 = 0x08;    // field 1, varint
constexpr unsigned char kDelimitedTag1 = 0x0a; // field 1, length-delimited
constexpr unsigned char kDelimitedTag2 = 0x12; // field 2, length-delimited
constexpr unsigned char kDelimitedTag3 = 0x1a; // field 3, length-delimited
constexpr unsigned char kFixed32Tag1 = 0x0d;   // field 1, fixed32

/// A cursor over bytes; every read checks the end, so damaged input fails instead of overrunning.
class Reader {
public:
    explicit Reader(std::string_view bytes)
        : m_at(reinterpret_cast<const unsigned char*>(bytes.data())), m_end(m_at + bytes.size())
    {
    }

    bool atEnd() const { return m_at == m_end; }
    std::size_t remaining() const { return static_cast<std::size_t>(m_end - m_at); }
    int peek() const { return atEnd() ? -1 : *m_at; }

    bool expectByte(unsigned char byte)
    {
        if (atEnd() || *m_at != byte)
            return false;
        ++m_at;
        return true;
    }

    /// A base-128 varint of at most 10 bytes (protobuf's limit).
    bool varint(std::uint64_t* value)
    {
        std::uint64_t result = 0;
        for (int i = 0; i < 10; ++i) {
            if (atEnd())
                return false;
            const unsigned char byte = *m_at++;
            result |= static_cast<std::uint64_t>(byte & 0x7f) << (7 * i);
            if ((byte & 0x80) == 0) {
                *value = result;
                return true;
            }
        }
        return false;
    }

    /// A length prefix followed by that many bytes, returned as a view.
    bool delimited(std::string_view* out)
    {
        std::uint64_t length = 0;
        if (!varint(&length) || length > remaining())
            return false;
        *out = std::string_view(reinterpret_cast<const char*>(m_at), static_cast<std::size_t>(length));
        m_at += length;
        return true;
    }

    bool fixed32(std::uint32_t* value)
    {
        if (remaining() < 4)
            return false;
        *value = static_cast<std::uint32_t>(m_at[0]) | static_cast<std::uint32_t>(m_at[1]) << 8 |
                 static_cast<std::uint32_t>(m_at[2]) << 16 | static_cast<std::uint32_t>(m_at[3]) << 24;
        m_at += 4;
        return true;
    }

    void skip(std::size_t bytes) { m_at += bytes < remaining() ? bytes : remaining(); }

    /// Skips one field of any wire type but groups, as TensorFlow's SkipExtraneousTag (which lets
    /// a length run past the end).
    bool skipField()
    {
        std::uint64_t tag = 0;
        std::uint64_t ignored = 0;
        if (!varint(&tag))
            return false;
        switch (tag & 7) {
        case 0: return varint(&ignored);
        case 1:
            if (remaining() < 8)
                return false;
            skip(8);
            return true;
        case 2:
            if (!varint(&ignored))
                return false;
            skip(static_cast<std::size_t>(ignored));
            return true;
        case 5:
            if (remaining() < 4)
                return false;
            skip(4);
            return true;
        default: return false; // groups (3, 4) and unknown wire types
        }
    }

private:
    const unsigned char* m_at;
    const unsigned char* m_end;
};

/// The list message of a Feature: the bytes after its one-byte kind tag and length prefix.
bool listPayload(std::string_view feature, std::string_view* payload)
{
    Reader r(feature);
    r.skip(1);
    return r.delimited(payload);
}

/// Visits the numbers of a FloatList or Int64List payload: one packed run (tag 1, length-delimited)
/// or a run of unpacked fields with `unpackedTag`. Only the first form met is read, as TensorFlow
/// does; bytes after a packed run are ignored.
template <typename ReadOne, typename Visit>
bool visitNumbers(std::string_view payload, unsigned char unpackedTag, ReadOne readOne, Visit visit)
{
    Reader r(payload);
    if (r.atEnd())
        return true;
    if (r.expectByte(kDelimitedTag1)) {
        std::string_view packed;
        if (!r.delimited(&packed))
            return false;
        Reader p(packed);
        while (!p.atEnd()) {
            if (!readOne(p, visit))
                return false;
        }
        return true;
    }
    if (r.peek() != unpackedTag)
        return false;
    while (!r.atEnd()) {
        if (!r.expectByte(unpackedTag) || !readOne(r, visit))
            return false;
    }
    return true;
}

template <typename Visit> bool visitFloats(std::string_view payload, Visit visit)
{
    return visitNumbers(
        payload, kFixed32Tag1,
        [](Reader& r, Visit& v) {
            std::uint32_t bits = 0;
            if (!r.fixed32(&bits))
                return false;
            float value;
            std::memcpy(&value, &bits, sizeof value);
            v(value);
            return true;
        },
        visit);
}

template <typename Visit> bool visitInt64s(std::string_view payload, Visit visit)
{
    return visitNumbers(
        payload, kVarintTag1,
        [](Reader& r, Visit& v) {
            std::uint64_t bits = 0;
            if (!r.varint(&bits))
                return false;
            v(static_cast<std::int64_t>(bits));
            return true;
        },
        visit);
}

template <typename Visit> bool visitBytes(std::string_view payload, Visit visit)
{
    Reader r(payload);
    while (!r.atEnd()) {
        std::string_view value;
        if (!r.expectByte(kDelimitedTag1) || !r.delimited(&value))
            return false;
        visit(value);
    }
    return true;
}

/// The entries of a map<string, Feature> or map<string, FeatureList> message payload: each entry
/// must be exactly "key (field 1), value (field 2)", as TensorFlow's parser requires.
bool splitMap(std::string_view payload, std::vector<MapEntry>* entries)
{
    Reader r(payload);
    while (!r.atEnd()) {
        std::string_view entry;
        if (!r.expectByte(kDelimitedTag1) || !r.delimited(&entry))
            return false;
        Reader e(entry);
        MapEntry out;
        if (!e.expectByte(kDelimitedTag1) || !e.delimited(&out.key) || !e.expectByte(kDelimitedTag2) ||
            !e.delimited(&out.value) || !e.atEnd())
            return false;
        entries->push_back(out);
    }
    return true;
}

} // namespace

FeatureError FeatureBytes::kind(DataType* dtype) const
{
    if (m_bytes.empty()) {
        *dtype = tf::DT_INVALID;
        return FeatureError::kNone;
    }
    switch (static_cast<unsigned char>(m_bytes.front())) {
    case kDelimitedTag1: *dtype = tf::DT_STRING; return FeatureError::kNone;
    case kDelimitedTag2: *dtype = tf::DT_FLOAT; return FeatureError::kNone;
    case kDelimitedTag3: *dtype = tf::DT_INT64; return FeatureError::kNone;
    default: return FeatureError::kUnknownKind;
    }
}

FeatureError FeatureBytes::appendInt64s(std::vector<std::int64_t>* out) const
{
    std::string_view payload;
    if (!listPayload(m_bytes, &payload) || !visitInt64s(payload, [out](std::int64_t v) { out->push_back(v); }))
        return FeatureError::kDamaged;
    return FeatureError::kNone;
}

FeatureError FeatureBytes::appendFloats(std::vector<float>* out) const
{
    std::string_view payload;
    if (!listPayload(m_bytes, &payload))
        return FeatureError::kDamaged;
    // A packed run (what TensorFlow's writers make) is the floats' little-endian bytes back to back:
    // one copy on a little-endian machine instead of a visit and a push_back per value.
    if constexpr (std::endian::native == std::endian::little) {
        Reader r(payload);
        std::string_view packed;
        if (r.expectByte(kDelimitedTag1)) {
            if (!r.delimited(&packed) || packed.size() % sizeof(float) != 0)
                return FeatureError::kDamaged;
            const std::size_t before = out->size();
            out->resize(before + packed.size() / sizeof(float));
            std::memcpy(out->data() + before, packed.data(), packed.size());
            return FeatureError::kNone;
        }
    }
    if (!visitFloats(payload, [out](float v) { out->push_back(v); }))
        return FeatureError::kDamaged;
    return FeatureError::kNone;
}

FeatureError FeatureBytes::appendBytes(std::vector<std::string>* out) const
{
    std::string_view payload;
    if (!listPayload(m_bytes, &payload) || !visitBytes(payload, [out](std::string_view v) { out->emplace_back(v); }))
        return FeatureError::kDamaged;
    return FeatureError::kNone;
}

std::int64_t FeatureBytes::count(DataType dtype) const
{
    std::string_view payload;
    if (!listPayload(m_bytes, &payload))
        return -1;
    std::int64_t n = 0;
    bool ok = false;
    if (dtype == tf::DT_FLOAT)
        ok = visitFloats(payload, [&n](float) { ++n; });
    else if (dtype == tf::DT_INT64)
        ok = visitInt64s(payload, [&n](std::int64_t) { ++n; });
    else if (dtype == tf::DT_STRING)
        ok = visitBytes(payload, [&n](std::string_view) { ++n; });
    return ok ? n : -1;
}

std::size_t ValueList::size() const
{
    return m_dtype == tf::DT_INT64 ? m_ints.size() : m_dtype == tf::DT_FLOAT ? m_floats.size() : m_strings.size();
}

FeatureError ValueList::append(const FeatureBytes& feature)
{
    if (m_dtype == tf::DT_INT64)
        return feature.appendInt64s(&m_ints);
    if (m_dtype == tf::DT_FLOAT)
        return feature.appendFloats(&m_floats);
    return feature.appendBytes(&m_strings);
}

void ValueList::copyTo(std::size_t begin, std::size_t count, Tensor& out, std::int64_t offset) const
{
    const auto at = static_cast<std::size_t>(offset);
    if (m_dtype == tf::DT_INT64)
        std::copy_n(m_ints.begin() + static_cast<std::ptrdiff_t>(begin), count,
                    out.values<std::int64_t>().begin() + at);
    else if (m_dtype == tf::DT_FLOAT)
        std::copy_n(m_floats.begin() + static_cast<std::ptrdiff_t>(begin), count, out.values<float>().begin() + at);
    else
        std::copy_n(m_strings.begin() + static_cast<std::ptrdiff_t>(begin), count, out.strings().begin() + at);
}

bool splitExample(std::string_view serialized, std::vector<MapEntry>* entries)
{
    Reader r(serialized);
    while (!r.atEnd()) {
        if (r.expectByte(kDelimitedTag1)) {
            std::string_view features;
            if (!r.delimited(&features) || !splitMap(features, entries))
                return false;
        } else if (!r.skipField()) {
            return false;
        }
    }
    return true;
}

bool splitSequenceExample(std::string_view serialized, std::vector<MapEntry>* context,
                          std::vector<MapEntry>* featureLists)
{
    Reader r(serialized);
    while (!r.atEnd()) {
        std::vector<MapEntry>* target = nullptr;
        if (r.expectByte(kDelimitedTag1))
            target = context;
        else if (r.expectByte(kDelimitedTag2))
            target = featureLists;
        else if (!r.skipField())
            return false;
        if (target) {
            std::string_view payload;
            if (!r.delimited(&payload) || !splitMap(payload, target))
                return false;
        }
    }
    return true;
}

bool splitFeatureList(std::string_view serialized, std::vector<FeatureBytes>* features)
{
    Reader r(serialized);
    while (!r.atEnd()) {
        std::string_view feature;
        if (!r.expectByte(kDelimitedTag1) || !r.delimited(&feature))
            return false;
        features->emplace_back(feature);
    }
    return true;
}

} // namespace tstudio::data::wire
