// Tests for the string kernels: the RE2 regex ops (full match, replace with \1 backrefs, global or
// first only, TensorFlow's error texts), StringFormat's print_v2 layout ("..." summaries, nesting,
// number and string formatting), ReduceJoin and AsString (printf's conversions), checked against
// the results TensorFlow's own documentation gives for these ops and against hand computation; the
// shape functions one case per line; our OpDefs against TensorFlow's.
#include "kernels/kernels.h"
#include "registries/register_all_ops.h"

#include "fixture_ops.h"
#include "kernel_harness.h"
#include "model_test_support.h"
#include "shape_fn_testing.h"

#include <google/protobuf/text_format.h>

#include <QTest>

#include <complex>
#include <limits>

using namespace tstudio;
using namespace tstudio::testing;

namespace {

std::unique_ptr<KernelHarness> makeHarness()
{
    return KernelHarness::createOrWarn({registerStringOps}, {registerStringCpuKernels});
}

Tensor strs(KernelHarness& h, const TensorShape& shape, const std::vector<std::string>& values)
{
    return tensor<std::string>(h.allocator(), shape, values);
}

Tensor str(KernelHarness& h, const std::string& value)
{
    return strs(h, TensorShape::scalar(), {value});
}

/// The strings of `t` joined by " | ", so that a failed comparison shows them.
QString stringsOf(const Tensor& t)
{
    QStringList parts;
    for (const std::string& s : t.strings())
        parts << QString::fromStdString(s);
    return parts.join(" | ");
}

QString joined(const std::vector<std::string>& strings)
{
    QStringList parts;
    for (const std::string& s : strings)
        parts << QString::fromStdString(s);
    return parts.join(" | ");
}

std::vector<bool> boolsOf(const Tensor& t)
{
    return std::vector<bool>(t.values<bool>().begin(), t.values<bool>().end());
}

/// A text-format attr entry: attr { key: 'K' value { VALUE } }.
std::string attrText(const std::string& key, const std::string& value)
{
    return " attr { key: '" + key + "' value { " + value + " } }";
}

/// The one output of a StringFormat node over `inputs` (their dtypes go into T).
Expected<std::string> format(KernelHarness& h, const std::string& attrs, const std::vector<Tensor>& inputs)
{
    std::string types;
    for (const Tensor& t : inputs)
        types += " type: " + tensorflow::DataType_Name(t.dtype());
    auto out = h.run("op: 'StringFormat'" + attrText("T", "list {" + types + " }") + attrs, inputs);
    if (!out)
        return unexpected(out.error());
    return out->at(0).strings()[0];
}

std::string placeholderBraces()
{
    return attrText("placeholder", "s: '{}'");
}

/// The strings of an AsString node over `input` (its dtype goes into T) with the attrs `attrs`.
Expected<std::vector<std::string>> asString(KernelHarness& h, const std::string& attrs, const Tensor& input)
{
    auto out =
        h.run("op: 'AsString'" + attrText("T", "type: " + tensorflow::DataType_Name(input.dtype())) + attrs, {input});
    if (!out)
        return unexpected(out.error());
    const auto strings = out->at(0).strings();
    return std::vector<std::string>(strings.begin(), strings.end());
}

/// The error text of an AsString node that must fail, without the prefix that names the node
/// (empty when it did not fail).
QString asStringError(KernelHarness& h, const std::string& attrs, const Tensor& input)
{
    auto out = asString(h, attrs, input);
    if (out)
        return QString();
    const QString prefix = "Node 'test_node' (op 'AsString'): ";
    const QString message = QString::fromStdString(out.error().message());
    return message.startsWith(prefix) ? message.mid(prefix.size()) : message;
}

} // namespace

class TestStringKernels : public QObject {
    Q_OBJECT

private slots:
    // --- Regex full match ---------------------------------------------------------------------------

