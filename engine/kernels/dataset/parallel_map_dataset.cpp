// ParallelMapDataset(V2): f applied to up to num_parallel_calls elements at once on worker threads
// of the iterator, the results handed out in input order.
#include "kernels/dataset/batch_parse.h"
#include "kernels/dataset/dataset_function.h"
#include "kernels/dataset/dataset_kernels.h"

#include "core/affinity_cores.h"
#include "framework/kernel_registry.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace tstudio::tfdata {
namespace {

using namespace std::chrono_literals;

/// TensorFlow's AUTOTUNE value for num_parallel_calls and buffer sizes.
constexpr std::int64_t kAutotune = -1;
/// The fewest results a parallel map buffers (TensorFlow 1.15 buffers num_parallel_calls).
constexpr int kMinBuffer = 16;

class ParallelMapDataset : public DatasetBase {
public:
    ParallelMapDataset(std::string op, std::string node, std::vector<DataType> types, std::vector<TensorShape> shapes,
                       DatasetPtr input, DatasetFunctionPtr fn, int parallelism)
        : DatasetBase(std::move(op), std::move(node), std::move(types), std::move(shapes)), m_input(std::move(input)),
          m_fn(std::move(fn)), m_parallelism(parallelism), m_parsing(parsingMapOf(m_input, m_fn, outputShapes()))
    {
    }

    std::shared_ptr<const ParsingMap> parsingMap() const override { return m_parsing; }

    Expected<std::unique_ptr<DatasetIterator>> makeIterator(const IteratorEnv& env) const override
    {
        auto input = m_input->makeIterator(env);
        if (!input)
            return unexpected(input.error());
        return std::unique_ptr<DatasetIterator>(
            std::make_unique<Iterator>(self<ParallelMapDataset>(), env, std::move(*input)));
    }

private:
    /// One input element on its way through f, in input order.
    struct Slot {
        bool done = false;
        NextResult result = std::optional<Element>();
    };

    /// Workers take the next input element (under m_inputMutex, which also fixes the slot order),
    /// run f without any lock, and store the result in their slot; next() hands out the front slot
    /// once it is done. `parallelism` workers map at most that many elements at once; at most
    /// capacity() slots exist at a time (in flight or waiting).
    ///
    /// Wake-ups are what an element costs here, not f: a worker that finds the buffer full sleeps
    /// until next() has freed half of it (then it fills it again without sleeping), and next() is
    /// woken only when the slot it waits for is done. Handing each element over with a sleep and a
    /// wake-up on both sides (as a buffer of `parallelism` slots refilled one at a time does) made
    /// range.map(f) with 4 parallel calls 0.27x of the sequential map on 2 cores.
    class Iterator : public DatasetIterator {
    public:
        Iterator(std::shared_ptr<const ParallelMapDataset> dataset, IteratorEnv env,
                 std::unique_ptr<DatasetIterator> input)
            : m_dataset(std::move(dataset)), m_env(std::move(env)), m_input(std::move(input))
        {
        }

        ~Iterator() override
        {
            {
                std::lock_guard lock(m_mutex);
                m_stop = true;
            }
            m_workCv.notify_all();
            m_readyCv.notify_all();
            for (std::thread& t : m_workers)
                t.join();
        }

        NextResult next() override
        {
            std::unique_lock lock(m_mutex);
            if (m_workers.empty() && !m_inputDone)
                for (int i = 0; i < m_dataset->m_parallelism; ++i)
                    m_workers.emplace_back([this] { work(); });
            while (true) {
                if (!m_slots.empty() && m_slots.front()->done) {
                    std::shared_ptr<Slot> slot = std::move(m_slots.front());
                    m_slots.pop_front();
                    --m_reserved;
                    // Sleeping workers are woken once half the buffer is free, not for each slot.
                    const bool wake = m_idleWorkers > 0 && capacity() - m_reserved >= refillAt();
                    lock.unlock();
                    if (wake)
                        m_workCv.notify_all();
                    return std::move(slot->result);
                }
                if (m_slots.empty() && m_inputDone && m_pulling == 0)
                    return std::nullopt;
                if (m_env.stopping())
                    return unexpected(m_env.stopStatus());
                m_consumerWaiting = true;
                m_readyCv.wait_for(lock, 20ms);
                m_consumerWaiting = false;
            }
        }

