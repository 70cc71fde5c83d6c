// The man page and shell completions of tstudio, written from its CLI11 definitions (cli_reference.h).
#include "cli_reference.h"

#include "cli_command.h"
#include "cli_examples.h"
#include "project_argument.h"

#include "io/atomic_file.h"

#include <cstdio>
#include <memory>

namespace tstudio::cli {
namespace {

// --- What the definitions say ------------------------------------------------------------------------

/// One option or positional argument as the reference shows it.
struct Argument {
    std::vector<std::string> names; ///< "-o", "--output"; empty for a positional
    std::string metavar;            ///< "FILE", "INT", ...; empty for a flag
    std::string positionalName;     ///< "PATH" for a positional
    std::string description;
    std::string defaultValue;
    std::vector<std::string> choices; ///< from a CLI::IsMember check ({a,b,c} in the type name)
    bool repeatable = false;
    bool required = false;
    bool numeric = false;
    std::string excludes; ///< "Excludes: --json" and such, as CLI11 names them
};

std::vector<std::string> splitChoices(const std::string& typeName)
{
    std::vector<std::string> choices;
    const auto open = typeName.find('{');
    const auto close = typeName.find('}', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos)
        return choices;
    std::string item;
    for (std::size_t i = open + 1; i <= close; ++i) {
        if (i == close || typeName[i] == ',') {
            if (!item.empty())
                choices.push_back(item);
            item.clear();
        } else if (typeName[i] != ' ') {
            item += typeName[i];
        }
    }
    return choices;
}

std::vector<Argument> argumentsOf(const CLI::App& app)
{
    std::vector<Argument> out;
    for (const CLI::Option* opt : app.get_options()) {
        if (opt == app.get_help_ptr() || opt == app.get_help_all_ptr() || opt == app.get_version_ptr())
            continue;
        Argument a;
        for (const std::string& s : opt->get_snames())
            a.names.push_back("-" + s);
        for (const std::string& l : opt->get_lnames())
            a.names.push_back("--" + l);
        const std::string type = opt->get_type_name();
        const bool flag = opt->get_expected_max() == 0;
        if (!flag) {
            a.metavar = type.substr(0, type.find(':'));
            if (a.metavar.empty())
                a.metavar = "VALUE";
            a.numeric = a.metavar == "INT" || a.metavar == "UINT" || a.metavar == "FLOAT" || a.metavar == "NUMBER";
        }
        if (!opt->nonpositional())
            a.positionalName = opt->get_name(true);
        a.description = opt->get_description();
        a.defaultValue = opt->get_default_str();
        a.choices = splitChoices(type);
        a.repeatable = !flag && opt->get_items_expected_max() > 1;
        a.required = opt->get_required();
        for (const CLI::Option* other : opt->get_excludes())
            a.excludes += (a.excludes.empty() ? "" : ", ") + other->get_name();
        out.push_back(std::move(a));
    }
    return out;
}

std::vector<const CLI::App*> subcommandsOf(const CLI::App& app)
{
    return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty(); });
}

void collectPaths(const CLI::App& app, const std::string& prefix, std::vector<std::string>& out)
{
    for (const CLI::App* sub : subcommandsOf(app)) {
        const std::string path = prefix.empty() ? sub->get_name() : prefix + " " + sub->get_name();
        out.push_back(path);
        collectPaths(*sub, path, out);
    }
}

/// The file kinds an argument of each subcommand wants, for the completions: a glob of extensions
/// (bash extglob / zsh alternatives; folders are always offered: SavedModels, checkpoint folders),
/// whether only folders make sense (log directories, image folders), and names that are not files
/// (the shipped example projects).
struct FileKinds {
    std::vector<std::string> extensions; ///< empty: any file
    bool onlyFolders = false;
    std::vector<std::string> names;
};

FileKinds fileKindsOf(const std::string& path)
{
    const std::vector<std::string> graphs = {"pb", "pbtxt", "meta"};
    const std::vector<std::string> examples(std::begin(kExampleProjectNames), std::end(kExampleProjectNames));
    if (path == "run" || path == "freeze")
        return {graphs, false, {}};
    if (path == "profile" || path == "debug") {
        std::vector<std::string> kinds = graphs;
        kinds.push_back("tsproj");
        if (path == "profile")
            kinds.push_back("json");
        return {kinds, false, examples};
    }
    if (path == "train" || path == "evaluate" || path == "export")
        return {{"tsproj"}, false, path == "train" ? examples : std::vector<std::string>{}};
    if (path == "events" || path == "data make-tfrecord")
        return {{}, true, {}};
    return {};
}

