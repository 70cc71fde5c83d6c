// Category colours chosen to stay apart for colour-blind readers (Okabe-Ito based) and light enough for dark text.
#include "common/op_style.h"

#include "framework/op_registry.h"

#include <QCoreApplication>

#include <array>

namespace tstudio {

QColor opCategoryColour(std::string_view category)
{
    if (category == op_category::kMath)
        return QColor(0xa6, 0xcb, 0xf0);
    if (category == op_category::kArray)
        return QColor(0xf3, 0xd3, 0x8c);
    if (category == op_category::kNN)
        return QColor(0xf4, 0xa6, 0x8e);
    if (category == op_category::kState)
        return QColor(0xb8, 0xe0, 0xb0);
    if (category == op_category::kControlFlow)
        return QColor(0xd6, 0xb8, 0xe8);
    if (category == op_category::kTraining)
        return QColor(0x9f, 0xdc, 0xd6);
    if (category == op_category::kRandom)
        return QColor(0xf0, 0xb6, 0xd2);
    if (category == op_category::kSummary)
        return QColor(0xd9, 0xd2, 0xc0);
    if (category == kDatasetCategory)
        return QColor(0xcc, 0xd0, 0x78);
    if (category == kFunctionCallCategory)
        return QColor(0x94, 0xa0, 0xf0);
    return QColor(0xdc, 0xdc, 0xdc);
}

const std::vector<std::string_view>& opCategoriesForLegend()
{
    static const std::vector<std::string_view> categories = {
        op_category::kMath,     op_category::kArray,  op_category::kNN,      op_category::kState,
        op_category::kControlFlow, op_category::kTraining, op_category::kRandom, op_category::kSummary,
        kDatasetCategory, kFunctionCallCategory, std::string_view{}};
    return categories;
}

QString opCategoryDisplayName(std::string_view category)
{
    if (category == op_category::kMath)
        return QCoreApplication::translate("OpStyle", "Math");
    if (category == op_category::kArray)
        return QCoreApplication::translate("OpStyle", "Array");
    if (category == op_category::kNN)
        return QCoreApplication::translate("OpStyle", "Neural network");
    if (category == op_category::kState)
        return QCoreApplication::translate("OpStyle", "State");
    if (category == op_category::kControlFlow)
        return QCoreApplication::translate("OpStyle", "Control flow");
    if (category == op_category::kTraining)
        return QCoreApplication::translate("OpStyle", "Training");
    if (category == op_category::kRandom)
        return QCoreApplication::translate("OpStyle", "Random");
    if (category == op_category::kSummary)
        return QCoreApplication::translate("OpStyle", "Summary");
    if (category == kDatasetCategory)
        return QCoreApplication::translate("OpStyle", "Dataset (tf.data)");
    if (category == kFunctionCallCategory)
        return QCoreApplication::translate("OpStyle", "Function call");
    return QCoreApplication::translate("OpStyle", "Other");
}

QColor paletteColour(int index)
{
    static const std::array<QColor, 8> base = {QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00),
                                               QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                               QColor(0xf0, 0xe4, 0x42), QColor(0x00, 0x72, 0xb2),
                                               QColor(0xd5, 0x5e, 0x00), QColor(0x99, 0x99, 0x99)};
    if (index < 0)
        index = 0;
    const QColor c = base[static_cast<std::size_t>(index) % base.size()];
    const int round = index / static_cast<int>(base.size());
    return round == 0 ? c : c.lighter(100 + 25 * round);
}

QColor textColourOn(const QColor& fill)
{
    return fill.lightnessF() > 0.55 ? QColor(0x20, 0x20, 0x20) : QColor(0xf5, 0xf5, 0xf5);
}

} // namespace tstudio
