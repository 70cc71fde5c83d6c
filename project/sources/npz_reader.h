// readNpzArrays: arrays from a NumPy .npz archive (np.savez, np.savez_compressed) through libzip.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tstudio::project {

/// The arrays `keys` of the .npz archive `path`, in that order: key "x" is the member "x.npy"
/// (stored by np.savez, deflated by np.savez_compressed), decoded with parseNpy. Errors name the
/// archive (its path as given) and the member:
///   NotFound "no file '/d/data.npz'";
///   InvalidArgument "'/d/data.npz' is not a readable zip archive: Not a zip archive";
///   NotFound "'/d/data.npz' has no array 'y' (it has x, z)";
///   ResourceExhausted "/d/data.npz: y.npy: declares 1099511627776 bytes ..." before allocating;
///   DataLoss "/d/data.npz: y.npy: CRC error" and other damage libzip finds while inflating;
///   parseNpy's errors prefixed "/d/data.npz: y.npy".
/// Thread-safe (each call opens its own archive).
Expected<std::vector<Tensor>> readNpzArrays(const std::filesystem::path& path, const std::vector<std::string>& keys,
                                            Allocator& allocator);

} // namespace tstudio::project