// --- The man page ---------------------------------------------------------------------------------

/// Text for groff: backslashes escaped, a leading '.' or '\'' made literal.
std::string roffText(const std::string& s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\')
            out += "\\e";
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    if (!out.empty() && (out[0] == '.' || out[0] == '\''))
        out = "\\&" + out;
    return out;
}

/// Code for groff (commands, options): as roffText, with each '-' a minus sign (what is typed).
std::string roffCode(const std::string& s)
{
    std::string out;
    for (char c : roffText(s)) {
        if (c == '-')
            out += "\\-";
        else
            out += c;
    }
    return out;
}

std::string optionHead(const Argument& a)
{
    std::string head;
    for (std::size_t i = 0; i < a.names.size(); ++i)
        head += (i ? ", " : "") + std::string("\\fB") + roffCode(a.names[i]) + "\\fR";
    if (!a.metavar.empty())
        head += " \\fI" + roffCode(a.metavar) + "\\fR";
    if (a.repeatable)
        head += " ...";
    return head;
}

std::string synopsis(const std::string& path, const std::vector<Argument>& args, bool hasSubcommands)
{
    std::string s = ".B tstudio " + roffCode(path) + "\n";
    if (hasSubcommands)
        s += ".I SUBCOMMAND\n";
    bool options = false;
    for (const Argument& a : args) {
        if (!a.positionalName.empty())
            continue;
        if (a.required)
            s += optionHead(a) + "\n";
        else
            options = true;
    }
    if (options)
        s += "[\\fIOPTIONS\\fR]\n";
    for (const Argument& a : args)
        if (!a.positionalName.empty())
            s += (a.required ? "\\fI" : "[\\fI") + roffCode(a.positionalName) + (a.required ? "\\fR" : "\\fR]") +
                 (a.repeatable ? " ..." : "") + "\n";
    return s;
}

void manSection(const CLI::App& app, const std::string& path, std::string& out)
{
    const std::vector<Argument> args = argumentsOf(app);
    const std::vector<const CLI::App*> subs = subcommandsOf(app);
    out += ".SS \"" + roffCode("tstudio " + path) + "\"\n";
    out += synopsis(path, args, !subs.empty());
    out += ".PP\n" + roffText(app.get_description()) + "\n";
    for (const Argument& a : args) {
        out += ".TP\n";
        out += a.positionalName.empty() ? optionHead(a) : "\\fI" + roffCode(a.positionalName) + "\\fR";
        out += "\n" + roffText(a.description);
        if (!a.description.empty() && a.description.back() != '.')
            out += ".";
        if (!a.choices.empty()) {
            out += " One of:";
            for (std::size_t i = 0; i < a.choices.size(); ++i)
                out += std::string(i ? "," : "") + " \\fB" + roffCode(a.choices[i]) + "\\fR";
            out += ".";
        }
        if (!a.defaultValue.empty())
            out += " Default: \\fB" + roffCode(a.defaultValue) + "\\fR.";
        if (a.required && a.positionalName.empty())
            out += " Required.";
        if (!a.excludes.empty())
            out += " Not with " + roffCode(a.excludes) + ".";
        out += "\n";
    }
    if (const CommandExamples* examples = examplesFor(path)) {
        out += ".PP\nExamples:\n";
        for (const Example& e : examples->examples)
            out += ".PP\n.RS 4\n.nf\n" + roffCode(e.command) + "\n.fi\n.RE\n.RS 8\n" + roffText(e.meaning) + "\n.RE\n";
    }
    for (const CLI::App* sub : subs)
        manSection(*sub, path + " " + sub->get_name(), out);
}

// --- Completions ----------------------------------------------------------------------------------

std::string joined(const std::vector<std::string>& words, const char* separator = " ")
{
    std::string out;
    for (const std::string& w : words)
        out += (out.empty() ? "" : separator) + w;
    return out;
}

