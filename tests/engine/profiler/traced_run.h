// tracedSteps: the StepStats of a small real graph run by our Session with FULL_TRACE (two CPU devices,
// two inter-op threads), for the trace builder and trace file tests. Header-only, engine only (the ASan
// build of the Chrome trace test links no test support library).
#pragma once

#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "core/try.h"
#include "proto/config.pb.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <string>
#include <vector>

namespace tstudio::testing {

/// One traced run.
struct TracedRun {
    std::int64_t step = 0;
    tensorflow::RunMetadata metadata;
};

/// Builds y = sum(relu(x·w + b)) with x [4, 8], w [8, 16] on /cpu:0 and the bias add and relu on /cpu:1
/// (so tensors cross devices), and runs it `runs` times with FULL_TRACE; run i is step i + 1.
inline Expected<std::vector<TracedRun>> tracedRuns(int runs)
{
    TSTUDIO_TRY(registries, makeDefaultRegistries());
    GraphBuilder b(registries->ops);
    std::vector<double> xs(32), ws(128), bs(16);
    for (std::size_t i = 0; i < xs.size(); ++i)
        xs[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
    for (std::size_t i = 0; i < ws.size(); ++i)
        ws[i] = 0.125 * static_cast<double>(i % 5) - 0.25;
    for (std::size_t i = 0; i < bs.size(); ++i)
        bs[i] = 0.1 * static_cast<double>(i);
    TSTUDIO_TRY(x, ops::constant(b, xs, TensorShape({4, 8}), tensorflow::DT_FLOAT, "x"));
    TSTUDIO_TRY(w, ops::constant(b, ws, TensorShape({8, 16}), tensorflow::DT_FLOAT, "w"));
    TSTUDIO_TRY(bias, ops::constant(b, bs, TensorShape({16}), tensorflow::DT_FLOAT, "b"));
    TSTUDIO_TRY(product, ops::matMul(b, x, w, false, false, "layer/MatMul"));
    Output relu;
    {
        TSTUDIO_TRY(onCpu1, b.device("/cpu:1"));
        TSTUDIO_TRY(sum, ops::add(b, product, bias, "layer/add"));
        TSTUDIO_TRY(r, ops::relu(b, sum, "layer/Relu"));
        relu = r;
    }
    TSTUDIO_TRY(axes, ops::constantInts(b, {0, 1}, TensorShape({2}), tensorflow::DT_INT32, "axes"));
    TSTUDIO_TRY(total, ops::sum(b, relu, axes, false, "total"));

    SessionOptions options;
    options.ops = &registries->ops;
    options.kernels = &registries->kernels;
    (*options.config.mutable_device_count())["CPU"] = 2;
    options.config.set_inter_op_parallelism_threads(2);
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);
    std::vector<TracedRun> out;
    for (int i = 0; i < runs; ++i) {
        tensorflow::RunOptions runOptions;
        runOptions.set_trace_level(tensorflow::RunOptions::FULL_TRACE);
        TracedRun run;
        run.step = i + 1;
        std::vector<Tensor> values;
        if (Status s = session.run(runOptions, {}, {total.name()}, {}, &values, &run.metadata); !s.isOk())
            return unexpected(s);
        out.push_back(std::move(run));
    }
    return out;
}

} // namespace tstudio::testing
