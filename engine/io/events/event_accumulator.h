// EventAccumulator: what one run's event files hold, per tag and kind, sampled as TensorBoard samples it.
#pragma once

#include "io/events/reservoir.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::events {

/// What a tag's values are. TF 1 summaries say it by the Summary.Value field (simple_value, histo,
/// image, audio); TF 2 tensor summaries by metadata.plugin_data.plugin_name.
enum class TagKind { kScalar, kHistogram, kImage, kAudio, kText, kTensor };
inline constexpr int kTagKindCount = 6;

/// TensorBoard's plugin names: "scalars", "histograms", "images", "audio", "text", "tensors".
std::string_view tagKindName(TagKind kind);

struct ScalarSample {
    std::int64_t step = 0;
    double wallTime = 0;
    double value = 0;
    bool float32 = true; ///< stored as float32 (TF 1 simple_value, DT_FLOAT tensors)
};

/// A sample of a histogram, image, audio, text or other tensor tag: the serialized Summary.Value,
/// shared (copies are cheap), decoded on demand (summary_values.h).
struct ValueSample {
    std::int64_t step = 0;
    double wallTime = 0;
    std::shared_ptr<const std::string> value;
};

struct TagInfo {
    std::string tag;
    TagKind kind = TagKind::kTensor;
    std::string plugin;        ///< plugin name: from the kind (TF 1) or the tag's first metadata (TF 2)
    std::string pluginContent; ///< metadata.plugin_data.content of the tag's first metadata
    std::uint64_t valuesRead = 0; ///< values of the tag read (kept or not)
    std::size_t samplesKept = 0;
    std::int64_t firstStep = 0; ///< of the kept samples
    std::int64_t lastStep = 0;
};

/// Accumulates the events of one run (its files read in order) like TensorBoard's EventAccumulator:
/// - summary values grouped by tag; the plugin of a TF 2 tensor value comes from the metadata of the
///   tag's first value (writers strip it from later ones); a value holding nothing but its plugin's
///   metadata (the hparams plugin's `_hparams_/...` summaries) is a sample of a tensor tag of that
///   plugin, so the plugin's data stays readable;
/// - samples kept per tag by reservoir sampling with a size per kind (0 keeps all), by default every
///   scalar, 500 histograms, 4 images, 4 audio clips, 10 text and other tensors;
/// - a SessionLog START at step S drops every sample with step >= S (the run restarted from a
///   checkpoint); files without a file_version use TensorBoard's older rule instead: a summary
///   whose step goes back drops the later samples of its tags;
/// - the last graph_def, meta_graph_def, Keras model config and run metadata per tag.
/// Not thread-safe (LogDirectory serialises access).
class EventAccumulator {
public:
    EventAccumulator();

    /// Adds one event record's payload (a serialized Event). Returns false and counts the record
    /// when it is not a valid Event.
    bool addRecord(std::string_view payload);

    /// Samples kept per tag for a kind (0: all). Shrinking thins the existing samples at once.
    void setSizeGuidance(TagKind kind, std::size_t maxSamples);
    std::size_t sizeGuidance(TagKind kind) const { return m_sizes[static_cast<std::size_t>(kind)]; }

    /// Tags in the order they were first seen.
    std::vector<TagInfo> tags() const;
    std::optional<TagInfo> tagInfo(const std::string& tag) const;
    /// Kept samples of a scalar tag, oldest first (empty for other tags).
    std::vector<ScalarSample> scalars(const std::string& tag) const;
    /// Kept samples of a non-scalar tag, oldest first (empty for scalar tags).
    std::vector<ValueSample> values(const std::string& tag) const;

    /// The serialized GraphDef of the last graph event; empty when none.
    const std::string& graphDef() const { return m_graphDef; }
    /// The serialized MetaGraphDef of the last meta graph event; empty when none.
    const std::string& metaGraphDef() const { return m_metaGraphDef; }
    /// The JSON model config of the last Keras model summary (plugin "graph_keras_model").
    std::optional<std::string> kerasModelConfig() const;
    /// Tags of tagged run metadata, and the serialized RunMetadata of one.
    std::vector<std::string> runMetadataTags() const;
    std::optional<std::string> runMetadata(const std::string& tag) const;
    /// The last tagged run metadata of each tag, with the step and wall time of its event.
    struct RunMetadataEntry {
        std::string runMetadata; ///< serialized RunMetadata
        std::int64_t step = 0;
        double wallTime = 0;
    };
    const std::map<std::string, RunMetadataEntry>& taggedRunMetadata() const { return m_runMetadata; }

    /// The version of "brain.Event:N" (0 until seen).
    double fileVersion() const { return m_fileVersion; }
    std::optional<double> firstEventWallTime() const { return m_firstWallTime; }
    std::uint64_t eventsRead() const { return m_eventsRead; }
    std::uint64_t malformedRecords() const { return m_malformed; }
    /// Samples dropped by restarts (SessionLog START or steps going back).
    std::uint64_t purgedSamples() const { return m_purged; }

private:
    struct Tag {
        TagKind kind = TagKind::kTensor;
        std::string plugin;
        std::string pluginContent;
        bool metadataSeen = false;
        std::uint64_t valuesRead = 0;
        ReservoirBucket<ScalarSample> scalars{0};
        ReservoirBucket<ValueSample> values{0};
    };

    void addSummary(std::string_view summary, std::int64_t step, double wallTime);
    void purge(std::int64_t step, const std::vector<std::string>* tags);
    TagInfo info(const std::string& name, const Tag& tag) const;

    std::array<std::size_t, kTagKindCount> m_sizes{};
    std::map<std::string, Tag, std::less<>> m_tags;
    std::vector<std::string> m_tagOrder;
    std::string m_graphDef;
    std::string m_metaGraphDef;
    std::map<std::string, RunMetadataEntry> m_runMetadata;
    double m_fileVersion = 0;
    std::optional<double> m_firstWallTime;
    std::int64_t m_mostRecentStep = 0;
    std::uint64_t m_eventsRead = 0;
    std::uint64_t m_malformed = 0;
    std::uint64_t m_purged = 0;
};

} // namespace tstudio::events
