// Helpers shared by the symbolic-gradient tests (tests/engine/autodiff): input tensors and value
// patterns away from kinks, node lookups in a GraphBuilder, and GradientChecks, which runs
// computeGradientError with TensorFlow's step and tolerance and keeps the failures and worst errors.
#pragma once

#include "autodiff/gradient_checker.h"
#include "builder/attr_values.h"
#include "builder/graph_builder.h"
#include "framework/allocator.h"
#include "framework/tensor.h"
#include "registries/default_registries.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tstudio::testing {

/// One CPU allocator for the tensors a test builds, alive for the whole run.
CpuAllocator& gradientTestAllocator();

/// A float or double tensor of `shape` whose element i is f(i).
Tensor filled(DataType dtype, const TensorShape& shape, const std::function<double(std::int64_t)>& f);
/// The same with the shape first and float32 unless `dtype` says otherwise.
Tensor filled(const TensorShape& shape, const std::function<double(std::int64_t)>& f,
              DataType dtype = tensorflow::DT_FLOAT);

/// Signed values away from 0, integers and halves: -1.3, -0.8, -0.35, 0.35, 0.8, 1.3.
double signedAwayFromKinks(std::int64_t i);
/// Small signed values of period 11 in [-0.3, 0.2]: convolution sums stay small.
double small(std::int64_t i);
/// Positive values 0.3, 0.71, 1.12 (period 3).
double positive(std::int64_t i);
/// n distinct values 0.05 apart (a permutation of 0.1, 0.15, ... for n prime to 37): pooling
/// windows have no ties, and no maximum changes under a 1e-3 step.
std::function<double(std::int64_t)> distinctValues(int n);

/// Output `i` of `op`, or op's error.
Expected<Output> outputOf(Expected<Operation> op, int i = 0);

/// The op of `node` in `b`, or a marker naming the missing node.
std::string opOf(const GraphBuilder& b, const std::string& node);
/// The inputs of `node` in `b`, or a marker naming the missing node.
std::vector<std::string> inputsOf(const GraphBuilder& b, const std::string& node);
/// "suffix=Op" for every node whose name starts with `prefix` (the prefix cut off).
std::vector<std::string> nodeOpsUnder(const GraphBuilder& b, const std::string& prefix);

/// MaxPool/AvgPool attrs: a k x k window, stride `stride` in both spatial dims, NHWC or NCHW.
AttrMap poolAttrs(int k, int stride, const char* padding, bool nchw = false);
/// The pooled size of an `in`-wide dim (SAME: ceil(in / s); VALID: ceil((in - k + 1) / s)).
std::int64_t pooledSize(std::int64_t in, int k, int stride, const char* padding);

/// Gradient checks against central differences over the default registries. float32: TensorFlow's
/// delta and tolerance 1e-3; float64: a step of 1e-6 (truncation ~1e-12 f''', rounding ~1e-10) and a
/// tolerance of 1e-6. Each failure (an error, or a max error not below the tolerance) goes to
/// `failures`; the worst errors are kept per dtype and overall, with the names of their cases.
class GradientChecks {
public:
    struct Worst {
        double error = 0.0;
        QString name;
    };

    /// Makes the default registries; "" on success, else the error's text.
    std::string start();
    const Registries& registries() const { return *m_registries; }

    /// Checks `build`'s gradient at `xs`; float64 settings when `isDouble`.
    void check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build, bool isDouble);
    /// The same, float64 settings when xs.front() is float64.
    void check(const QString& name, const std::vector<Tensor>& xs, const GradientCheckGraph& build);

    /// Forgets the worst errors (the failures and the count stay).
    void resetWorst() { worstFloat = worstDouble = worst = Worst{}; }

    QStringList failures;
    int cases = 0;
    Worst worstFloat;
    Worst worstDouble;
    Worst worst; ///< over both dtypes

private:
    std::unique_ptr<Registries> m_registries;
};

} // namespace tstudio::testing
