// Shared by the training and summary tests: registries with gradients, running a built graph, reading values.
#pragma once

#include "autodiff/gradients_registry.h"
#include "builder/graph_builder.h"
#include "framework/kernel_registry.h"
#include "framework/op_registry.h"
#include "gradient_test_support.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"
#include "runtime/session.h"

#include <QtTest>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tstudio::testing {

/// Every op with its gradients and every CPU kernel, made once per test program.
struct TrainingRegistries {
    OpRegistry ops;
    KernelRegistry kernels;

    static TrainingRegistries& get()
    {
        static TrainingRegistries* r = [] {
            auto* made = new TrainingRegistries;
            Status s = registerAllOps(made->ops);
            if (s.isOk())
                s = registerAllGradients(made->ops);
            if (s.isOk())
                s = registerCpuKernels(made->kernels);
            if (!s.isOk())
                qFatal("registries: %s", s.toString().c_str());
            return made;
        }();
        return *r;
    }

    std::unique_ptr<Session> session(const GraphBuilder& b)
    {
        SessionOptions options;
        options.ops = &ops;
        options.kernels = &kernels;
        auto session = std::make_unique<Session>(options);
        Status s = session->create(b.graphDef());
        if (!s.isOk())
            qWarning("session: %s", s.toString().c_str());
        return session;
    }
};

/// Runs `targets` (node names); false (with a warning) on error.
inline bool runTargets(Session& session, const std::vector<std::string>& targets)
{
    std::vector<Tensor> out;
    Status s = session.run({}, {}, targets, &out);
    if (!s.isOk())
        qWarning("run: %s", s.toString().c_str());
    return s.isOk();
}

/// The values of `fetch` as doubles (float, double, int32 and int64 tensors); empty on error.
inline std::vector<double> fetchValues(Session& session, const std::string& fetch)
{
    std::vector<Tensor> out;
    Status s = session.run({}, {fetch}, {}, &out);
    if (!s.isOk()) {
        qWarning("fetch %s: %s", fetch.c_str(), s.toString().c_str());
        return {};
    }
    const Tensor& t = out.front();
    std::vector<double> values;
    switch (t.dtype()) {
    case tensorflow::DT_FLOAT:
        for (float v : t.values<float>())
            values.push_back(v);
        break;
    case tensorflow::DT_DOUBLE:
        for (double v : t.values<double>())
            values.push_back(v);
        break;
    case tensorflow::DT_INT32:
        for (std::int32_t v : t.values<std::int32_t>())
            values.push_back(v);
        break;
    case tensorflow::DT_INT64:
        for (std::int64_t v : t.values<std::int64_t>())
            values.push_back(static_cast<double>(v));
        break;
    default: qWarning("fetch %s: unexpected dtype", fetch.c_str());
    }
    return values;
}

/// The "_class" colocation list of node `name`.
inline std::vector<std::string> classOf(const GraphBuilder& b, const std::string& name)
{
    const tensorflow::NodeDef* def = b.findNode(name);
    std::vector<std::string> out;
    if (def)
        if (auto it = def->attr().find("_class"); it != def->attr().end())
            for (const auto& s : it->second.list().s())
                out.push_back(s);
    return out;
}

/// The nodes of `graph` by name (for comparing with a fixture's graph).
inline std::map<std::string, const tensorflow::NodeDef*> nodesByName(const tensorflow::GraphDef& graph)
{
    std::map<std::string, const tensorflow::NodeDef*> nodes;
    for (const tensorflow::NodeDef& n : graph.node())
        nodes[n.name()] = &n;
    return nodes;
}

} // namespace tstudio::testing
