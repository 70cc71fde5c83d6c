// The node-editor benchmark: the real editor widget, offscreen, driven through its commands.
#include "editor_bench.h"

#include "document/document_commands.h"
#include "node_editor/node_editor.h"
#include "node_editor/node_editor_scene.h"
#include "node_editor/node_editor_view.h"
#include "registries/default_registries.h"

#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace tstudio {
namespace {

double ms(const QElapsedTimer& t)
{
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

void printStats(const char* what, std::vector<double> times)
{
    std::sort(times.begin(), times.end());
    std::printf("%s: median %.2f ms, worst %.2f ms over %zu\n", what, times[times.size() / 2], times.back(), times.size());
}

} // namespace

int runEditorBench(int nodes)
{
    auto registries = makeDefaultRegistries();
    if (!registries) {
        std::fprintf(stderr, "tensorstudio: %s\n", registries.error().message().c_str());
        return 1;
    }
    node_editor::NodeEditor editor(registries->get());
    editor.resize(1400, 900);
    GraphDocument* doc = editor.document();
    QElapsedTimer build;
    build.start();
    DocNodeId previous = editor.addNode(QStringLiteral("op:Placeholder"), QPointF(0, 0));
    tensorflow::AttrValue shape;
    shape.mutable_shape()->add_dim()->set_size(-1);
    shape.mutable_shape()->add_dim()->set_size(64);
    doc->undoStack()->push(SetAttrCommand::create(doc, previous, "shape", shape)->release());
    const QStringList ops = {QStringLiteral("op:Relu"), QStringLiteral("op:Tanh"), QStringLiteral("op:Sigmoid"), QStringLiteral("op:Identity")};
    for (int i = 1; i < nodes; ++i) {
        const DocNodeId id = editor.addNode(ops[i % ops.size()], QPointF(220.0 * (i % 40), 120.0 * (i / 40)));
        editor.scene()->connectPorts(previous, 0, id, 0);
        // Every tenth node starts a side branch off the chain; the chain goes on from the previous node.
        if (i % 10 != 0)
            previous = id;
    }
    std::printf("document: %d nodes, %zu connections, built through commands in %.0f ms\n", nodes,
                doc->connections().size(), ms(build));

    std::vector<double> feedback;
    for (int i = 0; i < 10; ++i) {
        QElapsedTimer t;
        t.start();
        editor.refreshFeedback();
        feedback.push_back(ms(t));
    }
    printStats("feedback after an edit (build + shape inference)", feedback);

    // A drag: 30 moves of one node, each a merged command, the scene following, and one frame drawn.
    QImage frame(1100, 800, QImage::Format_ARGB32_Premultiplied);
    const DocNodeId dragged = doc->nodes()[static_cast<std::size_t>(nodes / 2)];
    std::vector<double> drag;
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer t;
        t.start();
        const QPointF p = doc->node(dragged)->position + QPointF(20, 0);
        doc->undoStack()->push(MoveNodesCommand::create(doc, {{dragged, p}})->release());
        editor.view()->centerOn(p);
        QPainter painter(&frame);
        editor.view()->render(&painter);
        painter.end();
        drag.push_back(ms(t));
    }
    printStats("drag step (move command + scene + one frame)", drag);

    std::vector<double> undo;
    for (int i = 0; i < 20; ++i) {
        QElapsedTimer t;
        t.start();
        if (i % 2 == 0)
            doc->undoStack()->undo();
        else
            doc->undoStack()->redo();
        undo.push_back(ms(t));
    }
    printStats("undo/redo", undo);
    return 0;
}

} // namespace tstudio
