// runImagePipelineBench: JPEGs made with the engine's codec, the tf.image pipeline graph built with
// builder/image.h, and batches run through one Session from several threads.
#include "image_pipeline_bench.h"

#include "builder/graph_builder.h"
#include "builder/image.h"
#include "builder/ops_sugar.h"
#include "framework/allocator.h"
#include "io/image/jpeg_codec.h"
#include "runtime/arena_run_metadata.h"
#include "runtime/session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <time.h>

namespace tstudio::image_io {

namespace {

using Clock = std::chrono::steady_clock;

/// CPU seconds the calling thread has used.
double threadCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/// A size x size image with a gradient, three discs and noise: content a JPEG codec has real work on.
std::vector<std::uint8_t> syntheticImage(int size, int channels, std::uint32_t seed)
{
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> noise(0.0, 6.0);
    const double angle = unit(gen) * 6.283185307179586;
    double base[3];
    double slope[3];
    for (int c = 0; c < 3; ++c) {
        base[c] = 40 + 150 * unit(gen);
        slope[c] = 60 * (unit(gen) - 0.5);
    }
    struct Disc {
        double x, y, r;
        double colour[3];
    } discs[3];
    for (Disc& d : discs) {
        d.x = unit(gen) * size;
        d.y = unit(gen) * size;
        d.r = (0.1 + 0.25 * unit(gen)) * size;
        for (double& v : d.colour)
            v = 255 * unit(gen);
    }
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(size) * size * static_cast<std::size_t>(channels));
    std::size_t i = 0;
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            const double t = (std::cos(angle) * x + std::sin(angle) * y) / size;
            for (int c = 0; c < channels; ++c) {
                double v = base[c] + slope[c] * t;
                for (const Disc& d : discs)
                    if ((x - d.x) * (x - d.x) + (y - d.y) * (y - d.y) < d.r * d.r)
                        v = 0.5 * v + 0.5 * d.colour[c];
                v += noise(gen);
                pixels[i++] = static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0));
            }
        }
    }
    return pixels;
}

Expected<std::vector<std::string>> makeJpegs(const ImageBenchSet& set)
{
    std::vector<std::string> jpegs;
    JpegEncodeOptions options;
    options.quality = set.quality;
    for (int i = 0; i < set.files; ++i) {
        const std::vector<std::uint8_t> pixels =
            syntheticImage(set.size, set.channels, static_cast<std::uint32_t>(1000003 * set.size + i));
        auto jpeg = encodeJpeg(pixels.data(), pixels.size(), set.size, set.size, set.channels, options);
        if (!jpeg)
            return unexpected(jpeg.error());
        jpegs.push_back(std::move(*jpeg));
    }
    return jpegs;
}

Status writeJpegs(const std::string& dir, const ImageBenchSet& set, const std::vector<std::string>& jpegs)
{
    const std::filesystem::path folder = std::filesystem::path(dir) / set.name;
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
        return unavailableError("cannot create '" + folder.string() + "': " + ec.message());
    for (std::size_t i = 0; i < jpegs.size(); ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "%05zu.jpg", i);
        std::ofstream out(folder / name, std::ios::binary);
        out.write(jpegs[i].data(), static_cast<std::streamsize>(jpegs[i].size()));
        if (!out)
            return unavailableError("cannot write '" + (folder / name).string() + "'");
    }
    return Status::ok();
}

