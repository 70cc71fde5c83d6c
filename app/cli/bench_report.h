// Where a single benchmark's report goes (`tstudio bench KIND`, every kind but `all`): its text
// lines to stdout, or with --json to stderr while the figures it records are printed to stdout as
// one JSON document when it ends (docs/cli-json.md, "bench").
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>

namespace tstudio::cli {

class BenchReport {
public:
    /// `benchmark`: the kind run (mlp, matmul, ...), the document's "benchmark".
    BenchReport(std::string benchmark, bool json);

    bool json() const { return m_json; }
    /// printf to the text stream (stdout, or stderr with --json).
    void text(const char* format, ...) __attribute__((format(printf, 2, 3)));
    /// A text block made elsewhere, to the text stream.
    void textBlock(const std::string& block);
    /// The document's member `key` (created null; assign to it, or push to it as an array).
    nlohmann::ordered_json& operator[](const std::string& key) { return m_document[key]; }
    /// The exit code given; when it is 0 and JSON was asked for, prints the document first.
    int finish(int exitCode);

private:
    bool m_json = false;
    nlohmann::ordered_json m_document;
};

} // namespace tstudio::cli
