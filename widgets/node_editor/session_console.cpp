// SessionConsole (session_console.h): a transcript over a line edit with history, driving the
// editor's InteractiveSession.
#include "node_editor/session_console.h"

#include "debugger/breakpoint.h"
#include "debugger/debug_controller.h"
#include "framework/data_type.h"
#include "framework/numpy_format.h"
#include "node_editor/interactive_session.h"
#include "node_editor/node_editor.h"

#include <QCoreApplication>
#include <QTextCursor>

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextDocumentLayout>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace tstudio::node_editor {

namespace {

QString escaped(const QString& text)
{
    return text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")).replace(QLatin1Char(' '),
                                                                                          QStringLiteral("&nbsp;"));
}

} // namespace

SessionConsole::SessionConsole(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("sessionConsole"));
    m_transcript = new QPlainTextEdit(this);
    m_transcript->setObjectName(QStringLiteral("sessionTranscript"));
    m_transcript->setReadOnly(true);
    m_transcript->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_idleTranscript = new QTextDocument(this);
    m_idleTranscript->setDocumentLayout(new QPlainTextDocumentLayout(m_idleTranscript));
    m_idleTranscript->setDefaultFont(m_transcript->font());
    m_transcript->setDocument(m_idleTranscript);

    m_input = new QLineEdit(this);
    m_input->setObjectName(QStringLiteral("sessionInput"));
    m_input->setFont(m_transcript->font());
    m_input->setClearButtonEnabled(true);
    m_input->installEventFilter(this);
    connect(m_input, &QLineEdit::returnPressed, this, [this] {
        const QString line = m_input->text().trimmed();
        if (line.isEmpty())
            return;
        m_input->clear();
        submit(line);
    });

    m_reinitialize = new QToolButton(this);
    m_reinitialize->setObjectName(QStringLiteral("sessionReinitialize"));
    connect(m_reinitialize, &QToolButton::clicked, this, [this] { reinitialize(); });
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("sessionClose"));
    connect(m_close, &QToolButton::clicked, this, &SessionConsole::closeSession);
    m_debug = new QToolButton(this);
    m_debug->setObjectName(QStringLiteral("sessionDebug"));
    connect(m_debug, &QToolButton::clicked, this, [this] {
        const QString line = m_input->text().trimmed();
        if (line.isEmpty())
            return;
        m_input->clear();
        debug(line);
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("sessionStatus"));

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_debug);
    bar->addWidget(m_reinitialize);
    bar->addWidget(m_close);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_transcript, 1);
    layout->addWidget(m_input);
    retranslateUi();
    updateStatus();
}

QTextDocument* SessionConsole::transcriptFor(NodeEditor* editor)
{
    if (!editor)
        return m_idleTranscript;
    if (QTextDocument* existing = m_transcripts.value(editor))
        return existing;
    auto* document = new QTextDocument(this); // the transcript lives as long as the editor
    document->setDocumentLayout(new QPlainTextDocumentLayout(document));
    document->setDefaultFont(m_transcript->font());
    m_transcripts.insert(editor, document);
    // `editor` is being destroyed: only its address is used here.
    connect(editor, &QObject::destroyed, this, [this, editor, document] {
        m_transcripts.remove(editor);
        if (m_editor.data() == editor || m_editor.isNull()) {
            m_editor = nullptr;
            m_transcript->setDocument(m_idleTranscript);
            updateStatus();
        }
        delete document;
    });
    return document;
}

void SessionConsole::setEditor(NodeEditor* editor)
{
    m_editor = editor;
    m_transcript->setDocument(transcriptFor(editor));
    m_transcript->verticalScrollBar()->setValue(m_transcript->verticalScrollBar()->maximum());
    updateStatus();
}

void SessionConsole::appendInput(const QString& line)
{
    m_transcript->appendHtml(QStringLiteral("<b>&gt;&gt;&gt;&nbsp;%1</b>").arg(escaped(line)));
}

void SessionConsole::appendOutput(const QString& text)
{
    m_transcript->appendHtml(QStringLiteral("<span>%1</span>").arg(escaped(text)));
}

void SessionConsole::appendError(const QString& text)
{
    m_transcript->appendHtml(QStringLiteral("<span style=\"color:#c0392b\">%1</span>").arg(escaped(text)));
}

void SessionConsole::appendHtmlTo(NodeEditor* editor, const QString& html)
{
    if (editor == m_editor.data()) {
        m_transcript->appendHtml(html);
        return;
    }
    QTextDocument* document = transcriptFor(editor);
    QTextCursor cursor(document);
    cursor.movePosition(QTextCursor::End);
    if (!document->isEmpty())
        cursor.insertBlock();
    cursor.insertHtml(html);
}

