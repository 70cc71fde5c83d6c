// tstudio data: data-set tools; `make-tfrecord` writes a folder of class subfolders as TFRecord Examples.
#include "cli_command.h"

#include "data/image_folder_records.h"
#include "project/format/json_text.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>
#include <string>

namespace tstudio::cli {
namespace {

struct MakeTfRecordArgs {
    std::string imageDir;
    std::string output;
    int shards = 1;
    std::string encoding = "encoded";
    bool shuffle = false;
    std::uint64_t seed = 0;
    bool json = false;
};

int runMakeTfRecord(const MakeTfRecordArgs& args)
{
    data::ImageFolderRecordsOptions options;
    options.imageDir = args.imageDir;
    options.output = args.output;
    options.shards = args.shards;
    options.encoding = args.encoding == "raw" ? data::ImageEncoding::kRaw : data::ImageEncoding::kEncoded;
    options.shuffle = args.shuffle;
    options.seed = args.seed;
    auto report = data::writeImageFolderRecords(options);
    if (!report) {
        std::fprintf(stderr, "tstudio data make-tfrecord: %s\n", report.error().message().c_str());
        return kExitFailure;
    }
    if (args.json) {
        nlohmann::ordered_json out;
        out["image_dir"] = args.imageDir;
        out["encoding"] = args.encoding;
        out["records"] = report->records;
        nlohmann::ordered_json classes = nlohmann::ordered_json::array();
        for (const data::ImageClass& c : report->classes)
            classes.push_back({{"label", c.label}, {"name", c.name}, {"images", c.images}});
        out["classes"] = std::move(classes);
        out["skipped_files"] = report->skippedFiles;
        nlohmann::ordered_json files = nlohmann::ordered_json::array();
        for (std::size_t i = 0; i < report->files.size(); ++i)
            files.push_back({{"path", report->files[i].string()}, {"records", report->recordsPerFile[i]}});
        out["files"] = std::move(files);
        std::printf("%s\n", jsonText(out, 2).c_str());
        return kExitOk;
    }
    for (const data::ImageClass& c : report->classes)
        std::printf("label %lld  %-24s %llu images\n", static_cast<long long>(c.label), c.name.c_str(),
                    static_cast<unsigned long long>(c.images));
    if (report->skippedFiles > 0)
        std::printf("skipped %llu files that are not *.jpg, *.jpeg or *.png\n",
                    static_cast<unsigned long long>(report->skippedFiles));
    for (std::size_t i = 0; i < report->files.size(); ++i)
        std::printf("wrote %llu records to %s\n", static_cast<unsigned long long>(report->recordsPerFile[i]),
                    report->files[i].string().c_str());
    std::printf("%llu records, %zu classes, image_raw %s\n", static_cast<unsigned long long>(report->records),
                report->classes.size(), args.encoding == "raw" ? "raw pixels" : "encoded file bytes");
    return kExitOk;
}

} // namespace

void addDataCommand(CLI::App& app, int& exitCode)
{
    auto* data = app.add_subcommand("data", "Data-set tools");
    data->require_subcommand(1);
    auto* make = data->add_subcommand(
        "make-tfrecord", "Write a folder of images, one subfolder per class (sorted by name: label 0, 1, ...), as "
                         "TFRecord files of tf.train.Example: image_raw, label, height, width, depth");
    auto args = std::make_shared<MakeTfRecordArgs>();
    make->add_option("IMAGE_DIR", args->imageDir, "folder with one subfolder of *.jpg / *.png images per class")
        ->required();
    make->add_option("-o,--output", args->output, "the TFRecord file (with --shards N: FILE-00000-of-0000N, ...)")
        ->required();
    make->add_option("--shards", args->shards, "number of files to split the records into")
        ->check(CLI::Range(1, 100000));
    make->add_option("--encoding", args->encoding,
                     "image_raw holds the image file's bytes (encoded) or its decoded uint8 pixels (raw)")
        ->check(CLI::IsMember({"encoded", "raw"}));
    make->add_flag("--shuffle", args->shuffle, "shuffle the images before writing");
    make->add_option("--seed", args->seed, "seed of --shuffle (std::mt19937_64)");
    make->add_flag("--json", args->json, "print what was written as JSON");
    make->callback([args, &exitCode] { exitCode = runMakeTfRecord(*args); });
}

} // namespace tstudio::cli