/// A bash single-quoted word.
std::string bashQuote(const std::string& s)
{
    std::string out = "'";
    for (char c : s)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string bashFileCompletion(const FileKinds& kinds)
{
    std::string s;
    if (!kinds.names.empty())
        s += "COMPREPLY+=($(compgen -W " + bashQuote(joined(kinds.names)) + " -- \"$cur\")); ";
    if (kinds.onlyFolders)
        return s + "_tstudio_files -d";
    if (kinds.extensions.empty())
        return s + "_tstudio_files";
    return s + "_tstudio_files " + bashQuote("*.@(" + joined(kinds.extensions, "|") + ")");
}

/// The path of a subcommand in the script's `path` variable: "" at the top, "/data/make-tfrecord".
std::string bashKey(const std::string& path)
{
    std::string key = path.empty() ? "" : "/";
    for (char c : path)
        key += c == ' ' ? '/' : c;
    return key;
}

void bashCases(const CLI::App& app, const std::string& path, std::string& valueCases, std::string& wordCases,
               std::string& argumentCases, std::string& pathCases)
{
    const std::string key = bashKey(path);
    const std::vector<Argument> args = argumentsOf(app);
    std::vector<std::string> words;
    for (const Argument& a : args) {
        for (const std::string& n : a.names)
            words.push_back(n);
        if (a.names.empty() || a.metavar.empty())
            continue;
        std::string patterns;
        for (const std::string& n : a.names)
            patterns += (patterns.empty() ? "" : "|") + bashQuote(key + " " + n);
        std::string action;
        if (!a.choices.empty())
            action = "COMPREPLY=($(compgen -W " + bashQuote(joined(a.choices)) + " -- \"$cur\"))";
        else if (a.numeric)
            action = "COMPREPLY=()";
        else
            action = "_tstudio_files";
        valueCases += "        " + patterns + ") " + action + "; return ;;\n";
    }
    words.push_back("--help");
    if (path.empty())
        words.push_back("--version");
    std::vector<std::string> subs;
    for (const CLI::App* sub : subcommandsOf(app))
        subs.push_back(sub->get_name());
    wordCases += "        " + bashQuote(key) + ") words=" + bashQuote(joined(words)) + " ;;\n";
    std::vector<std::string> positionalChoices;
    for (const Argument& a : args)
        if (!a.positionalName.empty())
            positionalChoices.insert(positionalChoices.end(), a.choices.begin(), a.choices.end());
    std::string action;
    if (!subs.empty())
        action = "COMPREPLY=($(compgen -W " + bashQuote(joined(subs)) + " -- \"$cur\"))";
    else if (!positionalChoices.empty())
        action = "COMPREPLY=($(compgen -W " + bashQuote(joined(positionalChoices)) + " -- \"$cur\"))";
    else
        action = bashFileCompletion(fileKindsOf(path));
    argumentCases += "        " + bashQuote(key) + ") " + action + " ;;\n";
    for (const CLI::App* sub : subcommandsOf(app)) {
        const std::string subPath = path.empty() ? sub->get_name() : path + " " + sub->get_name();
        pathCases += "            " + bashQuote(bashKey(subPath)) + ") path=" + bashQuote(bashKey(subPath)) + " ;;\n";
        bashCases(*sub, subPath, valueCases, wordCases, argumentCases, pathCases);
    }
}

/// The first sentence of a description, at most 90 characters: what a completion menu shows.
std::string menuText(const std::string& text)
{
    std::string s = text.substr(0, text.find(". "));
    if (s.size() > 90)
        s = s.substr(0, 87) + "...";
    return s;
}

/// zsh: text inside '...' of an _arguments spec, with the characters _arguments treats specially in
/// a description escaped.
std::string zshDescription(const std::string& text)
{
    std::string out;
    for (char c : menuText(text)) {
        if (c == '\'')
            out += "'\\''";
        else if (c == '[' || c == ']' || c == ':' || c == '\\')
            out += std::string("\\") + c;
        else if (c == '\n')
            out += ' ';
        else
            out += c;
    }
    return out;
}

/// zsh: a description for _describe ("name:description"), single-quoted: only quotes need care.
std::string zshDescribeText(const std::string& text)
{
    std::string out;
    for (char c : menuText(text))
        out += c == '\'' ? std::string("'\\''") : std::string(1, c == '\n' ? ' ' : c);
    return out;
}

std::string zshFileAction(const FileKinds& kinds)
{
    std::string files;
    if (kinds.onlyFolders)
        files = "_files -/";
    else if (kinds.extensions.empty())
        files = "_files";
    else
        files = "_files -g \"*.(" + joined(kinds.extensions, "|") + ")\"";
    if (kinds.names.empty())
        return files;
    return "{" + files + "; compadd " + joined(kinds.names) + "}";
}

std::string zshFunctionName(const std::string& path)
{
    std::string name = path.empty() ? "_tstudio" : "_tstudio_";
    for (char c : path)
        name += (c == ' ' || c == '-') ? '_' : c;
    return name;
}

void zshFunctions(const CLI::App& app, const std::string& path, std::string& out)
{
    const std::vector<Argument> args = argumentsOf(app);
    const std::vector<const CLI::App*> subs = subcommandsOf(app);
    std::string specs;
    for (const Argument& a : args) {
        if (a.names.empty())
            continue;
        std::string action;
        if (!a.metavar.empty())
            action = ":" + zshDescription(a.metavar) + ":" +
                     (!a.choices.empty() ? "(" + joined(a.choices) + ")"
                      : a.numeric        ? std::string(" ")
                                         : std::string("_files"));
        const std::string description = "[" + zshDescription(a.description) + "]";
        std::string names;
        if (a.names.size() == 1) {
            names = "'" + std::string(a.repeatable ? "*" : "") + a.names[0] + (a.metavar.empty() || a.names[0].size() == 2 ? "" : "=");
            specs += "        " + names + description + action + "' \\\n";
        } else {
            std::string exclusion = a.repeatable ? "'*'" : "'(" + joined(a.names) + ")'";
            std::string braces;
            for (const std::string& n : a.names)
                braces += (braces.empty() ? "" : ",") + n + (a.metavar.empty() || n.size() == 2 ? "" : "=");
            specs += "        " + exclusion + "{" + braces + "}'" + description + action + "' \\\n";
        }
    }
    specs += "        '(- *)'{-h,--help}'[print help and exit]' \\\n";
    out += zshFunctionName(path) + "() {\n";
    if (!subs.empty()) {
        out += "    local curcontext=\"$curcontext\" state line\n    typeset -A opt_args\n";
        out += "    _arguments -C \\\n" + specs + "        '1:command:->command' '*::argument:->argument' && return\n";
        out += "    case $state in\n    command)\n        local -a commands\n        commands=(\n";
        for (const CLI::App* sub : subs)
            out += "            '" + sub->get_name() + ":" + zshDescribeText(sub->get_description()) + "'\n";
        out += "        )\n        _describe command commands ;;\n    argument)\n        case $words[1] in\n";
        for (const CLI::App* sub : subs)
            out += "        " + sub->get_name() + ") " +
                   zshFunctionName(path.empty() ? sub->get_name() : path + " " + sub->get_name()) + " ;;\n";
        out += "        esac ;;\n    esac\n}\n\n";
        for (const CLI::App* sub : subs)
            zshFunctions(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), out);
        return;
    }
    int position = 1;
    for (const Argument& a : args) {
        if (a.positionalName.empty())
            continue;
        const std::string action =
            !a.choices.empty() ? "(" + joined(a.choices) + ")" : zshFileAction(fileKindsOf(path));
        specs += "        '" + (a.repeatable ? std::string("*") : std::to_string(position++)) + ":" +
                 zshDescription(a.positionalName) + ":" + action + "' \\\n";
    }
    out += "    _arguments \\\n" + specs.substr(0, specs.size() - 3) + "\n}\n\n";
}

