// The op registry's and the layer catalogue's English documentation in the user's language.
#pragma once

#include <QString>

#include <string_view>

namespace tstudio {

/// An op text (OpDef summary or description, attr or arg description) in the current UI language: `text`
/// trimmed, translated in the context "tstudio::ops", or the trimmed English where no translation
/// is installed. The texts reach the .ts files through translations/catalog_strings.cpp
/// (tools/catalog_strings/, which lists them trimmed as well). GUI thread.
QString opCatalogText(std::string_view text);

/// A layer text (LayerType::doc, LayerParam::doc) in the current UI language, as opCatalogText in
/// the context "tstudio::layers".
QString layerCatalogText(std::string_view text);

} // namespace tstudio
