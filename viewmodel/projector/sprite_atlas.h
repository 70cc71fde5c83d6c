// A projector sprite: one image holding a thumbnail per point, laid out as TensorBoard's projector
// reads it, cut into the points' thumbnails.
#pragma once

#include "core/expected.h"

#include <QImage>

#include <cstddef>
#include <filesystem>
#include <vector>

namespace tstudio::projector {

/// Reads the sprite image at `path` (PNG, JPEG, ... as Qt reads them) and cuts it into `points`
/// thumbnails of `imageWidth` x `imageHeight` pixels, row by row: point i at column i % perRow and
/// row i / perRow, perRow = floor(sprite width / imageWidth), as TensorBoard's projector places
/// them (tf's images_to_sprite writes a square grid). Each thumbnail is scaled to fit
/// `thumbnailSize` x `thumbnailSize` (aspect kept, smooth), ARGB32 premultiplied. InvalidArgument
/// naming the file: it cannot be read, a single image size under 1, or a sprite holding fewer
/// images than points ("holds 100 images of 28x28, the embedding has 120 points").
Expected<std::vector<QImage>> spriteThumbnails(const std::filesystem::path& path, int imageWidth, int imageHeight,
                                               std::size_t points, int thumbnailSize);

} // namespace tstudio::projector
