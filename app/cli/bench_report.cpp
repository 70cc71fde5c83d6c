#include "bench_report.h"

#include "project/format/json_text.h"

#include <cstdarg>

namespace tstudio::cli {

BenchReport::BenchReport(std::string benchmark, bool json) : m_json(json)
{
    m_document["benchmark"] = std::move(benchmark);
}

void BenchReport::text(const char* format, ...)
{
    std::va_list args;
    va_start(args, format);
    std::vfprintf(m_json ? stderr : stdout, format, args);
    va_end(args);
}

void BenchReport::textBlock(const std::string& block) { std::fputs(block.c_str(), m_json ? stderr : stdout); }

int BenchReport::finish(int exitCode)
{
    if (m_json && exitCode == 0)
        std::printf("%s\n", jsonText(m_document, 2).c_str());
    std::fflush(stdout);
    return exitCode;
}

} // namespace tstudio::cli
