// checkpointDiff: what changed between two checkpoints, tensor by tensor: tensors added and removed,
// dtype or shape changes, and for tensors of the same dtype and shape the largest absolute change
// and the relative change. Qt-free.
#pragma once

#include "core/expected.h"
#include "io/checkpoint/checkpoint_reader.h"

#include <string>
#include <vector>

namespace tstudio::diff {

/// One tensor present in both checkpoints.
struct TensorChange {
    std::string name;
    std::string dtypeBefore, dtypeAfter; ///< TensorFlow's DataTypeString ("float")
    std::string shapeBefore, shapeAfter; ///< "[3,4]"
    /// Same dtype and shape: the values were compared.
    bool compared = false;
    /// max |b - a| over the elements (NaN when some element is NaN on one side only; strings and
    /// bools: 1 when any element differs, else 0).
    double maxAbsDelta = 0;
    /// ||b - a||_2 / ||a||_2 (0 when both are zero; +inf when only `a` is zero).
    double relativeChange = 0;
    /// Elements whose value differs (NaN equal to NaN).
    std::int64_t changedElements = 0;
    std::int64_t elements = 0;
    bool changed() const;
};

struct CheckpointDiff {
    std::vector<std::string> added;   ///< only in the second checkpoint
    std::vector<std::string> removed; ///< only in the first
    std::vector<TensorChange> common; ///< in both, by name
    bool identical() const;
};

/// Compares every tensor of `first` with the same-named tensor of `second` (read whole, numbers
/// as double). Errors: a tensor that cannot be read, named (the reader's errors).
Expected<CheckpointDiff> checkpointDiff(const CheckpointReader& first, const CheckpointReader& second);

} // namespace tstudio::diff
