// A trace and its graph for the tfprof file tests (ProfileProto, OpLogProto), made from StepStats:
// two steps of a small MatMul on the CPU and a Neg on the GPU with its stream.
#pragma once

#include "profiler/trace_builder.h"
#include "proto/graph.pb.h"
#include "proto/step_stats.pb.h"

#include <QtGlobal>

#include <google/protobuf/text_format.h>

#include <string>
#include <vector>

namespace tstudio::testing {

using profiler::TracedStep;

inline const std::string kCpu = "/job:localhost/replica:0/task:0/device:CPU:0";
inline const std::string kGpu = "/job:localhost/replica:0/task:0/device:GPU:0";
inline const std::string kStream = "/job:localhost/replica:0/task:0/device:GPU:0/stream:all";

inline tensorflow::NodeExecStats* record(tensorflow::DeviceStepStats& device, const std::string& name,
                                         const std::string& label, std::int64_t startMicros, std::int64_t micros)
{
    auto* s = device.add_node_stats();
    s->set_node_name(name);
    s->set_timeline_label(label);
    s->set_all_start_micros(startMicros);
    s->set_op_end_rel_micros(micros);
    s->set_all_end_rel_micros(micros);
    return s;
}

inline void output(tensorflow::NodeExecStats& s, int slot, std::vector<std::int64_t> dims, std::int64_t bytes)
{
    auto* o = s.add_output();
    o->set_slot(slot);
    auto* d = o->mutable_tensor_description();
    d->set_dtype(tensorflow::DT_FLOAT);
    for (std::int64_t dim : dims)
        d->mutable_shape()->add_dim()->set_size(dim);
    d->mutable_allocation_description()->set_requested_bytes(bytes);
}

inline void memory(tensorflow::NodeExecStats& s, std::int64_t total, std::int64_t peak, std::int64_t live,
                   const char* allocator = "cpu")
{
    auto* m = s.add_memory();
    m->set_allocator_name(allocator);
    m->set_allocator_bytes_in_use(1000 + total);
    m->set_total_bytes(total);
    m->set_peak_bytes(peak);
    m->set_live_bytes(live);
}

/// Steps 3 and 4: x (Const [2,3]) and w (VariableV2 [3,4]) feed layer/MatMul ([2,4]) on the CPU;
/// g = Neg(layer/MatMul) on the GPU, scheduled on GPU:0 and run on its stream:all.
inline std::vector<TracedStep> steps()
{
    std::vector<TracedStep> out;
    for (std::int64_t step : {3, 4}) {
        TracedStep t;
        t.number = step;
        const std::int64_t base = 1'000'000 + step * 1000;
        auto* cpu = t.stats.add_dev_stats();
        cpu->set_device(kCpu);
        auto* x = record(*cpu, "x", "x = Const()", base, 2);
        output(*x, 0, {2, 3}, 24);
        memory(*x, 24, 24, 24);
        auto* w = record(*cpu, "w", "w = VariableV2()", base + 3, 1);
        output(*w, 0, {3, 4}, 48);
        auto* mm = record(*cpu, "layer/MatMul", "layer/MatMul = MatMul(x, w)", base + 10, 100 + step);
        output(*mm, 0, {2, 4}, 32);
        memory(*mm, 32, 40, 32);
        auto* gpu = t.stats.add_dev_stats();
        gpu->set_device(kGpu);
        auto* g = record(*gpu, "g", "g = Neg(layer/MatMul)", base + 120, 5);
        output(*g, 0, {2, 4}, 32);
        memory(*g, 32, 32, 0, "gpu");
        auto* stream = t.stats.add_dev_stats();
        stream->set_device(kStream);
        record(*stream, "g", "g = Neg(layer/MatMul)", base + 126, 30);
        out.push_back(std::move(t));
    }
    return out;
}

inline tensorflow::GraphDef graph()
{
    tensorflow::GraphDef g;
    const bool ok = google::protobuf::TextFormat::ParseFromString(R"(
        node { name: "x" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } }
        node { name: "w" op: "VariableV2" attr { key: "shape" value { shape { dim { size: 3 } dim { size: 4 } } } } }
        node { name: "layer/MatMul" op: "MatMul" input: "x" input: "w"
               attr { key: "T" value { type: DT_FLOAT } } attr { key: "transpose_a" value { b: false } }
               attr { key: "transpose_b" value { b: false } } }
        node { name: "g" op: "Neg" input: "layer/MatMul" }
        node { name: "never" op: "NoOp" input: "^g" }
    )",
                                                                  &g);
    if (!ok)
        qWarning("the test graph does not parse");
    return g;
}

} // namespace tstudio::testing
