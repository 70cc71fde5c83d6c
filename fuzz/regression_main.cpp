// The fuzz targets' regression runner: feeds each file of a corpus directory to one target once,
// the way CI replays what the libFuzzer campaigns found, without clang or sanitizers.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define TSTUDIO_FUZZ_TARGET(name) \
    extern "C" int tstudioFuzzTarget_##name(const std::uint8_t* data, std::size_t size);
#include "fuzz_targets.inc"
#undef TSTUDIO_FUZZ_TARGET

namespace {

using TargetFunction = int (*)(const std::uint8_t*, std::size_t);

struct Target {
    const char* name;
    TargetFunction function;
};

#define TSTUDIO_FUZZ_TARGET(name) {#name, &tstudioFuzzTarget_##name},
const Target kTargets[] = {
#include "fuzz_targets.inc"
};
#undef TSTUDIO_FUZZ_TARGET

int usage()
{
    std::fprintf(stderr, "usage: tstudio_fuzz_regression TARGET PATH...\n"
                         "  Runs TARGET once on every file under each PATH (a file or a directory).\n  Targets:");
    for (const Target& t : kTargets)
        std::fprintf(stderr, " %s", t.name);
    std::fprintf(stderr, "\n");
    return 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3)
        return usage();
    const Target* target = nullptr;
    for (const Target& t : kTargets)
        if (std::strcmp(t.name, argv[1]) == 0)
            target = &t;
    if (!target) {
        std::fprintf(stderr, "tstudio_fuzz_regression: no fuzz target '%s'\n", argv[1]);
        return usage();
    }
    std::vector<std::filesystem::path> files;
    for (int i = 2; i < argc; ++i) {
        const std::filesystem::path path = argv[i];
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) {
            for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
                if (entry.is_regular_file())
                    files.push_back(entry.path());
        } else if (std::filesystem::is_regular_file(path, error)) {
            files.push_back(path);
        } else {
            std::fprintf(stderr, "tstudio_fuzz_regression: '%s' is neither a file nor a directory\n", argv[i]);
            return 1;
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "tstudio_fuzz_regression: no corpus files for '%s' (run scripts/make_fuzz_corpus.sh)\n",
                     target->name);
        return 1;
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        std::ifstream in(file, std::ios::binary);
        const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        if (!in.good() && !in.eof()) {
            std::fprintf(stderr, "tstudio_fuzz_regression: cannot read '%s'\n", file.c_str());
            return 1;
        }
        // Named before running, so that a crash's output says which input it was.
        std::fprintf(stderr, "%s: %s (%zu bytes)\n", target->name, file.c_str(), bytes.size());
        const int result = target->function(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
        if (result != 0 && result != -1) {
            std::fprintf(stderr, "tstudio_fuzz_regression: %s returned %d on '%s'\n", target->name, result,
                         file.c_str());
            return 1;
        }
    }
    std::printf("%s: %zu inputs ran without a crash or a broken invariant\n", target->name, files.size());
    return 0;
}
