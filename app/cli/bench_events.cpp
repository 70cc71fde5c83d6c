// tstudio bench events: writes TF 1 style scalar and histogram events, then times one LogDirectory reload.
#include "bench_events.h"

#include "bench_report.h"

#include "cli_command.h"

#include "io/events/event_file_writer.h"
#include "io/events/log_directory.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <unistd.h>

namespace tstudio::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr double kMB = 1e6;

constexpr int kScalarTags = 8;
constexpr int kHistogramTags = 2;
constexpr int kBuckets = 40;

int fail(const Status& s)
{
    std::fprintf(stderr, "tstudio bench: %s\n", s.toString().c_str());
    return kExitFailure;
}

/// A TF 1 HistogramProto of `kBuckets` exponential buckets around random values.
tensorflow::Summary histogramSummary(const std::string& tag, std::mt19937& rng)
{
    tensorflow::Summary summary;
    auto* value = summary.add_value();
    value->set_tag(tag);
    auto* h = value->mutable_histo();
    std::normal_distribution<double> normal(0.0, 1.0);
    double limit = 1e-3;
    double count = 0, sum = 0, squares = 0;
    for (int i = 0; i < kBuckets; ++i) {
        limit *= 1.1;
        h->add_bucket_limit(limit);
        const double c = std::floor(std::abs(normal(rng)) * 100.0);
        h->add_bucket(c);
        count += c;
        sum += c * limit;
        squares += c * limit * limit;
    }
    h->set_min(1e-3);
    h->set_max(limit);
    h->set_num(count);
    h->set_sum(sum);
    h->set_sum_squares(squares);
    return summary;
}

/// Writes steps into run `run` until its files hold `bytes`; returns the scalar values written.
Expected<std::uint64_t> writeRun(const fs::path& dir, const std::string& run, std::uint64_t bytes)
{
    events::EventFileWriterOptions options;
    options.maxQueue = 1000;
    auto writer = events::EventFileWriter::open((dir / run).string(), options);
    if (!writer)
        return unexpected(writer.error());
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
    std::uint64_t scalars = 0;
    std::uint64_t approxBytes = 0;
    for (std::int64_t step = 0; approxBytes < bytes; ++step) {
        for (int t = 0; t < kScalarTags; ++t) {
            tensorflow::Summary summary;
            auto* value = summary.add_value();
            value->set_tag("scalar_" + std::to_string(t));
            if (t % 2 == 0) {
                value->set_simple_value(uniform(rng));
            } else { // TF 2 style: a float tensor with plugin "scalars" (metadata kept on the first only)
                value->mutable_metadata()->mutable_plugin_data()->set_plugin_name("scalars");
                auto* tensor = value->mutable_tensor();
                tensor->set_dtype(tensorflow::DT_FLOAT);
                const float f = uniform(rng);
                tensor->set_tensor_content(std::string(reinterpret_cast<const char*>(&f), 4));
            }
            approxBytes += 16 + 40;
            if (Status s = (*writer)->addSummary(summary, step); !s.isOk())
                return unexpected(s);
            ++scalars;
        }
        for (int t = 0; t < kHistogramTags; ++t) {
            const tensorflow::Summary summary = histogramSummary("histogram_" + std::to_string(t), rng);
            approxBytes += 16 + 30 + summary.ByteSizeLong();
            if (Status s = (*writer)->addSummary(summary, step); !s.isOk())
                return unexpected(s);
        }
    }
    if (Status s = (*writer)->close(); !s.isOk())
        return unexpected(s);
    return scalars;
}

/// `runs` runs sharing `bytes`: "train" for one run, else "run_000", "run_001", ...
Expected<std::uint64_t> writeLogDirectory(const fs::path& dir, std::uint64_t bytes, int runs)
{
    std::uint64_t scalars = 0;
    for (int r = 0; r < runs; ++r) {
        char name[32];
        std::snprintf(name, sizeof name, "run_%03d", r);
        auto written = writeRun(dir, runs == 1 ? std::string("train") : std::string(name), bytes / static_cast<std::uint64_t>(runs));
        if (!written)
            return unexpected(written.error());
        scalars += *written;
    }
    return scalars;
}

} // namespace

