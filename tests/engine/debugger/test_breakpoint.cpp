// Tests for breakpoints: text round trips and errors, conditions on tensors, and matching nodes.
#include "debugger/breakpoint.h"

#include "framework/allocator.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

using namespace tstudio;
using namespace tstudio::debugger;

Q_DECLARE_METATYPE(std::string)

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

template <typename T> Tensor makeTensor(const std::vector<T>& values)
{
    static CpuAllocator allocator; // outlives every tensor made here
    auto tensor = Tensor::fromVector<T>(allocator, TensorShape{static_cast<std::int64_t>(values.size())}, values);
    if (!tensor)
        qFatal("%s", tensor.error().toString().c_str());
    return *tensor;
}

tensorflow::NodeDef nodeOf(const std::string& name, const std::string& op)
{
    tensorflow::NodeDef node;
    node.set_name(name);
    node.set_op(op);
    return node;
}

Breakpoint parsed(const std::string& text)
{
    Expected<Breakpoint> breakpoint = parseBreakpoint(text);
    if (!breakpoint)
        qFatal("parseBreakpoint('%s'): %s", text.c_str(), breakpoint.error().toString().c_str());
    return *breakpoint;
}

QString holds(const std::string& condition, const Tensor& tensor)
{
    const std::optional<std::string> reason = conditionHolds(parsed("any if " + condition).condition, tensor);
    return reason ? QString::fromStdString(*reason) : QStringLiteral("<does not hold>");
}

} // namespace

