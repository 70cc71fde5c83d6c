// fixturePath: fixturesDir() joined with a relative path, if that exists.
#include "fixture_paths.h"

#include "test_files.h"

#include <QFileInfo>

namespace tstudio::testing {

std::string fixturePath(const char* relative)
{
    const QString root = fixturesDir();
    if (root.isEmpty() || !QFileInfo::exists(root + "/" + relative))
        return {};
    return (root + "/" + relative).toStdString();
}

QByteArray missingFixture(const char* relative)
{
    return QByteArray("fixture ") + relative + " not found (../shared/fixtures or $TSTUDIO_FIXTURES): not checked";
}

} // namespace tstudio::testing