    private:
        void work()
        {
            while (true) {
                std::shared_ptr<Slot> slot;
                NextResult element = std::optional<Element>();
                {
                    std::unique_lock lock(m_mutex);
                    if (m_reserved >= capacity()) {
                        ++m_idleWorkers;
                        while (!m_stop && !m_inputDone && capacity() - m_reserved < refillAt() && !m_env.stopping())
                            m_workCv.wait_for(lock, 20ms);
                        --m_idleWorkers;
                    }
                    if (m_stop || m_inputDone || m_env.stopping())
                        return;
                    ++m_reserved;
                    ++m_pulling;
                }
                {
                    std::lock_guard inputLock(m_inputMutex);
                    bool ended = false;
                    {
                        std::lock_guard lock(m_mutex);
                        ended = m_inputDone;
                    }
                    if (!ended)
                        element = m_input->next();
                    std::lock_guard lock(m_mutex);
                    --m_pulling;
                    if (!element || !*element) {
                        m_inputDone = true;
                        if (!element) { // the input's error takes its place in the order
                            auto failed = std::make_shared<Slot>();
                            failed->done = true;
                            failed->result = std::move(element);
                            m_slots.push_back(std::move(failed));
                        } else {
                            --m_reserved;
                        }
                        m_readyCv.notify_all();
                        m_workCv.notify_all();
                        return;
                    }
                    slot = std::make_shared<Slot>();
                    m_slots.push_back(slot);
                }
                const ParallelMapDataset& d = *m_dataset;
                auto mapped = applyMapFunction(*d.m_fn, m_env, **element, d.outputTypes(), d.outputShapes());
                bool wake = false;
                {
                    std::lock_guard lock(m_mutex);
                    slot->result = mapped ? NextResult(std::optional<Element>(std::move(*mapped)))
                                          : NextResult(unexpected(mapped.error()));
                    slot->done = true;
                    // next() waits for the front slot only.
                    wake = m_consumerWaiting && !m_slots.empty() && m_slots.front() == slot;
                }
                if (wake)
                    m_readyCv.notify_one();
            }
        }

        /// Results that may wait in the buffer: num_parallel_calls, and at least kMinBuffer so that
        /// refills come in runs.
        int capacity() const { return std::max(m_dataset->m_parallelism, kMinBuffer); }
        /// Free slots that wake sleeping workers.
        int refillAt() const { return std::max(1, capacity() / 2); }

        std::shared_ptr<const ParallelMapDataset> m_dataset;
        IteratorEnv m_env;
        std::unique_ptr<DatasetIterator> m_input;
        std::mutex m_inputMutex;           ///< one worker at a time reads the input
        std::mutex m_mutex;                ///< guards everything below
        std::condition_variable m_workCv;  ///< workers wait for a free slot
        std::condition_variable m_readyCv; ///< next() waits for the front slot
        std::deque<std::shared_ptr<Slot>> m_slots;
        int m_reserved = 0; ///< slots that exist or are being made
        int m_pulling = 0;  ///< workers reading the input
        int m_idleWorkers = 0;         ///< workers asleep on a full buffer
        bool m_consumerWaiting = false; ///< next() is asleep on m_readyCv
        bool m_inputDone = false;
        bool m_stop = false;
        std::vector<std::thread> m_workers;
    };

    DatasetPtr m_input;
    DatasetFunctionPtr m_fn;
    int m_parallelism;
    std::shared_ptr<const ParsingMap> m_parsing; ///< when f is a dense parse_single_example (batch_parse.h)
};

/// ParallelMapDataset (num_parallel_calls: int32) and ParallelMapDatasetV2 (int64). `sloppy` and
/// `deterministic` allow out-of-order results in TensorFlow; here the order is always the input's.
class ParallelMapDatasetOp : public DatasetOpKernel {
public:
    using DatasetOpKernel::DatasetOpKernel;

protected:
    Expected<DatasetPtr> makeDataset(OpKernelContext& ctx) override
    {
        auto input = datasetInput(ctx, 0);
        if (!input)
            return unexpected(input.error());
        auto fn = DatasetFunction::create(ctx, "f", 1, (*input)->outputTypes());
        if (!fn)
            return unexpected(fn.error());
        if (Status s = checkMapFunctionTypes(**fn, types()); !s.isOk())
            return unexpected(s);
        auto calls = int64Input(ctx, ctx.numInputs() - 1, "num_parallel_calls");
        if (!calls)
            return unexpected(calls.error());
        if (*calls <= 0 && *calls != kAutotune)
            return unexpected(invalidArgumentError("num_parallel_calls must be greater than zero."));
        const int hardware = schedulableCores();
        const int parallelism = *calls == kAutotune ? hardware : static_cast<int>(std::min<std::int64_t>(*calls, 256));
        return makeDatasetOf<ParallelMapDataset>(*this, types(), shapes(), std::move(*input), std::move(*fn),
                                                 parallelism);
    }
};

} // namespace

Status registerParallelMapDatasetKernels(KernelRegistry& registry)
{
    Status s = registry.add<ParallelMapDatasetOp>(KernelDef{"ParallelMapDataset", "CPU", {}, {}});
    if (s.isOk())
        s = registry.add<ParallelMapDatasetOp>(KernelDef{"ParallelMapDatasetV2", "CPU", {}, {}});
    return s;
}

} // namespace tstudio::tfdata
