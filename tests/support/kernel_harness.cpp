// KernelHarness: builds a node, runs its kernel once, compares with NumPy's results.
#include "kernel_harness.h"

#include "framework/node_def_validation.h"
#include "framework/single_kernel_run.h"
#include "io/npy.h"

#include <google/protobuf/text_format.h>

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <complex>
#include <sstream>

namespace tstudio::testing {

std::unique_ptr<KernelHarness> KernelHarness::create(const std::vector<OpFamily>& opFamilies,
                                                     const std::vector<KernelFamily>& kernelFamilies, QString* error)
{
    std::unique_ptr<KernelHarness> h(new KernelHarness);
    for (const auto& family : opFamilies) {
        if (Status s = family(h->m_ops); !s.isOk()) {
            *error = QString::fromStdString("op registration: " + s.toString());
            return nullptr;
        }
    }
    for (const auto& family : kernelFamilies) {
        if (Status s = family(h->m_kernels); !s.isOk()) {
            *error = QString::fromStdString("kernel registration: " + s.toString());
            return nullptr;
        }
    }
    return h;
}

std::unique_ptr<KernelHarness> KernelHarness::createOrWarn(const std::vector<OpFamily>& opFamilies,
                                                           const std::vector<KernelFamily>& kernelFamilies)
{
    QString error;
    auto h = create(opFamilies, kernelFamilies, &error);
    if (!h)
        qWarning("%s", qPrintable(error));
    return h;
}

Expected<std::vector<Tensor>> KernelHarness::run(const std::string& nodeText, const std::vector<Tensor>& inputs)
{
    return runOn(m_device, nodeText, inputs);
}

Expected<std::vector<Tensor>> KernelHarness::run(tensorflow::NodeDef node, const std::vector<Tensor>& inputs)
{
    return runOn(m_device, std::move(node), inputs);
}

Expected<std::vector<Tensor>> KernelHarness::runOn(Device& device, const std::string& nodeText,
                                                   const std::vector<Tensor>& inputs)
{
    tensorflow::NodeDef node;
    if (!google::protobuf::TextFormat::ParseFromString(nodeText, &node))
        return unexpected(invalidArgumentError("test node does not parse: " + nodeText));
    return runOn(device, std::move(node), inputs);
}

Expected<std::vector<Tensor>> KernelHarness::runOn(Device& device, tensorflow::NodeDef node,
                                                   const std::vector<Tensor>& inputs)
{
    if (node.name().empty())
        node.set_name("test_node");
    node.clear_input();
    for (std::size_t i = 0; i < inputs.size(); ++i)
        node.add_input("input_" + std::to_string(i));
    auto registration = m_ops.lookUp(node.op());
    if (!registration)
        return unexpected(registration.error());
    addDefaultAttrs((*registration)->opDef, &node);
    if (Status s = validateNodeDef((*registration)->opDef, node); !s.isOk())
        return unexpected(s);
    auto kernel = m_kernels.createKernel(node, m_ops, device);
    if (!kernel)
        return unexpected(kernel.error());
    std::vector<TensorValue> values;
    const bool deviceMemory = !device.hostMemory();
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        // A GPU kernel reads its inputs from GPU memory, except those it keeps in host memory.
        if (deviceMemory && !(*kernel)->inputInHostMemory(static_cast<int>(i))) {
            auto copy = device.copyFromHost(inputs[i]);
            if (!copy)
                return unexpected(copy.error().withContext("input " + std::to_string(i)));
            values.push_back(TensorValue{std::move(*copy)});
        } else {
            values.push_back(TensorValue{inputs[i]});
        }
    }
    auto outputs = runKernelOnce(**kernel, device, values, &m_resources, ++m_step);
    if (!outputs || !deviceMemory)
        return outputs;
    for (Tensor& output : *outputs) {
        auto host = device.copyToHost(output, m_device.allocator());
        if (!host)
            return unexpected(host.error().withContext(node.name()));
        output = std::move(*host);
    }
    if (Status s = device.synchronize(); !s.isOk())
        return unexpected(s.withContext(node.name()));
    return outputs;
}

