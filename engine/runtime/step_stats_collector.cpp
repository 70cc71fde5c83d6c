// StepStatsCollector: NodeExecStats records timed on the steady clock, starts expressed as wall-clock time.
#include "runtime/step_stats_collector.h"

#include <google/protobuf/message.h>
#include <google/protobuf/unknown_field_set.h>

#include <atomic>

namespace tstudio {

/// The two clocks are read together once per process, so every record's start and end come from
/// the one monotonic clock: two threads' records never disagree about order (reading both clocks per
/// node let a thread preempted between the two reads start late on the wall clock, after a consumer
/// it had already unblocked).
std::int64_t traceWallNanos(std::chrono::steady_clock::time_point at)
{
    static const auto anchorSteady = std::chrono::steady_clock::now();
    static const std::int64_t anchorWall =
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    return anchorWall + std::chrono::duration_cast<std::chrono::nanoseconds>(at - anchorSteady).count();
}

namespace {

template <typename Message>
Message* createOn(google::protobuf::Arena* arena)
{
    return google::protobuf::Arena::CreateMessage<Message>(arena);
}

} // namespace

void setLoopPosition(tensorflow::NodeExecStats* stats, const std::string& frame, std::int64_t iteration)
{
    if (frame.empty())
        return;
    google::protobuf::UnknownFieldSet* fields = stats->GetReflection()->MutableUnknownFields(stats);
    for (int i = fields->field_count() - 1; i >= 0; --i) {
        const int number = fields->field(i).number();
        if (number == kLoopFrameField || number == kLoopIterationField)
            fields->DeleteSubrange(i, 1);
    }
    fields->AddLengthDelimited(kLoopFrameField, frame);
    fields->AddVarint(kLoopIterationField, static_cast<std::uint64_t>(iteration));
}

std::optional<LoopPosition> loopPositionOf(const tensorflow::NodeExecStats& stats)
{
    const google::protobuf::UnknownFieldSet& fields = stats.GetReflection()->GetUnknownFields(stats);
    if (fields.empty())
        return std::nullopt;
    std::optional<std::string> frame;
    std::optional<std::int64_t> iteration;
    for (int i = 0; i < fields.field_count(); ++i) {
        const google::protobuf::UnknownField& field = fields.field(i);
        if (field.number() == kLoopFrameField && field.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            frame = field.length_delimited();
        else if (field.number() == kLoopIterationField && field.type() == google::protobuf::UnknownField::TYPE_VARINT)
            iteration = static_cast<std::int64_t>(field.varint());
    }
    if (!frame || frame->empty() || !iteration || *iteration < 0)
        return std::nullopt;
    return LoopPosition{std::move(*frame), *iteration};
}

std::uint32_t NodeStatsRecorder::currentThreadId()
{
    static std::atomic<std::uint32_t> next{1};
    thread_local const std::uint32_t id = next.fetch_add(1);
    return id;
}

NodeStatsRecorder::NodeStatsRecorder(const tensorflow::NodeDef& node, google::protobuf::Arena* arena)
    : m_stats(createOn<tensorflow::NodeExecStats>(arena)), m_owned(arena == nullptr),
      m_start(std::chrono::steady_clock::now())
{
    const std::int64_t startNanos = traceWallNanos(m_start);
    m_stats->set_node_name(node.name());
    m_stats->set_all_start_nanos(startNanos);
    m_stats->set_all_start_micros(startNanos / 1000);
    m_stats->set_thread_id(currentThreadId());
    std::size_t length = node.name().size() + node.op().size() + 5;
    for (const std::string& input : node.input())
        length += input.size() + 2;
    std::string* label = m_stats->mutable_timeline_label();
    label->reserve(length);
    label->append(node.name()).append(" = ").append(node.op()).push_back('(');
    for (int i = 0; i < node.input_size(); ++i)
        label->append(i ? ", " : "").append(node.input(i));
    label->push_back(')');
}

NodeStatsRecorder::~NodeStatsRecorder()
{
    if (m_owned)
        delete m_stats;
}

std::int64_t NodeStatsRecorder::relNanos() const
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m_start).count();
}

void NodeStatsRecorder::opStart()
{
    const std::int64_t rel = relNanos();
    m_stats->set_op_start_rel_nanos(rel);
    m_stats->set_op_start_rel_micros(rel / 1000);
}

void NodeStatsRecorder::opEnd()
{
    const std::int64_t rel = relNanos();
    m_stats->set_op_end_rel_nanos(rel);
    m_stats->set_op_end_rel_micros(rel / 1000);
}

void NodeStatsRecorder::addOutput(int slot, const Tensor& value, const std::string& allocatorName)
{
    tensorflow::NodeOutput* output = m_stats->add_output();
    output->set_slot(slot);
    tensorflow::TensorDescription* description = output->mutable_tensor_description();
    description->set_dtype(value.dtype());
    tensorflow::TensorShapeProto* shape = description->mutable_shape();
    for (std::int64_t size : value.shape().dims())
        shape->add_dim()->set_size(size);
    tensorflow::AllocationDescription* allocation = description->mutable_allocation_description();
    const auto bytes = static_cast<std::int64_t>(value.totalBytes());
    allocation->set_requested_bytes(bytes);
    allocation->set_allocated_bytes(bytes);
    allocation->set_allocator_name(allocatorName);
}

void NodeStatsRecorder::setMemory(const std::string& allocatorName, std::int64_t totalBytes, std::int64_t peakBytes,
                                  std::int64_t liveBytes, std::int64_t allocatorBytesInUse)
{
    tensorflow::AllocatorMemoryUsed* memory = m_stats->add_memory();
    memory->set_allocator_name(allocatorName);
    memory->set_total_bytes(totalBytes);
    memory->set_peak_bytes(peakBytes);
    memory->set_live_bytes(liveBytes);
    memory->set_allocator_bytes_in_use(allocatorBytesInUse);
}

tensorflow::NodeExecStats* NodeStatsRecorder::finish()
{
    const std::int64_t rel = relNanos();
    m_stats->set_all_end_rel_nanos(rel);
    m_stats->set_all_end_rel_micros(rel / 1000);
    m_owned = false;
    return m_stats;
}

StepStatsCollector::StepStatsCollector(const std::vector<Device*>& devices, google::protobuf::Arena* arena)
    : m_arena(arena)
{
    for (Device* device : devices) {
        auto* stats = createOn<tensorflow::DeviceStepStats>(arena);
        stats->set_device(device->name());
        m_devices.push_back(stats);
    }
}

StepStatsCollector::~StepStatsCollector()
{
    if (!m_arena) {
        for (tensorflow::DeviceStepStats* stats : m_devices)
            delete stats;
    }
}

void StepStatsCollector::add(int deviceIndex, tensorflow::NodeExecStats* stats)
{
    std::lock_guard lock(m_mutex);
    // Same arena (or both on the heap): the repeated field takes the record without a copy.
    m_devices.at(static_cast<std::size_t>(deviceIndex))->mutable_node_stats()->AddAllocated(stats);
}

void StepStatsCollector::finish(tensorflow::StepStats* out)
{
    std::lock_guard lock(m_mutex);
    for (tensorflow::DeviceStepStats* stats : m_devices)
        out->mutable_dev_stats()->AddAllocated(stats);
    m_devices.clear();
}

} // namespace tstudio
