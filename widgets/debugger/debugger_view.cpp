// DebuggerView: run controls over a DebugController, the execution list, breakpoints, tensors and node info.
#include "debugger/debugger_view.h"

#include "debugger/breakpoint_list_model.h"
#include "debugger/breakpoint_list_view.h"
#include "debugger/execution_list_model.h"
#include "debugger/execution_list_view.h"
#include "debugger/node_info_view.h"
#include "tensor_view/tensor_inspector.h"
#include "common/empty_state.h"
#include "framework/allocator.h"
#include "framework/data_type.h"
#include "graph/tensor_id.h"

#include <QAction>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QSpinBox>
#include <QScrollArea>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace tstudio::debugger_ui {
namespace {

/// Run-finished updates of fast runs (training steps) are coalesced: the list refreshes at most this often.
constexpr int kRefreshIntervalMs = 100;

enum TensorColumn { kTensorName, kTensorRole, kTensorDtype, kTensorShape, kTensorColumns };
constexpr int kTensorNameRole = Qt::UserRole;

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// Where every tensor the view keeps lives: never freed, so a copy may outlive any Session, controller or
/// widget (tensors keep a pointer to their allocator).
Allocator& viewAllocator()
{
    static Allocator* allocator = new CpuAllocator();
    return *allocator;
}

/// A copy in the view's own memory; tensors without a value (uninitialized variables) stay as they are.
Tensor ownCopy(const Tensor& tensor)
{
    if (!tensor.isInitialized())
        return tensor;
    Expected<Tensor> copy = tensor.deepCopy(viewAllocator());
    return copy ? std::move(*copy) : Tensor::uninitialized(tensor.dtype());
}

/// "x:0" for "x", "x:1" for "x:1"; empty for control inputs and bad names.
QString canonicalTensor(const std::string& input)
{
    Expected<TensorId> id = parseTensorId(input);
    if (!id || id->isControl())
        return {};
    return q(id->node + ":" + std::to_string(id->index));
}

} // namespace

DebuggerView::DebuggerView(QWidget* parent) : QWidget(parent)
{
    buildUi();
    retranslateUi();
    setState(RunState::kDetached);
}

DebuggerView::~DebuggerView()
{
    // The inspector holds watched histories in the controller's memory: it lets go before the controller can.
    m_inspector->clear();
    release();
}

// --- Building ------------------------------------------------------------------------------------------------

