// poolShapeOf: the PoolShape the GPU pooling kernels compute for a pooling geometry, shared by
// pooling_cuda.cpp and the tests that run the per-element arithmetic (pooling_cuda_math.h) on the host.
#pragma once

#include "kernels/nn/pooling.h"
#include "kernels/nn/pooling_cuda_math.h"

namespace tstudio::nn {

/// The GPU kernels' view of geometry `g` with the images laid out in `format`.
inline gpu::PoolShape poolShapeOf(const PoolGeometry& g, DataFormat format)
{
    gpu::PoolShape s;
    s.batch = g.batch;
    s.depth = g.depth;
    s.inRows = g.rows.input;
    s.inCols = g.cols.input;
    s.outRows = g.rows.output;
    s.outCols = g.cols.output;
    s.outDepth = g.outDepth;
    s.windowRows = g.rows.filter;
    s.windowCols = g.cols.filter;
    s.strideRows = g.rows.stride;
    s.strideCols = g.cols.stride;
    s.padTop = g.rows.padBefore;
    s.padLeft = g.cols.padBefore;
    s.depthWindow = g.depthWindow;
    s.nchw = format == DataFormat::kNchw;
    return s;
}

} // namespace tstudio::nn
