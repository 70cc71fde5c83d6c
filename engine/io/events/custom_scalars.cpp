#include "io/events/custom_scalars.h"

#include "io/events/summary_values.h"
#include "proto/custom_scalar_layout.pb.h"
#include "proto/summary.pb.h"

#include <algorithm>
#include <regex>

namespace tstudio::events {

Expected<CustomScalarsLayout> decodeCustomScalarsLayout(const std::string& serializedValue, const std::string& run)
{
    auto strings = decodeText(serializedValue, kCustomScalarsTag);
    if (!strings)
        return unexpected(invalidArgumentError("run '" + run + "': the custom scalars layout: " +
                                               strings.error().message()));
    if (strings->size() != 1)
        return unexpected(invalidArgumentError("run '" + run + "': the custom scalars layout holds " +
                                               std::to_string(strings->size()) + " strings (expected one)"));
    tensorboard::Layout proto;
    if (!proto.ParseFromString(strings->front()))
        return unexpected(invalidArgumentError("run '" + run + "': the custom scalars layout's " +
                                               std::to_string(strings->front().size()) +
                                               " bytes are not a tensorboard.Layout"));
    if (proto.version() != 0)
        return unexpected(invalidArgumentError("run '" + run + "': custom scalars layout version " +
                                               std::to_string(proto.version()) + " (only version 0 exists)"));
    CustomScalarsLayout layout;
    for (const tensorboard::Category& c : proto.category()) {
        CustomCategory category;
        category.title = c.title();
        category.closed = c.closed();
        for (const tensorboard::Chart& ch : c.chart()) {
            CustomChart chart;
            chart.title = ch.title();
            if (ch.has_margin()) {
                chart.margin = true;
                for (const auto& s : ch.margin().series())
                    chart.series.push_back({s.value(), s.lower(), s.upper()});
            } else {
                chart.tagPatterns.assign(ch.multiline().tag().begin(), ch.multiline().tag().end());
            }
            category.charts.push_back(std::move(chart));
        }
        layout.categories.push_back(std::move(category));
    }
    return layout;
}

CustomScalarsLayout mergeCustomScalarsLayouts(const std::vector<CustomScalarsLayout>& layouts)
{
    CustomScalarsLayout merged;
    for (const CustomScalarsLayout& layout : layouts)
        for (const CustomCategory& category : layout.categories) {
            auto same = std::find_if(merged.categories.begin(), merged.categories.end(),
                                     [&](const CustomCategory& c) { return c.title == category.title; });
            if (same == merged.categories.end()) {
                merged.categories.push_back(category);
                continue;
            }
            for (const CustomChart& chart : category.charts)
                if (std::find(same->charts.begin(), same->charts.end(), chart) == same->charts.end())
                    same->charts.push_back(chart);
        }
    return merged;
}

Expected<std::vector<std::string>> tagsMatching(const std::string& pattern, const std::vector<std::string>& tags)
{
    if (pattern.empty())
        return unexpected(invalidArgumentError("an empty tag pattern matches nothing"));
    std::regex re;
    try {
        re.assign(pattern, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        return unexpected(invalidArgumentError("tag pattern '" + pattern + "' is not a valid regular expression: " +
                                               e.what()));
    }
    std::vector<std::string> out;
    for (const std::string& tag : tags)
        if (std::regex_search(tag, re, std::regex_constants::match_continuous))
            out.push_back(tag);
    return out;
}

std::string customChartTitle(const CustomChart& chart)
{
    if (!chart.title.empty())
        return chart.title;
    std::string joined;
    auto add = [&](const std::string& part) {
        if (part.empty())
            return;
        if (!joined.empty())
            joined += ", ";
        joined += part;
    };
    if (chart.margin)
        for (const MarginSeries& s : chart.series)
            add(s.value);
    else
        for (const std::string& p : chart.tagPatterns)
            add(p);
    return joined.empty() ? "untitled" : joined;
}

tensorflow::Summary customScalarsSummary(const CustomScalarsLayout& layout)
{
    tensorboard::Layout proto;
    for (const CustomCategory& category : layout.categories) {
        tensorboard::Category* c = proto.add_category();
        c->set_title(category.title);
        c->set_closed(category.closed);
        for (const CustomChart& chart : category.charts) {
            tensorboard::Chart* ch = c->add_chart();
            ch->set_title(chart.title);
            if (chart.margin) {
                auto* margin = ch->mutable_margin();
                for (const MarginSeries& s : chart.series) {
                    auto* series = margin->add_series();
                    series->set_value(s.value);
                    series->set_lower(s.lower);
                    series->set_upper(s.upper);
                }
            } else {
                auto* multiline = ch->mutable_multiline();
                for (const std::string& p : chart.tagPatterns)
                    multiline->add_tag(p);
            }
        }
    }
    tensorflow::Summary summary;
    tensorflow::Summary::Value* value = summary.add_value();
    value->set_tag(kCustomScalarsTag);
    value->mutable_metadata()->mutable_plugin_data()->set_plugin_name(kCustomScalarsPlugin);
    tensorflow::TensorProto* tensor = value->mutable_tensor();
    tensor->set_dtype(tensorflow::DT_STRING);
    tensor->mutable_tensor_shape(); // a scalar
    tensor->add_string_val(proto.SerializeAsString());
    return summary;
}

} // namespace tstudio::events
