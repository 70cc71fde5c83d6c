// computeGradient: symbolic Jacobians (one backprop per output element) against central differences.
#include "autodiff/gradient_checker.h"

#include "autodiff/gradients.h"
#include "builder/ops_sugar.h"
#include "runtime/session.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace tstudio {
namespace {

Expected<std::vector<double>> toDoubles(const Tensor& t)
{
    std::vector<double> out;
    Status s = dispatchDataType<FloatingTypes>(t.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        for (const T& v : t.values<T>())
            out.push_back(static_cast<double>(v));
    });
    if (!s.isOk())
        return unexpected(s);
    return out;
}

Expected<Tensor> fromDoubles(Allocator& allocator, DataType dtype, const TensorShape& shape,
                             const std::vector<double>& values)
{
    auto t = Tensor::allocate(allocator, dtype, shape);
    if (!t)
        return t;
    Status s = dispatchDataType<FloatingTypes>(dtype, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto out = t->template values<T>();
        for (std::size_t i = 0; i < out.size() && i < values.size(); ++i)
            out[i] = static_cast<T>(values[i]);
    });
    if (!s.isOk())
        return unexpected(s);
    return t;
}

/// The graph, its session and the names to feed and fetch.
struct CheckGraph {
    std::vector<std::string> xNames;
    std::string yName;
    std::string dyName;
    DataType yType = tensorflow::DT_INVALID;
    std::vector<std::optional<std::string>> gradNames;
};

} // namespace

double Jacobians::maxError() const
{
    double worst = 0.0;
    for (std::size_t i = 0; i < theoretical.size() && i < numerical.size(); ++i) {
        const double d = std::abs(theoretical[i] - numerical[i]);
        worst = std::isnan(d) ? d : std::max(worst, d);
        if (std::isnan(worst))
            break;
    }
    return worst;
}

