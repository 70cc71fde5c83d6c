// tfprof's scope view (profiler/tfprof_view.h) on a table the test makes: the text layout (legend,
// "self/total" cells, "--" for the root and for nodes not accounted, two spaces a level), and each
// option as tfprof applies it: max_depth, min_*, show/hide/trim/start_name_regexes,
// account_type_regexes with and without account_displayed_op_only, order_by, select; bad options;
// and the panel's max depth and hide filter on the same table.
#include "profiler/tfprof_view.h"

#include "profile_scope_table.h"

#include <QtTest>

using namespace tstudio;
using namespace tstudio::profiler;

namespace {

profiler::ProfileTable table()
{
    return testing::scopeTable();
}

QString view(const TfprofOptions& options)
{
    auto text = formatTfprofScopeView(table(), options);
    if (!text)
        return QString::fromStdString("error: " + text.error().message());
    return QString::fromStdString(*text);
}

} // namespace

class TestTfprofView : public QObject {
    Q_OBJECT
private slots:
    void defaultsShowEveryScope()
    {
        const QString legend = "node name | total execution time | accelerator execution time | cpu execution time\n";
        QCOMPARE(view({}), QString(legend + "_TFProfRoot (--/1.53ms, --/0us, --/1.53ms)\n"
                                            "  layer (0us/1.52ms, 0us/0us, 0us/1.52ms)\n"
                                            "    layer/MatMul (1.50ms/1.50ms, 0us/0us, 1.50ms/1.50ms)\n"
                                            "    layer/Relu (20us/20us, 0us/0us, 20us/20us)\n"
                                            "    layer/w (3us/4us, 0us/0us, 3us/4us)\n"
                                            "      layer/w/read (1us/1us, 0us/0us, 1us/1us)\n"
                                            "  loss (7us/7us, 0us/0us, 7us/7us)\n"));
    }

    void depthThresholdsAndNames()
    {
        TfprofOptions o;
        o.maxDepth = 2; // the root is at depth 1
        o.select = {"bytes"};
        QCOMPARE(view(o), QString("node name | requested bytes\n"
                                  "_TFProfRoot (--/4.41KB)\n"
                                  "  layer (0B/4.40KB)\n"
                                  "  loss (8B/8B)\n"));
        o = {};
        o.minMicros = 10;
        o.select = {"micros"};
        // layer/w (4us) is hidden and so is its child (1us): min_* compare totals.
        QVERIFY(!view(o).contains("layer/w"));
        QVERIFY(view(o).contains("    layer/Relu (20us/20us"));
        o = {};
        o.hideNameRegexes = {"layer"};
        // A hidden scope's shown children take its place (one level up).
        QVERIFY2(view(o).contains("\n  layer/MatMul (1.50ms/1.50ms"), qPrintable(view(o)));
        o = {};
        o.showNameRegexes = {".*read", "loss"};
        QCOMPARE(view(o).count('\n'), 4);
        QVERIFY(view(o).contains("\n  layer/w/read (1us/1us"));
        o = {};
        o.trimNameRegexes = {"layer/w"};
        QVERIFY(view(o).contains("layer/w (3us/4us"));
        QVERIFY(!view(o).contains("layer/w/read"));
        o = {};
        o.startNameRegexes = {"layer/w"};
        QCOMPARE(view(o), QString("node name | total execution time | accelerator execution time | cpu execution time\n"
                                  "_TFProfRoot (--/1.53ms, --/0us, --/1.53ms)\n"
                                  "  layer/w (3us/4us, 0us/0us, 3us/4us)\n"
                                  "    layer/w/read (1us/1us, 0us/0us, 1us/1us)\n"));
    }

    void accountingByType()
    {
        TfprofOptions o;
        o.accountTypeRegexes = {"MatMul", "Identity"};
        o.select = {"micros", "float_ops"};
        // The scopes above accounted nodes stay, "--" for their own cells; Relu and loss go.
        const QString text = view(o);
        QVERIFY2(text.contains("_TFProfRoot (--/2.00k flops, --/1.50ms, --/0us, --/1.50ms)"), qPrintable(text));
        QVERIFY(text.contains("  layer (--/2.00k flops, --/1.50ms"));
        // A node not accounted that has accounted children keeps its own numbers in its total.
        QVERIFY2(text.contains("    layer/w (--/0 flops, --/4us"), qPrintable(text));
        QVERIFY(!text.contains("Relu") && !text.contains("loss"));
        // account_displayed_op_only: totals count what is shown only.
        o.accountTypeRegexes = {".*"};
        o.hideNameRegexes = {"layer/MatMul"};
        o.accountDisplayedOpOnly = true;
        QVERIFY2(view(o).contains("  layer (0/0 flops, 0us/24us"), qPrintable(view(o)));
        o.accountDisplayedOpOnly = false;
        QVERIFY(view(o).contains("  layer (0/2.00k flops, 0us/1.52ms"));
    }

    void orderAndSelect()
    {
        TfprofOptions o;
        o.orderBy = "bytes";
        o.select = {"bytes", "params", "occurrence", "op_types"};
        const QString text = view(o);
        QVERIFY2(text.startsWith("node name | # parameters | requested bytes | op types | op count (run|defined)\n"),
                 qPrintable(text));
        QVERIFY(text.indexOf("layer/MatMul") < text.indexOf("layer/Relu"));
        QVERIFY(text.indexOf("layer/Relu") < text.indexOf("layer/w "));
        QVERIFY2(text.contains("  layer (0/600 params, 0B/4.40KB, _TFScopeParent, 0/4|1/5)"), qPrintable(text));
        QVERIFY(text.contains("    layer/w (600/600 params, 0B/0B, VariableV2, 1/2|1/2)"));
    }

    /// The profiler panel's tfprof options (filterProfileTable): max depth, and hidden rows whose
    /// shown children move up a level.
    void tableFilterDepthAndHide()
    {
        ProfileFilter f;
        f.maxDepth = 0;
        auto top = filterProfileTable(table(), f);
        QVERIFY(top);
        QCOMPARE(top->rows.size(), std::size_t(2)); // layer, loss
        f = {};
        f.hideRegex = "layer|layer/w";
        auto hidden = filterProfileTable(table(), f);
        QVERIFY(hidden);
        std::vector<std::string> names;
        for (std::uint32_t i : profileRowsInOrder(*hidden)) {
            names.push_back(hidden->rows[i].name);
            QCOMPARE(hidden->rows[i].depth, 0); // each moved up to the top
        }
        QCOMPARE(names, (std::vector<std::string>{"layer/MatMul", "layer/Relu", "layer/w/read", "loss"}));
        f.hideRegex = "(";
        QVERIFY(!filterProfileTable(table(), f));
    }

    void badOptionsAreNamed()
    {
        TfprofOptions o;
        o.select = {"tensor_value"};
        QCOMPARE(view(o), QString("error: select 'tensor_value' is not available in this scope view"));
        o = {};
        o.orderBy = "size";
        QVERIFY(view(o).startsWith("error: unknown order_by 'size'"));
        o = {};
        o.hideNameRegexes = {"("};
        QVERIFY(view(o).startsWith("error: hide_name_regexes: bad regex '('"));
        QCOMPARE(splitTfprofList("a.*,b,,c"), (std::vector<std::string>{"a.*", "b", "c"}));
    }
};

QTEST_GUILESS_MAIN(TestTfprofView)
#include "test_tfprof_view.moc"
