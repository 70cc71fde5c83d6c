// checkTrainingStarts: a project's training graph, data and evaluation prepared, and then dropped.
#include "project/run/training_check.h"

#include "project/run/evaluation.h"
#include "project/run/training_setup.h"

namespace tstudio::project {

Status checkTrainingStarts(const Project& project, const OpRegistry& ops)
{
    auto prepared = prepareTraining(project, ops);
    if (!prepared)
        return prepared.error();
    if (project.eval) {
        auto evaluation = ProjectEvaluation::prepare(*prepared->builder, project, prepared->modelLoss);
        if (!evaluation)
            return evaluation.error();
    }
    return Status::ok();
}

} // namespace tstudio::project
