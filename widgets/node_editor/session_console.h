// SessionConsole: the Session dock beside the Console, an interactive session over the current
// editor's document (tf.InteractiveSession): a line evaluates tensors or runs operations, with
// feeds, and variables keep their values between lines. Re-initialise and Close act on the
// document's session; each document keeps its own transcript.
#pragma once

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTextDocument;
class QToolButton;

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
    /// Drops the session and starts a new one (variables from their initial values).
    bool reinitialize();
    /// Closes the session; the next line opens a new one.
    void closeSession();

    QPlainTextEdit* transcript() const { return m_transcript; }
    QLineEdit* input() const { return m_input; }
    QString statusText() const;

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void updateStatus();
    void appendInput(const QString& line);
    void appendOutput(const QString& text);
    void appendError(const QString& text);
    QTextDocument* transcriptFor(NodeEditor* editor);

    QPointer<NodeEditor> m_editor;
    QPlainTextEdit* m_transcript = nullptr;
    QLineEdit* m_input = nullptr;
    QToolButton* m_reinitialize = nullptr;
    QToolButton* m_close = nullptr;
    QLabel* m_status = nullptr;
    QTextDocument* m_idleTranscript = nullptr;         ///< shown while no editor is followed
    QHash<NodeEditor*, QTextDocument*> m_transcripts; ///< per editor, deleted with it
    QStringList m_history;
    int m_historyPosition = 0;
};

} // namespace tstudio::node_editor
