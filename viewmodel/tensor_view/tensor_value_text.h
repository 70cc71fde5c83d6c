// Tensor elements as text, the way NumPy prints a scalar of the element's dtype (str(np.float32(0.1)) == "0.1").
#pragma once

#include "framework/tensor.h"

#include <QString>

#include <cstdint>
#include <string_view>

namespace tstudio::debugger_ui {

/// NumPy's str() of a float64 scalar: the shortest digits that read back as the same double, positional
/// for 1e-4 <= |v| < 1e16 ("0.0001", "123456789.0": integral values end in ".0"), scientific outside
/// ("1e-05", "1.5e+16": at least two exponent digits), "nan", "inf", "-inf", "-0.0".
QString formatDouble(double value);
/// The same with the shortest digits of a float32 ("0.33333334"), a float16 ("0.3333", "65500.0")
/// or a bfloat16 (as ml_dtypes prints it: shortest digits of its own precision).
QString formatFloat(float value);
QString formatHalf(Eigen::half value);
QString formatBFloat16(Eigen::bfloat16 value);

/// Python's bytes literal of `bytes` (b'abc', b"it's", b'\x00\n'), as NumPy prints a string element.
QString formatBytesLiteral(std::string_view bytes);

/// Element `index` (row-major) of an initialized tensor as NumPy prints it as a scalar: floats as
/// above in their own precision, integers in decimal, quantized dtypes as their stored integers,
/// "True"/"False", complex numbers as Python writes them ("(1+2j)", "2.5j", "(nan+1j)"), strings as
/// bytes literals (cut after `maxStringChars` characters of the literal, with "…"). Resource and
/// variant elements give "<resource>"; an index out of range gives an empty string.
QString formatElement(const Tensor& tensor, std::int64_t index, int maxStringChars = 200);

/// A real value (a statistic such as min or max) printed in the precision of `dtype`: floating dtypes as
/// that dtype's scalar, integer, quantized and bool dtypes as an integer when the value is integral,
/// anything else (a mean, infinities) as a float64.
QString formatValueAs(double value, DataType dtype);

} // namespace tstudio::debugger_ui
