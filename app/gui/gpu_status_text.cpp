// gpuHeadline / gpuDetails: the probe's verdict as a sentence, its technical reason as the details.
#include "gpu_status_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace tstudio {
QString gpuHeadline(const GpuProbeReport& report)
{
    if (!report.brokenReason.empty())
        return QCoreApplication::translate("GpuStatus", "An NVIDIA GPU is here but cannot be used — training runs on the CPU");
    if (!report.devices.empty()) {
        const GpuDeviceInfo& first = report.devices.front();
        if (report.devices.size() == 1)
            return QCoreApplication::translate("GpuStatus", "GPU found: %1 — training can run on the GPU").arg(QString::fromStdString(first.name));
        return QCoreApplication::translate("GpuStatus", "%1 GPUs found (GPU 0: %2) — training can run on the GPU")
            .arg(report.devices.size())
            .arg(QString::fromStdString(first.name));
    }
    if (!report.compiledIn)
        return QCoreApplication::translate("GpuStatus", "This build has no GPU support — training runs on the CPU");
    if (report.hiddenByVisibleDevices)
        return QCoreApplication::translate("GpuStatus", "CUDA_VISIBLE_DEVICES hides every GPU — training runs on the CPU");
    return QCoreApplication::translate("GpuStatus", "No NVIDIA GPU driver found — training runs on the CPU");
}

QString gpuDetails(const GpuProbeReport& report)
{
    if (!report.brokenReason.empty())
        return QString::fromStdString(report.brokenReason);
    if (report.devices.empty())
        return QString::fromStdString(report.unavailableReason);
    QStringList lines;
    for (const GpuDeviceInfo& gpu : report.devices)
        lines << QCoreApplication::translate("GpuStatus", "GPU %1: %2, compute capability %3.%4")
                     .arg(gpu.ordinal)
                     .arg(QString::fromStdString(gpu.name))
                     .arg(gpu.computeMajor)
                     .arg(gpu.computeMinor);
    return lines.join(QLatin1Char('\n'));
}

} // namespace tstudio