/// The pipeline for one batch; returns the fetched tensor's name.
Expected<std::string> buildPipeline(GraphBuilder& b, const ImageBenchSet& set, bool resizeBeforeScale)
{
    b.setRandomSeed(1234);
    std::vector<Output> crops;
    for (int i = 0; i < set.batch; ++i) {
        auto contents =
            ops::placeholder(b, tensorflow::DT_STRING, TensorShape::scalar(), "contents_" + std::to_string(i));
        if (!contents)
            return unexpected(contents.error());
        image::DecodeJpegAttrs attrs;
        attrs.channels = set.channels;
        // libjpeg's accurate integer DCT, which Pillow always uses (TensorFlow's default "" is
        // INTEGER_FAST): both sides then do the same decoding work.
        attrs.dctMethod = "INTEGER_ACCURATE";
        auto decoded = image::decodeJpeg(b, *contents, attrs);
        if (!decoded)
            return unexpected(decoded.error());
        auto crop = image::randomCrop(b, *decoded, std::vector<std::int64_t>{set.crop, set.crop, set.channels});
        if (!crop)
            return unexpected(crop.error());
        if (set.flipEachImage) {
            auto flipped = image::randomFlipLeftRight(b, *crop);
            if (!flipped)
                return unexpected(flipped.error());
            crops.push_back(*flipped);
        } else {
            crops.push_back(*crop);
        }
    }
    auto batch = ops::firstOutput(b.op("Pack", {crops}, {{"axis", attr::i(0)}}, "batch"));
    if (!batch)
        return unexpected(batch.error());
    Output images = *batch;
    if (!set.flipEachImage) {
        auto flipped = image::randomFlipLeftRight(b, *batch);
        if (!flipped)
            return unexpected(flipped.error());
        images = *flipped;
    }
    const std::array<std::int64_t, 2> size{set.size, set.size};
    const image::ResizeOptions bilinear{image::ResizeMethod::kBilinear, false};
    if (resizeBeforeScale) {
        // tf.image.resize_images(uint8 batch) gives float32 in [0, 255] (ResizeBilinear converts
        // each source value as it interpolates), then * (1 / 255) as convert_image_dtype scales:
        // no Cast, and the scaling runs once over the output instead of Cast and Mul over the crops.
        auto resized = image::resizeImages(b, images, size, bilinear);
        if (!resized)
            return unexpected(resized.error());
        auto scale = ops::constant(b, 1.0 / 255.0, tensorflow::DT_FLOAT, "scale");
        if (!scale)
            return unexpected(scale.error());
        auto scaled = ops::firstOutput(b.op("Mul", {*resized, *scale}, {}, "scaled"));
        if (!scaled)
            return unexpected(scaled.error());
        return scaled->name();
    }
    auto floats = image::convertImageDtype(b, images, tensorflow::DT_FLOAT);
    if (!floats)
        return unexpected(floats.error());
    auto resized = image::resizeImages(b, *floats, size, bilinear);
    if (!resized)
        return unexpected(resized.error());
    return resized->name();
}

std::string summarise(const tensorflow::GraphDef& graph)
{
    std::map<std::string, int> counts;
    for (const auto& node : graph.node())
        ++counts[node.op()];
    std::string out = std::to_string(graph.node_size()) + " nodes:";
    for (const auto& [op, n] : counts)
        out += " " + op + " x" + std::to_string(n);
    return out;
}

using Feeds = std::vector<std::pair<std::string, Tensor>>;

Expected<std::vector<Feeds>> makeFeeds(const ImageBenchSet& set, const std::vector<std::string>& jpegs, Allocator& a)
{
    std::vector<Feeds> batches;
    const int count = std::max(1, set.files / set.batch);
    for (int k = 0; k < count; ++k) {
        Feeds feeds;
        for (int i = 0; i < set.batch; ++i) {
            auto t = Tensor::allocate(a, tensorflow::DT_STRING, TensorShape::scalar());
            if (!t)
                return unexpected(t.error());
            t->strings()[0] = jpegs[static_cast<std::size_t>((k * set.batch + i) % set.files)];
            feeds.emplace_back("contents_" + std::to_string(i), *t);
        }
        batches.push_back(std::move(feeds));
    }
    return batches;
}

/// The first batch's output: [batch, size, size, channels] float32 in [0, 1].
Status checkOutput(const ImageBenchSet& set, const Tensor& out)
{
    const TensorShape want{set.batch, set.size, set.size, set.channels};
    if (out.shape() != want || out.dtype() != tensorflow::DT_FLOAT)
        return internalError("the pipeline gave " + out.shape().toString() + " " + dataTypeName(out.dtype()) +
                             ", expected " + want.toString() + " float32");
    for (float v : out.values<float>())
        if (!(v >= 0.0f && v <= 1.0f))
            return internalError("the pipeline gave a value outside [0, 1]: " + std::to_string(v));
    return Status::ok();
}

