// ArenaRunMetadata: a RunMetadata on its own protobuf arena, for traced runs.
#pragma once

#include "proto/config.pb.h"

#include <google/protobuf/arena.h>

namespace tstudio {

/// A RunMetadata that lives on an arena of its own. Session::run creates a traced step's records
/// on the RunMetadata's arena, so filling one of these costs a pointer bump per record and
/// sub-message instead of a dozen heap allocations, and freeing it is one release. Not movable.
class ArenaRunMetadata {
public:
    ArenaRunMetadata() : m_metadata(google::protobuf::Arena::CreateMessage<tensorflow::RunMetadata>(&m_arena)) {}
    ArenaRunMetadata(const ArenaRunMetadata&) = delete;
    ArenaRunMetadata& operator=(const ArenaRunMetadata&) = delete;

    tensorflow::RunMetadata* get() { return m_metadata; }
    tensorflow::RunMetadata& operator*() { return *m_metadata; }
    tensorflow::RunMetadata* operator->() { return m_metadata; }

private:
    google::protobuf::Arena m_arena;
    tensorflow::RunMetadata* m_metadata;
};

} // namespace tstudio