void SessionConsole::showReport(NodeEditor* editor, const InteractiveSession::RunReport& report,
                                const QString& beforeValues)
{
    const auto output = [&](const QString& text) {
        appendHtmlTo(editor, QStringLiteral("<span>%1</span>").arg(escaped(text)));
    };
    if (report.sync.created)
        output(tr("Session started with %n node(s); variables initialised.", nullptr, report.sync.added));
    else if (report.sync.added > 0)
        output(tr("Session extended by %n node(s).", nullptr, report.sync.added));
    if (!report.sync.created && !report.sync.initialized.empty()) {
        QStringList names;
        for (const std::string& name : report.sync.initialized)
            names << QString::fromStdString(name);
        output(tr("New variables initialised: %1").arg(names.join(QStringLiteral(", "))));
    }
    if (!beforeValues.isEmpty())
        output(beforeValues);
    for (const std::string& target : report.targets)
        output(tr("Ran %1.").arg(QString::fromStdString(target)));
    for (const InteractiveSession::Value& value : report.values) {
        const QString header = QStringLiteral("%1  %2 %3")
                                   .arg(QString::fromStdString(value.name),
                                        QString::fromStdString(std::string(dataTypeName(value.tensor.dtype()))),
                                        QString::fromStdString(value.tensor.shape().toString()));
        auto text = formatLikeNumpy(value.tensor);
        output(header + QLatin1Char('\n') +
               (text ? QString::fromStdString(*text) : QString::fromStdString(text.error().message())));
    }
}

bool SessionConsole::submit(const QString& line)
{
    static const QString kDebug = QStringLiteral("debug ");
    if (line.startsWith(kDebug) && line.size() > kDebug.size())
        return debug(line.mid(kDebug.size()).trimmed());
    if (m_history.isEmpty() || m_history.back() != line)
        m_history << line;
    m_historyPosition = static_cast<int>(m_history.size());
    appendInput(line);
    InteractiveSession* session = m_editor ? m_editor->interactiveSession() : nullptr;
    if (!session) {
        appendError(tr("No graph is open in the editor: open or create one (File ▸ New Graph) first."));
        updateStatus();
        return false;
    }
    auto request = parseConsoleLine(line.toStdString());
    if (!request) {
        appendError(QString::fromStdString(request.error().message()));
        updateStatus();
        return false;
    }
    auto report = session->run(*m_editor->document(), *request);
    if (!report) {
        appendError(QString::fromStdString(report.error().message()));
        updateStatus();
        return false;
    }
    showReport(m_editor, *report);
    updateStatus();
    return true;
}

bool SessionConsole::debug(const QString& line)
{
    const QString typed = QStringLiteral("debug ") + line;
    if (m_history.isEmpty() || m_history.back() != typed)
        m_history << typed;
    m_historyPosition = static_cast<int>(m_history.size());
    appendInput(typed);
    NodeEditor* editor = m_editor.data();
    InteractiveSession* session = editor ? editor->interactiveSession() : nullptr;
    if (!session) {
        appendError(tr("No graph is open in the editor: open or create one (File ▸ New Graph) first."));
        updateStatus();
        return false;
    }
    auto request = parseConsoleLine(line.toStdString());
    if (!request) {
        appendError(QString::fromStdString(request.error().message()));
        updateStatus();
        return false;
    }
    auto controller = std::make_shared<DebugController>();
    // The document's breakpoints and watches, as a debugged training run has them; the run waits
    // before its first node (tfdbg's run-start) for the Debugger tab.
    const project::DebuggerSettings settings = editor->debuggerSettings();
    if (auto set = debugger::BreakpointSet::create(settings.breakpoints))
        controller->setBreakpoints(std::move(*set));
    controller->setWatched(settings.watch);
    controller->pause();
    QPointer<SessionConsole> console(this);
    QPointer<NodeEditor> owner(editor);
    auto graph = session->startDebugged(
        *editor->document(), *request, controller, [controller] { controller->cancel(); },
        [console, owner, controller](Expected<InteractiveSession::RunReport> report) {
            // On the run's thread: the transcript is written on the GUI thread.
            QMetaObject::invokeMethod(
                qApp,
                [console, owner, report = std::move(report)] {
                    if (console)
                        console->finishDebugged(owner.data(), report);
                },
                Qt::QueuedConnection);
        });
    if (!graph) {
        appendError(QString::fromStdString(graph.error().message()));
        updateStatus();
        return false;
    }
    m_lastDebugged = line;
    m_lastDebuggedEditor = editor;
    appendOutput(tr("Running under the debugger: paused before the first node. Step, continue or stop it in "
                    "the Debugger tab."));
    updateStatus();
    if (m_debugHandler)
        m_debugHandler(controller, *graph, editor, editor->windowTitle());
    return true;
}

