// UiMap: a snapshot of the visible widgets' screen rectangles as JSON, refreshed on a timer.
#include "ui_map.h"

#include "dashboard/scalar_chart.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QProgressBar>
#include <QSaveFile>
#include <QStatusBar>
#include <QTabBar>
#include <QTimer>

namespace tstudio {
namespace {

void addWidget(QJsonArray& out, QWidget* widget)
{
    if (!widget->isVisible())
        return;
    auto* button = qobject_cast<QAbstractButton*>(widget);
    const bool named = !widget->objectName().isEmpty() && !widget->objectName().startsWith(QLatin1String("qt_"));
    // Our own widgets (tstudio::...) are listed by class even without a name: the views a step waits for.
    const bool ours = QLatin1String(widget->metaObject()->className()).startsWith(QLatin1String("tstudio::"));
    if (!named && !ours && !(button && !button->text().isEmpty()))
        return;
    const QPoint topLeft = widget->mapToGlobal(QPoint(0, 0));
    QJsonObject entry{{"name", widget->objectName()},
                      {"class", QString::fromLatin1(widget->metaObject()->className())},
                      {"x", topLeft.x()},
                      {"y", topLeft.y()},
                      {"w", widget->width()},
                      {"h", widget->height()},
                      {"enabled", widget->isEnabled()}};
    if (button) {
        entry.insert("text", button->text());
        if (button->isCheckable())
            entry.insert("checked", button->isChecked());
    } else if (auto* label = qobject_cast<QLabel*>(widget)) {
        entry.insert("text", label->text());
    } else if (auto* edit = qobject_cast<QLineEdit*>(widget)) {
        entry.insert("text", edit->text());
    } else if (auto* bar = qobject_cast<QProgressBar*>(widget)) {
        entry.insert("text", bar->text());
    }
    if (auto* chart = qobject_cast<dashboard::ScalarChart*>(widget)) {
        int points = 0;
        for (const QString& run : chart->seriesRuns())
            points += static_cast<int>(chart->rawPoints(run).size());
        entry.insert("points", points);
        entry.insert("text", chart->tag());
    }
    out.append(entry);
}

} // namespace

UiMap::UiMap(QWidget* window, QString path, int intervalMs, QObject* parent)
    : QObject(parent), m_window(window), m_path(std::move(path)), m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &UiMap::write);
    m_timer->start(intervalMs);
}

void UiMap::write()
{
    QJsonArray widgets;
    QJsonArray dialogs;
    for (QWidget* top : QApplication::topLevelWidgets()) {
        if (!top->isVisible())
            continue;
        if (top != m_window)
            dialogs.append(top->windowTitle());
        addWidget(widgets, top);
        for (QWidget* child : top->findChildren<QWidget*>())
            addWidget(widgets, child);
    }
    // The document tabs: the tab bar under the central widget (the docks have tab bars too).
    QJsonArray tabs;
    auto* main = qobject_cast<QMainWindow*>(m_window);
    const QTabBar* bar = main && main->centralWidget() ? main->centralWidget()->findChild<QTabBar*>() : nullptr;
    for (int i = 0; bar && i < bar->count(); ++i) {
        const QRect r = bar->tabRect(i);
        const QPoint at = bar->mapToGlobal(r.topLeft());
        tabs.append(QJsonObject{{"text", bar->tabText(i)},
                                {"current", i == bar->currentIndex()},
                                {"x", at.x()},
                                {"y", at.y()},
                                {"w", r.width()},
                                {"h", r.height()},
                                {"enabled", bar->isTabEnabled(i)},
                                {"class", QStringLiteral("tab")}});
    }
    QJsonObject root{{"widgets", widgets}, {"tabs", tabs}, {"dialogs", dialogs}};
    if (main)
        root.insert("status", main->statusBar()->currentMessage());
    if (QWidget* focus = QApplication::focusWidget())
        root.insert("focus", focus->objectName());
    QSaveFile file(m_path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(QJsonDocument(root).toJson(QJsonDocument::Compact));
        file.commit();
    }
}

} // namespace tstudio
