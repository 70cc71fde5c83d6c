// What GraphViewer's source files share (graph_viewer*.cpp): text conversions of engine names.
#pragma once

#include <QString>

#include <string>

namespace tstudio::graph_viewer::detail {

/// A UTF-8 engine string as a QString.
inline QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

/// The last part of a slash-separated node or scope path ("a/b/c" -> "c").
inline QString leafName(const std::string& path)
{
    const auto slash = path.rfind('/');
    return q(slash == std::string::npos ? path : path.substr(slash + 1));
}

} // namespace tstudio::graph_viewer::detail