void DebuggerView::buildUi()
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    m_toolBar = new QToolBar(this);
    m_toolBar->setObjectName(QStringLiteral("debuggerToolBar"));
    m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolBar->setIconSize(QSize(16, 16));
    struct Spec {
        Action action;
        QStyle::StandardPixmap icon;
        QKeySequence shortcut;
        const char* name;
    };
    const Spec specs[] = {
        {Action::kRunContinue, QStyle::SP_MediaPlay, QKeySequence(Qt::Key_F5), "runAction"},
        {Action::kStep, QStyle::SP_ArrowRight, QKeySequence(Qt::Key_F10), "stepAction"},
        {Action::kStepOverScope, QStyle::SP_MediaSkipForward, QKeySequence(Qt::SHIFT | Qt::Key_F10),
         "stepOverScopeAction"},
        {Action::kRunToCursor, QStyle::SP_ArrowForward, QKeySequence(Qt::CTRL | Qt::Key_F10), "runToCursorAction"},
        {Action::kContinueRuns, QStyle::SP_MediaSeekForward, QKeySequence(), "continueRunsAction"},
        {Action::kPause, QStyle::SP_MediaPause, QKeySequence(), "pauseAction"},
        {Action::kStop, QStyle::SP_MediaStop, QKeySequence(Qt::SHIFT | Qt::Key_F5), "stopAction"},
        {Action::kStopOnNonFinite, QStyle::SP_MessageBoxWarning, QKeySequence(), "stopOnNonFiniteAction"},
        {Action::kRetainValues, QStyle::SP_DriveHDIcon, QKeySequence(), "retainValuesAction"},
    };
    m_actions.resize(std::size(specs));
    std::vector<QAction*> switches;
    for (const Spec& spec : specs) {
        auto* a = new QAction(style()->standardIcon(spec.icon), QString(), this);
        a->setObjectName(QLatin1String(spec.name));
        a->setShortcut(spec.shortcut);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
        m_actions[static_cast<std::size_t>(spec.action)] = a;
        if (spec.action == Action::kContinueRuns) {
            m_continueRuns = new QSpinBox(m_toolBar);
            m_continueRuns->setObjectName(QStringLiteral("continueRunsSpin"));
            m_continueRuns->setRange(1, 1000000);
            m_continueRuns->setValue(1);
        }
        // The run controls in the toolbar; the two switches (break on NaN/Inf, retain values) at the
        // right of the status line, so that neither row needs more than the tab's width at 1280 px.
        if (spec.action == Action::kStopOnNonFinite || spec.action == Action::kRetainValues) {
            switches.push_back(a);
            continue;
        }
        m_toolBar->addAction(a);
        if (spec.action == Action::kContinueRuns)
            m_toolBar->addWidget(m_continueRuns);
    }
    action(Action::kStopOnNonFinite)->setCheckable(true);
    action(Action::kRetainValues)->setCheckable(true);
    action(Action::kRetainValues)->setChecked(true);
    layout->addWidget(m_toolBar);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("statusLabel"));
    m_status->setContentsMargins(6, 2, 6, 2);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_status->font();
    bold.setBold(true);
    m_status->setFont(bold);
    auto* statusRow = new QHBoxLayout;
    statusRow->setContentsMargins(0, 0, 0, 0);
    statusRow->addWidget(m_status, 1);
    auto* switchBar = new QToolBar(this);
    switchBar->setObjectName(QStringLiteral("debuggerSwitches"));
    switchBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    switchBar->setIconSize(QSize(16, 16));
    for (QAction* a : switches)
        switchBar->addAction(a);
    statusRow->addWidget(switchBar);
    layout->addLayout(statusRow);

    // Above: the execution list and breakpoints beside the selected node's tensors and info; below, full width:
    // the inspector (its health grid and fields want the width).
    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* top = new QSplitter(Qt::Horizontal, vertical);
    m_leftTabs = new QTabWidget(top);
    m_leftTabs->setObjectName(QStringLiteral("leftTabs"));
    m_execution = new ExecutionListView(m_leftTabs);
    m_leftTabs->addTab(m_execution, QString());
    m_breakpoints = new BreakpointListView(m_leftTabs);
    m_leftTabs->addTab(m_breakpoints, QString());
    top->addWidget(m_leftTabs);
    m_rightTabs = new QTabWidget(top);
    m_rightTabs->setObjectName(QStringLiteral("rightTabs"));
    m_tensors = new QTreeWidget(m_rightTabs);
    m_tensors->setObjectName(QStringLiteral("tensorsTree"));
    m_tensors->setColumnCount(kTensorColumns);
    m_tensors->setRootIsDecorated(false);
    m_tensors->setUniformRowHeights(true);
    m_rightTabs->addTab(m_tensors, QString());
    // The node info page and the inspector scroll when the window is short (1280x800 with the
    // Training dock open): their own minimum heights would otherwise push the window past the screen.
    auto scrolling = [](QWidget* content, QWidget* parent) {
        auto* area = new QScrollArea(parent);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidget(content);
        return area;
    };
    m_nodeInfo = new NodeInfoView;
    m_nodeInfo->setObjectName(QStringLiteral("nodeInfoView"));
    m_rightTabs->addTab(scrolling(m_nodeInfo, m_rightTabs), QString());
    top->addWidget(m_rightTabs);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 2);
    vertical->addWidget(top);

    auto* inspectorBox = new QWidget;
    m_inspectorBox = inspectorBox;
    auto* inspectorLayout = new QVBoxLayout(inspectorBox);
    inspectorLayout->setContentsMargins(0, 0, 0, 0);
    m_tensorMessage = new QLabel(inspectorBox);
    m_tensorMessage->setObjectName(QStringLiteral("tensorMessageLabel"));
    m_tensorMessage->setWordWrap(true);
    m_tensorMessage->setContentsMargins(6, 2, 6, 2);
    m_tensorMessage->setVisible(false);
    m_inspector = new TensorInspector(inspectorBox);
    m_inspector->setObjectName(QStringLiteral("tensorInspector"));
    inspectorLayout->addWidget(m_tensorMessage);
    inspectorLayout->addWidget(m_inspector, 1);
    vertical->addWidget(scrolling(inspectorBox, vertical));
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);
    layout->addWidget(vertical, 1);
    m_empty = EmptyState::cover(vertical, QStringLiteral("debugger"));

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(kRefreshIntervalMs);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        refreshExecuted();
        showHistory();
    });

    // Commands.
    connect(action(Action::kRunContinue), &QAction::triggered, this,
            [this] { command(false, [](DebugController& c) { c.resume(); }); });
    connect(action(Action::kStep), &QAction::triggered, this,
            [this] { command(false, [](DebugController& c) { c.step(); }); });
    connect(action(Action::kStepOverScope), &QAction::triggered, this,
            [this] { command(true, [](DebugController& c) { c.stepOverScope(); }); });
    connect(action(Action::kRunToCursor), &QAction::triggered, this, [this] {
        if (!m_cursorNode.isEmpty())
            command(false, [node = m_cursorNode.toStdString()](DebugController& c) { c.runToNode(node); });
    });
    connect(action(Action::kContinueRuns), &QAction::triggered, this,
            [this] { command(false, [n = m_continueRuns->value()](DebugController& c) { c.continueRuns(n); }); });
    connect(action(Action::kPause), &QAction::triggered, this, [this] {
        if (m_controller)
            m_controller->pause();
    });
    connect(action(Action::kStop), &QAction::triggered, this, [this] {
        if (!m_controller || (m_state != RunState::kRunning && m_state != RunState::kPaused))
            return;
        m_controller->cancel();
        emit stopRequested();
    });
    connect(action(Action::kStopOnNonFinite), &QAction::toggled, this, [this](bool on) {
        if (m_controller)
            m_controller->setStopOnNonFinite(on);
    });
    connect(action(Action::kRetainValues), &QAction::toggled, this, [this](bool on) {
        if (m_controller)
            m_controller->setRetainValues(on);
    });

    connect(m_tensors, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { showTensor(item->data(kTensorName, kTensorNameRole).toString()); });
    connect(m_tensors, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { showTensor(item->data(kTensorName, kTensorNameRole).toString()); });
    connect(m_nodeInfo, &NodeInfoView::nodeActivated, this, &DebuggerView::nodeActivated);
    connect(m_nodeInfo, &NodeInfoView::tensorActivated, this, [this](const QString& t) { showTensor(t); });
    connect(m_inspector, &TensorInspector::watchToggled, this, &DebuggerView::onWatchToggled);
    connect(m_execution, &ExecutionListView::nodeClicked, this, &DebuggerView::showExecutedNode);
    connect(m_breakpoints->model(), &BreakpointListModel::breakpointsEdited, this, &DebuggerView::pushBreakpoints);
}

