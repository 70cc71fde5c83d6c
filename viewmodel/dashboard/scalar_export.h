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

} // namespace tstudio::dashboard
