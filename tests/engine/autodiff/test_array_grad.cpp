// The array family's gradients (autodiff/array_grad*.cpp) against central differences, several
// shapes with negative axes, broadcasting and shapes unknown while building; the node names of
// TensorFlow 1.15's gradient functions; the not-differentiable registrations; and the two kernels
// the family adds (UnsortedSegmentSum, MirrorPadGrad) against NumPy golden cases.
#include "autodiff/gradients.h"
#include "autodiff/gradients_registry.h"
#include "builder/python_ops.h"
#include "builder/ops_sugar.h"
#include "gradient_test_support.h"
#include "kernel_harness.h"
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include <QtTest>

#include <algorithm>
#include <functional>

using namespace tstudio;
using namespace tstudio::testing;
namespace tf = tensorflow;

namespace {

/// Distinct values away from 0: 0.3, 0.71, ..., -0.5, -0.91, ... (period 11).
double distinct(int i)
{
    return (i % 2 ? -1.0 : 1.0) * (0.3 + 0.41 * (i % 11));
}

Expected<Output> ints(GraphBuilder& b, const std::vector<std::int64_t>& values, bool scalar = false)
{
    return ops::constantInts(b, values, scalar ? TensorShape::scalar() : TensorShape{std::int64_t(values.size())});
}

/// `t` - 0: the same value, unknown to the builder while building (so gradients take their
/// run-time shape paths).
Expected<Output> hidden(GraphBuilder& b, const Output& t)
{
    std::vector<std::int64_t> zeros(static_cast<std::size_t>(t.shape().rank() > 0 ? t.shape().dim(0) : 1), 0);
    TSTUDIO_AD_TRY(zero, ops::constantInts(b, zeros, t.shape(), t.baseDtype()));
    return ops::sub(b, t, zero);
}

/// x reshaped to its own shape given by a hidden tensor: same values, static shape unknown dims.
Expected<Output> unknownShape(GraphBuilder& b, const Output& x)
{
    std::vector<std::int64_t> dims(x.shape().dims().begin(), x.shape().dims().end());
    TSTUDIO_AD_TRY(s, ints(b, dims));
    TSTUDIO_AD_TRY(h, hidden(b, s));
    return ops::reshape(b, x, h);
}

Expected<Output> op(GraphBuilder& b, const char* type, std::vector<OpInput> inputs, AttrMap attrs = {}, int out = 0)
{
    TSTUDIO_AD_TRY(o, b.op(type, std::move(inputs), std::move(attrs)));
    return o.output(out);
}

/// sum_i c_i * outputs[i] over the used outputs (c_i = i + 1), so each output's gradient differs.
Expected<Output> weightedSum(GraphBuilder& b, const Operation& o, const std::vector<int>& used)
{
    std::optional<Output> total;
    for (int i : used) {
        TSTUDIO_AD_TRY(c, ops::constant(b, double(i + 1), o.output(i).baseDtype()));
        TSTUDIO_AD_TRY(term, ops::mul(b, o.output(i), c));
        if (total) {
            TSTUDIO_AD_TRY(s, ops::add(b, *total, term));
            total = s;
        } else {
            total = term;
        }
    }
    return *total;
}

using Build = GradientCheckGraph;

} // namespace

class TestArrayGrad : public QObject {
    Q_OBJECT

private:
    GradientChecks m_checks;

    void check(const QString& name, const std::vector<TensorShape>& shapes, const Build& build,
               DataType dtype = tf::DT_FLOAT)
    {
        std::vector<Tensor> xs;
        for (const TensorShape& s : shapes)
            xs.push_back(filled(dtype, s, distinct));
        m_checks.check(name, xs, build, dtype == tf::DT_DOUBLE);
    }

    void verifyNoFailures() { QVERIFY2(m_checks.failures.isEmpty(), qPrintable(m_checks.failures.join('\n'))); }