/// Words of an example as a POSIX shell would split them (quotes removed), from `tstudio` on; stops
/// at a pipe or a redirection. Empty when the example does not run tstudio.
std::vector<std::string> exampleWords(const std::string& command)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (std::size_t i = 0; i <= command.size(); ++i) {
        const char c = i < command.size() ? command[i] : ' ';
        if (quote) {
            if (c == quote)
                quote = 0;
            else
                word += c;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == ' ') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else if ((c == '|' || c == '>' || c == '<') && !inWord) {
            break;
        } else {
            word += c;
            inWord = true;
        }
    }
    for (std::size_t i = 0; i < words.size(); ++i)
        if (words[i] == "tstudio")
            return std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(i), words.end());
    return {};
}

/// Thrown by the top level's parse-complete callback, which CLI11 runs after checking the whole
/// command line and before any subcommand's callback: an example is checked without running.
struct ExampleParsed {};

} // namespace

std::vector<std::string> subcommandPaths(const CLI::App& app)
{
    std::vector<std::string> paths;
    collectPaths(app, "", paths);
    return paths;
}

std::string manPage(const CLI::App& app, const std::string& version)
{
    std::string out;
    out += ".\\\" The manual page of tstudio, written by `tstudio man` from its command-line definitions.\n";
    out += ".TH TSTUDIO 1 \"\" \"" + roffText(version) + "\" \"TensorStudio\"\n";
    out += ".SH NAME\ntstudio \\- TensorStudio's command-line tool for TensorFlow 1.x graphs, checkpoints and "
           "event files\n";
    out += ".SH SYNOPSIS\n.B tstudio\n.I COMMAND\n[\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]\n.br\n.B tstudio "
           "\\-\\-version\n.br\n.B tstudio\n[\\fICOMMAND\\fR] \\fB\\-\\-help\\fR\n";
    out += ".SH DESCRIPTION\n" + roffText(app.get_description()) +
           ". It reads and writes the files TensorFlow 1.x writes (GraphDefs, MetaGraphs, SavedModels, checkpoints, "
           "event files, TFRecords), runs and trains their graphs in-process on the CPU or a GPU, profiles and "
           "debugs them. The IDE is \\fBtensorstudio\\fR(1).\n";
    out += ".SH COMMANDS\n";
    for (const CLI::App* sub : subcommandsOf(app))
        manSection(*sub, sub->get_name(), out);
    out += ".SH EXIT STATUS\n.TP\n.B 0\nThe command did what was asked.\n.TP\n.B 1\nThe command ran and failed: a bad "
           "or missing file, a node that does not exist, a run that failed; the message on standard error names the "
           "file, node or setting.\n.TP\n.B 2\nThe command line itself was wrong (an unknown option, a missing "
           "argument, a value out of range).\n.TP\n.B 70\nAn internal error (a bug) stopped the command; the "
           "message names the command line to report.\n";
    out += ".SH OUTPUT\nResults go to standard output (with \\fB\\-\\-json\\fR where a command offers it, one JSON "
           "document); progress and messages go to standard error.\n";
    out += ".SH ENVIRONMENT\n.TP\n.B TSTUDIO_EXAMPLES_DIR\nWhere \\fBtrain\\fR, \\fBprofile\\fR and \\fBdebug\\fR "
           "look for the shipped example projects (spirals, book\\-mnist, lenet, mnist\\-notes) before the "
           "installed ones.\n.TP\n.B MALLOC_CONF\njemalloc's options, added to the program's own (transparent huge "
           "pages for the heap).\n.TP\n.B CUDA_VISIBLE_DEVICES\nThe GPUs the engine may use.\n.TP\n"
           ".B TSTUDIO_GPU_PLUGIN\nThe GPU plugin to open instead of lib/tensorstudio/libtstudio\\-gpu.so in the "
           "folder above the program's (builds with CUDA).\n";
    out += ".SH SEE ALSO\n\\fBtensorstudio\\fR(1), \\fBmpirun\\fR(1)\n";
    return out;
}