Expected<std::vector<Jacobians>> computeGradient(const OpRegistry& ops, const KernelRegistry& kernels,
                                                 const std::vector<Tensor>& xValues, const GradientCheckGraph& build,
                                                 const GradientCheckOptions& options)
{
    if (xValues.empty())
        return unexpected(invalidArgumentError("computeGradient needs at least one x"));
    for (const Tensor& x : xValues) {
        if (!isFloating(x.dtype()))
            return unexpected(invalidArgumentError("computeGradient: x has dtype " + dataTypeName(x.dtype()) +
                                                   "; only floating-point xs can be perturbed"));
    }
    GraphBuilder b(ops);
    CheckGraph g;
    std::vector<Output> xs;
    for (std::size_t i = 0; i < xValues.size(); ++i) {
        auto x = ops::placeholder(b, xValues[i].dtype(), xValues[i].shape(), "x_" + std::to_string(i));
        if (!x)
            return unexpected(x.error());
        xs.push_back(*x);
        g.xNames.push_back(x->name());
    }
    auto y = build(b, xs);
    if (!y)
        return unexpected(y.error().withContext("building the checked graph"));
    g.yType = y->baseDtype();
    if (!isFloating(g.yType))
        return unexpected(invalidArgumentError("computeGradient: y has dtype " + dataTypeName(g.yType) +
                                               "; only floating-point ys can be checked"));
    g.yName = y->name();
    auto dy = ops::placeholder(b, g.yType, y->shape(), "dy");
    if (!dy)
        return unexpected(dy.error());
    g.dyName = dy->name();
    auto grads = addSymbolicGradients(b, {*y}, xs, {*dy});
    if (!grads)
        return unexpected(grads.error());
    for (const auto& grad : *grads)
        g.gradNames.push_back(grad ? std::optional<std::string>(grad->name()) : std::nullopt);

    SessionOptions sessionOptions;
    sessionOptions.ops = &ops;
    sessionOptions.kernels = &kernels;
    Session session(sessionOptions);
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return unexpected(s);

    std::vector<std::pair<std::string, Tensor>> feeds;
    for (std::size_t i = 0; i < xValues.size(); ++i)
        feeds.emplace_back(g.xNames[i], xValues[i]);
    auto runY = [&](const std::vector<std::pair<std::string, Tensor>>& f) -> Expected<std::vector<double>> {
        std::vector<Tensor> out;
        if (Status s = session.run(f, {g.yName}, {}, &out); !s.isOk())
            return unexpected(s);
        return toDoubles(out.front());
    };

    // The forward value gives y's shape.
    std::vector<Tensor> forward;
    if (Status s = session.run(feeds, {g.yName}, {}, &forward); !s.isOk())
        return unexpected(s);
    const TensorShape yShape = forward.front().shape();
    const std::int64_t ySize = forward.front().numElements();

    CpuAllocator allocator;
    std::vector<Jacobians> result(xValues.size());
    for (std::size_t i = 0; i < xValues.size(); ++i) {
        result[i].xSize = xValues[i].numElements();
        result[i].ySize = ySize;
        result[i].theoretical.assign(static_cast<std::size_t>(result[i].xSize * ySize), 0.0);
        result[i].numerical.assign(static_cast<std::size_t>(result[i].xSize * ySize), 0.0);
    }

    // Symbolic: one backprop per element of y, with a one-hot grad_y.
    std::vector<std::string> fetches;
    std::vector<std::size_t> fetchedX;
    for (std::size_t i = 0; i < g.gradNames.size(); ++i) {
        if (g.gradNames[i]) {
            fetches.push_back(*g.gradNames[i]);
            fetchedX.push_back(i);
        }
    }
    for (std::int64_t k = 0; k < ySize && !fetches.empty(); ++k) {
        std::vector<double> oneHot(static_cast<std::size_t>(ySize), 0.0);
        oneHot[static_cast<std::size_t>(k)] = 1.0;
        auto dyValue = fromDoubles(allocator, g.yType, yShape, oneHot);
        if (!dyValue)
            return unexpected(dyValue.error());
        auto f = feeds;
        f.emplace_back(g.dyName, *dyValue);
        std::vector<Tensor> out;
        if (Status s = session.run(f, fetches, {}, &out); !s.isOk())
            return unexpected(s);
        for (std::size_t n = 0; n < out.size(); ++n) {
            Jacobians& jac = result[fetchedX[n]];
            auto values = toDoubles(out[n]);
            if (!values)
                return unexpected(values.error());
            if (static_cast<std::int64_t>(values->size()) != jac.xSize)
                return unexpected(internalError("the gradient '" + fetches[n] + "' has " +
                                                std::to_string(values->size()) + " elements; x has " +
                                                std::to_string(jac.xSize)));
            for (std::int64_t j = 0; j < jac.xSize; ++j)
                jac.theoretical[static_cast<std::size_t>(j * ySize + k)] = (*values)[static_cast<std::size_t>(j)];
        }
    }

    // Numerical: central differences, perturbing one element of one x at a time in its dtype.
    for (std::size_t i = 0; i < xValues.size(); ++i) {
        auto base = toDoubles(xValues[i]);
        if (!base)
            return unexpected(base.error());
        Jacobians& jac = result[i];
        for (std::int64_t j = 0; j < jac.xSize; ++j) {
            std::vector<double> ys[2];
            for (int side = 0; side < 2; ++side) {
                std::vector<double> moved = *base;
                moved[static_cast<std::size_t>(j)] += side == 0 ? options.delta : -options.delta;
                auto perturbed = fromDoubles(allocator, xValues[i].dtype(), xValues[i].shape(), moved);
                if (!perturbed)
                    return unexpected(perturbed.error());
                auto f = feeds;
                f[i].second = *perturbed;
                auto value = runY(f);
                if (!value)
                    return unexpected(value.error());
                ys[side] = std::move(*value);
            }
            for (std::int64_t k = 0; k < ySize; ++k) {
                const auto kk = static_cast<std::size_t>(k);
                jac.numerical[static_cast<std::size_t>(j * ySize + k)] = (ys[0][kk] - ys[1][kk]) / (2 * options.delta);
            }
        }
    }
    return result;
}

Expected<double> computeGradientError(const OpRegistry& ops, const KernelRegistry& kernels,
                                      const std::vector<Tensor>& xValues, const GradientCheckGraph& build,
                                      const GradientCheckOptions& options)
{
    auto jacobians = computeGradient(ops, kernels, xValues, build, options);
    if (!jacobians)
        return unexpected(jacobians.error());
    double worst = 0.0;
    for (const Jacobians& j : *jacobians) {
        const double e = j.maxError();
        if (std::isnan(e))
            return e;
        worst = std::max(worst, e);
    }
    return worst;
}

} // namespace tstudio
