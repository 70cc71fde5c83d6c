// Launching `tstudio train --distributed` under Open MPI's mpirun (no Qt): the argument list built from
// the IDE's choices, finding mpirun and tstudio, the log directory of each rank, and reading mpirun's
// output back (--tag-output prefixes, rank 0's progress lines, the lines that say why a job failed).
#pragma once

#include "core/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::project {

/// Where the ranks run.
enum class MpiHosts {
    kThisMachine, ///< "--host localhost:N --oversubscribe": N ranks here, more than the cores allowed
    kHostfile,    ///< "--hostfile F": Open MPI places the ranks on the file's hosts and slots
};

/// One `mpirun ... tstudio train PROJECT --distributed` launch.
struct MpiLaunch {
    int processes = 2; ///< mpirun -np; >= 1
    MpiHosts hosts = MpiHosts::kThisMachine;
    std::filesystem::path hostfile;    ///< with kHostfile
    bool scaleLearningRate = false;    ///< --scale-lr: the learning rate times `processes`
    bool tagOutput = true;             ///< mpirun --tag-output: "[job,rank]<stdout>:" before each line
    std::filesystem::path tstudio;     ///< the tstudio executable every rank runs
    std::filesystem::path project;     ///< the .tsproj file
    std::filesystem::path logdir;      ///< --logdir; empty: the project's own
    std::optional<std::int64_t> steps; ///< --steps (train to this global step)
    bool resume = false;               ///< --resume
    /// --threads (each rank's intra-op threads); 0: not passed, each rank takes every core. On one
    /// machine the ranks share its cores: threadsPerRankOnThisMachine.
    int threadsPerRank = 0;
};

/// The intra-op threads each of `processes` ranks on a machine of `hardwareThreads` gets so that
/// together they use its cores once, not `processes` times over: hardwareThreads / processes, at
/// least 1 (2 ranks on 2 cores: 1 each).
int threadsPerRankOnThisMachine(int processes, unsigned hardwareThreads);

/// mpirun's arguments (the program itself not included), in this order: -np N, then --hostfile F or
/// --host localhost:N --oversubscribe, --tag-output, tstudio, train, PROJECT, --distributed, then
/// --scale-lr, --logdir DIR, --steps N, --resume, --threads N as chosen. Paths are passed as they are (one
/// argument each, spaces kept): QProcess and execve need no quoting. Errors (InvalidArgument):
/// "the number of processes must be at least 1, got 0", "choose a hostfile for the ranks",
/// "no tstudio executable given", "no project file given".
Expected<std::vector<std::string>> mpirunArguments(const MpiLaunch& launch);

/// `text` quoted for a POSIX shell when it needs it: left as is when it holds only letters, digits
/// and "@%+=:,./-_"; otherwise in single quotes, a single quote written as '\''. "" gives ''.
std::string shellQuote(std::string_view text);

/// `program` and `arguments` as one line a user can paste into a shell (each part shellQuote'd).
std::string shellCommandLine(const std::string& program, const std::vector<std::string>& arguments);

/// The first executable regular file named `name` in the ':'-separated directories of
/// `pathVariable` (an empty entry meaning the current directory, as the shell takes it), or nullopt.
/// A `name` with a '/' is taken as a path: returned when it is executable.
std::optional<std::filesystem::path> findExecutableOnPath(std::string_view name, std::string_view pathVariable);

/// mpirun on `pathVariable`. NotFound "mpirun was not found on PATH: install Open MPI (the
/// openmpi-bin package) to train on several processes".
Expected<std::filesystem::path> locateMpirun(std::string_view pathVariable);

/// The tstudio executable beside `executable` (the running tensorstudio). NotFound "tstudio was not
/// found next to /opt/ts/bin/tensorstudio (expected /opt/ts/bin/tstudio)".
Expected<std::filesystem::path> locateTstudio(const std::filesystem::path& executable);

