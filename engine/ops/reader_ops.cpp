// The reader ops of TensorFlow 1.15's io_ops: TFRecordReaderV2, TextLineReaderV2, WholeFileReaderV2,
// FixedLengthRecordReaderV2, and ReaderReadV2 / ReadUpToV2 / NumRecordsProducedV2 /
// NumWorkUnitsCompletedV2 / ResetV2, which take their work units (file names) from a queue.
// Repeats on purpose: the queue, reader and accumulator families' constructors, output setters and op
// definitions have one shape and differ in ops and attrs, as TensorFlow's own files do.
#include "framework/op_def_builder.h"
#include "framework/op_registry.h"
#include "framework/shape_inference.h"
#include "ops/common_shape_fns.h"
#include "ops/ops.h"

namespace tstudio {
namespace {

OpDefBuilder readerOp(const char* name, std::string summary)
{
    OpDefBuilder builder(name);
    builder.summary(std::move(summary)).category(op_category::kState).setIsStateful();
    return builder;
}

/// ReaderReadUpToV2: num_records must be a scalar; keys and values are vectors.
Status readUpToShape(ShapeInferenceContext& c)
{
    if (auto s = c.withRank(2, 0); !s)
        return s.error();
    c.setOutput(0, TensorShape::unknownDims(1));
    c.setOutput(1, TensorShape::unknownDims(1));
    return Status::ok();
}

/// ReaderReadV2: a scalar key and value.
Status readShape(ShapeInferenceContext& c)
{
    c.setOutput(0, TensorShape::scalar());
    c.setOutput(1, TensorShape::scalar());
    return Status::ok();
}

} // namespace

Status registerReaderOps(OpRegistry& registry)
{
    std::vector<OpDefBuilder> ops;
    {
        OpDefBuilder op = readerOp("TFRecordReaderV2", "A reader of the records of TFRecord files.");
        op.output("reader_handle: resource")
            .attr("container: string = ''")
            .attr("shared_name: string = ''")
            .attr("compression_type: string = ''");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("TextLineReaderV2", "A reader of the lines of text files (without the newline).");
        op.output("reader_handle: resource")
            .attr("skip_header_lines: int = 0")
            .attr("container: string = ''")
            .attr("shared_name: string = ''");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("WholeFileReaderV2", "A reader whose one record per file is the whole file; "
                                                        "the key is the file name.");
        op.output("reader_handle: resource").attr("container: string = ''").attr("shared_name: string = ''");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("FixedLengthRecordReaderV2",
                                   "A reader of records of record_bytes bytes after header_bytes, before "
                                   "footer_bytes, each hop_bytes after the previous (0: record_bytes).");
        op.output("reader_handle: resource")
            .attr("header_bytes: int = 0")
            .attr("record_bytes: int")
            .attr("footer_bytes: int = 0")
            .attr("hop_bytes: int = 0")
            .attr("container: string = ''")
            .attr("shared_name: string = ''")
            .attr("encoding: string = ''");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("ReaderReadV2", "The next record (key, value); takes a work unit from the "
                                                   "queue when the current one is done.");
        op.input("reader_handle: resource").input("queue_handle: resource").output("key: string").output(
            "value: string");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("ReaderReadUpToV2", "Up to num_records records; fewer when the queue of work "
                                                       "units is closed and exhausted.");
        op.input("reader_handle: resource")
            .input("queue_handle: resource")
            .input("num_records: int64")
            .output("keys: string")
            .output("values: string");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("ReaderNumRecordsProducedV2", "The number of records the reader has produced.");
        op.input("reader_handle: resource").output("records_produced: int64");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op =
            readerOp("ReaderNumWorkUnitsCompletedV2", "The number of work units the reader has finished.");
        op.input("reader_handle: resource").output("units_completed: int64");
        ops.push_back(std::move(op));
    }
    {
        OpDefBuilder op = readerOp("ReaderResetV2", "Restores the reader to its initial clean state.");
        op.input("reader_handle: resource");
        ops.push_back(std::move(op));
    }
    for (const OpDefBuilder& op : ops) {
        if (Status s = registry.registerOp(op); !s.isOk())
            return s;
    }
    const std::pair<const char*, ShapeFunction> shapes[] = {
        {"TFRecordReaderV2", scalarShape},
        {"TextLineReaderV2", scalarShape},
        {"WholeFileReaderV2", scalarShape},
        {"FixedLengthRecordReaderV2", scalarShape},
        {"ReaderReadV2", readShape},
        {"ReaderReadUpToV2", readUpToShape},
        {"ReaderNumRecordsProducedV2", scalarShape},
        {"ReaderNumWorkUnitsCompletedV2", scalarShape},
        {"ReaderResetV2", noOutputs}};
    for (const auto& [name, fn] : shapes) {
        if (Status s = registry.setShapeFunction(name, fn); !s.isOk())
            return s;
        // Handles, strings, counters and side effects: TensorFlow's io_ops.py mark these ops
        // NotDifferentiable, so backprop stops at them.
        if (Status s = registry.setNotDifferentiable(name); !s.isOk())
            return s;
    }
    return Status::ok();
}

} // namespace tstudio
