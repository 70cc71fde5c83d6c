// The Training panel's evaluation section: the project's "eval" as a form.
#include "training/evaluation_section.h"

#include "project/run/eval_metrics.h"
#include "registries/default_registries.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <set>

namespace tstudio::training_panel {
namespace {

using Mode = project::EvalDataChoice::Mode;

constexpr int kMaxSpin = 2000000000;

/// Where a new section starts: the examples after those training reads where the source can split
/// them off, else the same kind of data from elsewhere, else the training data.
project::EvalDataChoice defaultChoice(const project::Project& p)
{
    project::EvalDataChoice c;
    if (p.sources.empty())
        return c;
    const project::DataSource& s = p.sources.front();
    std::int64_t skip = 0, take = -1;
    if (const auto* m = std::get_if<project::MnistParams>(&s.params)) {
        skip = m->skip;
        take = m->take;
    } else if (const auto* n = std::get_if<project::NumpyParams>(&s.params)) {
        skip = n->skip;
        take = n->take;
    } else if (const auto* c = std::get_if<project::Cifar10Params>(&s.params)) {
        skip = c->skip;
        take = c->take;
    }
    if (take > 0) {
        c.mode = Mode::kSplit;
        c.skip = skip + take;
        c.take = -1;
    } else if (project::evalOtherKind(s) == "seed") {
        c.mode = Mode::kOther;
        c.other = std::to_string(std::get<project::TwoSpiralsParams>(s.params).seed + 1);
    } else {
        c.mode = Mode::kSame;
    }
    return c;
}

} // namespace

EvaluationSection::EvaluationSection(const Registries* registries, QWidget* parent)
    : QWidget(parent), m_registries(registries)
{
    setObjectName(QStringLiteral("trainingEvaluation"));
    m_box = new QGroupBox(this);
    m_box->setObjectName(QStringLiteral("trainingEvaluationBox"));
    m_box->setCheckable(true);
    m_box->setChecked(false);
    m_box->setFlat(true);
    m_dataLabel = new QLabel(m_box);
    m_source = new QComboBox(m_box);
    m_source->setObjectName(QStringLiteral("trainingEvalSource"));
    m_mode = new QComboBox(m_box);
    m_mode->setObjectName(QStringLiteral("trainingEvalMode"));
    m_skipLabel = new QLabel(m_box);
    m_skip = new QSpinBox(m_box);
    m_skip->setRange(0, kMaxSpin);
    m_takeLabel = new QLabel(m_box);
    m_take = new QSpinBox(m_box);
    m_take->setRange(-1, kMaxSpin);
    m_otherLabel = new QLabel(m_box);
    m_other = new QLineEdit(m_box);
    m_other->setObjectName(QStringLiteral("trainingEvalOther"));
    m_browse = new QPushButton(m_box);
    m_metricsLabel = new QLabel(m_box);
    m_metricsRow = new QWidget(m_box);
    auto* metricsLayout = new QHBoxLayout(m_metricsRow);
    metricsLayout->setContentsMargins(0, 0, 0, 0);
    m_k = new QSpinBox(m_metricsRow);
    m_k->setRange(1, 1000);
    m_k->setValue(5);
    m_kept = new QLabel(m_box);
    m_kept->setWordWrap(true);
    m_everyLabel = new QLabel(m_box);
    m_every = new QSpinBox(m_box);
    m_every->setObjectName(QStringLiteral("trainingEvalEvery"));
    m_every->setRange(1, kMaxSpin);
    m_every->setGroupSeparatorShown(true);
    m_everySuffix = new QLabel(m_box);

    // The fields only while the box is ticked: a project without an evaluation keeps one line.
    m_fields = new QWidget(m_box);
    auto* boxLayout = new QVBoxLayout(m_box);
    boxLayout->addWidget(m_fields);
    m_fields->setVisible(false); // fillFrom shows it with a ticked box
    auto* grid = new QGridLayout(m_fields);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_dataLabel, 0, 0);
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(m_source, 1);
    dataRow->addWidget(m_mode, 1);
    grid->addLayout(dataRow, 0, 1, 1, 2);
    auto* splitRow = new QHBoxLayout;
    splitRow->addWidget(m_skipLabel);
    splitRow->addWidget(m_skip);
    splitRow->addSpacing(12);
    splitRow->addWidget(m_takeLabel);
    splitRow->addWidget(m_take);
    splitRow->addStretch(1);
    grid->addLayout(splitRow, 1, 1, 1, 2);
    grid->addWidget(m_otherLabel, 2, 0);
    grid->addWidget(m_other, 2, 1);
    grid->addWidget(m_browse, 2, 2);
    grid->addWidget(m_metricsLabel, 3, 0);
    grid->addWidget(m_metricsRow, 3, 1, 1, 2);
    grid->addWidget(m_kept, 4, 1, 1, 2);
    grid->addWidget(m_everyLabel, 5, 0);
    auto* everyRow = new QHBoxLayout;
    everyRow->addWidget(m_every);
    everyRow->addWidget(m_everySuffix);
    everyRow->addStretch(1);
    grid->addLayout(everyRow, 5, 1, 1, 2);
    grid->setColumnStretch(1, 1);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(m_box);

