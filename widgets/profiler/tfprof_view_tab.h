// TfprofViewTab: tfprof's scope view as text under every one of its options (max_depth, min_*,
// order_by, select, account_type/start/trim/show/hide_name_regexes, account_displayed_op_only),
// with the pprof export of the scope tree.
#pragma once

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTimer;

namespace tstudio::profiler {
struct ProfileTable;
struct TfprofOptions;
} // namespace tstudio::profiler

namespace tstudio::profiler::tables {

/// The "tfprof" tab of the profiler's tables: an options form on the left (each tfprof option with
/// its name in the tooltip; regex lists comma-separated, as tfprof's command line takes them) and
/// the view's text on the right (formatTfprofScopeView), redrawn 200 ms after an edit. Invalid
/// options (a bad regex) are named in the error line and leave the text as it was. "Export
/// pprof…" writes the scope tree under the select and account types (writePprofProfile).
///
/// Object names: "tfprofText", "tfprofError", "tfprofMaxDepthSpin", "tfprofOrderByCombo", "tfprofSelectList",
/// "tfprofAccountTypesEdit", "tfprofStartNamesEdit", "tfprofTrimNamesEdit", "tfprofShowNamesEdit",
/// "tfprofHideNamesEdit", "min_<name>Edit" (min_bytes ... min_occurrence), "displayedOnlyCheck", "pprofButton". GUI
/// thread only.
class TfprofViewTab : public QWidget {
    Q_OBJECT
public:
    explicit TfprofViewTab(QWidget* parent = nullptr);
    ~TfprofViewTab() override;

    /// The scope table shown (a ProfileView::ByScope table; null clears).
    void setScopes(std::shared_ptr<const ProfileTable> scopes);
    /// The options as the form holds them now.
    TfprofOptions options() const;
    /// The text shown (for tests and copy).
    QString text() const;
    /// Writes the pprof profile of the scope tree to `path`; false with the reason in `error`.
    bool exportPprof(const QString& path, QString* error);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void redraw();
    void exportPprofDialog();

    std::shared_ptr<const ProfileTable> m_scopes;
    QFormLayout* m_form;
    QSpinBox* m_maxDepth;
    QComboBox* m_orderBy;
    QListWidget* m_select;
    QLineEdit* m_accountTypes;
    QLineEdit* m_start;
    QLineEdit* m_trim;
    QLineEdit* m_show;
    QLineEdit* m_hide;
    QGroupBox* m_minimums;
    std::vector<QLineEdit*> m_minEdits;
    std::vector<QLabel*> m_minLabels;
    QCheckBox* m_displayedOnly;
    QPushButton* m_pprof;
    QLabel* m_error;
    QPlainTextEdit* m_text;
    QTimer* m_timer;
};

} // namespace tstudio::profiler::tables
