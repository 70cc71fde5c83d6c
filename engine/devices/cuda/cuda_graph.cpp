// CudaGraph: launch and release of a captured step.
#include "devices/cuda/cuda_graph.h"

#include "devices/cuda/cuda_device.h"
#include "devices/cuda/cuda_error.h"

namespace tstudio::cuda {

CudaGraph::CudaGraph(CudaDevice& device, cudaGraph_t graph, cudaGraphExec_t exec, std::unique_ptr<BfcAllocator> pool,
                     std::vector<Tensor> kept, std::int64_t nodes)
    : m_device(device), m_graph(graph), m_exec(exec), m_pool(std::move(pool)), m_kept(std::move(kept)), m_nodes(nodes)
{
}

CudaGraph::~CudaGraph()
{
    // A replay may still be running: its memory must not be handed to anyone before it ends.
    if (m_device.activate().isOk())
        cudaStreamSynchronize(m_device.computeStream());
    if (m_exec)
        cudaGraphExecDestroy(m_exec);
    if (m_graph)
        cudaGraphDestroy(m_graph);
    cudaGetLastError(); // nothing to report from a destructor; do not leave it for the next call
    m_kept.clear();
    m_device.releasePool(std::move(m_pool));
}

Status CudaGraph::replay()
{
    if (Status s = m_device.activate(); !s.isOk())
        return s;
    return cudaStatus(cudaGraphLaunch(m_exec, m_device.computeStream()), "cudaGraphLaunch")
        .withContext("replaying the CUDA graph of a step on " + m_device.name());
}

} // namespace tstudio::cuda
