// Random translation of image batches: the data augmentation the MNIST example's input pipeline
// maps over its training batches.
#pragma once

#include "core/expected.h"
#include "framework/allocator.h"
#include "framework/tensor.h"

#include <cstdint>
#include <random>

namespace tstudio::examples {

/// Shifts each image of `images` (float32 [N, height * width], row-major pixels, one channel) by
/// its own random whole-pixel offset (dy, dx), each drawn uniformly from [-maxShift, maxShift]
/// with `engine`; pixels shifted in from outside are 0. maxShift 0 returns a copy.
/// InvalidArgument when `images` is not a float32 matrix of N rows of height * width pixels, or
/// maxShift is negative or not smaller than both sides.
Expected<Tensor> randomShiftImages(const Tensor& images, int height, int width, int maxShift, std::mt19937_64& engine,
                                   Allocator& allocator);

} // namespace tstudio::examples
