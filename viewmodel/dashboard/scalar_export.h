// TensorBoard's scalar downloads (CSV and JSON) without Qt, byte for byte.
#pragma once

#include "io/events/event_accumulator.h"

#include <span>
#include <string>

namespace tstudio::dashboard {

/// Python's repr() of a float: the shortest digits that read back to `v`, in fixed notation with a
/// trailing ".0" for 1e-4 <= |v| < 1e16, otherwise as "1.5e-05" / "1e+16"; "nan", "inf", "-inf".
std::string pythonFloatRepr(double v);

/// The CSV TensorBoard's scalars route gives (Python's csv module, "\r\n" line ends):
/// "Wall time,Step,Value" then one "wall_time,step,value" row per sample, floats as Python's repr
/// (a float32 value is written as the double it widens to, e.g. 0.10000000149011612), no locale.
std::string scalarsCsv(std::span<const events::ScalarSample> samples);

/// The JSON TensorBoard's scalars route gives: json.dumps of [[wall_time, step, value], ...] with
/// ", " separators, floats as Python's repr, NaN/Infinity/-Infinity as the strings "NaN",
/// "Infinity", "-Infinity" (TensorBoard cleanses them), no trailing newline.
std::string scalarsJson(std::span<const events::ScalarSample> samples);

/// One run's samples of one tag, for the dashboard's export of every visible run at once.
struct RunTagScalars {
    std::string run;
    std::string tag;
    std::span<const events::ScalarSample> samples;
};

/// Every (run, tag) in one CSV: "run,tag,wall_time,step,value" then a row per sample, floats as
/// Python's repr, run and tag quoted as Python's csv module quotes (when they hold a comma, a quote
/// or a line end), "\r\n" line ends.
std::string allScalarsCsv(std::span<const RunTagScalars> series);

/// Every (run, tag) in one JSON object: {"run": {"tag": [[wall_time, step, value], ...]}} with each
/// list as scalarsJson writes it; runs and tags in the order given.
std::string allScalarsJson(std::span<const RunTagScalars> series);

} // namespace tstudio::dashboard