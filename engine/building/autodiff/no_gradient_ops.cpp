// The ops TensorFlow 1.15 leaves without any gradient registration, registered here as not
// differentiable so that every op is classified (tests/engine/autodiff/test_gradient_coverage.cpp
// enforces it): sources and sinks, optimizer updates, checkpoint I/O, and ops whose outputs are
// integers, booleans or strings. Three differ from TensorFlow on purpose: a gradient through Unique,
// ListDiff or RandomShuffle is TensorFlow's LookupError "No gradient defined for operation"; here
// their outputs carry no gradient (the sets they compute, and the permutation RandomShuffle drew, are
// not differentiable functions of the values one could use).
#include "autodiff/gradients_registry.h"
#include "framework/op_registry.h"

namespace tstudio {

Status registerOpsWithoutGradients(OpRegistry& registry)
{
    static const char* const kOps[] = {
        // Sources: no inputs a gradient could reach.
        "Placeholder", "PlaceholderV2", "Variable", "VariableV2", "TemporaryVariable", "VarHandleOp",
        // Sinks and control: no outputs a gradient could come from.
        "NoOp", "ControlTrigger", "Abort", "DestroyTemporaryVariable", "DestroyResourceOp", "AssignVariableOp",
        "AssignAddVariableOp", "AssignSubVariableOp", "SaveV2", "MergeV2Checkpoints", "Assert",
        // Optimizer updates: never differentiated.
        "ApplyGradientDescent", "ApplyMomentum", "ApplyAdam", "ApplyRMSProp", "ApplyCenteredRMSProp", "ApplyAdagrad",
        "ApplyAdadelta", "ApplyFtrl", "ResourceApplyGradientDescent", "ResourceApplyMomentum", "ResourceApplyAdam",
        "ResourceApplyRMSProp", "ResourceApplyCenteredRMSProp", "ResourceApplyAdagrad", "ResourceApplyAdadelta",
        "ResourceApplyFtrl", "SparseApplyMomentum", "SparseApplyAdagrad", "SparseApplyRMSProp",
        "SparseApplyCenteredRMSProp", "ResourceSparseApplyMomentum", "ResourceSparseApplyAdagrad",
        "ResourceSparseApplyRMSProp", "ResourceSparseApplyCenteredRMSProp",
        // Sparse variable updates (TensorFlow's state_grad.py marks Scatter* not differentiable).
        "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul", "ScatterDiv", "ResourceScatterUpdate",
        "ResourceScatterAdd", "ResourceScatterSub", "ResourceScatterMul", "ResourceScatterDiv",
        // Integer, boolean and string outputs.
        "All", "Any", "IsFinite", "IsInf", "IsNan", "IsVariableInitialized", "Where", "BroadcastArgs",
        "RandomUniformInt", "RestoreV2", "ShardedFilename", "ShardedFilespec",
        // Ref selection of variables (deprecated; its inputs are refs, which carry no gradients).
        "RefSelect",
        // Set operations and a random permutation (see above).
        "Unique", "ListDiff", "RandomShuffle",
        // Summaries (TensorFlow's logging_ops.py marks them NotDifferentiable).
        "ScalarSummary", "HistogramSummary", "ImageSummary", "AudioSummary", "AudioSummaryV2", "TensorSummary",
        "TensorSummaryV2", "MergeSummary",
        // The history stacks of while-loop gradients (TensorFlow's data_flow_grad.py).
        "StackV2", "StackPushV2", "StackPopV2", "StackCloseV2",
        // V1 checkpoints (io_ops).
        "Save", "SaveSlices", "Restore", "RestoreSlice",
        // Parsing: string inputs (parsing_ops.py marks DecodeRaw, ParseTensor, SerializeTensor and
        // StringToNumber NotDifferentiable; the Example parsers take serialized protos).
        "ParseExample", "ParseExampleV2", "ParseSingleExample", "ParseSequenceExample", "ParseSequenceExampleV2",
        "ParseSingleSequenceExample", "DecodeRaw", "DecodeCSV", "StringToNumber", "SerializeTensor", "ParseTensor",
        // Image codecs: bytes in or out (image_ops.py marks them NotDifferentiable), and HSVToRGB.
        "DecodeJpeg", "DecodeAndCropJpeg", "ExtractJpegShape", "DecodePng", "DecodeImage", "EncodeJpeg", "EncodePng",
        "HSVToRGB",
        // Image adjustments TensorFlow 1.15 registers no gradient for (a gradient through them is its
        // LookupError); here, as for Unique above, their outputs carry none.
        "AdjustContrastv2", "AdjustHue", "AdjustSaturation", "RGBToHSV", "ResizeArea",
        // String ops (string_ops.py marks RegexReplace, ReduceJoin and AsString NotDifferentiable; the
        // rest and MatchingFiles it leaves unregistered, strings in and strings or bools out).
        "RegexReplace", "StaticRegexReplace", "RegexFullMatch", "StaticRegexFullMatch", "StringFormat", "ReduceJoin",
        "AsString", "MatchingFiles",
        // Lookup tables, their initializers and the hash-bucket and bucketize ops: handles, strings and
        // integer ids, which carry no gradient.
        "HashTable", "HashTableV2", "MutableHashTable", "MutableHashTableV2", "MutableHashTableOfTensors",
        "MutableHashTableOfTensorsV2", "MutableDenseHashTable", "MutableDenseHashTableV2", "LookupTableFind",
        "LookupTableFindV2", "LookupTableInsert", "LookupTableInsertV2", "LookupTableRemoveV2", "LookupTableSize",
        "LookupTableSizeV2", "LookupTableExport", "LookupTableExportV2", "LookupTableImport", "LookupTableImportV2",
        "InitializeTable", "InitializeTableV2", "InitializeTableFromTextFile", "InitializeTableFromTextFileV2",
        "StringToHashBucket", "StringToHashBucketFast", "StringToHashBucketStrong", "Bucketize",
        "BucketizeWithInputBoundaries"};
    for (const char* name : kOps) {
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
