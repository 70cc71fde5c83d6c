// loadNumpyArrays: a "numpy" data source's arrays (.npy files or one .npz), checked to share their
// first (example) dimension.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::project {

/// The arrays of a numpy source, one per component in order: each .npy file of `files` (with
/// `keys` empty), or the arrays `keys` of the single .npz archive `files[0]`. Every array has a
/// first dimension and all have the same one (the number of examples). Errors name the files or
/// keys: readNpy's and readNpzArrays' (NotFound "no file ...", DataLoss "... .npy data is
/// truncated ..."); InvalidArgument "'/d/x.npy' is a scalar; a numpy source needs arrays whose
/// first dimension indexes the examples"; InvalidArgument "'/d/x.npy' holds 10 examples (its first
/// dimension) but '/d/y.npy' holds 9" (for an archive: "array 'x' of '/d/d.npz' holds 10 examples
/// (its first dimension) but array 'y' holds 9").
Expected<std::vector<Tensor>> loadNumpyArrays(const std::vector<std::filesystem::path>& files,
                                              const std::vector<std::string>& keys, Allocator& allocator);

} // namespace tstudio::project
