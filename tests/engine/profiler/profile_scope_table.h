// The scope table the tfprof view and pprof tests share, made by hand (no trace):
//   layer/            (scope)
//     layer/MatMul    MatMul      1500us  4000B  flops 2000
//     layer/Relu      Relu          20us   400B
//     layer/w         VariableV2     3us          params 600
//       layer/w/read  Identity       1us
//   loss              Mean           7us     8B
// Times carry 400 ns more (tfprof's micros round down); peak bytes are half the requested.
#pragma once

#include "profiler/profile_tables.h"

#include <string>

namespace tstudio::testing {

inline profiler::ProfileStats scopeStats(std::int64_t us, std::int64_t bytes, std::int64_t params = 0,
                                         std::int64_t flops = 0)
{
    profiler::ProfileStats s;
    s.runs = us > 0 ? 1 : 0;
    s.execNs = us * 1000 + 400;
    s.cpuNs = s.execNs;
    s.requestedBytes = bytes;
    s.peakBytes = bytes / 2;
    s.parameters = params;
    s.floatOps = flops;
    return s;
}

inline profiler::ProfileTable scopeTable()
{
    using profiler::kNoIndex;
    profiler::ProfileTable t;
    t.view = profiler::ProfileView::ByScope;
    auto add = [&](std::string name, std::string op, profiler::ProfileStats self, std::uint32_t parent) {
        profiler::ProfileRow r;
        r.name = std::move(name);
        r.opType = std::move(op);
        r.self = self;
        r.parent = parent;
        r.depth = parent == kNoIndex ? 0 : t.rows[parent].depth + 1;
        t.rows.push_back(r);
        const auto index = static_cast<std::uint32_t>(t.rows.size() - 1);
        if (parent == kNoIndex)
            t.roots.push_back(index);
        else
            t.rows[parent].children.push_back(index);
        return index;
    };
    const auto layer = add("layer", "", scopeStats(0, 0), kNoIndex);
    add("layer/MatMul", "MatMul", scopeStats(1500, 4000, 0, 2000), layer);
    add("layer/Relu", "Relu", scopeStats(20, 400), layer);
    const auto w = add("layer/w", "VariableV2", scopeStats(3, 0, 600), layer);
    add("layer/w/read", "Identity", scopeStats(1, 0), w);
    add("loss", "Mean", scopeStats(7, 8), kNoIndex);
    return t;
}

} // namespace tstudio::testing
