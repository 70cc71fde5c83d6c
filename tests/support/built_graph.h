// For tests that build a graph and cannot go on without it: the built Operation, or a Session
// that loaded the graph, else a fatal test error naming what failed.
#pragma once

#include "builder/graph_builder.h"
#include "runtime/session.h"

#include <QtGlobal>

#include <memory>

namespace tstudio::testing {

/// The operation, or qFatal with the builder's error.
inline Operation mustOp(Expected<Operation> op)
{
    if (!op)
        qFatal("%s", op.error().toString().c_str());
    return *op;
}

/// A Session over b's graph with these registries, or qFatal when the graph does not load.
inline std::unique_ptr<Session> mustSession(const OpRegistry& ops, const KernelRegistry& kernels, const GraphBuilder& b)
{
    SessionOptions options;
    options.ops = &ops;
    options.kernels = &kernels;
    auto session = std::make_unique<Session>(options);
    if (Status status = session->create(b.graphDef()); !status.isOk())
        qFatal("%s", status.toString().c_str());
    return session;
}

} // namespace tstudio::testing
