// Child process for test_saver: builds a model of 4 MB variables, initialises it and saves it with a
// Saver to the prefix given, so that the test can kill it with SIGKILL while the data file is being
// written. Usage: saver_crash_helper PREFIX MEGABYTES
#include "builder/graph_builder.h"
#include "builder/ops_sugar.h"
#include "builder/variables.h"
#include "model/saver.h"
#include "registries/default_registries.h"
#include "runtime/session.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tstudio;

namespace {

int fail(const std::string& what, const Status& status)
{
    std::fprintf(stderr, "saver_crash_helper: %s: %s\n", what.c_str(), status.toString().c_str());
    return 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: saver_crash_helper PREFIX MEGABYTES\n");
        return 2;
    }
    const std::string prefix = argv[1];
    const long megabytes = std::strtol(argv[2], nullptr, 10);
    constexpr std::int64_t kFloatsPerVariable = 1 << 20; // 4 MB
    if (megabytes < 4) {
        std::fprintf(stderr, "saver_crash_helper: MEGABYTES must be at least 4\n");
        return 2;
    }
    auto registries = makeDefaultRegistries();
    if (!registries)
        return fail("registries", registries.error());
    GraphBuilder b((*registries)->ops);
    for (long i = 0; i < megabytes / 4; ++i) {
        auto ones = ops::ones(b, TensorShape{kFloatsPerVariable});
        if (!ones)
            return fail("ones", ones.error());
        auto v = variable(b, *ones, "big_" + std::to_string(i));
        if (!v)
            return fail("variable", v.error());
    }
    auto init = globalVariablesInitializer(b);
    if (!init)
        return fail("init", init.error());
    auto saver = Saver::create(b);
    if (!saver)
        return fail("saver", saver.error());
    Session session(SessionOptions{{}, &(*registries)->ops, &(*registries)->kernels});
    if (Status s = session.create(b.graphDef()); !s.isOk())
        return fail("session", s);
    std::vector<Tensor> none;
    if (Status s = session.run({}, {}, {init->name()}, &none); !s.isOk())
        return fail("initialise", s);
    std::printf("saving %ld MB to %s\n", megabytes, prefix.c_str());
    std::fflush(stdout);
    auto saved = saver->save(session, prefix);
    if (!saved)
        return fail("save", saved.error());
    std::printf("saved %s\n", saved->c_str());
    return 0;
}
