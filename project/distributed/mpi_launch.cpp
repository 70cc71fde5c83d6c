// Building mpirun's command line for a distributed `tstudio train`, and reading its output back.
#include "project/distributed/mpi_launch.h"

#include "core/status.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>
#include <utility>

#include <unistd.h>

namespace tstudio::project {
namespace {

bool isExecutableFile(const std::filesystem::path& path)
{
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && isSpace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && isSpace(text.back()))
        text.remove_suffix(1);
    return text;
}

template <typename T> bool parseNumber(std::string_view text, T* value)
{
    if (text.empty())
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
    return ec == std::errc() && end == text.data() + text.size();
}

/// Splits on runs of spaces.
std::vector<std::string_view> words(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i]))
            ++i;
        const std::size_t start = i;
        while (i < text.size() && !isSpace(text[i]))
            ++i;
        if (i > start)
            out.push_back(text.substr(start, i - start));
    }
    return out;
}

} // namespace

Expected<std::vector<std::string>> mpirunArguments(const MpiLaunch& launch)
{
    if (launch.processes < 1)
        return unexpected(invalidArgumentError("the number of processes must be at least 1, got " +
                                               std::to_string(launch.processes)));
    if (launch.hosts == MpiHosts::kHostfile && launch.hostfile.empty())
        return unexpected(invalidArgumentError("choose a hostfile for the ranks"));
    if (launch.tstudio.empty())
        return unexpected(invalidArgumentError("no tstudio executable given"));
    if (launch.project.empty())
        return unexpected(invalidArgumentError("no project file given"));
    const std::string n = std::to_string(launch.processes);
    std::vector<std::string> args = {"-np", n};
    if (launch.hosts == MpiHosts::kHostfile) {
        args.insert(args.end(), {"--hostfile", launch.hostfile.string()});
    } else {
        args.insert(args.end(), {"--host", "localhost:" + n, "--oversubscribe"});
    }
    if (launch.tagOutput)
        args.push_back("--tag-output");
    args.insert(args.end(), {launch.tstudio.string(), "train", launch.project.string(), "--distributed"});
    if (launch.scaleLearningRate)
        args.push_back("--scale-lr");
    if (!launch.logdir.empty())
        args.insert(args.end(), {"--logdir", launch.logdir.string()});
    if (launch.steps)
        args.insert(args.end(), {"--steps", std::to_string(*launch.steps)});
    if (launch.resume)
        args.push_back("--resume");
    if (launch.threadsPerRank > 0)
        args.insert(args.end(), {"--threads", std::to_string(launch.threadsPerRank)});
    return args;
}

int threadsPerRankOnThisMachine(int processes, unsigned hardwareThreads)
{
    if (processes < 1)
        return 1;
    return std::max(1, static_cast<int>(hardwareThreads) / processes);
}

std::string shellQuote(std::string_view text)
{
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("@%+=:,./-_").find(c) != std::string_view::npos;
    });
    if (plain)
        return std::string(text);
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    quoted += '\'';
    return quoted;
}

std::string shellCommandLine(const std::string& program, const std::vector<std::string>& arguments)
{
    std::string line = shellQuote(program);
    for (const std::string& a : arguments) {
        line += ' ';
        line += shellQuote(a);
    }
    return line;
}

std::optional<std::filesystem::path> findExecutableOnPath(std::string_view name, std::string_view pathVariable)
{
    if (name.empty())
        return std::nullopt;
    if (name.find('/') != std::string_view::npos) {
        const std::filesystem::path path(name);
        return isExecutableFile(path) ? std::optional(path) : std::nullopt;
    }
    std::size_t start = 0;
    while (start <= pathVariable.size()) {
        std::size_t end = pathVariable.find(':', start);
        if (end == std::string_view::npos)
            end = pathVariable.size();
        const std::string_view dir = pathVariable.substr(start, end - start);
        const std::filesystem::path candidate =
            (dir.empty() ? std::filesystem::path(".") : std::filesystem::path(dir)) / name;
        if (isExecutableFile(candidate))
            return candidate;
        start = end + 1;
    }
    return std::nullopt;
}

Expected<std::filesystem::path> locateMpirun(std::string_view pathVariable)
{
    if (auto found = findExecutableOnPath("mpirun", pathVariable))
        return *found;
    return unexpected(notFoundError(
        "mpirun was not found on PATH: install Open MPI (the openmpi-bin package) to train on several processes"));
}