QAction* DebuggerView::action(Action which) const
{
    return m_actions[static_cast<std::size_t>(which)];
}

ExecutionListModel* DebuggerView::executionModel() const
{
    return m_execution->model();
}

BreakpointListModel* DebuggerView::breakpointModel() const
{
    return m_breakpoints->model();
}

// --- Attaching -----------------------------------------------------------------------------------------------

void DebuggerView::attach(std::shared_ptr<DebugController> controller,
                          std::shared_ptr<const tensorflow::GraphDef> graph)
{
    detach();
    if (!controller)
        return;
    m_controller = std::move(controller);
    m_graph = std::move(graph);
    m_nodeIndex.clear();
    if (m_graph)
        for (int i = 0; i < m_graph->node_size(); ++i)
            m_nodeIndex.emplace(m_graph->node(i).name(), i);
    m_nodeInfo->setGraph(m_graph);

    const quint64 generation = ++m_generation;
    QPointer<DebuggerView> guard(this);
    // On the run's thread: copy the values now, while the run waits and its buffers are certainly alive.
    m_controller->setPauseCallback([guard, generation](const PausePoint& point) {
        PausePoint copy = point;
        for (Tensor& value : copy.values)
            value = ownCopy(value);
        QCoreApplication* app = QCoreApplication::instance();
        if (!app)
            return;
        QMetaObject::invokeMethod(
            app,
            [guard, generation, copy = std::move(copy)] {
                if (guard && guard->m_generation == generation)
                    guard->onPaused(copy);
            },
            Qt::QueuedConnection);
    });
    m_controller->setRunFinishedCallback([guard, generation](const Status& status, std::int64_t run) {
        QCoreApplication* app = QCoreApplication::instance();
        if (!app)
            return;
        QMetaObject::invokeMethod(
            app,
            [guard, generation, status, run] {
                if (guard && guard->m_generation == generation)
                    guard->onRunFinished(status, run);
            },
            Qt::QueuedConnection);
    });
    m_controller->setStopOnNonFinite(action(Action::kStopOnNonFinite)->isChecked());
    m_controller->setRetainValues(action(Action::kRetainValues)->isChecked());
    for (const std::string& tensor : m_controller->watched()) // a project's saved watches stay
        m_watched.insert(tensor);
    m_controller->setWatched({m_watched.begin(), m_watched.end()});
    pushBreakpoints();
    setState(RunState::kIdle);
    refreshExecuted();
    // Attached to a run already paused: show that pause.
    if (std::optional<PausePoint> point = m_controller->pausePoint()) {
        for (Tensor& value : point->values)
            value = ownCopy(value);
        onPaused(*point);
    }
}

