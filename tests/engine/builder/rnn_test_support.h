// What the RNN tests (test_rnn, test_bidirectional_rnn) share: the golden generators' input
// pattern, comparisons with the NumPy goldens, the variables' shapes, and running fetches.
#pragma once

#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "gradient_test_support.h"
#include "graph_run.h"
#include "registries/default_registries.h"
#include "runtime/session.h"
#include "training/adam.h"

#include <QString>
#include <QtTest>

#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace tstudio::testing::rnn {

/// The golden generators' inputs: scale * sin(0.9 i + seed).
inline Tensor pattern(const TensorShape& shape, double seed, double scale, DataType dtype = tensorflow::DT_DOUBLE)
{
    return filled(dtype, shape, [=](std::int64_t i) { return scale * std::sin(0.9 * double(i) + seed); });
}

/// The error text of an Expected (empty when it holds a value), for QVERIFY2.
inline const char* err(const auto& e)
{
    static std::string text;
    text = e ? std::string() : e.error().toString();
    return text.c_str();
}

/// Every element within a relative 1e-5 of the golden, or `absolute` near zero; empty when it is.
inline QString mismatch(const Tensor& t, const double* golden, std::size_t n, const char* what, double absolute)
{
    if (static_cast<std::size_t>(t.numElements()) != n)
        return QString("%1: %2 elements, expected %3").arg(what).arg(t.numElements()).arg(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = t.dtype() == tensorflow::DT_FLOAT ? double(t.values<float>()[i]) : t.values<double>()[i];
        if (!(std::abs(v - golden[i]) <= 1e-5 * std::abs(golden[i]) + absolute))
            return QString("%1[%2] = %3, expected %4").arg(what).arg(i).arg(v, 0, 'g', 12).arg(golden[i], 0, 'g', 12);
    }
    return {};
}

/// The variables' names and shapes.
inline std::map<std::string, TensorShape> variableShapes(const GraphBuilder& b)
{
    std::map<std::string, TensorShape> out;
    for (const Variable& v : globalVariables(b))
        out[v.name()] = v.shape();
    return out;
}

/// Runs `fetches` of b with `feeds`; *ok false (and a warning) on error.
inline std::vector<Tensor> fetch(const Registries& registries, const GraphBuilder& b,
                                 const std::vector<std::pair<std::string, Tensor>>& feeds,
                                 const std::vector<Output>& fetches, bool* ok)
{
    std::vector<std::string> names;
    for (const Output& o : fetches)
        names.push_back(o.name());
    auto values = runGraph(registries, b, feeds, names);
    *ok = values.has_value();
    if (!values) {
        qWarning("%s", values.error().toString().c_str());
        return {};
    }
    return *values;
}

/// Trains `loss` with Adam(0.05) for `steps` steps on `feeds` in a new session of b's graph (the
/// variables initialized first); returns the first and the last step's loss, or an error.
inline Expected<std::pair<double, double>> trainWithAdam(const Registries& registries, GraphBuilder& b,
                                                         const Output& loss,
                                                         const std::vector<std::pair<std::string, Tensor>>& feeds,
                                                         int steps)
{
    training::AdamOptimizer adam(0.05);
    auto train = adam.minimize(b, loss);
    if (!train)
        return unexpected(train.error());
    auto init = globalVariablesInitializer(b);
    if (!init)
        return unexpected(init.error());
    SessionOptions options;
    options.ops = &registries.ops;
    options.kernels = &registries.kernels;
    Session session(options);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);
    std::vector<Tensor> none;
    if (Status s = session.run({}, {}, {init->name()}, &none); !s.isOk())
        return unexpected(s);
    std::pair<double, double> losses{0, 0};
    for (int step = 0; step < steps; ++step) {
        std::vector<Tensor> out;
        if (Status s = session.run(feeds, {loss.name()}, {train->name()}, &out); !s.isOk())
            return unexpected(s);
        const double value =
            out[0].dtype() == tensorflow::DT_FLOAT ? double(out[0].values<float>()[0]) : out[0].values<double>()[0];
        (step == 0 ? losses.first : losses.second) = value;
    }
    return losses;
}

} // namespace tstudio::testing::rnn

/// QVERIFY that `tensor` matches the golden array `golden` (rel 1e-5, `absolute` near zero).
#define CHECK_GOLDEN_WITHIN(tensor, golden, absolute)                                                                  \
    do {                                                                                                               \
        const QString m_ =                                                                                             \
            ::tstudio::testing::rnn::mismatch((tensor), (golden), std::size(golden), #golden, (absolute));             \
        QVERIFY2(m_.isEmpty(), qPrintable(m_));                                                                        \
    } while (false)
#define CHECK_GOLDEN(tensor, golden) CHECK_GOLDEN_WITHIN(tensor, golden, 1e-9)
