// Shared by the tf.layers tests: the default registries, NumPy golden tensors (tools/golden/layers.py),
// constant initializers from them, variables looked up, and sessions over a built graph.
#pragma once

#include "builder/graph_builder.h"
#include "builder/variables.h"
#include "io/npy.h"
#include "kernel_harness.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QtTest>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::testing {

/// One CPU allocator for the tensors a layers test makes, alive for the whole run.
inline CpuAllocator& layerTestAllocator()
{
    static CpuAllocator a;
    return a;
}

/// The default registries, made at the first call; nullptr (with a warning) when that fails.
inline const Registries* layerRegistries()
{
    static const std::unique_ptr<Registries> registries = [] {
        auto r = makeDefaultRegistries();
        if (!r) {
            qWarning("registries: %s", r.error().toString().c_str());
            return std::unique_ptr<Registries>();
        }
        return std::move(*r);
    }();
    return registries.get();
}

/// The golden tensor tests/data/golden/layers/<name>.npy (fatal when it cannot be read).
inline Tensor layerGolden(const std::string& name)
{
    const std::string path = goldenDir().toStdString() + "/layers/" + name + ".npy";
    auto t = readNpy(path, layerTestAllocator());
    if (!t)
        qFatal("%s", t.error().toString().c_str());
    return std::move(*t);
}

/// The float values of `t` as doubles.
inline std::vector<double> floatValues(const Tensor& t)
{
    auto v = t.values<float>();
    return {v.begin(), v.end()};
}

/// A constant initializer holding the (float) values of `t`.
inline Initializer constantFrom(const Tensor& t)
{
    return Initializer::constant(floatValues(t));
}

/// Whether `b` has a VariableV2 `name` declared with `shape`.
inline bool hasVariable(const GraphBuilder& b, const std::string& name, const TensorShape& shape)
{
    const tensorflow::NodeDef* n = b.findNode(name);
    if (n == nullptr || n->op() != "VariableV2")
        return false;
    auto declared = TensorShape::fromProto(n->attr().at("shape").shape());
    return declared && *declared == shape;
}

/// A session over b's graph (a warning when the graph does not load).
inline std::unique_ptr<Session> layerSession(const Registries& registries, const GraphBuilder& b)
{
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    auto s = std::make_unique<Session>(options);
    const Status status = s->create(b.graphDef());
    if (!status.isOk())
        qWarning("%s", status.toString().c_str());
    return s;
}

/// Runs the node "init" when the graph has one, then fetches `fetch` with `feeds`, in a fresh session.
inline Expected<Tensor> runLayerGraph(const Registries& registries, const GraphBuilder& b, const std::string& fetch,
                                      const std::vector<std::pair<std::string, Tensor>>& feeds = {})
{
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    Session session(options);
    Status s = session.create(b.graphDef());
    std::vector<Tensor> out;
    if (s.isOk() && b.findNode("init"))
        s = session.run({}, {}, {"init"}, &out);
    if (s.isOk())
        s = session.run(feeds, {fetch}, {}, &out);
    if (!s.isOk())
        return unexpected(s);
    return out.front();
}

} // namespace tstudio::testing