    /// Builds y = build(x) on placeholders of `shapes`, adds its gradients, and returns the builder's
    /// node names (for TensorFlow's names).
    Expected<std::set<std::string>> gradientNodeNames(const std::vector<TensorShape>& shapes, const Build& build)
    {
        GraphBuilder b(m_checks.registries().ops);
        std::vector<Output> xs;
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            TSTUDIO_AD_TRY(x, ops::placeholder(b, tf::DT_FLOAT, shapes[i], "x" + std::to_string(i)));
            xs.push_back(x);
        }
        TSTUDIO_AD_TRY(y, build(b, xs));
        TSTUDIO_AD_TRY(grads, addSymbolicGradients(b, {y}, xs));
        std::set<std::string> names;
        for (const auto& node : b.graphDef().node())
            names.insert(node.name() + " " + node.op());
        return names;
    }

    void expectNodes(const QString& name, const std::vector<TensorShape>& shapes, const Build& build,
                     const std::vector<std::string>& expected)
    {
        auto names = gradientNodeNames(shapes, build);
        if (!names) {
            m_checks.failures << name + ": " + QString::fromStdString(names.error().toString());
            return;
        }
        for (const std::string& e : expected) {
            if (!names->count(e))
                m_checks.failures << name + ": no node '" + QString::fromStdString(e) + "'";
        }
    }