int benchEvents(const EventsBenchArgs& args, BenchReport& report)
{
    fs::path dir = args.dir;
    bool written = false;
    std::uint64_t scalarsWritten = 0;
    const bool keep = !args.keep.empty();
    if (keep && !args.dir.empty())
        return fail(invalidArgumentError("give either --dir (read it) or --keep (write one and keep it), not both"));
    if (keep && fs::exists(args.keep))
        return fail(failedPreconditionError("'" + args.keep + "' exists; --keep writes a new log directory"));
    if (dir.empty()) {
        std::error_code ec;
        dir = keep ? fs::path(args.keep) : fs::temp_directory_path(ec) / ("tstudio-bench-events-" + std::to_string(::getpid()));
        fs::create_directories(dir, ec);
        if (ec)
            return fail(unavailableError("cannot create '" + dir.string() + "': " + ec.message()));
        written = true;
        const auto start = Clock::now();
        auto w = writeLogDirectory(dir, static_cast<std::uint64_t>(args.megabytes) * 1000000ull, std::max(args.runs, 1));
        if (!w) {
            fs::remove_all(dir, ec);
            return fail(w.error());
        }
        scalarsWritten = *w;
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        std::uint64_t size = 0;
        for (const auto& entry : fs::recursive_directory_iterator(dir, ec))
            if (entry.is_regular_file(ec))
                size += entry.file_size(ec);
        report.text("wrote %.1f MB with EventFileWriter in %.2f s (%.0f MB/s): per step %d scalar events "
                    "(half TF 1 simple_value, half TF 2 tensors) and %d TF 1 histograms of %d buckets\n",
                    double(size) / kMB, s, double(size) / kMB / s, kScalarTags, kHistogramTags, kBuckets);
        report["written"] = {{"bytes", size}, {"seconds", s}};
    }

    events::LogDirectory logs(dir.string());
    const auto start = Clock::now();
    const Status status = logs.reload();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::uint64_t bytes = logs.bytesRead();
    std::uint64_t scalarsRead = 0, histogramsRead = 0, events = 0;
    for (const std::string& run : logs.runs()) {
        logs.withRun(run, [&](const events::EventAccumulator& acc) {
            events += acc.eventsRead();
            for (const auto& tag : acc.tags()) {
                if (tag.kind == events::TagKind::kScalar)
                    scalarsRead += tag.valuesRead;
                else if (tag.kind == events::TagKind::kHistogram)
                    histogramsRead += tag.valuesRead;
            }
        });
    }
    std::error_code ec;
    if (written && !keep)
        fs::remove_all(dir, ec);
    if (!status.isOk())
        return fail(status);
    if (written && scalarsRead != scalarsWritten)
        return fail(internalError("read " + std::to_string(scalarsRead) + " scalar values, wrote " +
                                  std::to_string(scalarsWritten)));
    const auto warnings = logs.warnings();
    report.text("read %.1f MB, %llu events (%llu scalar values, %llu histograms) in %.3f s on one thread "
                "(files in the page cache), %zu warnings\n",
                double(bytes) / kMB, static_cast<unsigned long long>(events),
                static_cast<unsigned long long>(scalarsRead), static_cast<unsigned long long>(histogramsRead), seconds,
                warnings.size());
    report.text("events: %.0f MB/s\n", double(bytes) / kMB / seconds);
    report["directory"] = written && !keep ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(dir.string());
    report["bytes_read"] = bytes;
    report["events"] = events;
    report["scalar_values"] = scalarsRead;
    report["histograms"] = histogramsRead;
    report["seconds"] = seconds;
    report["warnings"] = warnings.size();
    report["megabytes_per_second"] = double(bytes) / kMB / seconds;
    return kExitOk;
}

} // namespace tstudio::cli
