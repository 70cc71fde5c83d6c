// Catalogue strings: the op registry's and the layer catalogue's texts that the GUI translates at run
// time, and the lupdate-only C++ source (translations/catalog_strings.cpp) that lists them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tstudio {
class OpRegistry;
}

namespace tstudio::layers {
struct LayerType;
}

namespace tstudio::catalog_strings {

/// The translation context of op texts (OpDef summaries and descriptions, attr and arg descriptions).
inline constexpr char kOpsContext[] = "tstudio::ops";
/// The translation context of layer texts (LayerType::doc, LayerParam::doc).
inline constexpr char kLayersContext[] = "tstudio::layers";

/// One text to translate: its context and its English source, as the GUI looks it up.
struct CatalogText {
    std::string context;
    std::string text;
    friend auto operator<=>(const CatalogText&, const CatalogText&) = default;
};

/// `text` without leading and trailing ASCII whitespace: the form the GUI passes to translate()
/// (QString::trimmed of a registry text).
std::string trimmedText(std::string_view text);

/// Every distinct non-empty text the GUI shows from `ops` and `layers`, trimmed (trimmedText), sorted
/// by context then text (bytewise), without duplicates:
///   kOpsContext: each op's summary, description, attr descriptions and input and output arg
///                descriptions (ops whose names start with '_' are skipped, as the palette skips
///                them; attrs starting with '_' too, as the attribute editor skips them);
///   kLayersContext: each layer type's doc and each of its params' docs.
std::vector<CatalogText> catalogTexts(const OpRegistry& ops, const std::vector<layers::LayerType>& layers);

/// `text` as a C++ string literal lupdate reads back byte for byte: quotes and backslashes escaped,
/// newlines as \n, tabs as \t, other control bytes as three-digit octal escapes; UTF-8 kept as is.
std::string cppStringLiteral(std::string_view text);

/// One entry line of the generated source: `    QT_TRANSLATE_NOOP("<context>", "<text>"),`.
std::string entryLine(const CatalogText& entry);

/// The command that regenerates translations/catalog_strings.cpp, for messages and the file's header.
/// update_translations runs tstudio_catalog_strings (target update_catalog_strings) before lupdate.
inline constexpr char kRegenerateCommand[] = "cmake --build build --target update_translations";

/// The whole generated source: a header comment (generated, not compiled, how to regenerate), then an
/// array of entryLine(texts[i]) in order.
std::string renderCatalogSource(const std::vector<CatalogText>& texts);

} // namespace tstudio::catalog_strings