Expected<ImageBenchResult> runSet(const OpRegistry& ops, const KernelRegistry& kernels, const ImageBenchSet& set,
                                  const ImageBenchOptions& options)
{
    auto jpegs = makeJpegs(set);
    if (!jpegs)
        return unexpected(jpegs.error());
    if (!options.keepDir.empty())
        if (Status s = writeJpegs(options.keepDir, set, *jpegs); !s.isOk())
            return unexpected(s);
    GraphBuilder b(ops);
    auto fetch = buildPipeline(b, set, options.resizeBeforeScale);
    if (!fetch)
        return unexpected(fetch.error());
    SessionOptions sessionOptions;
    sessionOptions.ops = &ops;
    sessionOptions.kernels = &kernels;
    sessionOptions.config.set_intra_op_parallelism_threads(1);
    sessionOptions.config.set_inter_op_parallelism_threads(1);
    Session session(sessionOptions);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);
    CpuAllocator allocator;
    auto batches = makeFeeds(set, *jpegs, allocator);
    if (!batches)
        return unexpected(batches.error());
    // Warm-up: every batch once (kernels, allocator caches), the first one checked.
    for (std::size_t k = 0; k < batches->size(); ++k) {
        std::vector<Tensor> out;
        if (Status s = session.run((*batches)[k], {*fetch}, {}, &out); !s.isOk())
            return unexpected(s);
        if (k == 0)
            if (Status s = checkOutput(set, out.at(0)); !s.isOk())
                return unexpected(s);
    }
    std::atomic<std::int64_t> images{0};
    std::atomic<bool> stop{false};
    std::mutex errorMutex;
    Status firstError;
    double cpuSeconds = 0;
    const auto start = Clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < options.threads; ++t) {
        workers.emplace_back([&, t] {
            const double cpuStart = threadCpuSeconds();
            struct AddCpu {
                std::mutex& mutex;
                double& total;
                double start;
                ~AddCpu()
                {
                    const double used = threadCpuSeconds() - start;
                    std::lock_guard<std::mutex> lock(mutex);
                    total += used;
                }
            } addCpu{errorMutex, cpuSeconds, cpuStart};
            std::size_t k = static_cast<std::size_t>(t);
            std::vector<Tensor> out;
            while (!stop.load()) {
                const Status s = session.run((*batches)[k % batches->size()], {*fetch}, {}, &out);
                if (!s.isOk()) {
                    std::lock_guard<std::mutex> lock(errorMutex);
                    if (firstError.isOk())
                        firstError = s;
                    stop = true;
                    return;
                }
                images += set.batch;
                k += static_cast<std::size_t>(options.threads);
                if (std::chrono::duration<double>(Clock::now() - start).count() >= options.seconds)
                    stop = true;
            }
        });
    }
    for (std::thread& w : workers)
        w.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (!firstError.isOk())
        return unexpected(firstError);
    // One traced pass on one thread: kernel time per op type.
    std::map<std::string, std::string> opOf;
    for (const auto& node : b.graphDef().node())
        opOf[node.name()] = node.op();
    std::map<std::string, double> nanosByOp;
    double wallNanos = 0;
    tensorflow::RunOptions traced;
    traced.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
    for (const Feeds& feeds : *batches) {
        ArenaRunMetadata metadata;
        std::vector<Tensor> out;
        const auto runStart = Clock::now();
        if (Status s = session.run(traced, feeds, {*fetch}, {}, &out, metadata.get()); !s.isOk())
            return unexpected(s);
        wallNanos += std::chrono::duration<double, std::nano>(Clock::now() - runStart).count();
        for (const auto& device : metadata->step_stats().dev_stats())
            for (const auto& node : device.node_stats())
                nanosByOp[opOf[node.node_name()]] +=
                    static_cast<double>(node.op_end_rel_nanos() - node.op_start_rel_nanos());
    }
    const double tracedImages = static_cast<double>(batches->size()) * set.batch;
    ImageBenchResult result;
    for (const auto& [op, nanos] : nanosByOp)
        result.opMicrosPerImage.emplace_back(op, nanos / 1000.0 / tracedImages);
    std::sort(result.opMicrosPerImage.begin(), result.opMicrosPerImage.end(),
              [](const auto& a, const auto& b) { return a.second > b.second; });
    result.tracedMicrosPerImage = wallNanos / 1000.0 / tracedImages;
    result.set = set;
    result.images = images.load();
    result.seconds = seconds;
    result.imagesPerSecond = static_cast<double>(result.images) / seconds;
    result.cpuSeconds = cpuSeconds;
    double bytes = 0;
    for (const std::string& j : *jpegs)
        bytes += static_cast<double>(j.size());
    result.meanJpegBytes = bytes / static_cast<double>(jpegs->size());
    result.graphSummary = summarise(b.graphDef());
    return result;
}

} // namespace