    auto changed = [this] {
        if (!m_filling)
            emit edited();
    };
    connect(m_box, &QGroupBox::toggled, this, changed);
    connect(m_box, &QGroupBox::toggled, m_fields, &QWidget::setVisible);
    connect(m_source, &QComboBox::currentIndexChanged, this, [this, changed] {
        refreshModes();
        changed();
    });
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this, changed] {
        refreshFields();
        changed();
    });
    connect(m_skip, &QSpinBox::valueChanged, this, changed);
    connect(m_take, &QSpinBox::valueChanged, this, changed);
    connect(m_other, &QLineEdit::textEdited, this, changed);
    connect(m_every, &QSpinBox::valueChanged, this, changed);
    connect(m_k, &QSpinBox::valueChanged, this, changed);
    connect(m_browse, &QPushButton::clicked, this, &EvaluationSection::browse);
    retranslateUi();
    hide();
}

QCheckBox* EvaluationSection::metricBox(const std::string& kind) const
{
    for (const auto& [k, box] : m_metrics)
        if (k == kind)
            return box;
    return nullptr;
}

void EvaluationSection::rebuildMetrics(const std::vector<std::string>& kinds,
                                       const std::vector<project::EvalMetricSpec>& current)
{
    auto* layout = static_cast<QHBoxLayout*>(m_metricsRow->layout());
    for (auto& [kind, box] : m_metrics)
        delete box;
    m_metrics.clear();
    while (QLayoutItem* item = layout->takeAt(0))
        delete item; // the spacer; the widgets are deleted above or reinserted below
    std::set<std::string> ticked;
    for (const project::EvalMetricSpec& m : current)
        ticked.insert(m.kind);
    for (const std::string& kind : kinds) {
        auto* box = new QCheckBox(m_metricsRow);
        box->setObjectName(QStringLiteral("trainingEvalMetric_") + QString::fromStdString(kind));
        box->setChecked(ticked.count(kind) > 0);
        connect(box, &QCheckBox::toggled, this, [this] {
            if (!m_filling)
                emit edited();
        });
        layout->addWidget(box);
        if (kind == "top_k_accuracy")
            layout->addWidget(m_k);
        m_metrics.emplace_back(kind, box);
    }
    m_k->setVisible(metricBox("top_k_accuracy") != nullptr);
    layout->addStretch(1);
}

