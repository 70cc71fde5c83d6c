// Node and tensor names as the commands take them (--outputs a,b --outputs c).
#pragma once

#include <string>
#include <vector>

namespace tstudio::cli {

/// The names in `items`, each item comma-separated, spaces ignored, empty names dropped, in order
/// ("a, b" and "c" give a, b, c), as freeze_graph takes --output_node_names.
inline std::vector<std::string> splitNames(const std::vector<std::string>& items)
{
    std::vector<std::string> names;
    for (const std::string& item : items) {
        std::string current;
        for (char c : item + ",") {
            if (c == ',') {
                if (!current.empty())
                    names.push_back(current);
                current.clear();
            } else if (c != ' ') {
                current += c;
            }
        }
    }
    return names;
}

} // namespace tstudio::cli
