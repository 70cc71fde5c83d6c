// The string op family of TensorFlow's string_ops.cc that saved graphs use: the RE2 regex ops
// (RegexFullMatch, StaticRegexFullMatch, RegexReplace, StaticRegexReplace), StringFormat,
// ReduceJoin and AsString, with their shape functions. StringJoin lives with the Saver's ops (io_ops.cpp).
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/op_families.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tstudio {

namespace {

using C = ShapeInferenceContext;

OpDefBuilder stringOp(std::string name, std::string summary)
{
    OpDefBuilder builder(std::move(name));
    builder.summary(std::move(summary)).category(op_category::kArray);
    return builder;
}

constexpr const char* kRe2Syntax = "An RE2 regular expression (https://github.com/google/re2/wiki/Syntax).";
constexpr const char* kRewriteSyntax =
    "The replacement: \\0 is the whole match, \\1 to \\9 the capture groups, \\\\ a backslash.";

std::vector<OpDefBuilder> stringOpDefinitions()
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = stringOp("RegexFullMatch", "Tells for every string whether the whole of it matches a regex.");
        op.input("input: string")
            .input("pattern: string")
            .output("output: bool")
            .doc("pattern", std::string("Scalar. ") + kRe2Syntax)
            .doc("output", "True where the pattern matches the entire string (not just a part).");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("StaticRegexFullMatch",
                                   "RegexFullMatch with the regex as an attr, compiled once; TensorFlow 2's savers "
                                   "test their prefix with it (\"^s3://.*\").");
        op.input("input: string").attr("pattern: string").output("output: bool").doc("pattern", kRe2Syntax);
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("RegexReplace", "Replaces the matches of a regex in every string.");
        op.input("input: string")
            .input("pattern: string")
            .input("rewrite: string")
            .output("output: string")
            .attr("replace_global: bool = true")
            .doc("pattern", std::string("Scalar. ") + kRe2Syntax)
            .doc("rewrite", std::string("Scalar. ") + kRewriteSyntax)
            .doc("replace_global", "Replace every non-overlapping match; false replaces the first only.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("StaticRegexReplace", "RegexReplace with the regex and rewrite as attrs.");
        op.input("input: string")
            .attr("pattern: string")
            .attr("rewrite: string")
            .output("output: string")
            .attr("replace_global: bool = true")
            .doc("pattern", kRe2Syntax)
            .doc("rewrite", kRewriteSyntax)
            .doc("replace_global", "Replace every non-overlapping match; false replaces the first only.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("StringFormat",
                                   "Formats tensors into a template string, each printed as tf.print prints it.");
        op.input("inputs: T")
            .output("output: string")
            .attr("T: list(type) >= 0")
            .attr("template: string = '%s'")
            .attr("placeholder: string = '%s'")
            .attr("summarize: int = 3")
            .doc("template", "The text; each occurrence of `placeholder` takes the next input.")
            .doc("placeholder", "The marker replaced by an input (Python's tf.strings.format passes \"{}\").")
            .doc("summarize", "Elements printed at each end of every dimension; longer dimensions show \"...\" "
                              "between them. Negative: every element.")
            .doc("output", "Scalar: the formatted text.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("ReduceJoin", "Joins strings along the given dimensions, in row-major order.");
        op.input("inputs: string")
            .input("reduction_indices: int32")
            .attr("keep_dims: bool = false")
            .attr("separator: string = ''")
            .output("output: string")
            .doc("reduction_indices", "The dimensions to join over (negative ones count from the end); none "
                                      "joins nothing. tf.strings.reduce_join passes every dimension by default.")
            .doc("keep_dims", "Keep the joined dimensions with length 1.")
            .doc("separator", "Put between the joined strings.");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = stringOp("AsString", "Writes every number or bool of a tensor as text, numbers as C's "
                                               "printf writes them (bools as \"true\" and \"false\").");
        op.input("input: T")
            .output("output: string")
            .attr("T: {int8, int16, int32, int64, complex64, complex128, float, double, bool}")
            .attr("precision: int = -1")
            .attr("scientific: bool = false")
            .attr("shortest: bool = false")
            .attr("width: int = -1")
            .attr("fill: string = ''")
            .doc("precision", "Digits after the decimal point of floating-point numbers (6 when -1); an error "
                              "for the other types.")
            .doc("scientific", "Floating-point numbers in scientific notation (printf's %e).")
            .doc("shortest", "Floating-point numbers in the shorter of plain and scientific notation (printf's "
                             "%g); not together with scientific.")
            .doc("width", "Pad each number (each part of a complex one) to at least this many characters; -1: "
                          "no padding.")
            .doc("fill", "At most one character, one of printf's flags: \"0\" pads with zeros, \"-\" pads on "
                         "the right, \"+\" and \" \" mark positive numbers, \"#\" keeps the decimal point; "
                         "empty pads with spaces.")
            .doc("output", "The text of each element, in the input's shape; complex numbers as "
                           "\"(real,imag)\".");
        ops.push_back(std::move(op));
    }
    return ops;
}

// --- Shape functions -------------------------------------------------------------------------------

/// RegexFullMatch / RegexReplace: the scalar inputs after the strings, then the strings' shape.
Status regexShape(C& c)
{
    for (int i = 1; i < c.numInputs(); ++i) {
        if (auto scalar = c.withRank(i, 0); !scalar)
            return scalar.error();
    }
    c.setOutput(0, c.input(0));
    return Status::ok();
}

/// The pieces absl::StrSplit(text, placeholder) gives, as StringFormat splits its template: the
/// occurrences plus one; an empty placeholder splits between every character.
std::size_t templatePieces(std::string_view text, std::string_view placeholder)
{
    if (placeholder.empty())
        return text.empty() ? 1 : text.size();
    std::size_t pieces = 1;
    for (std::size_t at = text.find(placeholder); at != std::string_view::npos;
         at = text.find(placeholder, at + placeholder.size()))
        ++pieces;
    return pieces;
}

/// StringFormat: one input per placeholder of the template; the output is a scalar.
Status stringFormatShape(C& c)
{
    auto text = c.attrString("template");
    if (!text)
        return text.error();
    auto placeholder = c.attrString("placeholder");
    if (!placeholder)
        return placeholder.error();
    const std::size_t placeholders = templatePieces(*text, *placeholder) - 1;
    if (placeholders != static_cast<std::size_t>(c.numInputs()))
        return invalidArgumentError("num placeholders in template and num inputs must match: " +
                                    std::to_string(placeholders) + " vs. " + std::to_string(c.numInputs()));
    c.setOutput(0, TensorShape::scalar());
    return Status::ok();
}

} // namespace

Status registerStringOps(OpRegistry& registry)
{
    for (const OpDefBuilder& builder : stringOpDefinitions()) {
        if (Status status = registry.registerOp(builder); !status.isOk())
            return status;
    }
    const std::vector<std::pair<const char*, ShapeFunction>> shapes = {
        {"RegexFullMatch", regexShape},       {"StaticRegexFullMatch", unchangedShape},
        {"RegexReplace", regexShape},         {"StaticRegexReplace", unchangedShape},
        {"StringFormat", stringFormatShape},  {"ReduceJoin", reductionShape},
        {"AsString", unchangedShape},
    };
    for (const auto& [name, function] : shapes) {
        if (Status status = registry.setShapeFunction(name, function); !status.isOk())
            return status;
    }
    return Status::ok();
}

} // namespace tstudio
