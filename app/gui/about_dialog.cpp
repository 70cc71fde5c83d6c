// AboutDialog: a header and a table of component versions with a Copy button.
#include "about_dialog.h"

#include "core/build_info.h"
#include "devices/component_versions.h"
#include "devices/gpu_probe.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace tstudio {

AboutDialog::AboutDialog(QWidget* parent) : QDialog(parent), m_components(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("aboutDialog"));
    setWindowTitle(tr("About TensorStudio"));
    auto* title = new QLabel(
        tr("<h2>TensorStudio %1</h2><p>An IDE for dataflow-graph deep learning, compatible with TensorFlow 1.x "
           "graphs, checkpoints and event files.</p>")
            .arg(QString::fromUtf8(engineVersion().data(), qsizetype(engineVersion().size()))),
        this);
    title->setWordWrap(true);

    m_components->setColumnCount(3);
    m_components->setHeaderLabels({tr("Component"), tr("Source"), tr("Version")});
    m_components->setRootIsDecorated(false);
    m_components->setAlternatingRowColors(true);
    auto add = [this](const QString& name, const QString& version, const QString& origin) {
        auto* item = new QTreeWidgetItem(m_components, {name, origin, version});
        item->setToolTip(2, version);
    };
    const QString runTime = tr("run time");
    const QString compiledIn = tr("compiled in");
    add(QStringLiteral("Qt"), QString::fromLatin1(qVersion()), runTime);
    for (const ComponentVersion& c : engineComponentVersions()) {
        QString version = QString::fromStdString(c.version);
        if (version == QLatin1String("no GPU support compiled in"))
            version = tr("no GPU support compiled in");
        const QString origin = c.origin.empty() ? QString() : c.origin == "run time" ? runTime : compiledIn;
        add(QString::fromStdString(c.name), version, origin);
    }
    const GpuProbeReport gpus = probeGpus();
    const QLocale locale;
    for (const GpuDeviceInfo& gpu : gpus.devices)
        add(tr("GPU %1").arg(gpu.ordinal),
            tr("%1, compute capability %2.%3, %4")
                .arg(QString::fromStdString(gpu.name))
                .arg(gpu.computeMajor)
                .arg(gpu.computeMinor)
                .arg(locale.formattedDataSize(qint64(gpu.totalMemoryBytes))),
            runTime);
    // Why no GPU was found can be long: the row says so, the whole reason wraps below the table.
    auto* gpuNote = new QLabel(this);
    gpuNote->setObjectName(QStringLiteral("aboutGpuNote"));
    gpuNote->setWordWrap(true);
    gpuNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    gpuNote->hide();
    if (!gpus.brokenReason.empty()) {
        // Present but unusable is a failure, said as such rather than as "none".
        const QString reason = tr("GPU present but unusable: %1").arg(QString::fromStdString(gpus.brokenReason));
        add(tr("GPU"), reason, runTime);
        m_components->topLevelItem(m_components->topLevelItemCount() - 1)->setText(2, tr("unusable (see below)"));
        gpuNote->setText(reason);
        gpuNote->show();
    } else if (gpus.compiledIn && gpus.devices.empty()) {
        const QString reason = QString::fromStdString(gpus.unavailableReason);
        add(tr("GPU"), reason, runTime);
        m_components->topLevelItem(m_components->topLevelItemCount() - 1)->setText(2, tr("none (see below)"));
        gpuNote->setText(tr("GPU: %1").arg(reason));
        gpuNote->show();
    }
    m_components->resizeColumnToContents(0);
    m_components->resizeColumnToContents(1);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton* copy = buttons->addButton(tr("Copy"), QDialogButtonBox::ActionRole);
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(componentsText()); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title);
    layout->addWidget(m_components, 1);
    layout->addWidget(gpuNote);
    layout->addWidget(buttons);
    resize(620, 440);
}

QString AboutDialog::componentsText() const
{
    QStringList lines;
    for (int i = 0; i < m_components->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = m_components->topLevelItem(i);
        lines << QStringLiteral("%1\t%2\t%3").arg(item->text(0), item->toolTip(2), item->text(1)); // the whole value
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace tstudio