bool SessionConsole::debugAgain()
{
    if (m_lastDebugged.isEmpty() || !m_lastDebuggedEditor || m_lastDebuggedEditor != m_editor)
        return false;
    return debug(m_lastDebugged);
}

bool SessionConsole::isDebugging() const
{
    InteractiveSession* session = m_lastDebuggedEditor ? m_lastDebuggedEditor->interactiveSession() : nullptr;
    return session && session->isDebugging();
}

void SessionConsole::finishDebugged(NodeEditor* editor, const Expected<InteractiveSession::RunReport>& report)
{
    if (!editor) { // its document was closed: the transcript went with it
        emit debuggedRunFinished(false);
        return;
    }
    if (!report) {
        const QString text = report.error().code() == StatusCode::kCancelled
                                 ? tr("Stopped in the debugger; the nodes that ran kept their effects.")
                                 : QString::fromStdString(report.error().message());
        appendHtmlTo(editor, QStringLiteral("<span style=\"color:#c0392b\">%1</span>").arg(escaped(text)));
    } else {
        showReport(editor, *report, tr("The debugged run finished."));
    }
    updateStatus();
    emit debuggedRunFinished(report.has_value());
}

bool SessionConsole::reinitialize()
{
    InteractiveSession* session = m_editor ? m_editor->interactiveSession() : nullptr;
    if (!session)
        return false;
    session->reset();
    auto synced = session->sync(*m_editor->document());
    if (!synced) {
        appendError(QString::fromStdString(synced.error().message()));
        updateStatus();
        return false;
    }
    appendOutput(tr("Session re-initialised with %n node(s); variables start from their initial values.", nullptr,
                    synced->added));
    updateStatus();
    return true;
}

void SessionConsole::closeSession()
{
    InteractiveSession* session = m_editor ? m_editor->interactiveSession() : nullptr;
    if (!session || !session->isOpen())
        return;
    session->reset();
    appendOutput(tr("Session closed; the next line opens a new one."));
    updateStatus();
}

QString SessionConsole::statusText() const
{
    return m_status->text();
}

void SessionConsole::updateStatus()
{
    InteractiveSession* session = m_editor ? m_editor->interactiveSession() : nullptr;
    m_input->setEnabled(session != nullptr);
    m_reinitialize->setEnabled(session != nullptr);
    m_close->setEnabled(session && session->isOpen());
    m_debug->setEnabled(session && !session->isDebugging());
    if (!session)
        m_status->setText(tr("No graph in the editor."));
    else if (session->isDebugging())
        m_status->setText(tr("A run is under the debugger: continue or stop it in the Debugger tab."));
    else if (!session->outOfDate().empty())
        m_status->setText(tr("Out of date: the graph changed where the session cannot follow. Re-initialise."));
    else if (!session->isOpen())
        m_status->setText(tr("No session yet: the first line starts one."));
    else
        m_status->setText(tr("Session open: %n node(s), ", nullptr, session->nodeCount()) +
                          tr("%n run(s).", nullptr, session->runCount()));
}

bool SessionConsole::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress && !m_history.isEmpty()) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Up || key == Qt::Key_Down) {
            m_historyPosition = std::clamp(m_historyPosition + (key == Qt::Key_Up ? -1 : 1), 0,
                                           static_cast<int>(m_history.size()));
            m_input->setText(m_historyPosition < m_history.size() ? m_history.at(m_historyPosition) : QString());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void SessionConsole::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        updateStatus();
    }
    QWidget::changeEvent(event);
}

void SessionConsole::retranslateUi()
{
    m_input->setPlaceholderText(tr("A tensor or operation, e.g. loss, or logits with x=random; Enter runs it"));
    m_reinitialize->setText(tr("Re-initialise"));
    m_reinitialize->setToolTip(tr("Start a new session: every variable from its initial value"));
    m_debug->setText(tr("Debug"));
    m_debug->setToolTip(tr("Run the line under the debugger (as tfdbg wraps a session): step through its nodes "
                           "in the Debugger tab; also typed as \"debug LINE\""));
    m_close->setText(tr("Close"));
    m_close->setToolTip(tr("Close the session (tf.Session.close); the next line opens a new one"));
    m_transcript->setPlaceholderText(
        tr("An interactive session over the graph in the editor, as tf.InteractiveSession: type a tensor to "
           "see its value, an operation (an initializer, an assign, a train step) to run it; feed placeholders "
           "with 'with x=1,2,3; y[2,2]=random'. Variables keep their values between lines. 'debug LINE' (or "
           "Debug) steps a line's run in the Debugger tab."));
}

} // namespace tstudio::node_editor
