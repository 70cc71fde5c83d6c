// The default op, kernel and gradient registries, made once per test executable.
#pragma once

#include "registries/default_registries.h"

#include <QtGlobal>

#include <memory>

namespace tstudio::testing {

/// makeDefaultRegistries() at the first call; the test stops (qFatal) when that fails.
inline const Registries& sharedRegistries()
{
    static const std::unique_ptr<Registries> r = [] {
        auto made = makeDefaultRegistries();
        if (!made)
            qFatal("registries: %s", made.error().toString().c_str());
        return std::move(*made);
    }();
    return *r;
}

} // namespace tstudio::testing
