// One computed chunk as raw bytes, the form in which a run keeps its completed chunks for a later
// --resume (run_journal.hpp): each column's n values in column order, then the saved states
// [save][trajectory][component]. Nothing in it is converted, so a chunk read back gives the sinks
// exactly the values they were first given, and the resumed output equals an uninterrupted one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "result_columns.hpp"

namespace geomint {

// The shape of every chunk of one run.
struct ChunkShape {
    ColumnSet columns;             // names and kinds (data pointers unused)
    std::size_t state_values = 0;  // reals of saved states per trajectory: saves * components
    std::size_t real_size = 0;     // bytes of one real of the run's precision
    // Bytes of a chunk of n trajectories.
    std::size_t bytes(std::size_t n) const;
};

// Bytes of one value of `kind`.
std::size_t column_value_size(ColumnKind kind);

// The pieces of a computed chunk to write, in order (views into the ensemble's storage).
std::vector<std::string_view> chunk_pieces(const ChunkShape& shape, const ColumnSet& columns, std::size_t n,
                                           const void* states);

// Where the pieces of a chunk read back go, in the order chunk_pieces gives them.
struct ChunkTarget {
    char* data;
    std::size_t size;
};

// A chunk read back: the reader fills targets(), then columns() and states() view them. Each
// piece starts at an 8-byte boundary, so the columns' values are aligned for their type.
class StoredChunk {
public:
    StoredChunk(const ChunkShape& shape, std::size_t n);
    std::vector<ChunkTarget> targets();
    ColumnSet columns() const;
    const void* states() const;  // null without saved states

private:
    ChunkShape shape_;
    std::size_t n_;
    std::vector<std::size_t> sizes_, offsets_;  // of each piece, in bytes
    std::vector<std::uint64_t> storage_;        // 8-byte aligned
};

}  // namespace geomint