void EvaluationSection::fillFrom(const project::Project& p)
{
    // The same project as far as the form goes (the document's project after the user's own edit):
    // the form stays as the user left it.
    if (m_filled && p.eval == m_project.eval && p.sources == m_project.sources && p.graph == m_project.graph &&
        p.training.loss == m_project.training.loss && p.perplexity == m_project.perplexity &&
        p.location == m_project.location && p.dataDir == m_project.dataDir) {
        m_project = p;
        return;
    }
    m_filled = true;
    m_filling = true;
    m_project = p;
    m_classifier = m_registries ? project::projectClassifier(p, m_registries->ops) : std::nullopt;
    const project::EvalSettings eval = p.eval.value_or(project::EvalSettings{});
    m_box->setChecked(p.eval.has_value());
    m_fields->setVisible(p.eval.has_value());

    // The data: the form's choice when the project's eval sources are one it could have made.
    std::optional<project::EvalDataChoice> c;
    if (p.eval && eval.sources.size() == 1)
        c = project::evalDataChoiceOf(p, eval.sources.front());
    m_keepSources = p.eval && !eval.sources.empty() && !c;
    if (!c)
        c = defaultChoice(p);
    m_source->clear();
    if (m_keepSources)
        m_source->addItem(QString(), -1); // "As in the project file", named by retranslateUi
    for (std::size_t i = 0; i < p.sources.size(); ++i)
        m_source->addItem(QString(), static_cast<int>(i));
    m_source->setCurrentIndex(m_keepSources ? 0 : static_cast<int>(c->source));
    refreshModes();
    const int modeIndex = m_mode->findData(static_cast<int>(c->mode));
    if (modeIndex >= 0)
        m_mode->setCurrentIndex(modeIndex);
    m_skip->setValue(static_cast<int>(std::min<std::int64_t>(c->skip, kMaxSpin)));
    m_take->setValue(static_cast<int>(std::min<std::int64_t>(c->take, kMaxSpin)));
    m_other->setText(QString::fromStdString(c->other));
    refreshFields();

    // The metrics: the form's kinds, ticked as the project has them (a new section: the loss, and
    // the accuracy of a classifier, and the perplexity of a language model).
    const std::vector<std::string> kinds = project::evalFormMetricKinds(p, m_classifier);
    std::vector<project::EvalMetricSpec> current = eval.metrics;
    if (!p.eval)
        for (const std::string& kind : kinds)
            if (kind != "top_k_accuracy")
                current.push_back(project::evalFormMetric(kind, m_classifier));
    if (p.eval && eval.metrics.empty() && !p.training.loss.empty())
        current.push_back(project::evalFormMetric("loss", m_classifier)); // no metrics: the loss alone
    rebuildMetrics(kinds, current);
    for (const project::EvalMetricSpec& m : current)
        if (m.kind == "top_k_accuracy" && m.k)
            m_k->setValue(static_cast<int>(*m.k));
    m_every->setValue(static_cast<int>(
        std::clamp<std::int64_t>(eval.everySteps.value_or(std::max<std::int64_t>(p.steps / 10, 1)), 1, kMaxSpin)));
    m_filling = false;
    retranslateUi();
    setVisible(!p.sources.empty());
}

void EvaluationSection::refreshModes()
{
    const bool filling = m_filling;
    m_filling = true;
    const int previous = m_mode->currentData().isValid() ? m_mode->currentData().toInt() : -1;
    m_mode->clear();
    const int source = m_source->currentData().toInt();
    if (source >= 0 && static_cast<std::size_t>(source) < m_project.sources.size())
        for (Mode mode : project::evalModes(m_project.sources[static_cast<std::size_t>(source)]))
            m_mode->addItem(QString(), static_cast<int>(mode));
    m_mode->setVisible(m_mode->count() > 0);
    if (const int again = m_mode->findData(previous); again >= 0)
        m_mode->setCurrentIndex(again);
    m_filling = filling;
    retranslateUi();
    refreshFields();
}

void EvaluationSection::refreshFields()
{
    const bool keep = m_source->currentData().toInt() < 0;
    const Mode mode = static_cast<Mode>(m_mode->currentData().toInt());
    const bool split = !keep && mode == Mode::kSplit;
    const bool other = !keep && mode == Mode::kOther;
    for (QWidget* w : std::initializer_list<QWidget*>{m_skipLabel, m_skip, m_takeLabel, m_take})
        w->setVisible(split);
    for (QWidget* w : std::initializer_list<QWidget*>{m_otherLabel, m_other})
        w->setVisible(other);
    const int source = m_source->currentData().toInt();
    const std::string kind = source >= 0 && static_cast<std::size_t>(source) < m_project.sources.size()
                                 ? project::evalOtherKind(m_project.sources[static_cast<std::size_t>(source)])
                                 : std::string();
    m_browse->setVisible(other && kind != "seed");
    retranslateUi();
}