    void fullMatchAsTensorFlowsDocumentation()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // tf.strings.regex_full_match(["TF lib", "lib TF"], ".*lib$") gives [True, False].
        auto out = h->run("op: 'RegexFullMatch'", {strs(*h, {2}, {"TF lib", "lib TF"}), str(*h, ".*lib$")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(boolsOf(out->at(0)), (std::vector<bool>{true, false}));
        out = h->run("op: 'StaticRegexFullMatch'" + attrText("pattern", "s: '.*lib$'"),
                     {strs(*h, {2}, {"TF lib", "lib TF"})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(boolsOf(out->at(0)), (std::vector<bool>{true, false}));
    }

    void fullMatchNeedsTheWholeString()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // The pattern TensorFlow 2's saver functions test their prefix with, on a [2, 2] input.
        auto out = h->run("op: 'StaticRegexFullMatch'" + attrText("pattern", "s: '^s3://.*'"),
                          {strs(*h, {2, 2}, {"s3://bucket/ckpt", "/tmp/s3://x", "s3:/one-slash", "s3://"})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).shape(), TensorShape({2, 2}));
        QCOMPARE(boolsOf(out->at(0)), (std::vector<bool>{true, false, false, true}));
        // A match of a part only is not a full match; UTF-8 is matched by character.
        out = h->run("op: 'RegexFullMatch'", {strs(*h, {4}, {"abc", "abcd", "xabc", "\xc3\xa9t\xc3\xa9"}), str(*h, "a.c|.t.")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(boolsOf(out->at(0)), (std::vector<bool>{true, false, false, true}));
    }

    void invalidPatternsInTensorFlowsWords()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto out = h->run("op: 'RegexFullMatch'", {str(*h, "x"), str(*h, "(ab")});
        QVERIFY(!out.has_value());
        QCOMPARE(out.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(out.error().message().starts_with("Invalid pattern: (ab, error: missing )"), out.error().toString().c_str());
        // The static forms fail when the kernel is made, naming the pattern the same way.
        out = h->run("op: 'StaticRegexReplace'" + attrText("pattern", "s: 'a[b'") + attrText("rewrite", "s: 'x'"), {str(*h, "x")});
        QVERIFY(!out.has_value());
        QVERIFY2(out.error().message().find("Invalid pattern: a[b, error: missing ]") != std::string::npos,
                 out.error().toString().c_str());
        out = h->run("op: 'StaticRegexFullMatch'" + attrText("pattern", "s: '*'"), {str(*h, "x")});
        QVERIFY(!out.has_value());
        QVERIFY2(out.error().message().find("Invalid pattern: *, error: ") != std::string::npos,
                 out.error().toString().c_str());
        out = h->run("op: 'RegexFullMatch'", {str(*h, "x"), strs(*h, {2}, {"a", "b"})});
        QVERIFY(!out.has_value());
        QCOMPARE(QString::fromStdString(out.error().message()), QString("Pattern must be scalar, but received [2]"));
        out = h->run("op: 'RegexReplace'", {str(*h, "x"), str(*h, "x"), strs(*h, {1}, {"y"})});
        QVERIFY(!out.has_value());
        QCOMPARE(QString::fromStdString(out.error().message()), QString("Rewrite must be scalar, but received [1]"));
    }

    // --- Regex replace -------------------------------------------------------------------------------

    void replaceAsTensorFlowsDocumentation()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // tf.strings.regex_replace("Text with tags.<br /><b>contains html</b>", "<[^>]+>", " ")
        // gives b'Text with tags.  contains html '.
        const std::string text = "Text with tags.<br /><b>contains html</b>";
        auto out = h->run("op: 'RegexReplace'", {str(*h, text), str(*h, "<[^>]+>"), str(*h, " ")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("Text with tags.  contains html "));
        out = h->run("op: 'StaticRegexReplace'" + attrText("pattern", "s: '<[^>]+>'") + attrText("rewrite", "s: ' '"),
                     {str(*h, text)});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("Text with tags.  contains html "));
    }

    void replaceGlobalOrFirstWithBackreferences()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor input = strs(*h, {2}, {"aaa bbb aaa", "nothing"});
        auto out = h->run("op: 'RegexReplace'", {input, str(*h, "a+"), str(*h, "X")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(stringsOf(out->at(0)), joined({"X bbb X", "nothing"}));
        out = h->run("op: 'RegexReplace'" + attrText("replace_global", "b: false"), {input, str(*h, "a+"), str(*h, "X")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(stringsOf(out->at(0)), joined({"X bbb aaa", "nothing"}));
        // \1, \2: groups; \0: the whole match; \\: a backslash.
        out = h->run("op: 'StaticRegexReplace'" + attrText("pattern", "s: '(\\\\w+)@(\\\\w+)\\\\.com'") +
                         attrText("rewrite", "s: '\\\\2 at \\\\1 (\\\\0) \\\\\\\\'"),
                     {strs(*h, {1}, {"mail joe@example.com now"})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("mail example at joe (joe@example.com) \\ now"));
        // An empty match is replaced at every position, as Python's re.sub("", "-", "abc") does.
        out = h->run("op: 'RegexReplace'", {str(*h, "abc"), str(*h, ""), str(*h, "-")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("-a-b-c-"));
        // A rewrite naming a group the pattern lacks leaves the string as it is (RE2, as TensorFlow).
        out = h->run("op: 'RegexReplace'", {str(*h, "abc"), str(*h, "(b)"), str(*h, "\\2")});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("abc"));
    }

    // --- StringFormat --------------------------------------------------------------------------------

    void formatAsTensorFlowsDocumentation()
    {
        auto h = makeHarness();
        QVERIFY(h);
        std::vector<std::int32_t> values(100);
        for (int i = 0; i < 100; ++i)
            values[static_cast<std::size_t>(i)] = i;
        const std::string tmpl = attrText("template", "s: 'tensor: {}, suffix'") + placeholderBraces();
        // tf.strings.format("tensor: {}, suffix", tf.range(5)) and tf.range(10).
        auto out = format(*h, tmpl, {tensor<std::int32_t>(h->allocator(), {5}, {0, 1, 2, 3, 4})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("tensor: [0 1 2 3 4], suffix"));
        std::vector<std::int32_t> ten(values.begin(), values.begin() + 10);
        out = format(*h, tmpl, {tensor<std::int32_t>(h->allocator(), {10}, ten)});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("tensor: [0 1 2 ... 7 8 9], suffix"));
        // tf.strings.format("{}", tf.reshape(tf.range(100), [10, 10]), summarize=3).
        out = format(*h, attrText("template", "s: '{}'") + placeholderBraces() + attrText("summarize", "i: 3"),
                     {tensor<std::int32_t>(h->allocator(), {10, 10}, values)});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("[[0 1 2 ... 7 8 9]\n"
                                                       " [10 11 12 ... 17 18 19]\n"
                                                       " [20 21 22 ... 27 28 29]\n"
                                                       " ...\n"
                                                       " [70 71 72 ... 77 78 79]\n"
                                                       " [80 81 82 ... 87 88 89]\n"
                                                       " [90 91 92 ... 97 98 99]]"));
    }

    void formatLayoutAndSummaries()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::string one = attrText("template", "s: '<{}>'") + placeholderBraces();
        // Rank 3: rows of a matrix apart by a newline, matrices by a blank line (NumPy's layout too).
        auto out = format(*h, one, {tensor<std::int64_t>(h->allocator(), {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("<[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]>"));
        // summarize 2 keeps two at each end; -1 keeps everything; 5 of [5]: no "...".
        const Tensor five = tensor<std::int32_t>(h->allocator(), {5}, {10, 20, 30, 40, 50});
        out = format(*h, one + attrText("summarize", "i: 2"), {five});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("<[10 20 ... 40 50]>"));
        out = format(*h, one + attrText("summarize", "i: -1"), {five});
        QCOMPARE(QString::fromStdString(out.value()), QString("<[10 20 30 40 50]>"));
        // A scalar prints bare; no elements print as "[]".
        out = format(*h, one, {tensor<std::int32_t>(h->allocator(), TensorShape::scalar(), {-7})});
        QCOMPARE(QString::fromStdString(out.value()), QString("<-7>"));
        out = format(*h, one, {tensor<std::int32_t>(h->allocator(), {0}, {})});
        QCOMPARE(QString::fromStdString(out.value()), QString("<[]>"));
        // TensorFlow prints nothing for a bool tensor without elements.
        out = format(*h, one, {tensor<bool>(h->allocator(), {0}, {})});
        QCOMPARE(QString::fromStdString(out.value()), QString("<>"));
    }

    void formatNumbersAndStrings()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const std::string two = attrText("template", "s: '{} | {}'") + placeholderBraces();
        // Floats: %g with 6 digits when that reads back exactly, else 9 (double: 15, else 17).
        auto out = format(*h, two,
                          {tensor<float>(h->allocator(), {4}, {0.5f, 1.0f / 3.0f, 1e10f, -0.0f}),
                           tensor<double>(h->allocator(), {3}, {0.1, 1.0 / 3.0, 2.5e-300})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out),
                 QString("[0.5 0.333333343 1e+10 -0] | [0.1 0.33333333333333331 2.5e-300]"));
        out = format(*h, two,
                     {tensor<float>(h->allocator(), {3},
                                    {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                     std::numeric_limits<float>::quiet_NaN()}),
                      tensor<bool>(h->allocator(), {2}, {true, false})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("[inf -inf nan] | [1 0]"));
        // Strings in double quotes with C escapes; UTF-8 kept; the default placeholder "%s".
        out = format(*h, attrText("template", "s: 'x=%s'"),
                     {strs(*h, {3}, {"it's", "a\"b\\c\n", "\xc3\xa9\x01"})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(*out, std::string("x=[\"it\\'s\" \"a\\\"b\\\\c\\n\" \"\xc3\xa9\\001\"]"));
        // Small integer types print as numbers, half through float.
        out = format(*h, two,
                     {tensor<std::int8_t>(h->allocator(), {2}, {-128, 65}),
                      tensor<Eigen::half>(h->allocator(), {1}, {Eigen::half(0.5f)})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(QString::fromStdString(*out), QString("[-128 65] | [0.5]"));
        // No inputs at all: the template itself.
        out = format(*h, attrText("template", "s: 'plain'"), {});
        QCOMPARE(QString::fromStdString(out.value()), QString("plain"));
    }

    void formatNeedsOneInputPerPlaceholder()
    {
        auto h = makeHarness();
        QVERIFY(h);
        auto out = format(*h, attrText("template", "s: '{} and {}'") + placeholderBraces(),
                          {tensor<std::int32_t>(h->allocator(), TensorShape::scalar(), {1})});
        QVERIFY(!out.has_value());
        QCOMPARE(out.error().code(), StatusCode::kInvalidArgument);
        QVERIFY2(out.error().message().find("num placeholders in template and num inputs must match: 2 vs. 1") !=
                     std::string::npos,
                 out.error().toString().c_str());
    }

    // --- ReduceJoin ----------------------------------------------------------------------------------

    void reduceJoinAsTensorFlowsDocumentation()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // The examples of TensorFlow's ReduceJoin documentation, a = [["a", "b"], ["c", "d"]].
        const Tensor a = strs(*h, {2, 2}, {"a", "b", "c", "d"});
        struct Case {
            std::vector<std::int32_t> axes;
            std::string attrs;
            TensorShape shape;
            std::vector<std::string> expected;
        };
        const std::vector<Case> cases = {
            {{0}, "", {2}, {"ac", "bd"}},
            {{1}, "", {2}, {"ab", "cd"}},
            {{-2}, "", {2}, {"ac", "bd"}},
            {{-1}, "", {2}, {"ab", "cd"}},
            {{0}, attrText("keep_dims", "b: true"), {1, 2}, {"ac", "bd"}},
            {{1}, attrText("keep_dims", "b: true"), {2, 1}, {"ab", "cd"}},
            {{0}, attrText("separator", "s: '.'"), {2}, {"a.c", "b.d"}},
            {{0, 1}, "", TensorShape::scalar(), {"acbd"}},
            {{1, 0}, "", TensorShape::scalar(), {"abcd"}},
            {{}, "", {2, 2}, {"a", "b", "c", "d"}},
        };
        for (const Case& c : cases) {
            const Tensor axes = tensor<std::int32_t>(h->allocator(), {static_cast<std::int64_t>(c.axes.size())}, c.axes);
            auto out = h->run("op: 'ReduceJoin'" + c.attrs, {a, axes});
            QVERIFY2(out.has_value(), err(out));
            QCOMPARE(out->at(0).shape(), c.shape);
            QCOMPARE(stringsOf(out->at(0)), joined(c.expected));
        }
        // A scalar with no axes (Dataset.list_files joins its pattern so) is itself.
        auto out = h->run("op: 'ReduceJoin'" + attrText("separator", "s: ', '"),
                          {str(*h, "/data/*.csv"), tensor<std::int32_t>(h->allocator(), {0}, {})});
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(out->at(0).strings()[0], std::string("/data/*.csv"));
    }

    void reduceJoinErrors()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor a = strs(*h, {2, 2}, {"a", "b", "c", "d"});
        auto out = h->run("op: 'ReduceJoin'", {a, tensor<std::int32_t>(h->allocator(), {2}, {1, -1})});
        QVERIFY(!out.has_value());
        QCOMPARE(QString::fromStdString(out.error().message()), QString("Duplicate reduction dimension -1"));
        out = h->run("op: 'ReduceJoin'", {a, tensor<std::int32_t>(h->allocator(), {1}, {2})});
        QVERIFY(!out.has_value());
        QCOMPARE(out.error().code(), StatusCode::kOutOfRange);
        QCOMPARE(QString::fromStdString(out.error().message()),
                 QString("Invalid reduction dimension 2 for input with 2 dimension(s)"));
    }

    // --- AsString ------------------------------------------------------------------------------------

    void asStringAsTensorFlowsDocumentation()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // tf.strings.as_string([3, 2]) and tf.strings.as_string([3.1415926, 2.71828], precision=2)
        // give [b'3', b'2'] and [b'3.14', b'2.72'].
        auto out = asString(*h, "", tensor<std::int32_t>(h->allocator(), {2}, {3, 2}));
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(joined(*out), joined({"3", "2"}));
        out = asString(*h, attrText("precision", "i: 2"), tensor<float>(h->allocator(), {2}, {3.1415926f, 2.71828f}));
        QVERIFY2(out.has_value(), err(out));
        QCOMPARE(joined(*out), joined({"3.14", "2.72"}));
        // The shape is the input's, a scalar included.
        auto full = h->run("op: 'AsString'" + attrText("T", "type: DT_INT64"),
                           {tensor<std::int64_t>(h->allocator(), {2, 3, 1}, {1, 2, 3, 4, 5, 6})});
        QVERIFY2(full.has_value(), err(full));
        QCOMPARE(full->at(0).shape(), TensorShape({2, 3, 1}));
        full = h->run("op: 'AsString'" + attrText("T", "type: DT_INT8"),
                      {tensor<std::int8_t>(h->allocator(), TensorShape::scalar(), {-5})});
        QVERIFY2(full.has_value(), err(full));
        QCOMPARE(full->at(0).shape(), TensorShape::scalar());
        QCOMPARE(full->at(0).strings()[0], std::string("-5"));
    }

    void asStringIntegersAndBools()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // printf's %d / %lld: every digit, the extremes of each type included.
        auto out = asString(*h, "", tensor<std::int8_t>(h->allocator(), {3}, {-128, 0, 127}));
        QCOMPARE(joined(out.value()), joined({"-128", "0", "127"}));
        out = asString(*h, "", tensor<std::int16_t>(h->allocator(), {2}, {-32768, 32767}));
        QCOMPARE(joined(out.value()), joined({"-32768", "32767"}));
        out = asString(*h, "",
                       tensor<std::int32_t>(h->allocator(), {2}, {std::numeric_limits<std::int32_t>::min(), 1000000}));
        QCOMPARE(joined(out.value()), joined({"-2147483648", "1000000"}));
        out = asString(*h, "",
                       tensor<std::int64_t>(h->allocator(), {3},
                                            {std::numeric_limits<std::int64_t>::min(),
                                             std::numeric_limits<std::int64_t>::max(), 4294967296LL}));
        QCOMPARE(joined(out.value()), joined({"-9223372036854775808", "9223372036854775807", "4294967296"}));
        // Width pads on the left with spaces; the fill flags: 0 pads with zeros after the sign, - pads
        // on the right, + and space mark the positive numbers.
        const Tensor ints = tensor<std::int32_t>(h->allocator(), {3}, {42, -42, 123456});
        out = asString(*h, attrText("width", "i: 5"), ints);
        QCOMPARE(joined(out.value()), joined({"   42", "  -42", "123456"}));
        out = asString(*h, attrText("width", "i: 5") + attrText("fill", "s: '0'"), ints);
        QCOMPARE(joined(out.value()), joined({"00042", "-0042", "123456"}));
        out = asString(*h, attrText("width", "i: 5") + attrText("fill", "s: '-'"), ints);
        QCOMPARE(joined(out.value()), joined({"42   ", "-42  ", "123456"}));
        out = asString(*h, attrText("width", "i: 5") + attrText("fill", "s: '+'"), ints);
        QCOMPARE(joined(out.value()), joined({"  +42", "  -42", "+123456"}));
        // The flag applies without a width too (TensorFlow 1.15.4 on, and every 2.x).
        out = asString(*h, attrText("fill", "s: '+'"), ints);
        QCOMPARE(joined(out.value()), joined({"+42", "-42", "+123456"}));
        out = asString(*h, attrText("fill", "s: ' '"), ints);
        QCOMPARE(joined(out.value()), joined({" 42", "-42", " 123456"}));
        // A width of 0 pads nothing.
        out = asString(*h, attrText("width", "i: 0") + attrText("fill", "s: '0'"), ints);
        QCOMPARE(joined(out.value()), joined({"42", "-42", "123456"}));
        // Bools are true and false, whatever the width or fill.
        const Tensor bools = tensor<bool>(h->allocator(), {2, 1}, {true, false});
        out = asString(*h, "", bools);
        QCOMPARE(joined(out.value()), joined({"true", "false"}));
        out = asString(*h, attrText("width", "i: 8") + attrText("fill", "s: '0'"), bools);
        QCOMPARE(joined(out.value()), joined({"true", "false"}));
        // No elements, no strings.
        out = asString(*h, "", tensor<std::int32_t>(h->allocator(), {0, 3}, {}));
        QVERIFY2(out.has_value(), err(out));
        QVERIFY(out->empty());
    }

    void asStringFloatingPoint()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // %f with 6 decimals by default; a float goes through as the double it is exactly
        // (1/3 in float32 is 0.3333333432674407958984375).
        auto out = asString(*h, "", tensor<float>(h->allocator(), {5}, {0.5f, 1.0f / 3.0f, 1e10f, -0.0f, 2.0f / 3.0f}));
        QCOMPARE(joined(out.value()), joined({"0.500000", "0.333333", "10000000000.000000", "-0.000000", "0.666667"}));
        out = asString(*h, "", tensor<double>(h->allocator(), {3}, {1e-7, -1234.5678, 1e20}));
        QCOMPARE(joined(out.value()), joined({"0.000000", "-1234.567800", "100000000000000000000.000000"}));
        // Precision: digits after the point, rounding to the nearest (0.125 and 2.5 are exact in
        // binary, so a tie rounds to even).
        out = asString(*h, attrText("precision", "i: 2"), tensor<double>(h->allocator(), {3}, {0.125, 0.126, -1.005}));
        QCOMPARE(joined(out.value()), joined({"0.12", "0.13", "-1.00"}));
        out = asString(*h, attrText("precision", "i: 0"), tensor<double>(h->allocator(), {3}, {2.5, 3.5, 0.7}));
        QCOMPARE(joined(out.value()), joined({"2", "4", "1"}));
        // Scientific: %e, one digit before the point and a two-digit exponent at least.
        out = asString(*h, attrText("scientific", "b: true"),
                       tensor<double>(h->allocator(), {3}, {12345.678, 0.0, -1e-300}));
        QCOMPARE(joined(out.value()), joined({"1.234568e+04", "0.000000e+00", "-1.000000e-300"}));
        out = asString(*h, attrText("scientific", "b: true") + attrText("precision", "i: 1"),
                       tensor<float>(h->allocator(), {1}, {0.00025f}));
        QCOMPARE(joined(out.value()), joined({"2.5e-04"}));
        // Shortest: %g, 6 significant digits, scientific below 1e-4 or from 1e6 on, trailing zeros dropped.
        out = asString(*h, attrText("shortest", "b: true"),
                       tensor<double>(h->allocator(), {6}, {100.0, 0.0001, 0.00001, 123456789.0, 123456.0, 0.1}));
        QCOMPARE(joined(out.value()), joined({"100", "0.0001", "1e-05", "1.23457e+08", "123456", "0.1"}));
        out = asString(*h, attrText("shortest", "b: true") + attrText("precision", "i: 3"),
                       tensor<double>(h->allocator(), {2}, {3.14159, 1234.0}));
        QCOMPARE(joined(out.value()), joined({"3.14", "1.23e+03"}));
        // Width, precision and fill together; # keeps the point (and %g's trailing zeros).
        out = asString(*h, attrText("width", "i: 10") + attrText("precision", "i: 3") + attrText("fill", "s: '0'"),
                       tensor<double>(h->allocator(), {2}, {3.14159, -2.5}));
        QCOMPARE(joined(out.value()), joined({"000003.142", "-00002.500"}));
        out = asString(*h, attrText("width", "i: 8") + attrText("precision", "i: 1"),
                       tensor<double>(h->allocator(), {1}, {-2.25}));
        QCOMPARE(joined(out.value()), joined({"    -2.2"}));
        out = asString(*h, attrText("precision", "i: 0") + attrText("fill", "s: '#'"),
                       tensor<double>(h->allocator(), {1}, {3.0}));
        QCOMPARE(joined(out.value()), joined({"3."}));
        out = asString(*h, attrText("shortest", "b: true") + attrText("fill", "s: '#'"),
                       tensor<double>(h->allocator(), {1}, {100.0}));
        QCOMPARE(joined(out.value()), joined({"100.000"}));
        // Infinities and NaN as the C library writes them.
        out = asString(*h, "",
                       tensor<float>(h->allocator(), {3},
                                     {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                      std::numeric_limits<float>::quiet_NaN()}));
        QCOMPARE(joined(out.value()), joined({"inf", "-inf", "nan"}));
    }

    void asStringComplex()
    {
        auto h = makeHarness();
        QVERIFY(h);
        // "(real,imag)", each part formatted alone, the width applying to each.
        auto out = asString(*h, "", tensor<std::complex<float>>(h->allocator(), {2}, {{1.5f, -2.0f}, {0.0f, 0.25f}}));
        QCOMPARE(joined(out.value()), joined({"(1.500000,-2.000000)", "(0.000000,0.250000)"}));
        out = asString(*h, attrText("precision", "i: 1") + attrText("width", "i: 5"),
                       tensor<std::complex<float>>(h->allocator(), {1}, {{1.5f, -2.0f}}));
        QCOMPARE(joined(out.value()), joined({"(  1.5, -2.0)"}));
        out = asString(*h, attrText("scientific", "b: true") + attrText("precision", "i: 2"),
                       tensor<std::complex<double>>(h->allocator(), {1}, {{1234.5, 0.001}}));
        QCOMPARE(joined(out.value()), joined({"(1.23e+03,1.00e-03)"}));
        out = asString(*h, attrText("shortest", "b: true"),
                       tensor<std::complex<double>>(h->allocator(), {1}, {{-0.5, 1e-10}}));
        QCOMPARE(joined(out.value()), joined({"(-0.5,1e-10)"}));
    }

    void asStringErrorsInTensorFlowsWords()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const Tensor ints = tensor<std::int32_t>(h->allocator(), {1}, {1});
        const Tensor bools = tensor<bool>(h->allocator(), {1}, {true});
        const Tensor floats = tensor<float>(h->allocator(), {1}, {1.0f});
        QCOMPARE(asStringError(*h, attrText("precision", "i: 2"), ints),
                 QString("precision not supported for datatype int32"));
        QCOMPARE(asStringError(*h, attrText("precision", "i: 0"), tensor<std::int64_t>(h->allocator(), {1}, {1})),
                 QString("precision not supported for datatype int64"));
        QCOMPARE(asStringError(*h, attrText("scientific", "b: true"), ints),
                 QString("scientific and shortest format not supported for datatype int32"));
        QCOMPARE(asStringError(*h, attrText("shortest", "b: true"), bools),
                 QString("scientific and shortest format not supported for datatype bool"));
        QCOMPARE(asStringError(*h, attrText("fill", "s: '00'"), floats),
                 QString("Fill string must be one or fewer characters"));
        QCOMPARE(asStringError(*h, attrText("scientific", "b: true") + attrText("shortest", "b: true"), floats),
                 QString("Cannot select both scientific and shortest notation"));
        QCOMPARE(asStringError(*h, attrText("fill", "s: 'x'") + attrText("width", "i: 4"), ints),
                 QString("Fill argument not supported: \"x\""));
        QCOMPARE(asStringError(*h, attrText("fill", "s: '%'"), ints), QString("Fill argument not supported: \"%\""));
        // The type checks come first, as in TensorFlow.
        QCOMPARE(asStringError(*h, attrText("precision", "i: 1") + attrText("fill", "s: 'ab'"), ints),
                 QString("precision not supported for datatype int32"));
        // Width and precision are int32 attrs in TensorFlow.
        QCOMPARE(asStringError(*h, attrText("width", "i: 4294967296"), ints),
                 QString("Attr width has value 4294967296 out of range for an int32"));
        // TensorFlow 1.15's AsString takes no strings or unsigned integers.
        auto out = asString(*h, "", strs(*h, {1}, {"a"}));
        QVERIFY(!out.has_value());
        QVERIFY2(out.error().message().starts_with("Value for attr 'T' of string is not in the list of allowed values"),
                 out.error().toString().c_str());
        out = asString(*h, "", tensor<std::uint8_t>(h->allocator(), {1}, {1}));
        QVERIFY(!out.has_value());
        QVERIFY2(out.error().message().starts_with("Value for attr 'T' of uint8 is not in the list of allowed values"),
                 out.error().toString().c_str());
    }

    // --- Shape functions and OpDefs ------------------------------------------------------------------

    void shapeFunctions()
    {
        auto h = makeHarness();
        QVERIFY(h);
        const OpRegistry& ops = h->ops();
        INFER_OK(ops, "RegexFullMatch", "", "[2,?];[]", "[2,?]");
        INFER_OK(ops, "RegexFullMatch", "", "?;?", "?");
        INFER_ERROR(ops, "Shape must be rank 0 but is rank 1", "RegexFullMatch", "", "[2];[1]");
        INFER_OK(ops, "StaticRegexFullMatch", "pattern='a'", "[3]", "[3]");
        INFER_OK(ops, "RegexReplace", "", "[?];[];[]", "[?]");
        INFER_ERROR(ops, "Shape must be rank 0 but is rank 2", "RegexReplace", "", "[?];[];[1,1]");
        INFER_OK(ops, "StaticRegexReplace", "pattern='a';rewrite='b'", "[2,3]", "[2,3]");
        INFER_OK(ops, "StringFormat", "T=[int32,float];template='{} and {}';placeholder='{}'", "[2];[?,3]", "[]");
        INFER_OK(ops, "StringFormat", "T=[];template='no input'", "", "[]");
        INFER_ERROR(ops, "num placeholders in template and num inputs must match: 1 vs. 2", "StringFormat",
                    "T=[int32,float]", "[];[]");
        INFER_OK(ops, "ReduceJoin", "", "[2,3];[1]={1}", "[2]");
        INFER_OK(ops, "ReduceJoin", "keep_dims=true", "[2,3];[1]={0}", "[1,3]");
        INFER_OK(ops, "ReduceJoin", "keep_dims=true", "[2,3];[?]", "[?,?]");
        INFER_ERROR(ops, "Invalid reduction dimension 2", "ReduceJoin", "", "[2,3];[1]={2}");
        INFER_OK(ops, "AsString", "T=int64", "[2,?,3]", "[2,?,3]");
        INFER_OK(ops, "AsString", "T=float", "?", "?");
        INFER_OK(ops, "AsString", "T=bool", "[]", "[]");
    }

    void opDefsAreTensorFlows()
    {
        // TensorFlow's OpDefs of these ops (tensorflow/core/ops/compat/ops_history_v2), written out
        // by hand; the exports of TensorFlow 2.3 list only their main graph's ops, not these.
        const char* expected[] = {
            R"pb(name: "RegexFullMatch" input_arg { name: "input" type: DT_STRING }
               input_arg { name: "pattern" type: DT_STRING } output_arg { name: "output" type: DT_BOOL })pb",
            R"pb(name: "StaticRegexFullMatch" input_arg { name: "input" type: DT_STRING }
               output_arg { name: "output" type: DT_BOOL } attr { name: "pattern" type: "string" })pb",
            R"pb(name: "RegexReplace" input_arg { name: "input" type: DT_STRING }
               input_arg { name: "pattern" type: DT_STRING } input_arg { name: "rewrite" type: DT_STRING }
               output_arg { name: "output" type: DT_STRING }
               attr { name: "replace_global" type: "bool" default_value { b: true } })pb",
            R"pb(name: "StaticRegexReplace" input_arg { name: "input" type: DT_STRING }
               output_arg { name: "output" type: DT_STRING } attr { name: "pattern" type: "string" }
               attr { name: "rewrite" type: "string" }
               attr { name: "replace_global" type: "bool" default_value { b: true } })pb",
            R"pb(name: "StringFormat" input_arg { name: "inputs" type_list_attr: "T" }
               output_arg { name: "output" type: DT_STRING }
               attr { name: "T" type: "list(type)" has_minimum: true }
               attr { name: "template" type: "string" default_value { s: "%s" } }
               attr { name: "placeholder" type: "string" default_value { s: "%s" } }
               attr { name: "summarize" type: "int" default_value { i: 3 } })pb",
            R"pb(name: "ReduceJoin" input_arg { name: "inputs" type: DT_STRING }
               input_arg { name: "reduction_indices" type: DT_INT32 } output_arg { name: "output" type: DT_STRING }
               attr { name: "keep_dims" type: "bool" default_value { b: false } }
               attr { name: "separator" type: "string" default_value { s: "" } })pb",
            R"pb(name: "AsString" input_arg { name: "input" type_attr: "T" } output_arg { name: "output" type: DT_STRING }
               attr { name: "T" type: "type" allowed_values { list { type: DT_INT8 type: DT_INT16 type: DT_INT32
                      type: DT_INT64 type: DT_COMPLEX64 type: DT_COMPLEX128 type: DT_FLOAT type: DT_DOUBLE
                      type: DT_BOOL } } }
               attr { name: "precision" type: "int" default_value { i: -1 } }
               attr { name: "scientific" type: "bool" default_value { b: false } }
               attr { name: "shortest" type: "bool" default_value { b: false } }
               attr { name: "width" type: "int" default_value { i: -1 } }
               attr { name: "fill" type: "string" default_value { s: "" } })pb",
        };
        auto h = makeHarness();
        QVERIFY(h);
        for (const char* text : expected) {
            tensorflow::OpDef op;
            QVERIFY2(google::protobuf::TextFormat::ParseFromString(text, &op), text);
            const OpRegistration* ours = h->ops().find(op.name());
            QVERIFY2(ours != nullptr, op.name().c_str());
            const QString diff = compareOpDefs(ours->opDef, op);
            QVERIFY2(diff.isEmpty(), qPrintable(diff));
        }
    }
};

QTEST_GUILESS_MAIN(TestStringKernels)
#include "test_string_kernels.moc"
