// EventAccumulator: events scanned at the wire level, scalars decoded at once, other values kept as bytes.
#include "io/events/event_accumulator.h"

#include "io/events/event_wire.h"
#include "proto/event.pb.h"
#include "proto/summary.pb.h"

#include <cstdlib>

namespace tstudio::events {
namespace {

constexpr std::string_view kVersionPrefix = "brain.Event:";

TagKind kindOfPlugin(std::string_view plugin)
{
    if (plugin == "scalars")
        return TagKind::kScalar;
    if (plugin == "histograms")
        return TagKind::kHistogram;
    if (plugin == "images")
        return TagKind::kImage;
    if (plugin == "audio")
        return TagKind::kAudio;
    if (plugin == "text")
        return TagKind::kText;
    return TagKind::kTensor;
}

} // namespace

std::string_view tagKindName(TagKind kind)
{
    switch (kind) {
    case TagKind::kScalar:
        return "scalars";
    case TagKind::kHistogram:
        return "histograms";
    case TagKind::kImage:
        return "images";
    case TagKind::kAudio:
        return "audio";
    case TagKind::kText:
        return "text";
    case TagKind::kTensor:
        break;
    }
    return "tensors";
}

EventAccumulator::EventAccumulator()
{
    m_sizes[static_cast<std::size_t>(TagKind::kScalar)] = 0;
    m_sizes[static_cast<std::size_t>(TagKind::kHistogram)] = 500;
    m_sizes[static_cast<std::size_t>(TagKind::kImage)] = 4;
    m_sizes[static_cast<std::size_t>(TagKind::kAudio)] = 4;
    m_sizes[static_cast<std::size_t>(TagKind::kText)] = 10;
    m_sizes[static_cast<std::size_t>(TagKind::kTensor)] = 10;
}

bool EventAccumulator::addRecord(std::string_view payload)
{
    wire::Event event;
    if (!wire::scanEvent(payload, event)) {
        ++m_malformed;
        return false;
    }
    ++m_eventsRead;
    if (!m_firstWallTime)
        m_firstWallTime = event.wallTime;

    if (event.what == wire::kFileVersion) {
        const std::string_view version = event.whatBytes;
        if (version.substr(0, kVersionPrefix.size()) == kVersionPrefix) {
            const std::string number(version.substr(kVersionPrefix.size()));
            char* end = nullptr;
            const double parsed = std::strtod(number.c_str(), &end);
            if (end != number.c_str())
                m_fileVersion = parsed;
        }
    }

    // Orphaned data after a restart (TensorBoard's _MaybePurgeOrphanedData).
    if (m_fileVersion >= 2) {
        if (event.what == wire::kSessionLog) {
            tensorflow::SessionLog log;
            if (log.ParseFromArray(event.whatBytes.data(), static_cast<int>(event.whatBytes.size())) &&
                log.status() == tensorflow::SessionLog::START)
                purge(event.step, nullptr);
        }
    } else if (event.step < m_mostRecentStep && event.what == wire::kSummary) {
        std::vector<std::string> tags;
        wire::scanSummary(event.whatBytes, [&](const wire::Value& value) { tags.emplace_back(value.tag); });
        purge(event.step, &tags);
    } else {
        m_mostRecentStep = event.step;
    }

    switch (event.what) {
    case wire::kGraphDef:
        m_graphDef.assign(event.whatBytes);
        break;
    case wire::kMetaGraphDef:
        m_metaGraphDef.assign(event.whatBytes);
        break;
    case wire::kTaggedRunMetadata: {
        tensorflow::TaggedRunMetadata tagged;
        if (!tagged.ParseFromArray(event.whatBytes.data(), static_cast<int>(event.whatBytes.size()))) {
            ++m_malformed;
            return false;
        }
        m_runMetadata[tagged.tag()] = {tagged.run_metadata(), event.step, event.wallTime};
        break;
    }
    case wire::kSummary:
        addSummary(event.whatBytes, event.step, event.wallTime);
        break;
    default:
        break;
    }
    return true;
}

void EventAccumulator::addSummary(std::string_view summary, std::int64_t step, double wallTime)
{
    const bool ok = wire::scanSummary(summary, [&](const wire::Value& value) {
        std::string_view name = value.tag;
        if (name.empty() && value.value == wire::kTensor)
            name = value.nodeName; // tensor summaries of the plugin-asset era
        // A value with nothing but its plugin's metadata is that plugin's data: the hparams plugin
        // keeps its experiment and sessions there, and TensorBoard records it (plugin and content).
        const bool pluginDataOnly = value.value == wire::kNoValue && value.hasMetadata && !value.pluginName.empty();
        auto it = m_tags.find(name);
        const bool isNew = it == m_tags.end();
        if (isNew) {
            if ((value.value == wire::kNoValue && !pluginDataOnly) || value.value == wire::kObsoleteHistogram)
                return; // nothing TensorBoard shows
            it = m_tags.emplace(std::string(name), Tag{}).first;
            m_tagOrder.emplace_back(name);
        }
        Tag& tag = it->second;
        if (value.hasMetadata && !tag.metadataSeen) {
            tag.metadataSeen = true;
            tag.plugin.assign(value.pluginName);
            tag.pluginContent.assign(value.pluginContent);
        }
        if (isNew) {
            switch (value.value) {
            case wire::kSimpleValue:
                tag.kind = TagKind::kScalar;
                break;
            case wire::kHisto:
                tag.kind = TagKind::kHistogram;
                break;
            case wire::kImage:
                tag.kind = TagKind::kImage;
                break;
            case wire::kAudio:
                tag.kind = TagKind::kAudio;
                break;
            default:
                tag.kind = kindOfPlugin(tag.plugin);
                break;
            }
            const bool pluginFromMetadata = value.value == wire::kTensor || pluginDataOnly;
            if (!pluginFromMetadata || tag.plugin.empty())
                tag.plugin = value.value == wire::kTensor ? std::string() : std::string(tagKindName(tag.kind));
            const std::size_t size = m_sizes[static_cast<std::size_t>(tag.kind)];
            tag.scalars = ReservoirBucket<ScalarSample>(size);
            tag.values = ReservoirBucket<ValueSample>(size);
        }
        if (tag.kind == TagKind::kScalar) {
            ScalarSample sample{step, wallTime, 0.0, true};
            if (value.value == wire::kSimpleValue) {
                sample.value = value.simpleValue;
            } else if (value.value == wire::kTensor) {
                const auto scalar = wire::tensorScalar(value.valueBytes);
                if (!scalar)
                    return;
                sample.value = scalar->value;
                sample.float32 = scalar->float32;
            } else {
                return; // another kind under a scalar tag
            }
            ++tag.valuesRead;
            tag.scalars.add(sample);
            return;
        }
        const bool keepsPluginData = pluginDataOnly && tag.kind == TagKind::kTensor;
        if (value.value == wire::kSimpleValue || (value.value == wire::kNoValue && !keepsPluginData))
            return;
        ++tag.valuesRead;
        tag.values.add(ValueSample{step, wallTime, std::make_shared<const std::string>(value.whole)});
    });
    if (!ok)
        ++m_malformed;
}

void EventAccumulator::purge(std::int64_t step, const std::vector<std::string>* tags)
{
    auto purgeTag = [&](Tag& tag) {
        m_purged += tag.scalars.filter([step](const ScalarSample& s) { return s.step < step; });
        m_purged += tag.values.filter([step](const ValueSample& s) { return s.step < step; });
    };
    if (tags) {
        for (const std::string& name : *tags) {
            auto it = m_tags.find(name);
            if (it != m_tags.end())
                purgeTag(it->second);
        }
    } else {
        for (auto& [name, tag] : m_tags)
            purgeTag(tag);
    }
}

void EventAccumulator::setSizeGuidance(TagKind kind, std::size_t maxSamples)
{
    m_sizes[static_cast<std::size_t>(kind)] = maxSamples;
    for (auto& [name, tag] : m_tags) {
        if (tag.kind != kind)
            continue;
        tag.scalars.setMaxSize(maxSamples);
        tag.values.setMaxSize(maxSamples);
    }
}

TagInfo EventAccumulator::info(const std::string& name, const Tag& tag) const
{
    TagInfo out;
    out.tag = name;
    out.kind = tag.kind;
    out.plugin = tag.plugin;
    out.pluginContent = tag.pluginContent;
    out.valuesRead = tag.valuesRead;
    if (tag.kind == TagKind::kScalar) {
        const auto& items = tag.scalars.items();
        out.samplesKept = items.size();
        if (!items.empty()) {
            out.firstStep = items.front().step;
            out.lastStep = items.back().step;
        }
    } else {
        const auto& items = tag.values.items();
        out.samplesKept = items.size();
        if (!items.empty()) {
            out.firstStep = items.front().step;
            out.lastStep = items.back().step;
        }
    }
    return out;
}

std::vector<TagInfo> EventAccumulator::tags() const
{
    std::vector<TagInfo> out;
    out.reserve(m_tagOrder.size());
    for (const std::string& name : m_tagOrder)
        out.push_back(info(name, m_tags.find(name)->second));
    return out;
}

std::optional<TagInfo> EventAccumulator::tagInfo(const std::string& tag) const
{
    auto it = m_tags.find(tag);
    if (it == m_tags.end())
        return std::nullopt;
    return info(tag, it->second);
}

std::vector<ScalarSample> EventAccumulator::scalars(const std::string& tag) const
{
    auto it = m_tags.find(tag);
    if (it == m_tags.end() || it->second.kind != TagKind::kScalar)
        return {};
    return it->second.scalars.items();
}

std::vector<ValueSample> EventAccumulator::values(const std::string& tag) const
{
    auto it = m_tags.find(tag);
    if (it == m_tags.end() || it->second.kind == TagKind::kScalar)
        return {};
    return it->second.values.items();
}

std::optional<std::string> EventAccumulator::kerasModelConfig() const
{
    for (auto it = m_tagOrder.rbegin(); it != m_tagOrder.rend(); ++it) {
        const Tag& tag = m_tags.find(*it)->second;
        if (tag.plugin != "graph_keras_model" || tag.values.items().empty())
            continue;
        tensorflow::Summary::Value value;
        if (!value.ParseFromString(*tag.values.items().back().value) || value.tensor().string_val_size() < 1)
            continue;
        return value.tensor().string_val(0);
    }
    return std::nullopt;
}

std::vector<std::string> EventAccumulator::runMetadataTags() const
{
    std::vector<std::string> out;
    for (const auto& [tag, entry] : m_runMetadata)
        out.push_back(tag);
    return out;
}

std::optional<std::string> EventAccumulator::runMetadata(const std::string& tag) const
{
    auto it = m_runMetadata.find(tag);
    if (it == m_runMetadata.end())
        return std::nullopt;
    return it->second.runMetadata;
}

} // namespace tstudio::events
