#include "run_style.h"

#include <array>

namespace tstudio::dashboard {

QColor defaultRunColour(int index)
{
    // Google's Material palette, as TensorBoard picks run colours: orange, blue, teal, pink, ...
    static constexpr std::array<QRgb, 10> kPalette = {
        0xff7043, 0x0077bb, 0x009988, 0xee3377, 0x33bbee, 0xcc3311, 0x8e24aa, 0x7cb342, 0xf9a825, 0x546e7a,
    };
    const int i = index < 0 ? 0 : index % static_cast<int>(kPalette.size());
    return QColor::fromRgb(kPalette[static_cast<std::size_t>(i)]);
}

const RunStyle* findRunStyle(const QVector<RunStyle>& runs, const QString& run)
{
    for (const RunStyle& r : runs)
        if (r.run == run)
            return &r;
    return nullptr;
}

} // namespace tstudio::dashboard
