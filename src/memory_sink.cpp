// In-memory result sink (see memory_sink.hpp).
#include "memory_sink.hpp"

#include <cstring>

#include "chunk_record.hpp"

namespace geomint {

void MemorySink::write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) {
    for (const Column& column : columns) {
        const auto found = columns_.find(column.name);
        if (found == columns_.end()) continue;
        const std::size_t size = column_value_size(column.kind), stride = found->second.stride * size;
        const auto* from = static_cast<const unsigned char*>(column.data);
        auto* to = static_cast<unsigned char*>(found->second.data) + begin * stride;
        if (found->second.stride == 1) {
            std::memcpy(to, from, n * size);
        } else {
            for (std::size_t r = 0; r < n; ++r) std::memcpy(to + r * stride, from + r * size, size);
        }
    }
    if (states == nullptr || states_.data == nullptr) return;
    // The chunk holds [save][trajectory][component]; the destination [trajectory][save][component].
    const std::size_t state = states_.components * states_.real_size;
    const auto* from = static_cast<const unsigned char*>(states);
    auto* to = static_cast<unsigned char*>(states_.data);
    for (std::size_t s = 0; s < states_.saves; ++s)
        for (std::size_t r = 0; r < n; ++r)
            std::memcpy(to + ((begin + r) * states_.saves + s) * state, from + (s * n + r) * state, state);
}

}  // namespace geomint
