// Shared by the losses and metrics tests: NumPy reference values (tools/golden/losses_metrics.py)
// and a small runner that feeds arrays into a built graph and fetches floats.
#pragma once

#include "builder/graph_builder.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tstudio::losstest {

/// The cases of tests/data/golden/losses_metrics.json.
class Golden {
public:
    bool load()
    {
        QFile file(QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden/losses_metrics.json"));
        if (!file.open(QIODevice::ReadOnly))
            return false;
        m_cases = QJsonDocument::fromJson(file.readAll()).object().value("cases").toObject();
        return !m_cases.isEmpty();
    }
    bool has(const char* name) const { return m_cases.contains(name); }
    TensorShape shape(const char* name, const char* key) const
    {
        std::vector<std::int64_t> dims;
        for (const auto& d : array(name, key).value("shape").toArray())
            dims.push_back(d.toInteger());
        return TensorShape(dims);
    }
    std::vector<double> values(const char* name, const char* key) const
    {
        std::vector<double> out;
        for (const auto& v : array(name, key).value("values").toArray())
            out.push_back(v.toDouble());
        return out;
    }
    /// The array as a tensor of `dtype` (float32, int32, int64 or bool).
    Tensor tensor(const char* name, const char* key, DataType dtype = tensorflow::DT_FLOAT) const
    {
        static CpuAllocator allocator;
        const std::vector<double> v = values(name, key);
        const TensorShape s = shape(name, key);
        switch (dtype) {
        case tensorflow::DT_INT32:
            return *Tensor::fromVector(allocator, s, std::vector<std::int32_t>(v.begin(), v.end()));
        case tensorflow::DT_INT64:
            return *Tensor::fromVector(allocator, s, std::vector<std::int64_t>(v.begin(), v.end()));
        case tensorflow::DT_BOOL: {
            std::vector<bool> bits(v.begin(), v.end());
            Tensor t = *Tensor::allocate(allocator, tensorflow::DT_BOOL, s);
            auto out = t.values<bool>();
            for (std::size_t i = 0; i < bits.size(); ++i)
                out[i] = bits[i];
            return t;
        }
        default: return *Tensor::fromVector(allocator, s, std::vector<float>(v.begin(), v.end()));
        }
    }
    std::vector<double> expected(const char* name, const char* key) const
    {
        std::vector<double> out;
        for (const auto& v : m_cases.value(name).toObject().value("expected").toObject().value(key).toArray())
            out.push_back(v.toDouble());
        return out;
    }

private:
    QJsonObject array(const char* name, const char* key) const
    {
        return m_cases.value(name).toObject().value("arrays").toObject().value(key).toObject();
    }
    QJsonObject m_cases;
};

using Feeds = std::vector<std::pair<std::string, Tensor>>;

/// One Session over a built graph; keeps its variables between runs.
class Runner {
public:
    Runner(const Registries& registries, const GraphBuilder& b)
    {
        SessionOptions options;
        options.ops = &registries.ops;
        options.kernels = &registries.kernels;
        m_session = std::make_unique<Session>(options);
        m_status = m_session->create(b.graphDef());
    }
    const Status& status() const { return m_status; }
    /// Runs `targets` (no fetches).
    Status runTargets(const std::vector<std::string>& targets, const Feeds& feeds = {})
    {
        std::vector<Tensor> out;
        return m_session->run(feeds, {}, targets, &out);
    }
    /// Fetches a float tensor as doubles; empty with a warning on errors.
    std::vector<double> fetch(const std::string& name, const Feeds& feeds = {})
    {
        std::vector<Tensor> out;
        m_status = m_session->run(feeds, {name}, {}, &out);
        if (!m_status.isOk()) {
            std::string fed;
            for (const auto& [key, value] : feeds)
                fed += " " + key + value.shape().toString();
            qWarning("fetching %s with feeds%s: %s", name.c_str(), fed.c_str(), m_status.toString().c_str());
            return {};
        }
        std::vector<double> values;
        if (out.front().dtype() == tensorflow::DT_DOUBLE) {
            for (double v : out.front().values<double>())
                values.push_back(v);
        } else {
            for (float v : out.front().values<float>())
                values.push_back(v);
        }
        return values;
    }

private:
    std::unique_ptr<Session> m_session;
    Status m_status;
};

/// True when `actual` and `expected` have the same size and agree within NumPy's allclose rule.
inline bool allClose(const std::vector<double>& actual, const std::vector<double>& expected, double rtol = 1e-5,
                     double atol = 1e-6)
{
    if (actual.size() != expected.size())
        return false;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        if (!(std::abs(actual[i] - expected[i]) <= atol + rtol * std::abs(expected[i])))
            return false;
    }
    return true;
}

inline QString show(const std::vector<double>& v)
{
    QStringList parts;
    for (double x : v)
        parts << QString::number(x, 'g', 9);
    return "[" + parts.join(", ") + "]";
}

} // namespace tstudio::losstest

/// QVERIFY2 that two value vectors are close, printing both.
#define LOSS_COMPARE(actual, expected)                                                                                 \
    do {                                                                                                               \
        const auto a_ = (actual);                                                                                      \
        const auto e_ = (expected);                                                                                    \
        QVERIFY2(                                                                                                      \
            ::tstudio::losstest::allClose(a_, e_),                                                                     \
            qPrintable(                                                                                                \
                QString("got %1, expected %2").arg(::tstudio::losstest::show(a_), ::tstudio::losstest::show(e_))));    \
    } while (false)