namespace {

template <typename T>
double asDouble(T v)
{
    if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
        return static_cast<double>(static_cast<float>(v));
    else
        return static_cast<double>(v);
}

bool close(double a, double e, double rtol, double atol)
{
    if (std::isnan(a) || std::isnan(e))
        return std::isnan(a) && std::isnan(e);
    if (std::isinf(a) || std::isinf(e))
        return a == e;
    return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

std::string indexText(const TensorShape& shape, std::int64_t flat)
{
    std::string out;
    for (int d = shape.rank() - 1; d >= 0; --d) {
        const std::int64_t dim = shape.dim(d);
        out = std::to_string(dim ? flat % dim : 0) + (out.empty() ? "" : ",") + out;
        flat = dim ? flat / dim : 0;
    }
    return "[" + out + "]";
}

} // namespace

std::string compareTensors(const Tensor& actual, const Tensor& expected, double rtol, double atol)
{
    if (actual.dtype() != expected.dtype())
        return "dtype " + std::string(dataTypeName(actual.dtype())) + " but expected " +
               std::string(dataTypeName(expected.dtype()));
    if (!(actual.shape() == expected.shape()))
        return "shape " + actual.shape().toString() + " but expected " + expected.shape().toString();
    std::string failure;
    auto visit = [&](auto tag) -> Status {
        using T = typename decltype(tag)::type;
        const auto a = actual.values<T>();
        const auto e = expected.values<T>();
        for (std::size_t i = 0; i < a.size() && failure.empty(); ++i) {
            bool ok;
            std::ostringstream text;
            if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
                ok = close(a[i].real(), e[i].real(), rtol, atol) && close(a[i].imag(), e[i].imag(), rtol, atol);
                text << a[i] << " vs " << e[i];
            } else if constexpr (std::is_same_v<T, std::string>) {
                ok = a[i] == e[i];
                text << "'" << a[i] << "' vs '" << e[i] << "'";
            } else {
                ok = close(asDouble(a[i]), asDouble(e[i]), rtol, atol);
                text.precision(9);
                text << asDouble(a[i]) << " vs expected " << asDouble(e[i]);
            }
            if (!ok)
                failure = "at " + indexText(actual.shape(), static_cast<std::int64_t>(i)) + ": " + text.str();
        }
        return Status::ok();
    };
    if (Status s = dispatchDataType(actual.dtype(), visit); !s.isOk())
        return s.toString();
    return failure;
}

QString goldenDir() { return QStringLiteral(TSTUDIO_SOURCE_DIR "/tests/data/golden"); }

QString goldenFailures(KernelHarness* harness, const QString& manifest, CaseCount expected)
{
    if (!harness)
        return manifest + QStringLiteral(": no kernel harness (see the registration warning)");
    int n = 0;
    QStringList failures = runGoldenCases(*harness, goldenDir() + "/" + manifest, &n);
    if (n < expected.min || n > expected.max) {
        const QString want = expected.min == expected.max ? QString::number(expected.min)
                             : expected.max == std::numeric_limits<int>::max()
                                 ? QStringLiteral("at least %1").arg(expected.min)
                                 : QStringLiteral("%1 to %2").arg(expected.min).arg(expected.max);
        failures << manifest + QStringLiteral(": %1 cases ran, expected %2").arg(n).arg(want);
    }
    return failures.join('\n');
}

QStringList runGoldenCases(KernelHarness& harness, const QString& manifestPath, int* casesRun)
{
    QStringList failures;
    QFile file(manifestPath);
    if (!file.open(QIODevice::ReadOnly))
        return {QStringLiteral("cannot read %1").arg(manifestPath)};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (doc.isNull())
        return {QStringLiteral("%1: %2").arg(manifestPath, parseError.errorString())};
    const QString dir = QFileInfo(manifestPath).absolutePath();
    int count = 0;
    for (const QJsonValue& value : doc.object().value("cases").toArray()) {
        const QJsonObject c = value.toObject();
        const QString name = c.value("name").toString();
        ++count;
        std::vector<Tensor> inputs;
        bool ok = true;
        for (const QJsonValue& in : c.value("inputs").toArray()) {
            auto t = readNpy((dir + "/" + in.toString()).toStdString(), harness.allocator());
            if (!t) {
                failures << name + ": " + QString::fromStdString(t.error().message());
                ok = false;
                break;
            }
            inputs.push_back(*t);
        }
        if (!ok)
            continue;
        auto outputs = harness.run(c.value("node").toString().toStdString(), inputs);
        if (c.contains("error")) {
            const QString want = c.value("error").toString();
            if (outputs)
                failures << name + ": expected an error containing '" + want + "', got success";
            else if (!QString::fromStdString(outputs.error().message()).contains(want))
                failures << name + ": expected an error containing '" + want + "', got: " +
                                QString::fromStdString(outputs.error().message());
            continue;
        }
        if (!outputs) {
            failures << name + ": " + QString::fromStdString(outputs.error().toString());
            continue;
        }
        const QJsonArray expected = c.value("outputs").toArray();
        if (static_cast<std::size_t>(expected.size()) > outputs->size()) {
            failures << name + QStringLiteral(": %1 outputs, expected %2").arg(outputs->size()).arg(expected.size());
            continue;
        }
        const double rtol = c.value("rtol").toDouble(1e-6);
        const double atol = c.value("atol").toDouble(1e-6);
        for (int i = 0; i < expected.size(); ++i) {
            if (expected[i].isNull())
                continue;  // an output NumPy does not define (e.g. a backprop scratch value)
            auto want = readNpy((dir + "/" + expected[i].toString()).toStdString(), harness.allocator());
            if (!want) {
                failures << name + ": " + QString::fromStdString(want.error().message());
                continue;
            }
            const std::string diff = compareTensors((*outputs)[static_cast<std::size_t>(i)], *want, rtol, atol);
            if (!diff.empty())
                failures << name + QStringLiteral(": output %1 ").arg(i) + QString::fromStdString(diff);
        }
    }
    if (count == 0)
        failures << manifestPath + ": no cases";
    if (casesRun)
        *casesRun = count;
    return failures;
}

} // namespace tstudio::testing
