// Cutting a projector sprite into its points' thumbnails.
#include "projector/sprite_atlas.h"

#include <QImageReader>
#include <QString>

namespace tstudio::projector {

Expected<std::vector<QImage>> spriteThumbnails(const std::filesystem::path& path, int imageWidth, int imageHeight,
                                               std::size_t points, int thumbnailSize)
{
    const std::string name = "sprite '" + path.string() + "'";
    if (imageWidth < 1 || imageHeight < 1)
        return unexpected(invalidArgumentError(name + ": single_image_dim must be two sizes of at least 1, got " +
                                               std::to_string(imageWidth) + "x" + std::to_string(imageHeight)));
    QImageReader reader(QString::fromStdString(path.string()));
    const QImage sprite = reader.read();
    if (sprite.isNull())
        return unexpected(invalidArgumentError(name + ": cannot be read (" + reader.errorString().toStdString() + ")"));
    const int perRow = sprite.width() / imageWidth;
    const int rows = sprite.height() / imageHeight;
    const std::size_t capacity = static_cast<std::size_t>(perRow) * static_cast<std::size_t>(rows);
    if (capacity < points)
        return unexpected(invalidArgumentError(
            name + " (" + std::to_string(sprite.width()) + "x" + std::to_string(sprite.height()) + ") holds " +
            std::to_string(capacity) + " images of " + std::to_string(imageWidth) + "x" + std::to_string(imageHeight) +
            ", the embedding has " + std::to_string(points) + " points"));
    const QImage source = sprite.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    std::vector<QImage> out;
    out.reserve(points);
    for (std::size_t i = 0; i < points; ++i) {
        const int column = static_cast<int>(i % static_cast<std::size_t>(perRow));
        const int row = static_cast<int>(i / static_cast<std::size_t>(perRow));
        out.push_back(source.copy(column * imageWidth, row * imageHeight, imageWidth, imageHeight)
                          .scaled(thumbnailSize, thumbnailSize, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    }
    return out;
}

} // namespace tstudio::projector