std::string bashCompletion(const CLI::App& app)
{
    std::string valueCases, wordCases, argumentCases, pathCases;
    bashCases(app, "", valueCases, wordCases, argumentCases, pathCases);
    std::string out;
    out += "# bash completion for tstudio, written by `tstudio completion bash` from its command-line definitions.\n";
    out += "_tstudio_files()\n{\n    compopt -o filenames 2>/dev/null\n    local IFS=$'\\n'\n"
           "    if [[ $1 == -d ]]; then\n        COMPREPLY+=($(compgen -d -- \"$cur\"))\n"
           "    elif [[ -n $1 ]]; then\n        COMPREPLY+=($(compgen -d -- \"$cur\") $(shopt -s extglob; compgen -f -X "
           "\"!$1\" -- \"$cur\"))\n    else\n        COMPREPLY+=($(compgen -f -- \"$cur\"))\n    fi\n}\n\n";
    out += "_tstudio()\n{\n    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n";
    out += "    local path=\"\" words i\n    COMPREPLY=()\n";
    out += "    for ((i = 1; i < COMP_CWORD; i++)); do\n        case \"$path/${COMP_WORDS[i]}\" in\n" + pathCases +
           "        esac\n    done\n";
    out += "    case \"$path $prev\" in\n" + valueCases + "    esac\n";
    out += "    case \"$path\" in\n" + wordCases + "    esac\n";
    out += "    if [[ $cur == -* ]]; then\n        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n        return\n"
           "    fi\n";
    out += "    case \"$path\" in\n" + argumentCases + "    esac\n}\n";
    out += "complete -F _tstudio tstudio\n";
    return out;
}

