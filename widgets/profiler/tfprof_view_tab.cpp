// TfprofViewTab: tfprof's scope view under its options, and the pprof export.
#include "profiler/tfprof_view_tab.h"

#include "profiler/pprof_profile.h"
#include "profiler/profile_tables.h"
#include "profiler/tfprof_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <set>

namespace tstudio::profiler::tables {
namespace {

/// tfprof's option names: the minimums (in TfprofOptions order), the orders and the selects.
constexpr const char* kMinimums[] = {"min_bytes",        "min_peak_bytes", "min_residual_bytes",
                                     "min_output_bytes", "min_micros",     "min_accelerator_micros",
                                     "min_cpu_micros",   "min_params",     "min_float_ops",
                                     "min_occurrence"};
constexpr const char* kOrders[] = {"name",         "bytes",     "peak_bytes",         "residual_bytes",
                                   "output_bytes", "micros",    "accelerator_micros", "cpu_micros",
                                   "params",       "float_ops", "occurrence"};
constexpr const char* kSelects[] = {"bytes",     "peak_bytes",         "residual_bytes", "output_bytes",
                                    "micros",    "accelerator_micros", "cpu_micros",     "params",
                                    "float_ops", "occurrence",         "device",         "op_types"};

std::int64_t* minimumOf(TfprofOptions& o, std::size_t i)
{
    std::int64_t* fields[] = {&o.minBytes,    &o.minPeakBytes,         &o.minResidualBytes, &o.minOutputBytes,
                              &o.minMicros,   &o.minAcceleratorMicros, &o.minCpuMicros,     &o.minParams,
                              &o.minFloatOps, &o.minOccurrence};
    return fields[i];
}

std::vector<std::string> listOf(const QLineEdit* edit)
{
    return splitTfprofList(edit->text().trimmed().toStdString());
}

} // namespace

TfprofViewTab::TfprofViewTab(QWidget* parent)
    : QWidget(parent), m_form(new QFormLayout), m_maxDepth(new QSpinBox(this)), m_orderBy(new QComboBox(this)),
      m_select(new QListWidget(this)), m_accountTypes(new QLineEdit(this)), m_start(new QLineEdit(this)),
      m_trim(new QLineEdit(this)), m_show(new QLineEdit(this)), m_hide(new QLineEdit(this)),
      m_minimums(new QGroupBox(this)), m_displayedOnly(new QCheckBox(this)), m_pprof(new QPushButton(this)),
      m_error(new QLabel(this)), m_text(new QPlainTextEdit(this)), m_timer(new QTimer(this))
{
    const TfprofOptions defaults;
    m_maxDepth->setObjectName("tfprofMaxDepthSpin");
    m_maxDepth->setRange(0, 1000);
    m_maxDepth->setValue(defaults.maxDepth);
    m_orderBy->setObjectName("tfprofOrderByCombo");
    for (const char* order : kOrders)
        m_orderBy->addItem(QString::fromLatin1(order));
    m_select->setObjectName("tfprofSelectList");
    for (const char* select : kSelects) {
        auto* item = new QListWidgetItem(QString::fromLatin1(select), m_select);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
        item->setCheckState(defaults.select.count(select) ? Qt::Checked : Qt::Unchecked);
    }
    m_select->setMaximumHeight(m_select->sizeHintForRow(0) * 6 + 6);
    m_accountTypes->setObjectName("tfprofAccountTypesEdit");
    m_accountTypes->setText(".*");
    m_start->setObjectName("tfprofStartNamesEdit");
    m_start->setText(".*");
    m_trim->setObjectName("tfprofTrimNamesEdit");
    m_show->setObjectName("tfprofShowNamesEdit");
    m_show->setText(".*");
    m_hide->setObjectName("tfprofHideNamesEdit");
    auto* minimums = new QGridLayout(m_minimums);
    minimums->setContentsMargins(6, 6, 6, 6);
    for (std::size_t i = 0; i < std::size(kMinimums); ++i) {
        auto* label = new QLabel(QString::fromLatin1(kMinimums[i] + 4), m_minimums); // "bytes", "peak_bytes", ...
        auto* edit = new QLineEdit(m_minimums);
        edit->setObjectName(QString::fromLatin1(kMinimums[i]) + "Edit");
        edit->setValidator(new QIntValidator(0, 2147483647, edit));
        edit->setMaximumWidth(90);
        label->setBuddy(edit);
        minimums->addWidget(label, static_cast<int>(i / 2), static_cast<int>(i % 2) * 2);
        minimums->addWidget(edit, static_cast<int>(i / 2), static_cast<int>(i % 2) * 2 + 1);
        m_minLabels.push_back(label);
        m_minEdits.push_back(edit);
    }
    m_displayedOnly->setObjectName("displayedOnlyCheck");
    m_pprof->setObjectName("pprofButton");
    m_error->setObjectName("tfprofError");
    m_error->setWordWrap(true);
    m_error->setStyleSheet("color: #b00020");
    m_text->setObjectName("tfprofText");
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    for (QWidget* field :
         {static_cast<QWidget*>(m_maxDepth), static_cast<QWidget*>(m_orderBy), static_cast<QWidget*>(m_select),
          static_cast<QWidget*>(m_accountTypes), static_cast<QWidget*>(m_start), static_cast<QWidget*>(m_trim),
          static_cast<QWidget*>(m_show), static_cast<QWidget*>(m_hide)}) {
        auto* label = new QLabel(this);
        label->setBuddy(field);
        m_form->addRow(label, field);
    }
    auto* formBox = new QWidget;
    auto* formLayout = new QVBoxLayout(formBox);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addLayout(m_form);
    formLayout->addWidget(m_minimums);
    formLayout->addWidget(m_displayedOnly);
    formLayout->addWidget(m_pprof, 0, Qt::AlignLeft);
    formLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(formBox);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(340);
    scroll->setMaximumWidth(420);
    auto* right = new QVBoxLayout;
    right->addWidget(m_text, 1);
    right->addWidget(m_error);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    layout->addLayout(right, 1);

    m_timer->setSingleShot(true);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &TfprofViewTab::redraw);
    auto later = [this] { m_timer->start(); };
    for (QLineEdit* edit : {m_accountTypes, m_start, m_trim, m_show, m_hide})
        connect(edit, &QLineEdit::textChanged, this, later);
    for (QLineEdit* edit : m_minEdits)
        connect(edit, &QLineEdit::textChanged, this, later);
    connect(m_maxDepth, &QSpinBox::valueChanged, this, later);
    connect(m_orderBy, &QComboBox::currentIndexChanged, this, later);
    connect(m_select, &QListWidget::itemChanged, this, later);
    connect(m_displayedOnly, &QCheckBox::toggled, this, later);
    connect(m_pprof, &QPushButton::clicked, this, &TfprofViewTab::exportPprofDialog);
    retranslateUi();
    redraw();
}