void DebuggerView::release()
{
    ++m_generation;
    if (!m_controller)
        return;
    m_controller->setPauseCallback({});
    m_controller->setRunFinishedCallback({});
    if (m_controller->isPaused()) {
        m_controller->cancel();
    } else {
        // Nothing may stop the run any more: nobody would resume it. (A pause that slips in between the check
        // and reset() is released by reset().)
        m_controller->setBreakpoints({});
        m_controller->reset();
    }
    m_controller.reset();
}

void DebuggerView::detach()
{
    const bool wasPaused = m_state == RunState::kPaused;
    const bool hadExecuted = !m_executedNames.isEmpty();
    m_inspector->clear(); // before the controller, whose memory holds watched histories
    release();
    m_graph.reset();
    m_nodeIndex.clear();
    m_pause.reset();
    m_executedNames.clear();
    m_refreshTimer->stop();
    m_execution->model()->clear();
    m_tensors->clear();
    m_nodeInfo->setGraph(nullptr);
    m_shownTensor.clear();
    m_tensorMessage->setVisible(false);
    setState(RunState::kDetached);
    if (wasPaused)
        emit pausedAt(QString());
    if (hadExecuted)
        emit executedNodesChanged({});
}

void DebuggerView::notifyRunStarted()
{
    if (m_controller && m_state != RunState::kPaused)
        setState(RunState::kRunning);
}

// --- Breakpoints ---------------------------------------------------------------------------------------------

void DebuggerView::setBreakpoints(std::vector<debugger::Breakpoint> breakpoints)
{
    m_breakpoints->model()->setBreakpoints(std::move(breakpoints)); // pushes through breakpointsEdited
}

std::vector<debugger::Breakpoint> DebuggerView::breakpointList() const
{
    return m_breakpoints->model()->breakpoints();
}

void DebuggerView::toggleNodeBreakpoint(const QString& node)
{
    if (!node.isEmpty())
        m_breakpoints->model()->toggleNode(node);
}

QSet<QString> DebuggerView::breakpointNodes() const
{
    return m_breakpoints->model()->enabledNodes();
}

void DebuggerView::setWatches(const std::vector<std::string>& tensors)
{
    m_watched = {tensors.begin(), tensors.end()};
    if (m_controller)
        m_controller->setWatched(tensors);
    if (!m_shownTensor.isEmpty())
        m_inspector->setWatched(m_watched.count(m_shownTensor.toStdString()) > 0);
    showHistory();
}