std::string zshCompletion(const CLI::App& app)
{
    std::string out = "#compdef tstudio\n# zsh completion for tstudio, written by `tstudio completion zsh` from its "
                      "command-line definitions.\n\n";
    std::string functions;
    zshFunctions(app, "", functions);
    // The top level also takes --version.
    const std::string help = "        '(- *)'{-h,--help}'[print help and exit]' \\\n";
    const auto at = functions.find(help);
    if (at != std::string::npos)
        functions.insert(at, "        '(- *)--version[print the version and exit]' \\\n");
    out += functions;
    out += "_tstudio \"$@\"\n";
    return out;
}

std::vector<std::string> checkExamples(const AppBuilder& build)
{
    std::vector<std::string> problems;
    CLI::App reference;
    int unused = 0;
    build(reference, unused);
    for (const std::string& path : subcommandPaths(reference))
        if (!examplesFor(path))
            problems.push_back("tstudio " + path + ": no examples (app/cli/cli_examples.cpp)");
    for (const CommandExamples& c : commandExamples()) {
        for (const Example& e : c.examples) {
            std::vector<std::string> words = exampleWords(e.command);
            if (words.size() < 2) {
                problems.push_back("example '" + e.command + "' does not run tstudio");
                continue;
            }
            CLI::App app;
            int exitCode = 0;
            build(app, exitCode);
            app.parse_complete_callback([] { throw ExampleParsed{}; });
            std::vector<std::string> reversed(words.rbegin(), words.rend() - 1); // CLI11 parses a reversed vector
            try {
                app.parse(reversed);
                problems.push_back("example '" + e.command + "' was not checked");
            } catch (const ExampleParsed&) {
                std::string parsed;
                for (const CLI::App* sub = &app; sub;) {
                    const auto selected = sub->get_subcommands();
                    sub = selected.empty() ? nullptr : selected.front();
                    if (sub)
                        parsed += (parsed.empty() ? "" : " ") + sub->get_name();
                }
                if (parsed != c.path && parsed.rfind(c.path + " ", 0) != 0)
                    problems.push_back("example '" + e.command + "' of 'tstudio " + c.path + "' runs 'tstudio " +
                                       parsed + "'");
            } catch (const CLI::ParseError& error) {
                problems.push_back("example '" + e.command + "': " + error.what());
            }
        }
    }
    return problems;
}

namespace {

/// Writes `text` to `path` (temporary file, then rename) or, with no path, to standard output.
int emit(const std::string& text, const std::string& path, const char* command)
{
    if (path.empty()) {
        std::fputs(text.c_str(), stdout);
        return kExitOk;
    }
    if (Status s = writeFileAtomically(path, text); !s.isOk()) {
        std::fprintf(stderr, "tstudio %s: cannot write '%s': %s\n", command, path.c_str(), s.toString().c_str());
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

void addReferenceCommands(CLI::App& app, int& exitCode, AppBuilder build, std::string version)
{
    auto manOutput = std::make_shared<std::string>();
    CLI::App* man = app.add_subcommand(
        "man", "Print tstudio's manual page (groff's man macros), made from the command line's definitions: what `man "
               "tstudio` shows once installed. The examples in it are checked against those definitions first");
    man->add_option("-o,--output", *manOutput, "write the page to this file instead of standard output");
    man->callback([&exitCode, build, version, manOutput] {
        const std::vector<std::string> problems = checkExamples(build);
        if (!problems.empty()) {
            for (const std::string& p : problems)
                std::fprintf(stderr, "tstudio man: %s\n", p.c_str());
            exitCode = kExitFailure;
            return;
        }
        CLI::App full;
        int unused = 0;
        build(full, unused);
        exitCode = emit(manPage(full, version), *manOutput, "man");
    });

    auto shell = std::make_shared<std::string>();
    auto completionOutput = std::make_shared<std::string>();
    CLI::App* completion = app.add_subcommand(
        "completion", "Print a completion script for bash or zsh (subcommands, options, their choices and the file "
                      "kinds each argument wants); the package installs both");
    completion->add_option("SHELL", *shell, "bash or zsh")->required()->check(CLI::IsMember({"bash", "zsh"}));
    completion->add_option("-o,--output", *completionOutput, "write the script to this file instead of standard output");
    completion->callback([&exitCode, build, shell, completionOutput] {
        CLI::App full;
        int unused = 0;
        build(full, unused);
        exitCode = emit(*shell == "bash" ? bashCompletion(full) : zshCompletion(full), *completionOutput, "completion");
    });
}

} // namespace tstudio::cli
