// tstudio_catalog_strings: writes the lupdate-only list of the op registry's and the layer
// catalogue's texts (translations/catalog_strings.cpp) that the GUI translates at run time.
#include "catalog_strings.h"

#include "framework/op_registry.h"
#include "layers/layer_catalog.h"
#include "registries/register_all_ops.h"

#include <fstream>
#include <iostream>

int main(int argc, char** argv)
{
    if (argc != 2 || std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h") {
        std::cerr << "usage: tstudio_catalog_strings OUTPUT.cpp\n"
                     "Writes every op and layer text the GUI translates at run time as QT_TRANSLATE_NOOP\n"
                     "entries for lupdate (normally translations/catalog_strings.cpp).\n";
        return argc == 2 ? 0 : 2;
    }
    tstudio::OpRegistry registry;
    if (const tstudio::Status status = tstudio::registerAllOps(registry); !status.isOk()) {
        std::cerr << "tstudio_catalog_strings: " << status.toString() << '\n';
        return 1;
    }
    using namespace tstudio::catalog_strings;
    const auto texts = catalogTexts(registry, tstudio::layers::layerCatalog());
    std::ofstream out(argv[1], std::ios::binary | std::ios::trunc);
    out << renderCatalogSource(texts);
    out.close();
    if (!out) {
        std::cerr << "tstudio_catalog_strings: cannot write " << argv[1] << '\n';
        return 1;
    }
    std::size_t ops = 0;
    for (const auto& text : texts)
        ops += text.context == kOpsContext;
    std::cout << "wrote " << argv[1] << ": " << ops << " op texts, " << texts.size() - ops << " layer texts\n";
    return 0;
}
