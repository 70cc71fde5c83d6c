// CastAttrs: Cast's SrcT, DstT and Truncate attrs, read the same way by its CPU and GPU kernels.
#pragma once

#include "core/expected.h"
#include "framework/data_type.h"

namespace tensorflow {
class NodeDef;
}

namespace tstudio {

struct CastAttrs {
    DataType src = tensorflow::DT_INVALID;
    DataType dst = tensorflow::DT_INVALID;
    bool truncate = false;
};

/// SrcT and DstT (attrType's errors when missing or mistyped) and Truncate, false when the node has
/// none: graphs written before TensorFlow 1.10 have no Truncate attr.
Expected<CastAttrs> castAttrs(const tensorflow::NodeDef& node);

} // namespace tstudio