TfprofViewTab::~TfprofViewTab() = default;

void TfprofViewTab::setScopes(std::shared_ptr<const ProfileTable> scopes)
{
    m_scopes = std::move(scopes);
    redraw();
}

TfprofOptions TfprofViewTab::options() const
{
    TfprofOptions o;
    o.maxDepth = m_maxDepth->value();
    o.orderBy = m_orderBy->currentText().toStdString();
    o.select.clear();
    for (int i = 0; i < m_select->count(); ++i)
        if (m_select->item(i)->checkState() == Qt::Checked)
            o.select.insert(m_select->item(i)->text().toStdString());
    o.accountTypeRegexes = listOf(m_accountTypes);
    o.startNameRegexes = listOf(m_start);
    o.trimNameRegexes = listOf(m_trim);
    o.showNameRegexes = listOf(m_show);
    o.hideNameRegexes = listOf(m_hide);
    for (std::size_t i = 0; i < m_minEdits.size(); ++i)
        *minimumOf(o, i) = m_minEdits[i]->text().toLongLong();
    o.accountDisplayedOpOnly = m_displayedOnly->isChecked();
    return o;
}

QString TfprofViewTab::text() const
{
    return m_text->toPlainText();
}

void TfprofViewTab::redraw()
{
    m_pprof->setEnabled(m_scopes != nullptr);
    if (!m_scopes) {
        m_text->setPlainText(QString());
        m_error->clear();
        return;
    }
    auto text = formatTfprofScopeView(*m_scopes, options());
    if (!text) {
        m_error->setText(QString::fromStdString(text.error().message()));
        return;
    }
    m_error->clear();
    m_text->setPlainText(QString::fromStdString(*text));
}

