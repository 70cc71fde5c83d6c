// SettingsDialog: a form of three choices; the device list comes from the engine's GPU probe.
#include "settings_dialog.h"

#include "app_settings.h"
#include "language_manager.h"
#include "theme.h"

#include "devices/gpu_probe.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace tstudio {

SettingsDialog::SettingsDialog(AppSettings* settings, LanguageManager* languages, QWidget* parent)
    : QDialog(parent),
      m_settings(settings),
      m_languages(languages),
      m_languageLabel(new QLabel(this)),
      m_themeLabel(new QLabel(this)),
      m_deviceLabel(new QLabel(this)),
      m_gpuNote(new QLabel(this)),
      m_language(new QComboBox(this)),
      m_theme(new QComboBox(this)),
      m_device(new QComboBox(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this))
{
    setObjectName(QStringLiteral("settingsDialog"));
    for (const UiLanguage& language : LanguageManager::availableLanguages())
        m_language->addItem(language.nativeName, language.code);
    m_language->setCurrentIndex(std::max(0, m_language->findData(settings->language())));
    m_theme->addItem(QString(), AppSettings::themeId(Theme::kLight));
    m_theme->addItem(QString(), AppSettings::themeId(Theme::kDark));
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(AppSettings::themeId(settings->theme()))));

    m_device->addItem(QString(), QStringLiteral("/device:CPU:0"));
    const GpuProbeReport gpus = probeGpus();
    for (const GpuDeviceInfo& gpu : gpus.devices)
        m_device->addItem(QStringLiteral("GPU %1: %2").arg(gpu.ordinal).arg(QString::fromStdString(gpu.name)),
                          QStringLiteral("/device:GPU:%1").arg(gpu.ordinal));
    const int deviceIndex = m_device->findData(settings->defaultDevice());
    if (deviceIndex >= 0) {
        m_device->setCurrentIndex(deviceIndex);
    } else {
        // A device saved on another machine stays listed so the choice is not lost silently.
        m_device->addItem(settings->defaultDevice(), settings->defaultDevice());
        m_device->setCurrentIndex(m_device->count() - 1);
    }
    m_gpuNote->setWordWrap(true);
    m_gpuNote->setVisible(gpus.devices.empty());

    auto* form = new QFormLayout;
    form->addRow(m_languageLabel, m_language);
    form->addRow(m_themeLabel, m_theme);
    form->addRow(m_deviceLabel, m_device);
    form->addRow(QString(), m_gpuNote);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    retranslateUi();
    setMinimumWidth(460);
}

void SettingsDialog::apply()
{
    const QString language = m_language->currentData().toString();
    const Theme theme = AppSettings::themeFromId(m_theme->currentData().toString());
    m_settings->setLanguage(language);
    m_settings->setTheme(theme);
    m_settings->setDefaultDevice(m_device->currentData().toString());
    m_settings->sync();
    if (m_languages)
        m_languages->setLanguage(language);
    applyTheme(theme);
}

void SettingsDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void SettingsDialog::retranslateUi()
{
    setWindowTitle(tr("Settings"));
    m_languageLabel->setText(tr("&Language:"));
    m_languageLabel->setBuddy(m_language);
    m_themeLabel->setText(tr("&Theme:"));
    m_themeLabel->setBuddy(m_theme);
    m_deviceLabel->setText(tr("Default &device:"));
    m_deviceLabel->setBuddy(m_device);
    m_theme->setItemText(0, tr("Light"));
    m_theme->setItemText(1, tr("Dark"));
    m_device->setItemText(0, tr("CPU"));
    const GpuProbeReport gpus = probeGpus();
    if (!gpus.brokenReason.empty())
        m_gpuNote->setText(tr("GPU present but unusable: %1").arg(QString::fromStdString(gpus.brokenReason)));
    else
        m_gpuNote->setText(tr("No GPU available: %1").arg(QString::fromStdString(gpus.unavailableReason)));
}

} // namespace tstudio