void DebuggerView::pushBreakpoints()
{
    Expected<debugger::BreakpointSet> set = debugger::BreakpointSet::create(m_breakpoints->model()->breakpoints());
    if (!set) {
        m_breakpoints->showError(tr("Breakpoints not applied: %1").arg(q(set.error().message())));
    } else if (m_controller) {
        m_controller->setBreakpoints(std::move(*set));
    }
    emit breakpointsChanged();
}

// --- Commands and state --------------------------------------------------------------------------------------

void DebuggerView::setCursorNode(const QString& node)
{
    m_cursorNode = node;
    updateActions();
}

void DebuggerView::command(bool needsPause, const std::function<void(DebugController&)>& apply)
{
    if (!m_controller)
        return;
    const bool paused = m_state == RunState::kPaused;
    if (needsPause && !paused)
        return;
    apply(*m_controller);
    if (paused) {
        m_pause.reset();
        setState(RunState::kRunning);
        emit pausedAt(QString());
    } else if (m_state != RunState::kRunning) {
        emit startRequested();
    }
}

void DebuggerView::setState(RunState state)
{
    m_state = state;
    m_status->setText(statusText());
    m_empty->setVisible(state == RunState::kDetached);
    updateActions();
}

void DebuggerView::updateActions()
{
    const bool attached = m_controller != nullptr;
    const bool paused = m_state == RunState::kPaused;
    const bool running = m_state == RunState::kRunning;
    action(Action::kRunContinue)->setEnabled(attached && !running);
    action(Action::kStep)->setEnabled(attached && !running);
    action(Action::kStepOverScope)->setEnabled(paused);
    action(Action::kRunToCursor)->setEnabled(attached && !running && !m_cursorNode.isEmpty());
    action(Action::kContinueRuns)->setEnabled(attached);
    m_continueRuns->setEnabled(attached);
    action(Action::kPause)->setEnabled(attached && !paused);
    action(Action::kStop)->setEnabled(paused || running);
    // The text says what F5 does now.
    action(Action::kRunContinue)->setText(paused ? tr("Continue") : tr("Run"));
}

QString DebuggerView::statusText() const
{
    switch (m_state) {
    case RunState::kDetached: return tr("No run attached");
    case RunState::kIdle: return tr("Ready: Run (F5) or Step (F10) starts a run");
    case RunState::kRunning: return tr("Running");
    case RunState::kPaused: return m_pause ? describePause(*m_pause) : tr("Paused");
    case RunState::kFinished: return m_finishedText;
    }
    return {};
}

QString DebuggerView::pausedNode() const
{
    return m_state == RunState::kPaused && m_pause ? q(m_pause->node) : QString();
}

QStringList DebuggerView::pausedTensors() const
{
    QStringList names;
    if (m_state == RunState::kPaused && m_pause)
        for (const std::string& name : m_pause->names)
            names.append(q(name));
    return names;
}

QString DebuggerView::describePause(const PausePoint& point) const
{
    QString reason;
    switch (point.reason) {
    case PausePoint::Reason::kPauseRequested: reason = tr("paused"); break;
    case PausePoint::Reason::kStep: reason = tr("step"); break;
    case PausePoint::Reason::kStepOverScope: reason = tr("stepped over scope"); break;
    case PausePoint::Reason::kRunToNode: reason = tr("run to cursor"); break;
    case PausePoint::Reason::kRunToOp: reason = tr("run to op %1").arg(q(point.op)); break;
    case PausePoint::Reason::kNonFinite: reason = q(point.detail); break;
    case PausePoint::Reason::kBreakpoint: {
        QString spec;
        if (point.breakpoint && m_controller) {
            const debugger::BreakpointSet set = m_controller->breakpoints();
            if (*point.breakpoint < set.breakpoints().size())
                spec = q(debugger::formatBreakpoint(set.breakpoints()[*point.breakpoint]));
        }
        reason = tr("breakpoint %1").arg(spec);
        if (!point.detail.empty())
            reason += QStringLiteral(": ") + q(point.detail);
        break;
    }
    }
    QString text = point.afterNode ? tr("Paused after %1 (%2)").arg(q(point.node), reason)
                                   : tr("Paused before %1 (%2)").arg(q(point.node), reason);
    if (!point.frame.empty())
        text += tr(" in frame %1, iteration %2").arg(q(point.frame)).arg(point.iteration);
    return text;
}