bool TfprofViewTab::exportPprof(const QString& path, QString* error)
{
    if (!m_scopes) {
        if (error)
            *error = tr("No profile is shown.");
        return false;
    }
    const TfprofOptions o = options();
    PprofOptions pprof;
    // tfprof's pprof output carries the first selected quantity it can (in name order).
    for (const std::string& select : o.select)
        if (select != "device" && select != "op_types" && select != "occurrence") {
            pprof.select = select;
            break;
        }
    pprof.accountTypeRegexes = o.accountTypeRegexes;
    if (Status s = writePprofProfile(*m_scopes, pprof, path.toStdString()); !s.isOk()) {
        if (error)
            *error = QString::fromStdString(s.message());
        return false;
    }
    return true;
}

void TfprofViewTab::exportPprofDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export pprof Profile"), QStringLiteral("profile.pb.gz"),
                                                      tr("pprof profiles (*.pb.gz)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportPprof(path, &error))
        QMessageBox::warning(this, tr("Export pprof Profile"), tr("Cannot write %1: %2").arg(path, error));
}

void TfprofViewTab::retranslateUi()
{
    auto label = [this](QWidget* field, const QString& text, const QString& tip) {
        if (auto* l = qobject_cast<QLabel*>(m_form->labelForField(field)))
            l->setText(text);
        field->setToolTip(tip);
    };
    label(m_maxDepth, tr("Max depth:"), tr("Nodes at most this many levels below the root (max_depth)"));
    label(m_orderBy, tr("Order by:"), tr("How siblings are ordered; all but name largest first (order_by)"));
    label(m_select, tr("Select:"), tr("The columns shown (select)"));
    label(m_accountTypes, tr("Account types:"),
          tr("Only nodes whose op type matches are counted, comma-separated regexes (account_type_regexes)"));
    label(m_start, tr("Start names:"),
          tr("Show from the first nodes that match down each branch (start_name_regexes)"));
    label(m_trim, tr("Trim names:"), tr("What lies below matching nodes is not shown (trim_name_regexes)"));
    label(m_show, tr("Show names:"), tr("Only matching nodes are shown (show_name_regexes)"));
    label(m_hide, tr("Hide names:"), tr("Matching nodes are hidden; their shown children move up (hide_name_regexes)"));
    m_minimums->setTitle(tr("Minimums (nodes below any are not shown)"));
    for (std::size_t i = 0; i < m_minEdits.size(); ++i)
        m_minEdits[i]->setToolTip(tr("tfprof's %1").arg(QString::fromLatin1(kMinimums[i])));
    m_displayedOnly->setText(tr("Totals count the shown nodes only"));
    m_displayedOnly->setToolTip(tr("account_displayed_op_only"));
    m_pprof->setText(tr("Export pprof…"));
    m_pprof->setToolTip(tr("Save the scope tree as a pprof profile (go tool pprof reads it), carrying the first "
                           "selected quantity"));
}

void TfprofViewTab::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace tstudio::profiler::tables
