// The op families: each registers its op definitions and shape functions in an OpRegistry.
#pragma once

#include "core/status.h"

namespace tstudio {

class OpRegistry;

// One function per family, in ops/<family>_ops.cpp. Each returns the first registration error.
Status registerMathOps(OpRegistry& registry);         ///< element-wise math, MatMul, reductions, comparisons
Status registerArrayOps(OpRegistry& registry);        ///< Const, Placeholder, Reshape, Concat, Slice, Gather, ...
Status registerNnOps(OpRegistry& registry);           ///< activations, Conv2D, pooling, batch norm, losses
Status registerStateOps(OpRegistry& registry);        ///< VariableV2, Assign*, resource variables, NoOp
Status registerControlFlowOps(OpRegistry& registry);  ///< Switch, Merge, Enter, Exit, NextIteration, LoopCond
Status registerRandomOps(OpRegistry& registry);       ///< RandomUniform, RandomStandardNormal, TruncatedNormal, ...
/// (Log)UniformCandidateSampler, AllCandidateSampler, ComputeAccidentalHits
Status registerCandidateSamplingOps(OpRegistry& registry);
Status registerTrainingOps(OpRegistry& registry);     ///< ApplyGradientDescent, ApplyAdam, ... and Resource forms
Status registerIoOps(OpRegistry& registry);           ///< SaveV2, RestoreV2, MergeV2Checkpoints, StringJoin, ...
Status registerLinalgOps(OpRegistry& registry);       ///< Qr, Diag, DiagPart, MatrixDiag, MatrixDiagPart, MatrixSetDiag
Status registerParsingOps(OpRegistry& registry);      ///< ParseExample(V2), ParseSequenceExample(V2), DecodeRaw, DecodeCSV, ...
Status registerImageCodecOps(OpRegistry& registry);   ///< DecodeJpeg, DecodePng, DecodeImage, EncodeJpeg, EncodePng, ...
Status registerImageAdjustOps(OpRegistry& registry);  ///< AdjustContrastv2, AdjustHue, AdjustSaturation, RGBToHSV, HSVToRGB
Status registerQueueOps(OpRegistry& registry);        ///< FIFO/PaddingFIFO/RandomShuffle queues, Enqueue/Dequeue/Close/Size, CountUpTo
Status registerReaderOps(OpRegistry& registry);       ///< TFRecord/TextLine/WholeFile/FixedLengthRecord readers, ReaderRead(UpTo)V2, ...
Status registerTensorArrayOps(OpRegistry& registry);  ///< TensorArrayV3, its Grad, Write/Read/Gather/Scatter/Concat/Split/Size/Close

} // namespace tstudio