void DebuggerView::onPaused(const PausePoint& point)
{
    m_refreshTimer->stop();
    m_pause = point;
    setState(RunState::kPaused);
    refreshExecuted();
    listTensors(q(point.node));
    m_nodeInfo->showNode(q(point.node));
    emit pausedAt(q(point.node));
}

void DebuggerView::onRunFinished(const Status& status, std::int64_t run)
{
    m_pause.reset();
    const QString number = QString::number(run + 1);
    if (status.isOk())
        m_finishedText = tr("Finished run %1").arg(number);
    else if (status.code() == StatusCode::kCancelled)
        m_finishedText = tr("Run %1 stopped").arg(number);
    else
        m_finishedText = tr("Run %1 failed: %2").arg(number, q(status.message()));
    setState(RunState::kFinished);
    emit pausedAt(QString());
    if (!m_refreshTimer->isActive())
        m_refreshTimer->start();
}

void DebuggerView::refreshExecuted()
{
    std::vector<ExecutedNode> nodes = m_controller ? m_controller->executedNodes() : std::vector<ExecutedNode>();
    // The list shows dtypes, shapes and times; values are fetched (and copied) only when inspected.
    for (ExecutedNode& node : nodes)
        for (ExecutedOutput& output : node.outputs)
            output.value = Tensor();
    QStringList names;
    QSet<QString> seen;
    for (const ExecutedNode& node : nodes) {
        const QString name = q(node.node);
        if (!seen.contains(name)) {
            seen.insert(name);
            names << name;
        }
    }
    m_execution->setNodes(std::move(nodes));
    if (m_state == RunState::kPaused)
        m_execution->scrollToBottom();
    if (names != m_executedNames) {
        m_executedNames = names;
        emit executedNodesChanged(m_executedNames);
    }
}

// --- Tensors -------------------------------------------------------------------------------------------------

void DebuggerView::showExecutedNode(const QString& node)
{
    listTensors(node);
    m_nodeInfo->showNode(node);
    emit nodeActivated(node);
}

void DebuggerView::listTensors(const QString& node)
{
    m_tensors->clear();
    const std::string name = node.toStdString();
    const bool pausedHere = m_pause && m_pause->node == name;
    if (const auto found = m_nodeIndex.find(name); found != m_nodeIndex.end()) {
        int dataIndex = 0;
        for (const std::string& input : m_graph->node(found->second).input()) {
            const QString tensor = canonicalTensor(input);
            if (tensor.isEmpty())
                continue;
            addTensorItem(tensor, tr("input %1").arg(dataIndex), pausedHere && !m_pause->afterNode ? dataIndex : -1);
            ++dataIndex;
        }
    }
    if (pausedHere && m_pause->afterNode) {
        for (std::size_t i = 0; i < m_pause->values.size(); ++i)
            addTensorItem(node + ':' + QString::number(i), tr("output %1").arg(i), static_cast<int>(i));
    } else if (const ExecutedNode* executed = m_execution->model()->nodeAt(m_execution->model()->lastRowOf(node))) {
        for (std::size_t i = 0; i < executed->outputs.size(); ++i)
            addTensorItem(node + ':' + QString::number(i), tr("output %1").arg(i), -1);
    } else if (m_controller) {
        // A fed node (a Placeholder the data source fills) does not run: its outputs are the feeds.
        const std::string prefix = name + ":";
        for (const std::string& fed : m_controller->fedTensors())
            if (fed.starts_with(prefix))
                addTensorItem(q(fed), tr("output %1").arg(q(fed.substr(prefix.size()))), -1);
    }
    for (int c = 0; c < kTensorColumns - 1; ++c)
        m_tensors->resizeColumnToContents(c);
}