Expected<std::filesystem::path> locateTstudio(const std::filesystem::path& executable)
{
    const std::filesystem::path expected = executable.parent_path() / "tstudio";
    if (isExecutableFile(expected))
        return expected;
    return unexpected(notFoundError("tstudio was not found next to " + executable.string() + " (expected " +
                                    expected.string() + ")"));
}

std::filesystem::path rankLogDirectory(const std::filesystem::path& logdir, int rank)
{
    return rank <= 0 ? logdir : logdir / ("worker_" + std::to_string(rank));
}

MpiOutputLine parseMpiOutputLine(std::string_view line, bool fromStderr)
{
    // "[1,0]<stdout>:text": a job id, a rank, the stream.
    MpiOutputLine out{-1, fromStderr, std::string(line)};
    if (line.size() < 5 || line.front() != '[')
        return out;
    const std::size_t comma = line.find(',');
    const std::size_t close = line.find(']');
    if (comma == std::string_view::npos || close == std::string_view::npos || comma > close)
        return out;
    int job = 0, rank = 0;
    if (!parseNumber(line.substr(1, comma - 1), &job) ||
        !parseNumber(line.substr(comma + 1, close - comma - 1), &rank) || rank < 0)
        return out;
    std::string_view rest = line.substr(close + 1);
    bool error = false;
    if (rest.substr(0, 9) == "<stdout>:") {
        rest.remove_prefix(9);
    } else if (rest.substr(0, 9) == "<stderr>:") {
        rest.remove_prefix(9);
        error = true;
    } else if (rest.substr(0, 1) == ":") {
        rest.remove_prefix(1); // older Open MPI: "[1,0]:text"
        error = fromStderr;
    } else {
        return out;
    }
    return {rank, error, std::string(rest)};
}

namespace {

/// Removes "\033[...X" escape sequences (cursor moves, erasures, colours).
std::string withoutEscapes(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\033' && i + 1 < text.size() && text[i + 1] == '[') {
            std::size_t end = i + 2;
            while (end < text.size() &&
                   (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ';' || text[end] == '?'))
                ++end;
            i = end; // the final letter, skipped with it
            continue;
        }
        out += text[i];
    }
    return out;
}

/// Whether a complete --tag-output tag starts at `text`'s first character.
bool startsWithTag(std::string_view text)
{
    return text.size() >= 5 && text.front() == '[' && parseMpiOutputLine(text.substr(0, 64), false).rank >= 0;
}

} // namespace

std::vector<MpiOutputLine> MpiOutputReader::feed(std::string_view bytes)
{
    m_pending.append(bytes);
    std::vector<MpiOutputLine> out;
    const std::string_view buffer = m_pending;
    std::size_t start = 0;
    for (std::size_t i = 0; i < buffer.size();) {
        const char c = buffer[i];
        if (c == '\n' || c == '\r') {
            take(buffer.substr(start, i - start), c == '\n', &out);
            start = ++i;
        } else if (c == '\033' && buffer.substr(i, 3) == "\033[K") {
            take(buffer.substr(start, i - start), false, &out);
            start = i += 3;
        } else if (c == '[' && i > start && startsWithTag(buffer.substr(i))) {
            take(buffer.substr(start, i - start), false, &out);
            start = i++;
        } else {
            ++i;
        }
    }
    m_pending.erase(0, start);
    return out;
}

std::vector<MpiOutputLine> MpiOutputReader::finish()
{
    std::vector<MpiOutputLine> out;
    const std::string rest = std::exchange(m_pending, std::string());
    take(rest, true, &out);
    return out;
}

void MpiOutputReader::take(std::string_view piece, bool endOfLine, std::vector<MpiOutputLine>* out)
{
    MpiOutputLine line = parseMpiOutputLine(piece, m_fromStderr);
    if (line.rank >= 0) {
        m_lineRank = line.rank;
        m_lineError = line.error;
    } else if (m_lineRank >= 0) {
        line.rank = m_lineRank;
        line.error = m_lineError;
    }
    if (endOfLine)
        m_lineRank = -1;
    line.text = withoutEscapes(line.text);
    while (!line.text.empty() && isSpace(line.text.back()))
        line.text.pop_back();
    if (!trimmed(line.text).empty())
        out->push_back(std::move(line));
}