void EvaluationSection::browse()
{
    const int source = m_source->currentData().toInt();
    if (source < 0 || static_cast<std::size_t>(source) >= m_project.sources.size())
        return;
    const std::string kind = project::evalOtherKind(m_project.sources[static_cast<std::size_t>(source)]);
    const std::filesystem::path base = m_project.dataDir ? m_project.resolve(*m_project.dataDir)
                                                         : m_project.location.parent_path();
    const QString start = QString::fromStdString(base.string());
    QString chosen;
    if (kind == "dir") {
        chosen = QFileDialog::getExistingDirectory(this, tr("Evaluate on the Folder"), start);
    } else if (kind == "file") {
        chosen = QFileDialog::getOpenFileName(this, tr("Evaluate on the File"), start);
    } else {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Evaluate on the Files"), start);
        chosen = files.join(QStringLiteral(","));
    }
    if (chosen.isEmpty())
        return;
    m_other->setText(chosen);
    if (!m_filling)
        emit edited();
}

project::EvalDataChoice EvaluationSection::choice() const
{
    project::EvalDataChoice c;
    c.source = static_cast<std::size_t>(std::max(m_source->currentData().toInt(), 0));
    c.mode = static_cast<Mode>(m_mode->currentData().toInt());
    c.skip = m_skip->value();
    c.take = m_take->value();
    c.other = m_other->text().trimmed().toStdString();
    return c;
}

Status EvaluationSection::applyTo(project::Project& p) const
{
    if (!m_box->isChecked()) {
        p.eval.reset();
        return Status::ok();
    }
    project::EvalSettings eval = p.eval.value_or(project::EvalSettings{});
    if (m_source->currentData().toInt() >= 0) {
        auto source = project::evalSourceFor(p, choice());
        if (!source) {
            const std::string kind = p.sources.empty() ? std::string() : project::evalOtherKind(p.sources[choice().source]);
            const QString what = kind == "seed"   ? tr("Evaluation: enter the seed of the points to evaluate on")
                                 : kind == "dir"  ? tr("Evaluation: choose the folder to evaluate on (Browse…)")
                                 : kind == "file" ? tr("Evaluation: choose the file to evaluate on (Browse…)")
                                                  : tr("Evaluation: choose the files to evaluate on (Browse…)");
            return failedPreconditionError(
                (choice().mode == Mode::kOther ? what : tr("Evaluation: %1").arg(QString::fromStdString(source.error().message())))
                    .toStdString());
        }
        eval.sources = {std::move(*source)};
    }
    // The project's metrics in their order (those the form has, while ticked), then the newly ticked.
    std::vector<project::EvalMetricSpec> metrics;
    std::set<std::string> present;
    for (const project::EvalMetricSpec& m : eval.metrics) {
        const QCheckBox* box = metricBox(m.kind);
        if (box && !box->isChecked())
            continue;
        metrics.push_back(m);
        if (m.kind == "top_k_accuracy" && m.k.value_or(5) != m_k->value())
            metrics.back().k = m_k->value();
        present.insert(m.kind);
    }
    for (const auto& [kind, box] : m_metrics)
        if (box->isChecked() && !present.count(kind))
            metrics.push_back(project::evalFormMetric(kind, m_classifier, m_k->value()));
    if (metrics.empty())
        return failedPreconditionError(tr("Evaluation: tick at least one metric").toStdString());
    eval.metrics = std::move(metrics);
    eval.everySteps = m_every->value();
    // best and early_stopping follow a metric: without it they would refuse the project.
    std::set<std::string> names;
    for (const project::EvalMetricSpec& m : eval.metrics)
        names.insert(project::evalMetricName(m));
    if (eval.best && !names.count(eval.best->metric))
        eval.best.reset();
    if (eval.earlyStopping && !names.count(eval.earlyStopping->metric))
        eval.earlyStopping.reset();
    p.eval = std::move(eval);
    return Status::ok();
}

