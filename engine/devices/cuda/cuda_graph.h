// CudaGraph: a step's GPU work captured from the compute stream (a CUDA graph), with the private
// memory pool and the page-locked sources its recorded addresses refer to.
#pragma once

#include "framework/bfc_allocator.h"
#include "framework/graph_capture.h"
#include "framework/tensor.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <vector>

namespace tstudio {

class CudaDevice;

namespace cuda {

/// An instantiated CUDA graph. Its kernels read and write the addresses they had when captured:
/// the pool that served the capture stays with the graph (no one else allocates from it), and so
/// do the page-locked tensors its host-to-device copies read. replay() launches it on the
/// device's compute stream. The destructor waits for the compute stream, then gives the pool back
/// to the device (which keeps it while tensors still use it, e.g. a variable given a new buffer
/// during the capture).
class CudaGraph final : public CapturedWork {
public:
    CudaGraph(CudaDevice& device, cudaGraph_t graph, cudaGraphExec_t exec, std::unique_ptr<BfcAllocator> pool,
              std::vector<Tensor> kept, std::int64_t nodes);
    ~CudaGraph() override;
    CudaGraph(const CudaGraph&) = delete;
    CudaGraph& operator=(const CudaGraph&) = delete;

    Status replay() override;
    std::int64_t size() const override { return m_nodes; }

private:
    CudaDevice& m_device;
    cudaGraph_t m_graph = nullptr;
    cudaGraphExec_t m_exec = nullptr;
    std::unique_ptr<BfcAllocator> m_pool;
    std::vector<Tensor> m_kept;
    std::int64_t m_nodes = 0;
};

} // namespace cuda
} // namespace tstudio
