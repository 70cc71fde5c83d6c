// Open MPI hostfiles: reading one ("host [slots=N] [max_slots=N]" per line) and checking, before a
// distributed run starts, that every host resolves and that the slots hold the ranks asked for.
#pragma once

#include "core/expected.h"
#include "core/status.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tstudio::project {

/// One host line of a hostfile.
struct HostfileEntry {
    std::string host; ///< name or address as written ("node1", "10.0.0.2", "localhost")
    /// "slots=N" (Open MPI's default without it: 1); not named `slots`, which Qt defines as a macro.
    int slotCount = 1;
    std::optional<int> maxSlotCount; ///< "max_slots=N" when given
    bool slotsGiven = false;         ///< whether the line said "slots=" (or "slot=", "cpu=", "count=")
    int line = 0;                    ///< 1-based line number in the file
};

struct Hostfile {
    std::filesystem::path path; ///< as given (empty for parseHostfile without a name)
    std::vector<HostfileEntry> entries;
    /// The sum of the entries' slots (a host listed twice counts twice, as Open MPI adds them).
    int totalSlots() const;
};

/// Parses Open MPI's hostfile syntax (orte/util/hostfile): one host per line, then optional
/// "slots=N", "max_slots=N" (also "slot=", "cpu=", "count=" for slots, "max-slots=" as Open MPI
/// accepts); '#' starts a comment; blank lines are skipped; spaces or tabs separate fields, and
/// "key = value" with spaces around '=' is taken too. `name` names the file in errors.
/// Errors (InvalidArgument, "<name>:<line>: ..."): an unknown key ("unknown field 'slotz=2'; expected
/// slots=N or max_slots=N"), a value that is not a positive integer ("slots='x' is not a positive
/// integer"), max_slots below slots, a file with no host at all ("<name>: no hosts (every line is
/// blank or a comment)"). Pure: no I/O, any thread.
Expected<Hostfile> parseHostfile(std::string_view text, const std::string& name);

/// Reads and parses the file. NotFound "hostfile '/x/hosts' does not exist"; PermissionDenied /
/// Unavailable when it cannot be read; then parseHostfile's errors with the path as name.
Expected<Hostfile> readHostfile(const std::filesystem::path& path);

/// Resolves `host` (getaddrinfo, any family). Ok for "localhost" and for numeric addresses.
/// NotFound "host 'nodeX' does not resolve: Name or service not known" (gai_strerror's text).
/// Blocks for as long as the resolver takes (DNS timeouts included): call it off the GUI thread.
Status resolveHost(const std::string& host);

struct HostfileCheckOptions {
    /// The ranks the run asks for (mpirun -np N); 0: do not compare with the slots.
    int ranks = 0;
    /// Open MPI's --oversubscribe: more ranks than slots is allowed (up to no limit; max_slots is
    /// then still enforced, as Open MPI does).
    bool oversubscribe = false;
    /// Check that each host resolves (resolveHost). Off for tests that only parse.
    bool resolve = true;
    /// What the user can do when the ranks exceed the slots, in the front end's words (the
    /// command line's by default; the IDE's dialog has no --oversubscribe).
    std::string tooFewSlotsAdvice = "pass --oversubscribe or add slots";
};

/// Checks a parsed hostfile against a run, before mpirun is started, so that a bad hostfile gives
/// one clear error instead of a failed launch. Every problem is found, not only the first; the
/// Status joins them with "; ". Errors:
///   NotFound "hostfile 'hosts' line 3: host 'nodeX' does not resolve: Name or service not known"
///   ResourceExhausted "hostfile 'hosts': 4 ranks but only 3 slots (node1 2, node2 1); pass
///     --oversubscribe or add slots"
///   ResourceExhausted "hostfile 'hosts': 9 ranks but max_slots allow only 8"
/// Blocks while hosts resolve (see resolveHost): call it off the GUI thread.
Status checkHostfile(const Hostfile& hostfile, const HostfileCheckOptions& options);

/// readHostfile then checkHostfile: what `tstudio hostfile FILE --np N` and the IDE's "Run on N
/// processes" call before starting mpirun.
Status checkHostfile(const std::filesystem::path& path, const HostfileCheckOptions& options);

} // namespace tstudio::project
