// SessionConsole: the Session dock beside the Console, an interactive session over the current
// editor's document (tf.InteractiveSession): a line evaluates tensors or runs operations, with
// feeds, and variables keep their values between lines. Re-initialise and Close act on the
// document's session; each document keeps its own transcript.
#pragma once

#include "core/expected.h"
#include "node_editor/interactive_session.h"

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTextDocument;
class QToolButton;

namespace tensorflow {
class GraphDef;
}

namespace tstudio {
class DebugController;
}

namespace tstudio::node_editor {

class NodeEditor;

class SessionConsole : public QWidget {
    Q_OBJECT
public:
    explicit SessionConsole(QWidget* parent = nullptr);

    /// Follows `editor`'s document and session (nullptr: none; the console says so).
    void setEditor(NodeEditor* editor);
    NodeEditor* editor() const { return m_editor; }
    /// Runs `line` as if typed and entered: its values (or its error) go into the transcript.
    /// False when it failed or there is no editor.
    bool submit(const QString& line);
    /// Runs `line` under the debugger (tfdbg's wrapped session; typed as "debug LINE", or the Debug
    /// button): the run starts paused before its first node, with the document's breakpoints and
    /// watches, on the editor's session (the variables it changes stay changed), and the debug handler
    /// gets its controller; the values or the error come into the transcript when
    /// the run ends. False when it could not start (the reason is in the transcript).
    bool debug(const QString& line);
    /// debug() again with the last line debugged, when this console still follows its document.
    bool debugAgain();
    /// Whether a run under the debugger started here has not ended.
    bool isDebugging() const;
    /// Drops the session and starts a new one (variables from their initial values).
    bool reinitialize();
    /// Closes the session; the next line opens a new one.
    void closeSession();

    QPlainTextEdit* transcript() const { return m_transcript; }
    QLineEdit* input() const { return m_input; }
    QString statusText() const;

    /// Called when a run of `editor`'s session waits in `controller` (paused before its first node):
    /// `graph` is the session's graph, `title` names the document (the window shows the Debugger tab).
    using DebugHandler = std::function<void(std::shared_ptr<DebugController> controller,
                                            std::shared_ptr<const tensorflow::GraphDef> graph, NodeEditor* editor,
                                            const QString& title)>;
    void setDebugHandler(DebugHandler handler) { m_debugHandler = std::move(handler); }

signals:
    /// A run under the debugger ended (ok: it completed).
    void debuggedRunFinished(bool ok);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void updateStatus();
    void appendInput(const QString& line);
    void appendOutput(const QString& text);
    void appendError(const QString& text);
    /// Appends `html` to `editor`'s transcript (shown or not).
    void appendHtmlTo(NodeEditor* editor, const QString& html);
    /// The report's lines (session started or extended, targets run, values) for `editor`'s transcript.
    /// `beforeValues` (when given) comes between the session lines and the values.
    void showReport(NodeEditor* editor, const InteractiveSession::RunReport& report,
                    const QString& beforeValues = {});
    void finishDebugged(NodeEditor* editor, const Expected<InteractiveSession::RunReport>& report);
    QTextDocument* transcriptFor(NodeEditor* editor);

    QPointer<NodeEditor> m_editor;
    QPlainTextEdit* m_transcript = nullptr;
    QLineEdit* m_input = nullptr;
    QToolButton* m_reinitialize = nullptr;
    QToolButton* m_close = nullptr;
    QToolButton* m_debug = nullptr;
    QString m_lastDebugged;
    QPointer<NodeEditor> m_lastDebuggedEditor;
    DebugHandler m_debugHandler;
    QLabel* m_status = nullptr;
    QTextDocument* m_idleTranscript = nullptr;         ///< shown while no editor is followed
    QHash<NodeEditor*, QTextDocument*> m_transcripts; ///< per editor, deleted with it
    QStringList m_history;
    int m_historyPosition = 0;
};

} // namespace tstudio::node_editor
