#include "dashboard/custom_scalar_series.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace tstudio::dashboard {

std::vector<CustomSeries> customChartSeries(const events::CustomChart& chart, const std::vector<RunTags>& runs,
                                            bool nameRuns, std::vector<std::string>* patternErrors)
{
    std::vector<CustomSeries> out;
    auto keyOf = [&](const std::string& tag, const std::string& run) {
        return nameRuns ? tag + " (" + run + ")" : tag;
    };
    bool errorsNoted = false;
    for (const auto& [run, unsortedTags] : runs) {
        std::vector<std::string> tags = unsortedTags;
        std::sort(tags.begin(), tags.end());
        if (chart.margin) {
            for (const events::MarginSeries& s : chart.series)
                if (std::binary_search(tags.begin(), tags.end(), s.value))
                    out.push_back({keyOf(s.value, run), run, s.value, s.lower, s.upper});
            continue;
        }
        std::set<std::string> matched;
        for (const std::string& pattern : chart.tagPatterns) {
            auto m = events::tagsMatching(pattern, tags);
            if (!m) {
                if (patternErrors && !errorsNoted)
                    patternErrors->push_back(m.error().message());
                continue;
            }
            matched.insert(m->begin(), m->end());
        }
        errorsNoted = true; // each bad pattern said once, not once per run
        for (const std::string& tag : matched)
            out.push_back({keyOf(tag, run), run, tag, {}, {}});
    }
    return out;
}

std::vector<double> alignByStep(std::span<const events::ScalarSample> value,
                                std::span<const events::ScalarSample> bound)
{
    std::map<std::int64_t, double> byStep;
    for (const events::ScalarSample& s : bound)
        byStep[s.step] = s.value; // the last written at a step wins
    std::vector<double> out;
    out.reserve(value.size());
    for (const events::ScalarSample& s : value) {
        auto it = byStep.find(s.step);
        out.push_back(it == byStep.end() ? std::nan("") : it->second);
    }
    return out;
}

} // namespace tstudio::dashboard