void DebuggerView::addTensorItem(const QString& tensor, const QString& role, int pauseIndex)
{
    auto* item = new QTreeWidgetItem(m_tensors);
    item->setText(kTensorName, tensor);
    item->setText(kTensorRole, role);
    item->setData(kTensorName, kTensorNameRole, tensor);
    if (m_pause && pauseIndex >= 0 && static_cast<std::size_t>(pauseIndex) < m_pause->values.size()) {
        const Tensor& value = m_pause->values[static_cast<std::size_t>(pauseIndex)];
        const bool live = static_cast<std::size_t>(pauseIndex) >= m_pause->valueLive.size() ||
                          m_pause->valueLive[static_cast<std::size_t>(pauseIndex)];
        item->setText(kTensorDtype, live ? q(dataTypeName(value.dtype())) : tr("dead"));
        item->setText(kTensorShape, live && value.isInitialized() ? q(value.shape().toString())
                                                                  : (live ? tr("uninitialized") : QString()));
        return;
    }
    // A fed tensor: the feed's dtype and shape (its producer did not run for it).
    if (m_controller) {
        const std::vector<std::string> fed = m_controller->fedTensors();
        if (std::find(fed.begin(), fed.end(), tensor.toStdString()) != fed.end()) {
            if (Expected<Tensor> value = m_controller->tensorValue(tensor.toStdString()); value && value->isInitialized()) {
                item->setText(kTensorRole, tr("%1, fed", "a tensor's role, and that the run was given its value").arg(role));
                item->setText(kTensorDtype, q(dataTypeName(value->dtype())));
                item->setText(kTensorShape, q(value->shape().toString()));
                return;
            }
        }
    }
    // Else what the execution list knows of the producer's output.
    const qsizetype colon = tensor.lastIndexOf(':');
    const ExecutedNode* producer = m_execution->model()->nodeAt(m_execution->model()->lastRowOf(tensor.left(colon)));
    const std::size_t slot = tensor.mid(colon + 1).toULongLong();
    if (!producer || slot >= producer->outputs.size()) {
        item->setText(kTensorDtype, tr("not run"));
        item->setForeground(kTensorDtype, palette().color(QPalette::Disabled, QPalette::Text));
        return;
    }
    const ExecutedOutput& output = producer->outputs[slot];
    item->setText(kTensorDtype, output.live ? q(dataTypeName(output.dtype)) : tr("dead"));
    item->setText(kTensorShape, output.live ? q(output.shape.toString()) : QString());
}

int DebuggerView::preferredWidth() const
{
    return m_inspectorBox->minimumSizeHint().width() + style()->pixelMetric(QStyle::PM_ScrollBarExtent) + 8;
}

bool DebuggerView::showTensor(const QString& tensor)
{
    const QString canonical = canonicalTensor(tensor.toStdString());
    const auto fail = [this](const QString& message) {
        m_tensorMessage->setText(message);
        m_tensorMessage->setVisible(true);
        m_inspector->clear();
        m_shownTensor.clear();
        return false;
    };
    if (canonical.isEmpty())
        return fail(tr("'%1' is not a tensor name (expected node:output)").arg(tensor));
    std::optional<Tensor> value;
    QString problem;
    if (m_controller) {
        Expected<Tensor> kept = m_controller->tensorValue(canonical.toStdString());
        if (kept && kept->isInitialized())
            value = *kept; // the inspector keeps its own copy
        else
            problem = kept ? tr("'%1' holds no value").arg(canonical) : q(kept.error().message());
    } else {
        problem = tr("no run is attached");
    }
    // Values not kept by the controller (retaining off) are still in the pause for the node paused at.
    if (!value && m_pause) {
        for (std::size_t i = 0; i < m_pause->values.size() && i < m_pause->names.size() && !value; ++i) {
            const bool live = i >= m_pause->valueLive.size() || m_pause->valueLive[i];
            if (q(m_pause->names[i]) == canonical && live && m_pause->values[i].isInitialized())
                value = m_pause->values[i];
        }
    }
    if (!value)
        return fail(tr("No value for %1: %2").arg(canonical, problem));
    m_tensorMessage->setVisible(false);
    m_shownTensor = canonical;
    m_inspector->setTensor(canonical, *value);
    m_inspector->setWatched(m_watched.count(canonical.toStdString()) > 0);
    showHistory();
    return true;
}