void EvaluationSection::retranslateUi()
{
    m_box->setTitle(tr("Evaluate while training"));
    m_box->setToolTip(tr("As tf.estimator.train_and_evaluate: the metrics on other data every N steps, written to "
                         "the log directory's eval folder (the project's \"eval\" section)"));
    m_dataLabel->setText(tr("Data:"));
    for (int i = 0; i < m_source->count(); ++i) {
        const int source = m_source->itemData(i).toInt();
        if (source < 0) {
            m_source->setItemText(i, tr("As in the project file"));
            continue;
        }
        if (static_cast<std::size_t>(source) < m_project.sources.size())
            m_source->setItemText(i, tr("Source %1 (%2)")
                                         .arg(source + 1)
                                         .arg(QString::fromStdString(m_project.sources[static_cast<std::size_t>(source)].type())));
    }
    const int source = m_source->currentData().toInt();
    const std::string kind = source >= 0 && static_cast<std::size_t>(source) < m_project.sources.size()
                                 ? project::evalOtherKind(m_project.sources[static_cast<std::size_t>(source)])
                                 : std::string();
    for (int i = 0; i < m_mode->count(); ++i) {
        switch (static_cast<Mode>(m_mode->itemData(i).toInt())) {
        case Mode::kSplit:
            m_mode->setItemText(i, tr("Held-out examples"));
            break;
        case Mode::kOther:
            m_mode->setItemText(i, kind == "seed"   ? tr("Other points (another seed)")
                                   : kind == "dir"  ? tr("Another folder")
                                   : kind == "file" ? tr("Another file")
                                                    : tr("Other files"));
            break;
        case Mode::kSame:
            m_mode->setItemText(i, tr("The training data"));
            break;
        }
    }
    m_skipLabel->setText(tr("Skip:"));
    m_skip->setToolTip(tr("The examples of the source before those the evaluation reads"));
    m_takeLabel->setText(tr("Take:"));
    m_take->setSpecialValueText(tr("the rest"));
    m_otherLabel->setText(kind == "seed" ? tr("Seed:") : kind == "dir" ? tr("Folder:") : kind == "file" ? tr("File:") : tr("Files:"));
    m_other->setPlaceholderText(kind == "file" ? tr("e.g. ptb.valid.txt (read from the Data folder)")
                                : kind == "files" ? tr("Comma-separated; relative paths are read from the Data folder")
                                                  : QString());
    m_browse->setText(tr("Browse…"));
    m_metricsLabel->setText(tr("Metrics:"));
    for (const auto& [k, box] : m_metrics) {
        box->setText(k == "top_k_accuracy" ? tr("top-k accuracy, k =")
                     : k == "pr_curve"     ? tr("PR curves per class")
                                           : QString::fromStdString(k));
        if (k == "accuracy" || k == "top_k_accuracy" || k == "pr_curve")
            box->setToolTip(m_classifier ? tr("Of the logits %1 against the labels %2 (from the loss)")
                                               .arg(QString::fromStdString(m_classifier->logits),
                                                    QString::fromStdString(m_classifier->labels))
                                         : QString());
    }
    QStringList kept;
    if (m_project.eval)
        for (const project::EvalMetricSpec& m : m_project.eval->metrics)
            if (!metricBox(m.kind))
                kept << QString::fromStdString(project::evalMetricName(m));
    m_kept->setText(kept.isEmpty() ? QString() : tr("Also kept from the project file: %1").arg(kept.join(QStringLiteral(", "))));
    m_kept->setVisible(!kept.isEmpty());
    m_metricsLabel->setToolTip(m_metrics.empty() ? tr("The project names no loss: add metrics in the project file")
                                                 : QString());
    m_everyLabel->setText(tr("Every:"));
    m_every->setSuffix(QString());
    m_everySuffix->setText(tr("steps"));
}

void EvaluationSection::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::training_panel