std::vector<ImageBenchSet> defaultImageBenchSets(int batch)
{
    ImageBenchSet grey;
    grey.name = "gray28";
    grey.size = 28;
    grey.channels = 1;
    grey.crop = 24;
    grey.files = 2048;
    grey.batch = batch > 0 ? batch : 64;
    ImageBenchSet rgb;
    rgb.name = "rgb224";
    rgb.size = 224;
    rgb.channels = 3;
    rgb.crop = 192;
    rgb.files = 256;
    rgb.batch = batch > 0 ? batch : 8;
    rgb.flipEachImage = true;
    return {grey, rgb};
}

Expected<std::vector<ImageBenchResult>> runImagePipelineBench(const OpRegistry& ops, const KernelRegistry& kernels,
                                                              const std::vector<ImageBenchSet>& sets,
                                                              const ImageBenchOptions& options)
{
    std::vector<ImageBenchResult> results;
    for (const ImageBenchSet& set : sets) {
        if (set.batch <= 0 || set.files <= 0 || set.crop > set.size)
            return unexpected(invalidArgumentError("image bench set '" + set.name + "' is inconsistent"));
        auto r = runSet(ops, kernels, set, options);
        if (!r)
            return unexpected(r.error().withContext("image bench " + set.name));
        results.push_back(std::move(*r));
    }
    return results;
}

std::string formatImageBenchResults(const std::vector<ImageBenchResult>& results, const ImageBenchOptions& options)
{
    std::string out;
    char line[1024];
    for (const ImageBenchResult& r : results) {
        const ImageBenchSet& s = r.set;
        std::snprintf(line, sizeof line,
                      "%s: %d JPEGs %dx%dx%d (quality %d, mean %.0f bytes) -> DecodeJpeg (INTEGER_ACCURATE, as "
                      "Pillow), random_crop %dx%d, "
                      "random_flip_left_right (%s), %s; batch %d per Session::run, %d threads\n",
                      s.name.c_str(), s.files, s.size, s.size, s.channels, s.quality, r.meanJpegBytes, s.crop, s.crop,
                      s.flipEachImage ? "each image" : "on the batch",
                      (options.resizeBeforeScale
                           ? "resize_images " + std::to_string(s.size) + "x" + std::to_string(s.size) +
                                 " bilinear on the uint8 batch, then * (1/255) to float32 in [0, 1] (the TensorFlow "
                                 "idiom, and Pillow's order; --convert-first for convert_image_dtype first)"
                           : "convert_image_dtype float32, resize_images " + std::to_string(s.size) + "x" +
                                 std::to_string(s.size) + " bilinear")
                          .c_str(),
                      s.batch, options.threads);
        out += line;
        out += "  graph: " + r.graphSummary + "\n";
        std::string ops = "  one thread, traced: " + std::to_string(static_cast<int>(r.tracedMicrosPerImage)) +
                          " us per image; kernels (us per image):";
        for (std::size_t i = 0; i < r.opMicrosPerImage.size() && i < 8; ++i) {
            std::snprintf(line, sizeof line, " %s %.1f", r.opMicrosPerImage[i].first.c_str(),
                          r.opMicrosPerImage[i].second);
            ops += line;
        }
        out += ops + "\n";
        std::snprintf(
            line, sizeof line, "  %lld images in %.2f s, %.2f CPU-s: %.0f images per CPU-second\n%s: %.0f images/s\n",
            static_cast<long long>(r.images), r.seconds, r.cpuSeconds,
            r.cpuSeconds > 0 ? static_cast<double>(r.images) / r.cpuSeconds : 0.0, s.name.c_str(), r.imagesPerSecond);
        out += line;
    }
    if (!options.keepDir.empty())
        out += "JPEGs written under " + options.keepDir + " (compare: tools/bench/pillow_decode.py " + options.keepDir +
               ")\n";
    return out;
}

} // namespace tstudio::image_io
