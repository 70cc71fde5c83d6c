// The frame every tstudio subcommand plugs into: register on a CLI11 app, report an exit code.
#pragma once

#include <CLI/CLI.hpp>

namespace tstudio::cli {

/// Exit codes shared by all subcommands.
enum ExitCode : int {
    kExitOk = 0,
    kExitFailure = 1,   ///< the command ran and failed (bad file, missing path, ...)
    kExitUsage = 2,     ///< the command line itself was wrong (main maps every CLI11 parse error to it)
    kExitInternal = 70, ///< an internal error (a bug) stopped the command: EX_SOFTWARE of sysexits.h
};

/// Adds `tstudio inspect PATH [--json]`. The callback stores its exit code in `exitCode`.
void addInspectCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio run MODEL [--feed ...] --fetch ... [--target ...]`.
void addRunCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio bench matmul|overhead|checkpoint|mlp|lenet`.
void addBenchCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio devices [--json] [--self-test]`.
void addDevicesCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio train spirals|book-mnist|lenet [--mnist DIR] [--steps N] [--threads N]`.
void addTrainCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio hostfile FILE [--np N] [--oversubscribe] [--no-resolve]` (project/hostfile.h).
void addHostfileCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio convert-checkpoint SOURCE DESTINATION` (a V1 or V2 checkpoint rewritten as V2).
void addConvertCheckpointCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio events LOGDIR [--csv | --json] [--tag REGEX]`.
void addEventsCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio data make-tfrecord IMAGE_DIR -o FILE [--shards N] [--encoding raw|encoded] [--shuffle --seed S]`.
void addDataCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio profile PROJECT|MODEL|TRACE [--steps N] [--out trace.json] [--summary]`.
void addProfileCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio diff A B [--json] [--all]` (two graphs or two checkpoints).
void addDiffCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio debug MODEL|PROJECT [--feed/--fetch/--target] [--break SPEC] [--watch T]`.
void addDebugCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio evaluate PROJECT [--checkpoint PREFIX|DIR] [--json] [--write-summary]`.
void addEvaluateCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio freeze MODEL --checkpoint PREFIX|DIR --outputs a,b -o frozen.pb`.
void addFreezeCommand(CLI::App& app, int& exitCode);

/// Adds `tstudio export PROJECT [--checkpoint PREFIX] [--saved-model DIR] [--frozen FILE.pb] [--inputs a,b]
/// [--outputs y] [--moving-average] [--set KEY=VALUE]`.
void addExportCommand(CLI::App& app, int& exitCode);

} // namespace tstudio::cli
