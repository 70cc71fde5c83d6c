// The op registry's and the layer catalogue's English documentation in the user's language.
#include "common/catalog_text.h"

#include <QCoreApplication>

namespace tstudio {
namespace {

QString translatedCatalogText(const char* context, std::string_view text)
{
    // The key is the trimmed UTF-8 text, as tools/catalog_strings writes it for lupdate.
    const QByteArray key = QByteArray(text.data(), static_cast<qsizetype>(text.size())).trimmed();
    if (key.isEmpty())
        return {};
    return QCoreApplication::translate(context, key.constData());
}

} // namespace

QString opCatalogText(std::string_view text)
{
    return translatedCatalogText("tstudio::ops", text);
}

QString layerCatalogText(std::string_view text)
{
    return translatedCatalogText("tstudio::layers", text);
}

} // namespace tstudio