private slots:
    void initTestCase()
    {
        const std::string error = m_checks.start();
        QVERIFY2(error.empty(), error.c_str());
    }

    void init() { m_checks.failures.clear(); }

    void reshapesAndTransposes()
    {
        check("Reshape [2,3]->[3,2]", {{2, 3}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(s, ints(b, {3, -1}));
            return op(b, "Reshape", {x[0], s});
        });
        check("Reshape unknown input shape", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(u, unknownShape(b, x[0]));
                  TSTUDIO_AD_TRY(s, ints(b, {6}));
                  return op(b, "Reshape", {u, s});
              });
        for (std::int64_t axis : {0, 1, -1}) {
            check(QStringLiteral("ExpandDims axis %1").arg(axis), {{2, 3}},
                  [axis](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(a, ints(b, {axis}, true));
                      return op(b, "ExpandDims", {x[0], a});
                  });
        }
        check("Squeeze [2,1,3] axis -2", {{2, 1, 3}}, [](GraphBuilder& b, const std::vector<Output>& x) {
            return op(b, "Squeeze", {x[0]}, {{"squeeze_dims", attr::ints({-2})}});
        });
        check("Squeeze all", {{1, 3, 1}},
              [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "Squeeze", {x[0]}); });
        check("Transpose [2,3,4] perm 2,0,1", {{2, 3, 4}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(p, ints(b, {2, 0, 1}));
                  return op(b, "Transpose", {x[0], p});
              });
        check("Transpose hidden perm", {{2, 3, 4}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(p, ints(b, {1, 2, 0}));
                  TSTUDIO_AD_TRY(h, hidden(b, p));
                  return op(b, "Transpose", {x[0], h});
              });
        check("ReverseV2 axis 0", {{2, 3}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(a, ints(b, {0}));
            return op(b, "ReverseV2", {x[0], a});
        });
        check("ReverseV2 axes -1,0", {{2, 3, 2}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(a, ints(b, {-1, 0}));
                  return op(b, "ReverseV2", {x[0], a});
              });
        verifyNoFailures();
    }

    void concatAndSplit()
    {
        for (std::int64_t axis : {0, 1, -1, -2}) {
            check(QStringLiteral("ConcatV2 [2,3] [2,3] axis %1").arg(axis), {{2, 3}, {2, 3}},
                  [axis](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(a, ints(b, {axis}, true));
                      return op(b, "ConcatV2", {std::vector<Output>{x[0], x[1]}, a});
                  });
        }
        check("ConcatV2 three inputs of different widths, one shape unknown", {{2, 1}, {2, 3}, {2, 2}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(u, unknownShape(b, x[1]));
                  TSTUDIO_AD_TRY(a, ints(b, {1}, true));
                  return op(b, "ConcatV2", {std::vector<Output>{x[0], u, x[2]}, a});
              });
        check("Concat (axis first) axis 0", {{1, 2}, {3, 2}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(a, ints(b, {0}, true));
                  return op(b, "Concat", {a, std::vector<Output>{x[0], x[1]}});
              });
        // More than 16 values: TensorFlow splits the gradient with one SplitV.
        std::vector<TensorShape> many(17, TensorShape{2, 1});
        check("ConcatV2 17 inputs axis -1", many,
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(a, ints(b, {-1}, true));
                  return op(b, "ConcatV2", {x, a});
              });
        check("Split 3 ways axis 1, output 1 unused", {{2, 6}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(a, ints(b, {1}, true));
                  TSTUDIO_AD_TRY(s, b.op("Split", {a, x[0]}, {{"num_split", attr::i(3)}}));
                  return weightedSum(b, s, {0, 2});
              });
        check("Split 1 way (gradient: identity)", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(a, ints(b, {-1}, true));
                  TSTUDIO_AD_TRY(s, b.op("Split", {a, x[0]}, {{"num_split", attr::i(1)}}));
                  return weightedSum(b, s, {0});
              });
        check(
            "SplitV sizes 1,-1,2 axis -1", {{3, 5}},
            [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                TSTUDIO_AD_TRY(sizes, ints(b, {1, -1, 2}));
                TSTUDIO_AD_TRY(a, ints(b, {-1}, true));
                TSTUDIO_AD_TRY(s, b.op("SplitV", {x[0], sizes, a}, {{"num_split", attr::i(3)}}));
                return weightedSum(b, s, {0, 1, 2});
            },
            tf::DT_DOUBLE); // float32 rounding of the weighted sum alone reaches ~1e-3
        for (std::int64_t axis : {0, 1, -1}) {
            check(QStringLiteral("Pack 3 x [2,3] axis %1").arg(axis), {{2, 3}, {2, 3}, {2, 3}},
                  [axis](GraphBuilder& b, const std::vector<Output>& x) {
                      return op(b, "Pack", {x}, {{"axis", attr::i(axis)}});
                  });
            check(QStringLiteral("Unpack [3,2,3] axis %1, one output unused").arg(axis), {{3, 2, 3}},
                  [axis](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      const std::int64_t num = axis == 1 ? 2 : 3;
                      TSTUDIO_AD_TRY(u, b.op("Unpack", {x[0]}, {{"num", attr::i(num)}, {"axis", attr::i(axis)}}));
                      return weightedSum(b, u, {0, static_cast<int>(num) - 1});
                  });
        }
        verifyNoFailures();
    }

    void slicing()
    {
        check("Slice [3,4] begin 1,1 size 2,-1", {{3, 4}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(begin, ints(b, {1, 1}));
                  TSTUDIO_AD_TRY(size, ints(b, {2, -1}));
                  return op(b, "Slice", {x[0], begin, size});
              });
        check("Slice hidden begin", {{3, 4, 2}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(begin, ints(b, {0, 2, 1}));
            TSTUDIO_AD_TRY(h, hidden(b, begin));
            TSTUDIO_AD_TRY(size, ints(b, {2, 2, 1}));
            return op(b, "Slice", {x[0], h, size});
        });
        struct Case {
            const char* name;
            TensorShape shape;
            std::vector<std::int64_t> begin, end, strides;
            std::int64_t beginMask, endMask, ellipsisMask, newAxisMask, shrinkMask;
        };
        const Case cases[] = {
            {"x[1:3, ::2]", {4, 5}, {1, 0}, {3, 0}, {1, 2}, 2, 2, 0, 0, 0},
            {"x[::-1, 1]", {3, 4}, {0, 1}, {0, 2}, {-1, 1}, 1, 1, 0, 0, 2},
            {"x[..., -2:]", {2, 3, 4}, {0, -2}, {0, 0}, {1, 1}, 0, 2, 1, 0, 0},
            {"x[:, newaxis, 1:]", {3, 4}, {0, 0, 1}, {0, 0, 0}, {1, 1, 1}, 1, 5, 0, 2, 0},
        };
        for (const Case& c : cases) {
            check(QStringLiteral("StridedSlice %1").arg(c.name), {c.shape},
                  [c](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(begin, ints(b, c.begin));
                      TSTUDIO_AD_TRY(end, ints(b, c.end));
                      TSTUDIO_AD_TRY(strides, ints(b, c.strides));
                      return op(b, "StridedSlice", {x[0], begin, end, strides},
                                {{"begin_mask", attr::i(c.beginMask)},
                                 {"end_mask", attr::i(c.endMask)},
                                 {"ellipsis_mask", attr::i(c.ellipsisMask)},
                                 {"new_axis_mask", attr::i(c.newAxisMask)},
                                 {"shrink_axis_mask", attr::i(c.shrinkMask)}});
                  });
        }
        // StridedSliceGrad scatters dy into zeros of `shape`: its gradient slices the same block.
        check("StridedSliceGrad of x[1:3, ::2] wrt dy", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(shape, ints(b, {4, 5}));
                  TSTUDIO_AD_TRY(begin, ints(b, {1, 0}));
                  TSTUDIO_AD_TRY(end, ints(b, {3, 0}));
                  TSTUDIO_AD_TRY(strides, ints(b, {1, 2}));
                  return op(b, "StridedSliceGrad", {shape, begin, end, strides, x[0]},
                            {{"begin_mask", attr::i(2)}, {"end_mask", attr::i(2)}});
              });
        verifyNoFailures();
    }

    void paddingTilingBroadcasting()
    {
        check("Pad [2,3] by [[1,0],[2,1]]", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(p, ops::constantInts(b, {1, 0, 2, 1}, {2, 2}));
                  return op(b, "Pad", {x[0], p});
              });
        check("PadV2 unknown input shape", {{2, 2, 1}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(u, unknownShape(b, x[0]));
                  TSTUDIO_AD_TRY(p, ops::constantInts(b, {0, 1, 1, 1, 2, 0}, {3, 2}));
                  TSTUDIO_AD_TRY(v, ops::constant(b, 0.5));
                  return op(b, "PadV2", {u, p, v});
              });
        for (const char* mode : {"REFLECT", "SYMMETRIC"}) {
            check(QStringLiteral("MirrorPad %1 [3,4]").arg(mode), {{3, 4}},
                  [mode](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(p, ops::constantInts(b, {2, 1, 1, 2}, {2, 2}));
                      return op(b, "MirrorPad", {x[0], p}, {{"mode", attr::s(mode)}});
                  });
            check(QStringLiteral("MirrorPadGrad %1 [6,7]").arg(mode), {{6, 7}},
                  [mode](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(p, ops::constantInts(b, {1, 2, 2, 1}, {2, 2}));
                      return op(b, "MirrorPadGrad", {x[0], p}, {{"mode", attr::s(mode)}});
                  });
        }
        check("Tile [2,3] by 2,1", {{2, 3}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(m, ints(b, {2, 1}));
            return op(b, "Tile", {x[0], m});
        });
        check("Tile [3] by hidden 4", {{3}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(m, ints(b, {4}));
            TSTUDIO_AD_TRY(h, hidden(b, m));
            return op(b, "Tile", {x[0], h});
        });
        check(
            "Tile [2,1,2] by 1,3,2 (float64)", {{2, 1, 2}},
            [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                TSTUDIO_AD_TRY(m, ints(b, {1, 3, 2}));
                return op(b, "Tile", {x[0], m});
            },
            tf::DT_DOUBLE);
        check("BroadcastTo [3] -> [2,3]", {{3}}, [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
            TSTUDIO_AD_TRY(s, ints(b, {2, 3}));
            return op(b, "BroadcastTo", {x[0], s});
        });
        check("BroadcastTo [2,1] -> [2,2,3]", {{2, 1}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(s, ints(b, {2, 2, 3}));
                  return op(b, "BroadcastTo", {x[0], s});
              });
        verifyNoFailures();
    }

    void gathersAndStitches()
    {
        check("Gather [5,3] indices 3,0,3 (duplicates)", {{5, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(i, ints(b, {3, 0, 3}));
                  return op(b, "Gather", {x[0], i});
              });
        for (std::int64_t axis : {0, 1, -1, 2}) {
            check(QStringLiteral("GatherV2 [4,3,2] indices [[1,0],[2,1]] axis %1").arg(axis), {{4, 3, 2}},
                  [axis](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(i, ops::constantInts(b, {1, 0, 1, 1}, {2, 2}));
                      TSTUDIO_AD_TRY(a, ints(b, {axis}, true));
                      return op(b, "GatherV2", {x[0], i, a});
                  });
        }
        check("GatherV2 hidden axis 1", {{3, 4}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(i, ints(b, {3, 3, 0}));
                  TSTUDIO_AD_TRY(a, ints(b, {1}, true));
                  TSTUDIO_AD_TRY(h, hidden(b, a));
                  return op(b, "GatherV2", {x[0], i, h});
              });
        check(
            "GatherV2 scalar index axis 0 (float64)", {{4, 2}},
            [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                TSTUDIO_AD_TRY(i, ints(b, {2}, true));
                TSTUDIO_AD_TRY(a, ints(b, {0}, true));
                return op(b, "GatherV2", {x[0], i, a});
            },
            tf::DT_DOUBLE);
        for (const char* type : {"DynamicStitch", "ParallelDynamicStitch"}) {
            check(QStringLiteral("%1 [[0,2],[1,3]] and [4]").arg(type), {{2, 2, 3}, {1, 3}},
                  [type](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                      TSTUDIO_AD_TRY(i0, ops::constantInts(b, {0, 2, 1, 3}, {2, 2}));
                      TSTUDIO_AD_TRY(i1, ints(b, {4}));
                      return op(b, type, {std::vector<Output>{i0, i1}, std::vector<Output>{x[0], x[1]}});
                  });
        }
        check("UnsortedSegmentSum [5,2] ids 1,-1,0,1,3 into 4", {{5, 2}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(ids, ints(b, {1, -1, 0, 1, 3}));
                  TSTUDIO_AD_TRY(n, ints(b, {4}, true));
                  return op(b, "UnsortedSegmentSum", {x[0], ids, n});
              });
        check("UnsortedSegmentSum [2,3] ids [[0,1,0],[2,-1,2]] into 3", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(ids, ops::constantInts(b, {0, 1, 0, 2, -1, 2}, {2, 3}));
                  TSTUDIO_AD_TRY(n, ints(b, {3}, true));
                  return op(b, "UnsortedSegmentSum", {x[0], ids, n});
              });
        verifyNoFailures();
    }

    void valuesAndPassThrough()
    {
        check("Fill [2,3] with x", {TensorShape::scalar()},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(d, ints(b, {2, 3}));
                  return op(b, "Fill", {d, x[0]});
              });
        check("Fill hidden dims", {TensorShape::scalar()},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(d, ints(b, {3, 1, 2}));
                  TSTUDIO_AD_TRY(h, hidden(b, d));
                  return op(b, "Fill", {h, x[0]});
              });
        for (bool exclusive : {false, true}) {
            for (bool reverse : {false, true}) {
                check(QStringLiteral("Cumsum [3,4] axis -1 exclusive %1 reverse %2").arg(exclusive).arg(reverse),
                      {{3, 4}}, [=](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                          TSTUDIO_AD_TRY(a, ints(b, {-1}, true));
                          return op(b, "Cumsum", {x[0], a},
                                    {{"exclusive", attr::b(exclusive)}, {"reverse", attr::b(reverse)}});
                      });
            }
        }
        check("IdentityN two inputs", {{2}, {3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(n, b.op("IdentityN", {std::vector<Output>{x[0], x[1]}}));
                  TSTUDIO_AD_TRY(s0, ops::sum(b, n.output(0), *ints(b, {0})));
                  TSTUDIO_AD_TRY(m, ops::mul(b, n.output(1), s0));
                  return m;
              });
        check("PlaceholderWithDefault", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(p, op(b, "PlaceholderWithDefault", {x[0]}, {{"shape", attr::shape({2, 3})}}));
                  return ops::mul(b, p, p);
              });
        verifyNoFailures();
    }

    void diagonalOps()
    {
        check("Diag [3]", {{3}}, [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "Diag", {x[0]}); });
        check("DiagPart [2,3,2,3]", {{2, 3, 2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "DiagPart", {x[0]}); });
        check("MatrixDiag [2,3]", {{2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "MatrixDiag", {x[0]}); });
        check("MatrixDiagPart [2,3,3]", {{2, 3, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "MatrixDiagPart", {x[0]}); });
        check("MatrixDiagPart [2,3,4]", {{2, 3, 4}},
              [](GraphBuilder& b, const std::vector<Output>& x) { return op(b, "MatrixDiagPart", {x[0]}); });
        check("MatrixSetDiag [2,3,4] with [2,3]", {{2, 3, 4}, {2, 3}},
              [](GraphBuilder& b, const std::vector<Output>& x) {
                  return op(b, "MatrixSetDiag", {x[0], x[1]});
              });
        check("MatrixSetDiag unknown shapes", {{4, 3}, {3}},
              [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                  TSTUDIO_AD_TRY(u, unknownShape(b, x[0]));
                  TSTUDIO_AD_TRY(d, unknownShape(b, x[1]));
                  return op(b, "MatrixSetDiag", {u, d});
              });
        verifyNoFailures();
    }

    /// The node names TensorFlow 1.15's gradient functions give (from their Python source).
    void nodeNamesAreTensorFlows()
    {
        expectNodes("ConcatV2", {{2, 3}, {2, 1}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(a, ints(b, {-1}, true));
                        return op(b, "ConcatV2", {std::vector<Output>{x[0], x[1]}, a});
                    },
                    {"gradients/ConcatV2_grad/Rank Const", "gradients/ConcatV2_grad/mod FloorMod",
                     "gradients/ConcatV2_grad/Shape Const", "gradients/ConcatV2_grad/Shape_1 Const",
                     "gradients/ConcatV2_grad/ConcatOffset ConcatOffset", "gradients/ConcatV2_grad/Slice Slice",
                     "gradients/ConcatV2_grad/Slice_1 Slice"});
        expectNodes("ConcatV2 of 17, one shape unknown", std::vector<TensorShape>(17, TensorShape{2, 1}),
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        std::vector<Output> values = x;
                        TSTUDIO_AD_TRY(u, unknownShape(b, x[1]));
                        values[1] = u;
                        TSTUDIO_AD_TRY(a, ints(b, {1}, true));
                        return op(b, "ConcatV2", {values, a});
                    },
                    {"gradients/ConcatV2_grad/Shape Const", "gradients/ConcatV2_grad/Shape_1 Shape",
                     "gradients/ConcatV2_grad/ShapeN ShapeN", "gradients/ConcatV2_grad/stack Pack",
                     "gradients/ConcatV2_grad/Slice/begin Pack", "gradients/ConcatV2_grad/Slice/begin/1 Const",
                     "gradients/ConcatV2_grad/Slice/size Const", "gradients/ConcatV2_grad/Slice Slice",
                     "gradients/ConcatV2_grad/Squeeze Squeeze", "gradients/ConcatV2_grad/split SplitV"});
        expectNodes("Slice", {{3, 4}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(begin, ints(b, {1, 0}));
                        TSTUDIO_AD_TRY(size, ints(b, {1, 2}));
                        return op(b, "Slice", {x[0], begin, size});
                    },
                    {"gradients/Slice_grad/Rank Const", "gradients/Slice_grad/Shape Const",
                     "gradients/Slice_grad/stack/1 Const", "gradients/Slice_grad/stack Pack",
                     "gradients/Slice_grad/Reshape Reshape", "gradients/Slice_grad/Shape_1 Const",
                     "gradients/Slice_grad/sub Sub", "gradients/Slice_grad/sub_1 Sub",
                     "gradients/Slice_grad/Reshape_1 Reshape", "gradients/Slice_grad/concat/axis Const",
                     "gradients/Slice_grad/concat ConcatV2", "gradients/Slice_grad/Pad Pad"});
        expectNodes("Gather", {{5, 3}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(i, ints(b, {3, 0}));
                        return op(b, "Gather", {x[0], i});
                    },
                    {"gradients/Gather_grad/Shape Const", "gradients/Gather_grad/Cast Cast",
                     "gradients/Gather_grad/Size Const", "gradients/Gather_grad/ExpandDims/dim Const",
                     "gradients/Gather_grad/ExpandDims ExpandDims", "gradients/Gather_grad/strided_slice StridedSlice",
                     "gradients/Gather_grad/strided_slice/stack Const", "gradients/Gather_grad/concat ConcatV2",
                     "gradients/Gather_grad/Reshape Reshape", "gradients/Gather_grad/Reshape_1 Reshape",
                     "gradients/Gather_grad/UnsortedSegmentSum UnsortedSegmentSum"});
        expectNodes(
            "GatherV2 axis 1", {{3, 4}},
            [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                TSTUDIO_AD_TRY(i, ints(b, {3, 0}));
                TSTUDIO_AD_TRY(a, ints(b, {1}, true));
                return op(b, "GatherV2", {x[0], i, a});
            },
            {"gradients/GatherV2_grad/Shape Const", "gradients/GatherV2_grad/Cast Cast",
             "gradients/GatherV2_grad/strided_slice/stack_1 Pack", "gradients/GatherV2_grad/strided_slice StridedSlice",
             "gradients/GatherV2_grad/strided_slice_2 StridedSlice", "gradients/GatherV2_grad/concat/values_1 Const",
             "gradients/GatherV2_grad/range/limit Const", "gradients/GatherV2_grad/range_1 Range",
             "gradients/GatherV2_grad/add AddV2", "gradients/GatherV2_grad/range_2 Range",
             "gradients/GatherV2_grad/concat_1/values_1 Pack", "gradients/GatherV2_grad/transpose Transpose",
             "gradients/GatherV2_grad/strided_slice_3/add AddV2", "gradients/GatherV2_grad/ExpandDims_1 ExpandDims",
             "gradients/GatherV2_grad/Reshape_1 Reshape",
             "gradients/GatherV2_grad/UnsortedSegmentSum UnsortedSegmentSum", "gradients/GatherV2_grad/add_1 AddV2",
             "gradients/GatherV2_grad/concat_2/values_2 Const", "gradients/GatherV2_grad/transpose_1 Transpose"});
        expectNodes(
            "UnsortedSegmentSum", {{4, 2}},
            [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                TSTUDIO_AD_TRY(ids, ints(b, {0, -1, 2, 0}));
                TSTUDIO_AD_TRY(n, ints(b, {3}, true));
                return op(b, "UnsortedSegmentSum", {x[0], ids, n});
            },
            {"gradients/UnsortedSegmentSum_grad/zeros_like Const", "gradients/UnsortedSegmentSum_grad/Maximum Maximum",
             "gradients/UnsortedSegmentSum_grad/GatherV2/axis Const",
             "gradients/UnsortedSegmentSum_grad/GatherV2 GatherV2",
             "gradients/UnsortedSegmentSum_grad/GreaterEqual/y Const",
             "gradients/UnsortedSegmentSum_grad/GreaterEqual GreaterEqual",
             "gradients/UnsortedSegmentSum_grad/ExpandDims ExpandDims",
             "gradients/UnsortedSegmentSum_grad/ones_like/Shape Const",
             "gradients/UnsortedSegmentSum_grad/ones_like/Const Const",
             "gradients/UnsortedSegmentSum_grad/ones_like Fill", "gradients/UnsortedSegmentSum_grad/and LogicalAnd",
             "gradients/UnsortedSegmentSum_grad/zeros_like_1 Const",
             "gradients/UnsortedSegmentSum_grad/Select Select"});
        expectNodes("Tile", {{2, 3}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(m, ints(b, {2, 1}));
                        return op(b, "Tile", {x[0], m});
                    },
                    {"gradients/Tile_grad/Shape Const", "gradients/Tile_grad/stack Pack",
                     "gradients/Tile_grad/transpose/perm Const", "gradients/Tile_grad/transpose Transpose",
                     "gradients/Tile_grad/Reshape/shape Const", "gradients/Tile_grad/Reshape Reshape",
                     "gradients/Tile_grad/range/start Const", "gradients/Tile_grad/range/delta Const",
                     "gradients/Tile_grad/range Range", "gradients/Tile_grad/Reshape_1 Reshape",
                     "gradients/Tile_grad/Sum Sum"});
        expectNodes("Pack / Transpose / Fill", {{2}, {2}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(p, op(b, "Pack", {x}, {{"axis", attr::i(1)}}));
                        TSTUDIO_AD_TRY(perm, ints(b, {1, 0}));
                        return op(b, "Transpose", {p, perm});
                    },
                    {"gradients/Transpose_grad/InvertPermutation InvertPermutation",
                     "gradients/Transpose_grad/transpose Transpose", "gradients/Pack_grad/unstack Unpack"});
        expectNodes("MirrorPad / Cumsum", {{3}},
                    [](GraphBuilder& b, const std::vector<Output>& x) -> Expected<Output> {
                        TSTUDIO_AD_TRY(a, ints(b, {0}, true));
                        TSTUDIO_AD_TRY(c, op(b, "Cumsum", {x[0], a}));
                        TSTUDIO_AD_TRY(p, ops::constantInts(b, {1, 1}, {1, 2}));
                        return op(b, "MirrorPad", {c, p}, {{"mode", attr::s("REFLECT")}});
                    },
                    {"gradients/MirrorPad_grad/MirrorPadGrad MirrorPadGrad", "gradients/Cumsum_grad/Cumsum Cumsum"});
        verifyNoFailures();
    }

    /// The registrations TensorFlow 1.15 makes, and the ones it does not.
    void notDifferentiableAsTensorFlow()
    {
        const OpRegistry& ops = m_checks.registries().ops;
        for (const char* name : {"Shape", "ShapeN", "Rank", "Size", "ConcatOffset", "BroadcastGradientArgs",
                                 "InvertPermutation", "OneHot", "Const", "ZerosLike", "OnesLike",
                                 // TensorFlow registers nothing for these; no_gradient_ops.cpp does.
                                 "Where", "Unique", "Placeholder", "PlaceholderV2", "BroadcastArgs"}) {
            const OpRegistration* r = ops.find(name);
            QVERIFY2(r && r->notDifferentiable && !r->gradient, name);
        }
        // Unique's values carry no gradient (TensorFlow raises LookupError instead): x is unconnected.
        GraphBuilder b(ops);
        auto x = ops::placeholder(b, tf::DT_FLOAT, {3}, "x");
        QVERIFY(x);
        auto u = b.op("Unique", {*x});
        QVERIFY(u);
        auto grads = addSymbolicGradients(b, {u->output(0)}, {*x});
        QVERIFY2(grads, grads ? "" : grads.error().toString().c_str());
        QVERIFY(!(*grads)[0].has_value());
        // Snapshot passes its gradient through, as Identity.
        auto snap = b.op("Snapshot", {*x});
        QVERIFY(snap);
        auto snapGrads = addSymbolicGradients(b, {snap->output(0)}, {*x});
        QVERIFY2(snapGrads && (*snapGrads)[0].has_value(),
                 snapGrads ? "no gradient" : snapGrads.error().toString().c_str());
    }

    void unimplementedCasesSayWhat()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto p = ops::placeholder(b, tf::DT_FLOAT, {2, 3, 4}, "p");
        auto i = ops::constantInts(b, {0, 1, 1, 0}, {2, 2});
        auto a = ops::constantInts(b, {1}, TensorShape::scalar());
        QVERIFY(p && i && a);
        auto g = b.op("GatherV2", {*p, *i, *a}, {{"batch_dims", attr::i(1)}});
        QVERIFY2(g, g ? "" : g.error().toString().c_str());
        auto grads = addSymbolicGradients(b, {g->output(0)}, {*p});
        QVERIFY(!grads);
        QCOMPARE(grads.error().code(), StatusCode::kUnimplemented);
        QVERIFY2(grads.error().message().find("batch_dims = 1") != std::string::npos, grads.error().toString().c_str());
    }

    void kernelsAgainstNumPy()
    {
        QString error;
        auto h = KernelHarness::create({registerAllOps}, {registerCpuKernels}, &error);
        QVERIFY2(h, qPrintable(error));
        int n = 0;
        const QStringList failures = runGoldenCases(*h, goldenDir() + "/segment.json", &n);
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
        QCOMPARE(n, 27);
    }

    void shapeFunctions()
    {
        GraphBuilder b(m_checks.registries().ops);
        auto data = ops::placeholder(b, tf::DT_FLOAT, {4, 3, 5}, "data");
        auto ids = ops::placeholder(b, tf::DT_INT32, {4, -1}, "ids");
        auto n = ops::constantInts(b, {7}, TensorShape::scalar());
        QVERIFY(data && ids && n);
        auto uss = b.op("UnsortedSegmentSum", {*data, *ids, *n});
        QVERIFY2(uss, uss ? "" : uss.error().toString().c_str());
        QCOMPARE(uss->output(0).shape(), (TensorShape{7, 5}));
        auto badIds = ops::placeholder(b, tf::DT_INT32, {3}, "bad_ids");
        QVERIFY(badIds);
        QVERIFY(!b.op("UnsortedSegmentSum", {*data, *badIds, *n}));
        auto pads = ops::constantInts(b, {1, 2, 0, 1, 2, 2}, {3, 2});
        QVERIFY(pads);
        auto mpg = b.op("MirrorPadGrad", {*data, *pads}, {{"mode", attr::s("SYMMETRIC")}});
        QVERIFY2(mpg, mpg ? "" : mpg.error().toString().c_str());
        QCOMPARE(mpg->output(0).shape(), (TensorShape{1, 2, 1}));
    }

    void cleanupTestCase()
    {
        qInfo("%d gradient checks; worst error %.3g (%s)", m_checks.cases, m_checks.worst.error,
              qPrintable(m_checks.worst.name));
    }
};

QTEST_GUILESS_MAIN(TestArrayGrad)
#include "test_array_grad.moc"
