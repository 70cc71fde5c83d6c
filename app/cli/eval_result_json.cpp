#include "eval_result_json.h"

namespace tstudio::cli {

nlohmann::ordered_json evalResultJson(const project::EvalResult& result)
{
    nlohmann::ordered_json out;
    out["checkpoint"] = result.checkpoint;
    out["global_step"] = result.step;
    out["batches"] = result.batches;
    out["examples"] = result.examples;
    out["seconds"] = result.seconds;
    nlohmann::ordered_json metrics = nlohmann::ordered_json::object();
    for (const auto& [name, value] : result.metrics)
        metrics[name] = value;
    out["metrics"] = std::move(metrics);
    return out;
}

} // namespace tstudio::cli
