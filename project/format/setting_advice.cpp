// Settings problems named by field, and the command line's remedies for them.
#include "project/format/setting_advice.h"

#include <regex>

namespace tstudio::project {
namespace {

/// A field with a remedy, as a "<field>: " segment at the start of a message or after ": ".
const std::regex& fieldPattern()
{
    static const std::regex pattern(R"((?:^|: )(data\.dir|(?:data|eval)\.sources\[\d+\]\.dir|logdir): )");
    return pattern;
}

} // namespace

std::string settingProblem(std::string_view field, std::string_view what)
{
    return std::string(field) + ": " + std::string(what);
}

std::optional<std::string> problemField(std::string_view message)
{
    const std::string text(message);
    std::optional<std::string> field;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), fieldPattern()); it != std::sregex_iterator(); ++it)
        field = (*it)[1].str();
    return field;
}

std::string overrideKey(std::string_view field)
{
    std::string key;
    for (char c : field) {
        if (c == '[')
            key += '.';
        else if (c != ']')
            key += c;
    }
    return key;
}

std::string cliAdvice(std::string_view field, std::string_view message)
{
    if (field == "logdir")
        return message.find("already holds checkpoints") != std::string_view::npos
                   ? "pass --resume to continue that run or choose another log directory"
                   : "choose another log directory (--logdir DIR)";
    return "pass --set " + overrideKey(field) + "=DIR";
}

std::string withCliAdvice(std::string_view message)
{
    const auto field = problemField(message);
    if (!field)
        return std::string(message);
    return std::string(message) + "; " + cliAdvice(*field, message);
}

Status withCliAdvice(const Status& status)
{
    if (status.isOk())
        return status;
    return Status(status.code(), withCliAdvice(status.message()));
}

} // namespace tstudio::project
