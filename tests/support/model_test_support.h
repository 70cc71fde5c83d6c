// Helpers shared by the model and builder tests: error text for QVERIFY2, MetaGraphDef fixtures, float
// results against float64 figures.
#pragma once

#include "core/expected.h"
#include "framework/tensor.h"
#include "proto/meta_graph.pb.h"

#include <QString>

#include <optional>
#include <span>
#include <vector>

namespace tstudio::testing {

/// `s.toString()` as a C string for QVERIFY2; valid until the next err() call on this thread.
const char* err(const Status& s);

/// "ok" for a value, else the error's text as err(Status) gives it.
template <typename T> const char* err(const Expected<T>& e)
{
    return e ? "ok" : err(e.error());
}

/// The elements of a float32 tensor, in row-major order.
inline std::vector<float> floatValuesOf(const Tensor& t)
{
    const auto v = t.values<float>();
    return {v.begin(), v.end()};
}

/// The binary MetaGraphDef at `relativePath` under fixturesDir(), or nullopt when the fixtures,
/// the file or its parse are missing (the caller skips).
std::optional<tensorflow::MetaGraphDef> readMetaGraphFixture(const QString& relativePath);

/// Whether float32 tensor `actual` holds expected.size() elements, each within
/// `relative` * |e| + `absolute` of its float64 figure e (NumPy's, or a README's printed to 7-8
/// digits). False with the first difference in `why` ("element 3: 0.1 vs 0.2"), or the dtype and
/// count when they differ.
bool floatsNear(const Tensor& actual, std::span<const double> expected, double relative, double absolute,
                QString* why);

} // namespace tstudio::testing