/// Where rank `rank` of a run into `logdir` writes its event files: rank 0 (the chief, which also
/// writes the checkpoints) `logdir` itself, rank r > 0 `logdir/worker_<r>`.
std::filesystem::path rankLogDirectory(const std::filesystem::path& logdir, int rank);

/// One line of mpirun's output. With --tag-output, Open MPI writes a rank's lines as
/// "[1,0]<stdout>:text" (job 1, rank 0) or "<stderr>:"; mpirun's own lines have no tag.
struct MpiOutputLine {
    int rank = -1;      ///< -1: mpirun's own line (or untagged output)
    bool error = false; ///< the rank's stderr (mpirun's own lines: what the caller read them from)
    std::string text;   ///< the line without the tag
};

/// Splits the tag off `line` (no newline). A line without a well-formed tag comes back whole,
/// rank -1, error as `fromStderr`.
MpiOutputLine parseMpiOutputLine(std::string_view line, bool fromStderr);

/// Splits one of mpirun's output streams (its stdout or its stderr) into lines as the bytes arrive.
/// Open MPI gives each rank a terminal, so `tstudio train` on rank 0 redraws its progress line in
/// place ("\r[###---]  100/300 ... ETA 0:02\033[K", no newline until the run ends), and --tag-output
/// tags each chunk it forwards, also in the middle of such a line. A line here ends at '\n', at '\r',
/// after "\033[K" (one progress update is then complete without waiting for the next), and before a
/// tag in mid-line; a piece without a tag belongs to the rank whose tag began its line. Terminal
/// escapes are removed, trailing spaces trimmed, empty pieces dropped. Not thread-safe; any thread.
class MpiOutputReader {
public:
    /// `fromStderr`: the stream is mpirun's stderr (its untagged lines are then errors).
    explicit MpiOutputReader(bool fromStderr) : m_fromStderr(fromStderr) {}
    /// Appends `bytes`; returns the lines they complete, in order.
    std::vector<MpiOutputLine> feed(std::string_view bytes);
    /// The end of the stream: what is left, as a last line (or nothing).
    std::vector<MpiOutputLine> finish();

private:
    void take(std::string_view piece, bool endOfLine, std::vector<MpiOutputLine>* out);

    bool m_fromStderr;
    std::string m_pending;
    int m_lineRank = -1; ///< the rank whose tag began the current line; -1: none yet
    bool m_lineError = false;
};

/// What rank 0's progress line says: "[####----]  1200/3000  loss 0.2345  52.3 steps/s  ETA 0:34"
/// (`tstudio train`'s formatProgress, with or without the bar; "accuracy 0.93" may follow the loss).
struct MpiProgress {
    std::int64_t step = 0;
    std::int64_t lastStep = 0;
    std::optional<double> loss;
    std::optional<double> accuracy;
    double stepsPerSecond = 0;
};

/// The progress in `text` (a line of rank 0's stderr without its tag), or nullopt when the line is
/// not a progress line.
std::optional<MpiProgress> parseMpiProgress(std::string_view text);

/// Whether `text` (a rank's line without its tag) is one of `tstudio train`'s reports, which go to
/// stderr without being errors: a progress line, "training 'NAME' (FILE)", "eval at step N: ..." or
/// the rank's first line, "rank R of N on HOST (pid P); ranks: ...".
bool isTrainReportLine(std::string_view text);

/// The lines that explain a failed job, from the last lines of its output (`tail`, oldest first),
/// at most `count`, their text trimmed: the ranks' last stderr lines (at most half of `count` when
/// mpirun said something too), then mpirun's own last message from its first line (Open MPI frames
/// each message in rules of dashes; its first line is the headline). Progress lines, blank lines
/// and rules never count. Without rank errors or mpirun lines: the last `count` lines.
std::vector<MpiOutputLine> mpiFailureLines(const std::vector<MpiOutputLine>& tail, std::size_t count = 8);

} // namespace tstudio::project
