// DebuggingTab: the IDE's debugging tab, the graph a run executes beside the debugger panel, kept in
// step: breakpoints, the paused op and the executed ops marked in the graph, F9 in the graph toggling
// breakpoints, the graph's selection as "Run to cursor", a node picked in the panel selected in the graph.
// The tab belongs to one document (the node editor whose training it debugs) and shows only its state.
#pragma once

#include "debugger/debug_controller.h"
#include "project/format/project_file.h"
#include "proto/graph.pb.h"

#include <QPointer>
#include <QSplitter>

#include <memory>

namespace tstudio {
struct Registries;
}

namespace tstudio::graph_viewer {
class GraphViewer;
}

namespace tstudio::debugger_ui {

class DebuggerView;

class DebuggingTab : public QSplitter {
    Q_OBJECT
public:
    /// `registries` (may be null) as GraphViewer takes them; must outlive the tab.
    explicit DebuggingTab(const Registries* registries, QWidget* parent = nullptr);

    /// Shows `graph` (titled `title`; shown again only when it differs from the graph shown) and
    /// attaches the panel to `controller`. The controller's breakpoints and watches (the document's
    /// project's, set before the first step) replace the panel's; no settingsEdited.
    void attach(std::shared_ptr<DebugController> controller, std::shared_ptr<const tensorflow::GraphDef> graph,
                const QString& title);

    /// The document whose runs the tab debugs (a node editor; null: none, e.g. a run without one),
    /// named `name` in title(). Another document than the current one starts the tab afresh: the
    /// panel is detached (a paused run is cancelled), its execution list and tensors cleared, and
    /// the next attach shows its graph even under the same title; connections from the previous
    /// document to the tab are dropped. When the document is destroyed the tab is reset the same
    /// way, then documentClosed is emitted (its last act: the owner may delete the tab there).
    void setDocument(QObject* document, const QString& name);
    QObject* document() const { return m_document; }
    QString documentName() const { return m_documentName; }
    /// The document was renamed (Save As): emits titleChanged when the name differs.
    void setDocumentName(const QString& name);
    /// The tab's title: "Debugger — <document name>", translated now ("Debugger" without a name).
    QString title() const;

    /// The breakpoints and watches the panel holds (what the document's project keeps).
    project::DebuggerSettings settings() const;
    /// Shows the document's `settings` (its project's, e.g. after F9 in its editor) and hands them
    /// to the attached run, if any. Emits no settingsEdited: they are the document's already.
    void setSettings(const project::DebuggerSettings& settings);

    DebuggerView* debugger() const { return m_debugger; }
    graph_viewer::GraphViewer* graphViewer() const { return m_graph; }

signals:
    /// The user changed the breakpoints (in the panel, or F9 in the graph) or the watches: the
    /// owner keeps settings() with the document's project. Not emitted by attach or setSettings.
    void settingsEdited();
    /// title() changed (the document, its name or the language).
    void titleChanged(const QString& title);
    /// The document was destroyed (its tab closed); the tab is reset, its run cancelled if paused.
    void documentClosed();

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void updateMarks();
    /// Detaches the panel and forgets the graph shown (a new document, or the document gone).
    void reset();
    bool m_sized = false; ///< the first show gave the debugger its preferred width
    /// Set while the tab itself changes the panel's breakpoints: not the user's edit.
    bool m_applying = false;

    graph_viewer::GraphViewer* m_graph;
    DebuggerView* m_debugger;
    QString m_shownTitle;
    std::shared_ptr<const tensorflow::GraphDef> m_shownGraph;
    QPointer<QObject> m_document;
    QString m_documentName;
};

} // namespace tstudio::debugger_ui
