// Open MPI hostfiles: parsing "host [slots=N] [max_slots=N]" lines and checking hosts and slots
// before mpirun starts.
#include "project/distributed/hostfile.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <map>
#include <netdb.h>
#include <sstream>
#include <sys/socket.h>
#include <sys/types.h>

namespace tstudio::project {
namespace {

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/// The line's fields: words split at white space, with "key = value" and "key= value" joined into
/// "key=value" as Open MPI's lexer takes them.
std::vector<std::string> fields(std::string_view line)
{
    std::vector<std::string> words;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isSpace(line[i]))
            ++i;
        std::size_t start = i;
        while (i < line.size() && !isSpace(line[i]))
            ++i;
        if (i > start)
            words.emplace_back(line.substr(start, i - start));
    }
    std::vector<std::string> joined;
    for (std::size_t k = 0; k < words.size(); ++k) {
        const bool gluesToPrevious = !joined.empty() && (words[k].front() == '=' || joined.back().back() == '=');
        if (gluesToPrevious)
            joined.back() += words[k];
        else
            joined.push_back(words[k]);
    }
    return joined;
}

std::optional<int> positiveInt(std::string_view text)
{
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1)
        return std::nullopt;
    return value;
}

std::string where(const std::string& name, int line)
{
    return (name.empty() ? std::string("hostfile") : name) + ":" + std::to_string(line) + ": ";
}

std::string hostfileLabel(const Hostfile& hostfile)
{
    return "hostfile '" + (hostfile.path.empty() ? std::string("(unnamed)") : hostfile.path.string()) + "'";
}

} // namespace

int Hostfile::totalSlots() const
{
    int total = 0;
    for (const HostfileEntry& e : entries)
        total += e.slotCount;
    return total;
}

Expected<Hostfile> parseHostfile(std::string_view text, const std::string& name)
{
    Hostfile out;
    out.path = name;
    int lineNumber = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lineNumber;
        if (const std::size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        const std::vector<std::string> words = fields(line);
        if (words.empty())
            continue;
        HostfileEntry entry;
        entry.host = words.front();
        entry.line = lineNumber;
        if (entry.host.find('=') != std::string::npos)
            return unexpected(
                invalidArgumentError(where(name, lineNumber) + "expected a host name first, got '" + entry.host + "'"));
        for (std::size_t k = 1; k < words.size(); ++k) {
            const std::string& field = words[k];
            const std::size_t eq = field.find('=');
            const std::string key = eq == std::string::npos ? field : field.substr(0, eq);
            const std::string value = eq == std::string::npos ? std::string() : field.substr(eq + 1);
            const bool slotsKey = key == "slots" || key == "slot" || key == "cpu" || key == "count";
            const bool maxKey = key == "max_slots" || key == "max-slots";
            if (eq == std::string::npos || (!slotsKey && !maxKey))
                return unexpected(invalidArgumentError(where(name, lineNumber) + "unknown field '" + field +
                                                       "' after host '" + entry.host +
                                                       "'; expected slots=N or max_slots=N"));
            const std::optional<int> n = positiveInt(value);
            if (!n)
                return unexpected(
                    invalidArgumentError(where(name, lineNumber) + key + "='" + value + "' is not a positive integer"));
            if (slotsKey) {
                entry.slotCount = *n;
                entry.slotsGiven = true;
            } else {
                entry.maxSlotCount = *n;
            }
        }
        if (entry.maxSlotCount && *entry.maxSlotCount < entry.slotCount)
            return unexpected(invalidArgumentError(
                where(name, lineNumber) + "max_slots=" + std::to_string(*entry.maxSlotCount) +
                " is below slots=" + std::to_string(entry.slotCount) + " for host '" + entry.host + "'"));
        out.entries.push_back(std::move(entry));
        if (end == text.size())
            break;
    }
    if (out.entries.empty())
        return unexpected(invalidArgumentError((name.empty() ? std::string("hostfile") : name) +
                                               ": no hosts (every line is blank or a comment)"));
    return out;
}

Expected<Hostfile> readHostfile(const std::filesystem::path& path)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return unexpected(notFoundError("hostfile '" + path.string() + "' does not exist"));
    if (std::filesystem::is_directory(path, ec))
        return unexpected(invalidArgumentError("hostfile '" + path.string() + "' is a directory, not a file"));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return unexpected(
            permissionDeniedError("hostfile '" + path.string() + "' cannot be read: " + std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return parseHostfile(text.str(), path.string());
}

Status resolveHost(const std::string& host)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found);
    if (found)
        freeaddrinfo(found);
    if (rc != 0)
        return notFoundError("host '" + host + "' does not resolve: " + gai_strerror(rc));
    return Status::ok();
}

Status checkHostfile(const Hostfile& hostfile, const HostfileCheckOptions& options)
{
    const std::string label = hostfileLabel(hostfile);
    std::vector<Status> problems;
    if (options.resolve) {
        std::map<std::string, Status> resolved; // a host listed twice is looked up once
        for (const HostfileEntry& e : hostfile.entries) {
            auto [it, fresh] = resolved.try_emplace(e.host);
            if (fresh)
                it->second = resolveHost(e.host);
            if (!it->second.isOk())
                problems.push_back(
                    Status(it->second.code(), label + " line " + std::to_string(e.line) + ": " + it->second.message()));
        }
    }
    if (options.ranks > 0) {
        const int total = hostfile.totalSlots();
        if (options.ranks > total && !options.oversubscribe) {
            std::string list;
            for (const HostfileEntry& e : hostfile.entries)
                list += (list.empty() ? "" : ", ") + e.host + " " + std::to_string(e.slotCount);
            problems.push_back(resourceExhaustedError(
                label + ": " + std::to_string(options.ranks) + " ranks but only " + std::to_string(total) +
                (total == 1 ? " slot (" : " slots (") + list + "); " + options.tooFewSlotsAdvice));
        }
        bool capped = true;
        int maxTotal = 0;
        for (const HostfileEntry& e : hostfile.entries) {
            if (!e.maxSlotCount)
                capped = false;
            else
                maxTotal += *e.maxSlotCount;
        }
        if (capped && options.ranks > maxTotal)
            problems.push_back(resourceExhaustedError(label + ": " + std::to_string(options.ranks) +
                                                      " ranks but max_slots allow only " + std::to_string(maxTotal)));
    }
    if (problems.empty())
        return Status::ok();
    std::string message;
    for (const Status& s : problems)
        message += (message.empty() ? "" : "; ") + s.message();
    return Status(problems.front().code(), message);
}

Status checkHostfile(const std::filesystem::path& path, const HostfileCheckOptions& options)
{
    auto hostfile = readHostfile(path);
    if (!hostfile)
        return hostfile.error();
    return checkHostfile(*hostfile, options);
}

} // namespace tstudio::project
