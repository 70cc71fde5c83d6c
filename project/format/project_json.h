// Reading a project's JSON with errors that name the file and the JSON path, and the data
// sources' JSON form (both directions). Internal to the project library.
#pragma once

#include "core/expected.h"
#include "core/try.h"
#include "project/format/project_file.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tstudio::project {

/// A JSON value as errors quote it: strings in single quotes, numbers as written, other kinds by
/// name ("an object", "an array", "null"), long values cut.
std::string describeJson(const nlohmann::json& value);

/// "a.b" (or "b" under the root).
std::string jsonChild(const std::string& path, const std::string& key);

/// Typed reads of an object's keys. Every error is InvalidArgument "<label>: <path>.<key>: ...".
/// A key that is absent (or null) takes `fallback`; with no fallback it is "required".
class JsonReader {
public:
    explicit JsonReader(std::string label) : m_label(std::move(label)) {}

    Status error(const std::string& path, const std::string& message) const;
    /// "<path>.<key>: unknown key" for the first key of `object` not in `allowed`.
    Status checkKeys(const nlohmann::json& object, const std::string& path,
                     const std::vector<std::string>& allowed) const;

    Expected<double> number(const nlohmann::json& value, const std::string& path) const;
    Expected<double> numberKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                               std::optional<double> fallback) const;
    Expected<std::optional<double>> optionalNumberKey(const nlohmann::json& object, const std::string& path,
                                                      const std::string& key) const;
    Expected<std::int64_t> intKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                                  std::optional<std::int64_t> fallback) const;
    /// intKey that must be >= 1.
    Expected<std::int64_t> positiveIntKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                                          std::optional<std::int64_t> fallback) const;
    Expected<bool> boolKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                           bool fallback) const;
    Expected<std::string> stringKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                                    std::optional<std::string> fallback) const;
    Expected<std::optional<std::string>> optionalStringKey(const nlohmann::json& object, const std::string& path,
                                                           const std::string& key) const;
    /// "expected one of A, B, C, got 'x'".
    Expected<std::string> oneOf(const nlohmann::json& object, const std::string& path, const std::string& key,
                                const std::vector<std::string>& options, std::optional<std::string> fallback) const;
    Expected<std::vector<std::int64_t>> intListKey(const nlohmann::json& object, const std::string& path,
                                                   const std::string& key) const;
    Expected<std::vector<double>> numberListKey(const nlohmann::json& object, const std::string& path,
                                                const std::string& key) const;
    Expected<std::vector<std::string>> stringListKey(const nlohmann::json& object, const std::string& path,
                                                     const std::string& key) const;
    /// A dtype name ("float32", "int64", ...) limited to `allowed`.
    Expected<DataType> dtypeKey(const nlohmann::json& object, const std::string& path, const std::string& key,
                                const std::vector<DataType>& allowed) const;

private:
    std::string m_label;
};

/// One entry of data.sources, validated (see DataSource and the README's "Project files").
Expected<DataSource> readDataSource(const JsonReader& reader, const nlohmann::json& value, const std::string& path);
/// Its JSON form, every key in a fixed order.
nlohmann::ordered_json dataSourceJson(const DataSource& source);
/// The component names a source gives ("points", "labels"; a tfrecord's features; a csv's columns).
std::vector<std::string> sourceComponents(const DataSource& source);

/// The "export" section (`path` "export"): optional "saved_model" and "frozen_graph" paths (non-empty
/// strings), "inputs" and "outputs" (arrays of non-empty names, none twice), "moving_average" (bool).
/// Errors (InvalidArgument "<label>: export.<key>...: ..."): not an object, an unknown key, a value of
/// the wrong kind, an empty or repeated name. Whether the names are in the graph is checked when
/// exporting (project_export.h).
Expected<ExportSettings> readExportSettings(const JsonReader& reader, const nlohmann::json& value,
                                            const std::string& path);
/// Its JSON form, every key in a fixed order (absent paths as null).
nlohmann::ordered_json exportSettingsJson(const ExportSettings& settings);

/// One entry of "summaries" (`path` "summaries[2]"), validated against the project's data sources
/// (read before it). Errors (InvalidArgument "<label>: <path>.<key>: ..."): an unknown kind or key;
/// both or neither of "tensor" and "source"; a source index out of range; a component the source
/// lacks or feeds to no placeholder on its own; max_outputs (image and audio), sample_rate (audio,
/// required, positive) and shape (image and audio, sizes >= 1) where they do not apply; a family on
/// a text summary. Whether the tensor exists and fits the kind is checked against the graph when
/// training starts (project_summaries.h).
Expected<SummarySpec> readSummarySpec(const JsonReader& reader, const nlohmann::json& value, const std::string& path,
                                      const std::vector<DataSource>& sources);
/// Its JSON form, keys in a fixed order, the optional ones only when set.
nlohmann::ordered_json summarySpecJson(const SummarySpec& spec);

/// The "eval" section (`path` "eval"), its sources read against data.sources (read before it; a
/// {"from", "skip", "take"} entry copies that mnist or numpy source with the new skip and take).
/// Errors (InvalidArgument "<label>: <path>.<key>: ..."): no sources; a split of a source that has
/// no skip/take; none of every_steps, every_secs and after_checkpoint; an unknown metric kind or
/// key, a key the kind requires, predictions and logits both given, two metrics of one name; best or
/// early_stopping naming a metric that is not listed, or a mean metric without "mode"; the data
/// sources' own errors (eval_json.cpp).
Expected<EvalSettings> readEvalSettings(const JsonReader& reader, const nlohmann::json& value, const std::string& path,
                                        const std::vector<DataSource>& sources);
/// Its JSON form (a split source as {"from", "skip", "take"}), keys in a fixed order.
nlohmann::ordered_json evalSettingsJson(const EvalSettings& settings);

} // namespace tstudio::project