void DebuggerView::onWatchToggled(const QString& tensor, bool watched)
{
    const QString canonical = canonicalTensor(tensor.toStdString());
    if (canonical.isEmpty())
        return;
    if (watched)
        m_watched.insert(canonical.toStdString());
    else
        m_watched.erase(canonical.toStdString());
    if (m_controller)
        m_controller->setWatched({m_watched.begin(), m_watched.end()});
    showHistory();
    emit watchesChanged();
}

void DebuggerView::showHistory()
{
    if (m_shownTensor.isEmpty())
        return;
    // Deep copies in the controller's memory, which outlives the run (the inspector is cleared before the
    // controller can go: detach() and the destructor).
    std::vector<WatchedValue> history;
    if (m_controller && m_watched.count(m_shownTensor.toStdString()))
        history = m_controller->history(m_shownTensor.toStdString());
    m_inspector->setHistory(history);
}

// --- Language ------------------------------------------------------------------------------------------------

void DebuggerView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void DebuggerView::retranslateUi()
{
    m_empty->setTitle(tr("No run to debug yet"));
    m_empty->setText(tr("Open a project, switch on Debug in the Training panel and press Start: the run stops at the "
                        "breakpoints you set (F9 on a node in the node editor or the graph), and here you step "
                        "through its ops and look at every tensor."));
    const auto withKey = [](QAction* a, const QString& tip) {
        a->setToolTip(
            a->shortcut().isEmpty() ? tip : tr("%1 (%2)").arg(tip, a->shortcut().toString(QKeySequence::NativeText)));
    };
    action(Action::kRunContinue)->setText(isPaused() ? tr("Continue") : tr("Run"));
    withKey(action(Action::kRunContinue), tr("Continue the paused run, or start a run"));
    action(Action::kStep)->setText(tr("Step"));
    withKey(action(Action::kStep), tr("Run one node and pause before the next"));
    action(Action::kStepOverScope)->setText(tr("Step over scope"));
    withKey(action(Action::kStepOverScope), tr("Run until the first node outside the paused node's name scope"));
    action(Action::kRunToCursor)->setText(tr("Run to cursor"));
    withKey(action(Action::kRunToCursor), tr("Run until just before the node selected in the graph"));
    action(Action::kContinueRuns)->setText(tr("Continue runs:"));
    withKey(action(Action::kContinueRuns),
            tr("Run on, ignoring breakpoints, until this many session runs have finished, then pause"));
    m_continueRuns->setToolTip(tr("Session runs to finish before pausing again"));
    action(Action::kPause)->setText(tr("Pause"));
    withKey(action(Action::kPause), tr("Pause before the next node"));
    action(Action::kStop)->setText(tr("Stop"));
    withKey(action(Action::kStop), tr("Cancel the run"));
    action(Action::kStopOnNonFinite)->setText(tr("Stop on NaN/Inf"));
    withKey(action(Action::kStopOnNonFinite), tr("Pause after the first node whose output holds NaN or Inf"));
    action(Action::kRetainValues)->setText(tr("Keep values"));
    withKey(action(Action::kRetainValues),
            tr("Keep every executed node's outputs, so that any of them can be inspected"));

    m_leftTabs->setTabText(0, tr("Execution"));
    m_leftTabs->setTabText(1, tr("Breakpoints"));
    m_rightTabs->setTabText(0, tr("Tensors"));
    m_rightTabs->setTabText(1, tr("Node info"));
    m_tensors->setHeaderLabels({tr("Tensor"), tr("Role"), tr("Dtype"), tr("Shape")});
    m_status->setText(statusText());
}

} // namespace tstudio::debugger_ui