std::optional<MpiProgress> parseMpiProgress(std::string_view text)
{
    std::vector<std::string_view> parts = words(trimmed(text));
    std::size_t i = 0;
    if (i < parts.size() && parts[i].size() >= 2 && parts[i].front() == '[' && parts[i].back() == ']')
        ++i; // the bar
    if (i >= parts.size())
        return std::nullopt;
    const std::string_view fraction = parts[i++];
    const std::size_t slash = fraction.find('/');
    MpiProgress p;
    if (slash == std::string_view::npos || !parseNumber(fraction.substr(0, slash), &p.step) ||
        !parseNumber(fraction.substr(slash + 1), &p.lastStep))
        return std::nullopt;
    bool sawSpeed = false;
    while (i < parts.size()) {
        if ((parts[i] == "loss" || parts[i] == "accuracy") && i + 1 < parts.size()) {
            const std::string value(parts[i + 1]);
            try {
                (parts[i] == "loss" ? p.loss : p.accuracy) = std::stod(value); // "nan" and "inf" too
            } catch (...) {
                return std::nullopt;
            }
            i += 2;
        } else if (i + 1 < parts.size() && parts[i + 1] == "steps/s") {
            if (!parseNumber(parts[i], &p.stepsPerSecond))
                return std::nullopt;
            sawSpeed = true;
            i += 2;
        } else if (parts[i] == "ETA") {
            break;
        } else {
            return std::nullopt;
        }
    }
    if (!sawSpeed)
        return std::nullopt; // "3/4" alone is not a progress line
    return p;
}

bool isTrainReportLine(std::string_view text)
{
    const std::string_view t = trimmed(text);
    if (t.starts_with("training '") || t.starts_with("eval at step ") || parseMpiProgress(t))
        return true;
    // "rank 0 of 2 on host (pid 31728); ranks: ..." (not "rank 0 of 2: stopped: ...", the ending notice).
    std::vector<std::string_view> parts = words(t);
    std::int64_t number = 0;
    return parts.size() >= 6 && parts[0] == "rank" && parseNumber(parts[1], &number) && parts[2] == "of" &&
           parseNumber(parts[3], &number) && parts[4] == "on" && t.find(" (pid ") != std::string_view::npos &&
           t.find("); ") != std::string_view::npos;
}

std::vector<MpiOutputLine> mpiFailureLines(const std::vector<MpiOutputLine>& tail, std::size_t count)
{
    // The ranks' own errors name what went wrong in the program; mpirun's last message (Open MPI
    // frames each one in rules of dashes) says what became of the job, its first line the headline.
    std::vector<MpiOutputLine> rankErrors, lastMessage, all;
    bool ruleClosedMessage = false;
    for (const MpiOutputLine& line : tail) {
        const std::string_view t = trimmed(line.text);
        if (t.empty() || (line.rank >= 0 && isTrainReportLine(t)) || parseMpiProgress(t))
            continue;
        if (std::all_of(t.begin(), t.end(), [](char c) { return c == '-' || c == '='; })) {
            if (!lastMessage.empty())
                ruleClosedMessage = true;
            continue;
        }
        MpiOutputLine kept{line.rank, line.error, std::string(t)};
        all.push_back(kept);
        if (line.rank >= 0 && line.error) {
            rankErrors.push_back(kept);
        } else if (line.rank < 0) {
            if (ruleClosedMessage) {
                lastMessage.clear();
                ruleClosedMessage = false;
            }
            lastMessage.push_back(kept);
        }
    }
    if (rankErrors.empty() && lastMessage.empty()) {
        if (all.size() > count)
            all.erase(all.begin(), all.end() - static_cast<std::ptrdiff_t>(count));
        return all;
    }
    // At most half for the ranks when mpirun said something too; the rest from the message's start.
    const std::size_t forRanks =
        std::min(rankErrors.size(), lastMessage.empty() ? count : std::max<std::size_t>(count / 2, 1));
    std::vector<MpiOutputLine> out(rankErrors.end() - static_cast<std::ptrdiff_t>(forRanks), rankErrors.end());
    for (std::size_t i = 0; i < lastMessage.size() && out.size() < count; ++i)
        out.push_back(lastMessage[i]);
    return out;
}

} // namespace tstudio::project
