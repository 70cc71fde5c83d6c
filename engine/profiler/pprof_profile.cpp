// pprofProfile: the name-scope tree of a profile table as a pprof profile.
#include "profiler/pprof_profile.h"

#include "io/atomic_file.h"
#include "proto/pprof_profile.pb.h"

#include <zlib.h>

#include <algorithm>
#include <map>
#include <regex>

namespace tstudio::profiler {
namespace {

/// What each select carries: its unit, the comment tfprof writes, and the row's value.
struct PprofQuantity {
    const char* select;
    const char* unit;
    const char* comment;
    std::int64_t (*value)(const ProfileStats&);
};

const PprofQuantity kQuantities[] = {
    {"micros", "microseconds", "Sum of accelerator execution time and cpu execution time.",
     [](const ProfileStats& s) { return s.execNs / 1000; }},
    {"accelerator_micros", "microseconds", "Accelerator execution time.",
     [](const ProfileStats& s) { return s.acceleratorNs / 1000; }},
    {"cpu_micros", "microseconds", "CPU execution time.", [](const ProfileStats& s) { return s.cpuNs / 1000; }},
    {"bytes", "bytes", "Sum of operation total memory requests, excluding deallocations.",
     [](const ProfileStats& s) { return s.requestedBytes; }},
    {"peak_bytes", "bytes", "Sum of operation peak memory usage.", [](const ProfileStats& s) { return s.peakBytes; }},
    {"residual_bytes", "bytes", "Sum of operation allocated memory after finish.",
     [](const ProfileStats& s) { return s.residualBytes; }},
    {"output_bytes", "bytes", "Sum of operation output size.", [](const ProfileStats& s) { return s.outputBytes; }},
    {"params", "count", "Model parameters.", [](const ProfileStats& s) { return s.parameters; }},
    {"float_ops", "count", "Model float operations (Only available if defined).",
     [](const ProfileStats& s) { return s.floatOps; }},
};

/// Profile.string_table with "" first, each string once.
class StringTable {
public:
    explicit StringTable(perftools::profiles::Profile& profile) : m_profile(profile) { index(""); }
    std::int64_t index(const std::string& s)
    {
        auto [it, added] = m_ids.emplace(s, static_cast<std::int64_t>(m_ids.size()));
        if (added)
            m_profile.add_string_table(s);
        return it->second;
    }

private:
    perftools::profiles::Profile& m_profile;
    std::map<std::string, std::int64_t> m_ids;
};

Expected<std::string> gzipBytes(const std::string& bytes)
{
    z_stream z{};
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return unexpected(internalError("zlib could not start a gzip stream"));
    std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 32, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    z.avail_in = static_cast<uInt>(bytes.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    out.resize(z.total_out);
    deflateEnd(&z);
    if (rc != Z_STREAM_END)
        return unexpected(internalError("zlib could not compress the pprof profile"));
    return out;
}

} // namespace

Expected<std::string> pprofProfile(const ProfileTable& scopes, const PprofOptions& options)
{
    const PprofQuantity* quantity = nullptr;
    for (const PprofQuantity& q : kQuantities)
        if (options.select == q.select)
            quantity = &q;
    if (!quantity)
        return unexpected(invalidArgumentError("pprof doesn't support -select=" + options.select +
                                               " (it carries micros, accelerator_micros, cpu_micros, bytes, "
                                               "peak_bytes, residual_bytes, output_bytes, params or float_ops)"));
    std::vector<std::regex> accounted;
    for (const std::string& pattern : options.accountTypeRegexes) {
        try {
            accounted.emplace_back(pattern);
        } catch (const std::regex_error& e) {
            return unexpected(invalidArgumentError("account_type_regexes: '" + pattern +
                                                   "' is not a regular "
                                                   "expression: " +
                                                   e.what()));
        }
    }
    auto isAccounted = [&](const std::string& op) {
        for (const std::regex& r : accounted)
            if (std::regex_match(op, r))
                return true;
        return false;
    };

    perftools::profiles::Profile profile;
    StringTable strings(profile);
    auto* count = profile.add_sample_type();
    count->set_type(strings.index("count"));
    count->set_unit(strings.index("count"));
    auto* type = profile.add_sample_type();
    type->set_type(strings.index(quantity->select));
    type->set_unit(strings.index(quantity->unit));
    profile.add_comment(strings.index(quantity->comment));
    profile.set_time_nanos(options.timeNanos);
    profile.set_duration_nanos(options.durationNanos);
    const std::int64_t nodeLabel = strings.index("graph node:");

    // One function and one location per scope row, made when a sample first reaches it.
    std::vector<std::uint64_t> locationOf(scopes.rows.size(), 0);
    auto location = [&](std::uint32_t row) {
        if (locationOf[row] == 0) {
            const ProfileRow& r = scopes.rows[row];
            auto* function = profile.add_function();
            function->set_id(static_cast<std::uint64_t>(profile.function_size()));
            function->set_name(strings.index(r.name));
            function->set_system_name(strings.index(r.opType.empty() ? r.name : r.opType));
            auto* loc = profile.add_location();
            loc->set_id(static_cast<std::uint64_t>(profile.location_size()));
            loc->add_line()->set_function_id(function->id());
            locationOf[row] = loc->id();
        }
        return locationOf[row];
    };
    for (std::uint32_t row = 0; row < scopes.rows.size(); ++row) {
        const ProfileRow& r = scopes.rows[row];
        if (r.opType.empty() || (!isAccounted(r.opType) && std::none_of(r.extraTypes.begin(), r.extraTypes.end(),
                                                                         isAccounted)))
            continue; // a scope that is no graph node, or an op type not accounted
        auto* sample = profile.add_sample();
        for (std::uint32_t at = row; at != kNoIndex; at = scopes.rows[at].parent)
            sample->add_location_id(location(at));
        sample->add_value(1);
        sample->add_value(quantity->value(r.self));
        auto* label = sample->add_label();
        label->set_key(nodeLabel);
        label->set_str(strings.index(r.name));
    }
    std::string bytes;
    if (!profile.SerializeToString(&bytes))
        return unexpected(internalError("the pprof profile could not be serialized"));
    return bytes;
}

Status writePprofProfile(const ProfileTable& scopes, const PprofOptions& options, const std::filesystem::path& path)
{
    auto bytes = pprofProfile(scopes, options);
    if (!bytes)
        return bytes.error();
    auto compressed = gzipBytes(*bytes);
    if (!compressed)
        return compressed.error();
    return writeFileAtomically(path, *compressed);
}

} // namespace tstudio::profiler