class TestBreakpoint : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<std::string>("canonical");
        QTest::newRow("node") << std::string("node:layer1/MatMul") << std::string("node:layer1/MatMul");
        QTest::newRow("bare name") << std::string("layer1/MatMul") << std::string("node:layer1/MatMul");
        QTest::newRow("node named any") << std::string("node:any") << std::string("node:any");
        QTest::newRow("op") << std::string("op:MatMul") << std::string("op:MatMul");
        QTest::newRow("op has_nan") << std::string("op:Log if has_nan") << std::string("op:Log if has_nan");
        QTest::newRow("any") << std::string("any") << std::string("any");
        QTest::newRow("any has_inf") << std::string("any if has_inf") << std::string("any if has_inf");
        QTest::newRow("regex has_inf_or_nan") << std::string("regex:^layer[0-9]+/ if has_inf_or_nan")
                                              << std::string("regex:^layer[0-9]+/ if has_inf_or_nan");
        QTest::newRow("regex alternation") << std::string("regex:(Relu|Tanh)$") << std::string("regex:(Relu|Tanh)$");
        QTest::newRow("spaces") << std::string("  op:MatMul   if   max>100  ") << std::string("op:MatMul if max > 100");
        QTest::newRow("exponent") << std::string("op:Relu if abs_max >= 1e3")
                                  << std::string("op:Relu if abs_max >= 1000");
        QTest::newRow("negative") << std::string("node:a if mean <= -0.5") << std::string("node:a if mean <= -0.5");
        QTest::newRow("equal") << std::string("node:a if std == 0") << std::string("node:a if std == 0");
        QTest::newRow("plus sign") << std::string("node:a if min != +2.5") << std::string("node:a if min != 2.5");
        QTest::newRow("less") << std::string("node:a if min < 1e-7") << std::string("node:a if min < 1e-07");
        QTest::newRow("greater equal") << std::string("op:Exp if max>=88.7") << std::string("op:Exp if max >= 88.7");
        // The condition follows the last standalone "if": a regex may hold " if " itself.
        QTest::newRow("regex with if") << std::string("regex:a if b if has_nan")
                                       << std::string("regex:a if b if has_nan");
        QTest::newRow("if inside words") << std::string("regex:diff|iffy") << std::string("regex:diff|iffy");
    }

    void roundTrip()
    {
        QFETCH(std::string, text);
        QFETCH(std::string, canonical);
        const Breakpoint first = parsed(text);
        QCOMPARE(formatBreakpoint(first), canonical);
        const Breakpoint second = parsed(formatBreakpoint(first));
        QVERIFY(first == second);
        QVERIFY(second.enabled);
    }

    void parsedFields()
    {
        Breakpoint b = parsed("op:Relu if abs_max >= 1e3");
        QCOMPARE(int(b.target), int(Breakpoint::Target::kOpType));
        QCOMPARE(b.pattern, std::string("Relu"));
        QCOMPARE(int(b.condition.kind), int(TensorCondition::Kind::kStatistic));
        QCOMPARE(int(b.condition.statistic), int(TensorCondition::Statistic::kAbsMax));
        QCOMPARE(int(b.condition.compare), int(TensorCondition::Compare::kGreaterEqual));
        QCOMPARE(b.condition.value, 1000.0);

        b = parsed("node:any");
        QCOMPARE(int(b.target), int(Breakpoint::Target::kNode));
        QCOMPARE(b.pattern, std::string("any"));
        b = parsed("any");
        QCOMPARE(int(b.target), int(Breakpoint::Target::kAnyNode));
        QVERIFY(b.pattern.empty());
        QCOMPARE(int(b.condition.kind), int(TensorCondition::Kind::kAlways));

        b = parsed("regex:a if b if has_nan");
        QCOMPARE(int(b.target), int(Breakpoint::Target::kNameRegex));
        QCOMPARE(b.pattern, std::string("a if b"));
        QCOMPARE(int(b.condition.kind), int(TensorCondition::Kind::kHasNan));
    }

    void formatCondition_()
    {
        QCOMPARE(formatCondition(TensorCondition{}), std::string());
        TensorCondition c;
        c.kind = TensorCondition::Kind::kHasInfOrNan;
        QCOMPARE(formatCondition(c), std::string("has_inf_or_nan"));
        c.kind = TensorCondition::Kind::kStatistic;
        c.statistic = TensorCondition::Statistic::kMax;
        c.compare = TensorCondition::Compare::kGreater;
        c.value = 100;
        QCOMPARE(formatCondition(c), std::string("max > 100"));
        c.statistic = TensorCondition::Statistic::kStd;
        c.compare = TensorCondition::Compare::kNotEqual;
        c.value = 0.1;
        QCOMPARE(formatCondition(c), std::string("std != 0.1"));
        Breakpoint b;
        b.target = Breakpoint::Target::kNode;
        b.pattern = "w";
        b.condition = c;
        b.enabled = false; // not part of the text
        QCOMPARE(formatBreakpoint(b), std::string("node:w if std != 0.1"));
    }

    void errors_data()
    {
        QTest::addColumn<std::string>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << std::string("") << QStringLiteral("empty breakpoint: expected node:NAME");
        QTest::newRow("blank") << std::string("   ") << QStringLiteral("empty breakpoint");
        QTest::newRow("unknown target") << std::string("foo:bar")
                                        << QStringLiteral("unknown breakpoint target 'foo' in 'foo:bar': expected");
        QTest::newRow("tensor name") << std::string("x:0") << QStringLiteral("unknown breakpoint target 'x'");
        QTest::newRow("empty node") << std::string("node:") << QStringLiteral("breakpoint 'node:': empty node name");
        QTest::newRow("empty op") << std::string("op:") << QStringLiteral("empty op type");
        QTest::newRow("empty regex") << std::string("regex: if has_nan") << QStringLiteral("empty regex");
        QTest::newRow("bad node") << std::string("node:a b") << QStringLiteral("'a b' is not a valid node name");
        QTest::newRow("node tensor") << std::string("node:x:0") << QStringLiteral("not on one of its tensors");
        QTest::newRow("bad op") << std::string("op:Mat-Mul") << QStringLiteral("'Mat-Mul' is not a valid op type");
        QTest::newRow("any with name") << std::string("any:x") << QStringLiteral("'any' takes no name, found 'x'");
        QTest::newRow("regex paren") << std::string("regex:a(b")
                                     << QStringLiteral("regex 'a(b' does not compile: unbalanced parentheses");
        QTest::newRow("regex bracket") << std::string("regex:[a") << QStringLiteral("unbalanced square brackets");
        QTest::newRow("regex repeat") << std::string("regex:*a") << QStringLiteral("does not compile");
        // RE2 has no back-references and says so.
        QTest::newRow("regex back-reference") << std::string("regex:(a)\\1")
                                              << QStringLiteral("does not compile: bad escape or trailing backslash");
        QTest::newRow("unknown condition")
            << std::string("op:Log if has_nun")
            << QStringLiteral("unknown breakpoint condition 'has_nun': expected has_inf_or_nan");
        QTest::newRow("unknown statistic")
            << std::string("op:Log if median > 1") << QStringLiteral("unknown breakpoint condition 'median > 1'");
        QTest::newRow("bad number") << std::string("op:Log if max > abc")
                                    << QStringLiteral("bad number 'abc' in breakpoint condition 'max > abc'");
        QTest::newRow("trailing junk") << std::string("op:Log if max > 1.5x") << QStringLiteral("bad number '1.5x'");
        QTest::newRow("inf") << std::string("op:Log if max > inf") << QStringLiteral("bad number 'inf'");
        QTest::newRow("nan") << std::string("op:Log if max > nan") << QStringLiteral("bad number 'nan'");
        QTest::newRow("double op") << std::string("op:Log if max >> 1") << QStringLiteral("bad number '> 1'");
        QTest::newRow("missing operator") << std::string("op:Log if max 100")
                                          << QStringLiteral("missing comparison operator in breakpoint condition "
                                                            "'max 100': expected <, <=, >, >=, == or != after 'max'");
        QTest::newRow("bare statistic") << std::string("op:Log if max")
                                        << QStringLiteral("missing comparison operator");
        QTest::newRow("wrong operator") << std::string("op:Log if max => 1")
                                        << QStringLiteral("missing comparison operator");
        QTest::newRow("missing number") << std::string("op:Log if max >") << QStringLiteral("missing number");
        QTest::newRow("missing condition")
            << std::string("op:Log if") << QStringLiteral("missing condition after 'if'");
    }

    void errors()
    {
        QFETCH(std::string, text);
        QFETCH(QString, message);
        Expected<Breakpoint> breakpoint = parseBreakpoint(text);
        QVERIFY2(!breakpoint, text.c_str());
        QCOMPARE(breakpoint.error().code(), StatusCode::kInvalidArgument);
        const QString actual = QString::fromStdString(breakpoint.error().message());
        QVERIFY2(actual.contains(message), qPrintable(actual));
    }

    void randomTextParsesOrFailsCleanly()
    {
        // Pieces of the grammar glued at random: every text either fails with InvalidArgument or
        // parses to a breakpoint whose text reads back to the same breakpoint.
        static const char* const kPieces[] = {
            "node:", "op:", "regex:", "any", " if ", "if", " ",   "max",  "abs_max", "has_nan", "has_inf_or_nan",
            "<",     "<=",  "==",     "!",   "=",    ">",  "1e3", "-0.5", "nan",     "a",       "B/c",
            "(",     ")",   "[",      "*",   ":",    "\\", "^",   "$"};
        QRandomGenerator random(12);
        int parsedCount = 0;
        for (int i = 0; i < 20000; ++i) {
            std::string text;
            for (int n = int(random.bounded(6)); n >= 0; --n)
                text += kPieces[random.bounded(int(std::size(kPieces)))];
            Expected<Breakpoint> breakpoint = parseBreakpoint(text);
            if (!breakpoint) {
                QCOMPARE(breakpoint.error().code(), StatusCode::kInvalidArgument);
                continue;
            }
            ++parsedCount;
            Expected<Breakpoint> again = parseBreakpoint(formatBreakpoint(*breakpoint));
            QVERIFY2(again && *again == *breakpoint, (text + " -> " + formatBreakpoint(*breakpoint)).c_str());
            QVERIFY(BreakpointSet::create({*breakpoint}));
        }
        QVERIFY(parsedCount > 100);
    }

    void nonFiniteConditions()
    {
        const Tensor nan = makeTensor<float>({1.0f, float(kNaN), 2.0f});
        QCOMPARE(holds("has_nan", nan), QStringLiteral("has NaN"));
        QCOMPARE(holds("has_inf_or_nan", nan), QStringLiteral("has NaN"));
        QCOMPARE(holds("has_inf", nan), QStringLiteral("<does not hold>"));

        const Tensor inf = makeTensor<float>({1.0f, float(kInf), float(-kInf)});
        QCOMPARE(holds("has_inf", inf), QStringLiteral("has Inf"));
        QCOMPARE(holds("has_inf_or_nan", inf), QStringLiteral("has Inf"));
        QCOMPARE(holds("has_nan", inf), QStringLiteral("<does not hold>"));

        QCOMPARE(holds("has_inf_or_nan", makeTensor<float>({float(-kInf), float(kNaN)})),
                 QStringLiteral("has NaN and Inf"));
        QCOMPARE(holds("has_inf_or_nan", makeTensor<float>({1.0f, -2.0f, 0.0f})), QStringLiteral("<does not hold>"));
        // Only -inf counts for has_inf too.
        QCOMPARE(holds("has_inf", makeTensor<float>({float(-kInf)})), QStringLiteral("has Inf"));
    }

    void nonFiniteInOtherFloatTypes()
    {
        QCOMPARE(holds("has_nan", makeTensor<double>({0.5, kNaN})), QStringLiteral("has NaN"));
        QCOMPARE(holds("has_inf", makeTensor<double>({0.5, kNaN})), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("has_nan", makeTensor<Eigen::half>({Eigen::half(1.0f), Eigen::half(float(kNaN))})),
                 QStringLiteral("has NaN"));
        // 70000 overflows float16 to +inf.
        QCOMPARE(holds("has_inf", makeTensor<Eigen::half>({Eigen::half(70000.0f)})), QStringLiteral("has Inf"));
        QCOMPARE(holds("has_inf_or_nan", makeTensor<Eigen::bfloat16>({Eigen::bfloat16(float(-kInf))})),
                 QStringLiteral("has Inf"));
        QCOMPARE(holds("has_inf_or_nan", makeTensor<Eigen::bfloat16>({Eigen::bfloat16(3.0f)})),
                 QStringLiteral("<does not hold>"));
    }

    void statisticConditions()
    {
        // Finite values 1, -3, 2: min -3, max 2, abs_max 3, mean 0, std sqrt(14/3) = 2.160246899...
        const Tensor t = makeTensor<float>({1.0f, -3.0f, 2.0f, float(kNaN), float(kInf)});
        QCOMPARE(holds("max > 1.5", t), QStringLiteral("max 2 > 1.5"));
        QCOMPARE(holds("max > 2", t), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max >= 2", t), QStringLiteral("max 2 >= 2"));
        QCOMPARE(holds("min < -2", t), QStringLiteral("min -3 < -2"));
        QCOMPARE(holds("min <= -3", t), QStringLiteral("min -3 <= -3"));
        QCOMPARE(holds("min < -3", t), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("abs_max > 2.5", t), QStringLiteral("abs_max 3 > 2.5"));
        QCOMPARE(holds("abs_max > 3", t), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("mean == 0", t), QStringLiteral("mean 0 == 0"));
        QCOMPARE(holds("mean != 0", t), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("std < 2.17", t), QStringLiteral("std 2.16 < 2.17"));
        // Three digits would print "std 2.16 > 2.16"; the reason then shows every digit.
        QCOMPARE(holds("std > 2.16", t), QStringLiteral("std 2.160246899469287 > 2.16"));
        QCOMPARE(holds("std > 2.1603", t), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max > 1000", makeTensor<float>({1200.0f, 5.0f})), QStringLiteral("max 1.2e+03 > 1000"));
        // abs_max of the finite values: the infinity does not count.
        QCOMPARE(holds("abs_max < 1.5", makeTensor<double>({-kInf, 1.0, -0.5})), QStringLiteral("abs_max 1 < 1.5"));
    }

    void integersHaveNoNaN()
    {
        const Tensor ints = makeTensor<std::int32_t>({1, 2, 3});
        QCOMPARE(holds("has_inf_or_nan", ints), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("has_nan", ints), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max > 2", ints), QStringLiteral("max 3 > 2"));
        QCOMPARE(holds("max > 3", ints), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("mean == 2", makeTensor<std::int64_t>({1, 3})), QStringLiteral("mean 2 == 2"));
        QCOMPARE(holds("min < 1", makeTensor<std::uint8_t>({0, 255})), QStringLiteral("min 0 < 1"));
    }

    void noRealValues()
    {
        // No finite value at all: no statistic holds, not even "!=".
        const Tensor allNaN = makeTensor<float>({float(kNaN), float(kInf)});
        QCOMPARE(holds("max != 5", allNaN), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("mean < 0", allNaN), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("has_nan", allNaN), QStringLiteral("has NaN"));
        QCOMPARE(holds("max != 5", makeTensor<std::string>({"a", "b"})), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max > 0", makeTensor<bool>({true, false})), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max != 5", Tensor()), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("has_inf_or_nan", Tensor()), QStringLiteral("<does not hold>"));
        QCOMPARE(holds("max != 5", Tensor::uninitialized(tensorflow::DT_FLOAT)), QStringLiteral("<does not hold>"));
        QVERIFY(!conditionHolds(TensorCondition{}, makeTensor<float>({1.0f})));
    }

    void emptySetMatchesNothing()
    {
        const BreakpointSet set;
        QVERIFY(set.empty());
        const tensorflow::NodeDef node = nodeOf("a", "MatMul");
        QVERIFY(!set.matchBefore(node));
        QVERIFY(!set.wantsOutputs(node));
        QVERIFY(!set.matchAfter(node, {makeTensor<float>({float(kNaN)})}));
        Expected<BreakpointSet> created = BreakpointSet::create({});
        QVERIFY(created);
        QVERIFY(created->empty());
        QVERIFY(!created->matchBefore(node));
    }

    void matchBefore()
    {
        std::vector<Breakpoint> list = {parsed("node:a if has_nan"), parsed("node:b"), parsed("op:MatMul"),
                                        parsed("regex:^layer1/"),    parsed("node:c"), parsed("regex:Relu$")};
        list[4].enabled = false;
        Expected<BreakpointSet> set = BreakpointSet::create(list);
        QVERIFY2(set, set ? "" : set.error().toString().c_str());
        QCOMPARE(set->breakpoints().size(), std::size_t(6));
        // The conditional breakpoint on "a" waits for the outputs; the op breakpoint hits first.
        QCOMPARE(set->matchBefore(nodeOf("a", "MatMul")), std::optional<std::size_t>(2));
        QCOMPARE(set->matchBefore(nodeOf("b", "Relu")), std::optional<std::size_t>(1));
        QCOMPARE(set->matchBefore(nodeOf("layer1/Add", "Add")), std::optional<std::size_t>(3));
        // regex_search: anywhere in the name.
        QCOMPARE(set->matchBefore(nodeOf("layer2/Relu", "Relu")), std::optional<std::size_t>(5));
        QCOMPARE(set->matchBefore(nodeOf("layer2/Relu_1", "Relu")), std::nullopt);
        QCOMPARE(set->matchBefore(nodeOf("xlayer1/Add", "Add")), std::nullopt);
        // Disabled: ignored.
        QCOMPARE(set->matchBefore(nodeOf("c", "Add")), std::nullopt);
        QCOMPARE(set->matchBefore(nodeOf("a", "Add")), std::nullopt);
        QVERIFY(set->wantsOutputs(nodeOf("a", "Add")));
        QVERIFY(!set->wantsOutputs(nodeOf("b", "Add")));
    }

    /// A pattern that makes a backtracking engine take exponential time ((a+)+b against a's) is
    /// searched in linear time: this returns at once (std::regex took minutes at 30 a's).
    void regexSearchDoesNotBacktrack()
    {
        Expected<BreakpointSet> set = BreakpointSet::create({parsed("regex:(a+)+b$"), parsed("regex:(?i)^DENSE/")});
        QVERIFY2(set, set ? "" : set.error().toString().c_str());
        QCOMPARE(set->matchBefore(nodeOf(std::string(64, 'a') + "c", "Add")), std::nullopt);
        QCOMPARE(set->matchBefore(nodeOf(std::string(64, 'a') + "b", "Add")), std::optional<std::size_t>(0));
        QCOMPARE(set->matchBefore(nodeOf("dense/MatMul", "MatMul")), std::optional<std::size_t>(1));
        // An escape of 22 digits: libstdc++'s std::regex overflowed a long reading it as a
        // back-reference (UBSan, found by the breakpoint fuzz target); RE2 reads an octal escape.
        QVERIFY(BreakpointSet::create({parsed("regex:(a)\\7777777777777777777777")}));
    }

    void anyNode()
    {
        Expected<BreakpointSet> set = BreakpointSet::create({parsed("any")});
        QVERIFY(set);
        QCOMPARE(set->matchBefore(nodeOf("whatever", "NoOp")), std::optional<std::size_t>(0));
        QVERIFY(!set->wantsOutputs(nodeOf("whatever", "NoOp")));

        std::vector<Breakpoint> list = {parsed("any if has_inf_or_nan")};
        set = BreakpointSet::create(list);
        QVERIFY(set);
        QVERIFY(set->wantsOutputs(nodeOf("whatever", "NoOp")));
        QCOMPARE(set->matchBefore(nodeOf("whatever", "NoOp")), std::nullopt);
        list[0].enabled = false;
        set = BreakpointSet::create(list);
        QVERIFY(set);
        QVERIFY(!set->wantsOutputs(nodeOf("whatever", "NoOp")));
        QVERIFY(!set->matchAfter(nodeOf("whatever", "NoOp"), {makeTensor<float>({float(kNaN)})}));
    }

    void matchAfter()
    {
        std::vector<Breakpoint> list = {parsed("op:Log"), parsed("op:Log if max > 10"), parsed("regex:log if has_nan"),
                                        parsed("node:other if has_inf")};
        Expected<BreakpointSet> set = BreakpointSet::create(list);
        QVERIFY(set);
        const tensorflow::NodeDef log = nodeOf("log", "Log");
        // Output 0 is an int (no NaN, max 3); output 1 is dead (an empty tensor); output 2 has NaN.
        const std::vector<Tensor> outputs = {makeTensor<std::int32_t>({1, 3}), Tensor(),
                                             makeTensor<float>({1.0f, float(kNaN)})};
        auto hit = set->matchAfter(log, outputs);
        QVERIFY(hit);
        QCOMPARE(hit->first, std::size_t(2));
        QCOMPARE(hit->second, std::string("output 2: has NaN"));

        // The first matching breakpoint in list order wins; its first output that meets it.
        const std::vector<Tensor> big = {makeTensor<float>({11.0f}), makeTensor<float>({float(kNaN)})};
        hit = set->matchAfter(log, big);
        QVERIFY(hit);
        QCOMPARE(hit->first, std::size_t(1));
        QCOMPARE(hit->second, std::string("output 0: max 11 > 10"));

        QVERIFY(!set->matchAfter(log, {makeTensor<float>({1.0f, 2.0f})}));
        QVERIFY(!set->matchAfter(nodeOf("other", "Add"), {makeTensor<float>({float(kNaN)})}));
        hit = set->matchAfter(nodeOf("other", "Add"), {makeTensor<float>({float(kNaN)}), makeTensor<double>({kInf})});
        QVERIFY(hit);
        QCOMPARE(hit->first, std::size_t(3));
        QCOMPARE(hit->second, std::string("output 1: has Inf"));
        QVERIFY(!set->matchAfter(log, {}));
    }

    void createRejectsBadBreakpoints()
    {
        Breakpoint regex;
        regex.target = Breakpoint::Target::kNameRegex;
        regex.pattern = "a(";
        regex.enabled = false; // disabled ones are checked too: they may be enabled later
        Expected<BreakpointSet> set = BreakpointSet::create({parsed("node:x"), regex});
        QVERIFY(!set);
        QCOMPARE(set.error().code(), StatusCode::kInvalidArgument);
        QCOMPARE(set.error().message(),
                 std::string("breakpoint 2 'regex:a(': regex 'a(' does not compile: unbalanced parentheses"));

        Breakpoint empty;
        empty.target = Breakpoint::Target::kNode;
        set = BreakpointSet::create({empty});
        QVERIFY(!set);
        QVERIFY2(set.error().message().find("breakpoint 1 'node:': empty node name") != std::string::npos,
                 set.error().message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestBreakpoint)
#include "test_breakpoint.moc"
