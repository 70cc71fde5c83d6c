// The distributed interfaces in a build without MPI: no Horovod ops, and an MpiContext that
// answers Unavailable (the choice between this file and the *_mpi.cpp ones is made by CMake).
#include "distributed/horovod_ops.h"
#include "distributed/mpi_context.h"

namespace tstudio {

Status registerHorovodOps(OpRegistry&)
{
    return Status::ok();
}

Status registerHorovodCpuKernels(KernelRegistry&)
{
    return Status::ok();
}

namespace distributed {

namespace {

Status noMpi()
{
    return unavailableError("MPI: this build has no MPI support (install openmpi-bin and libopenmpi-dev, "
                            "then configure again)");
}

} // namespace

bool mpiBuilt()
{
    return false;
}

CollectiveSettings CollectiveSettings::fromEnvironment()
{
    return {};
}

struct MpiContext::Impl {};

MpiContext::MpiContext() : m_impl(nullptr) {}
MpiContext::~MpiContext() = default;

MpiContext& MpiContext::instance()
{
    static MpiContext* context = new MpiContext;
    return *context;
}

Status MpiContext::initialize(const CollectiveSettings&)
{
    return noMpi();
}
bool MpiContext::isInitialized() const
{
    return false;
}
int MpiContext::rank() const
{
    return 0;
}
int MpiContext::size() const
{
    return 1;
}
Status MpiContext::allreduce(const std::string&, DataType, void*, std::int64_t)
{
    return noMpi();
}
Status MpiContext::broadcast(const std::string&, void*, std::size_t, int)
{
    return noMpi();
}
Status MpiContext::plainAllreduceFloat(float*, std::int64_t)
{
    return noMpi();
}
Status MpiContext::send(int, int, const std::string&)
{
    return noMpi();
}

Expected<MpiContext::Message> MpiContext::receive(int, int, double)
{
    return unexpected(noMpi());
}

Status MpiContext::stopCollectives()
{
    return noMpi();
}

Status MpiContext::barrier()
{
    return noMpi();
}
CollectiveStats MpiContext::stats() const
{
    return {};
}
Status MpiContext::finalize()
{
    return Status::ok();
}
std::string MpiContext::errorPrefix() const
{
    return "MPI: ";
}

} // namespace distributed

} // namespace tstudio
