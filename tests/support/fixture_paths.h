// fixturePath: a file of ../shared/fixtures (or $TSTUDIO_FIXTURES) for the tests that check real
// TensorFlow files, and the skip message when it is absent.
#pragma once

#include <QByteArray>

#include <string>

namespace tstudio::testing {

/// The path of `relative` under fixturesDir(), or "" when the fixtures or that file are absent
/// (the test then QSKIPs with missingFixture(relative)).
std::string fixturePath(const char* relative);

/// "fixture RELATIVE not found (../shared/fixtures or $TSTUDIO_FIXTURES): not checked".
QByteArray missingFixture(const char* relative);

} // namespace tstudio::testing
