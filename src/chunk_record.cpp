// Chunks as raw bytes (see chunk_record.hpp).
#include "chunk_record.hpp"

#include <cstdint>
#include <stdexcept>

namespace geomint {

std::size_t column_value_size(ColumnKind kind) {
    switch (kind) {
        case ColumnKind::real32:
            return sizeof(float);
        case ColumnKind::real64:
            return sizeof(double);
        case ColumnKind::int64:
            return sizeof(std::int64_t);
        case ColumnKind::status:
            return sizeof(std::uint8_t);
    }
    throw std::logic_error("column_value_size: unknown column kind");
}

std::size_t ChunkShape::bytes(std::size_t n) const {
    std::size_t per_trajectory = state_values * real_size;
    for (const Column& column : columns) per_trajectory += column_value_size(column.kind);
    return per_trajectory * n;
}

std::vector<std::string_view> chunk_pieces(const ChunkShape& shape, const ColumnSet& columns, std::size_t n,
                                           const void* states) {
    if (columns.size() != shape.columns.size()) throw std::logic_error("chunk_pieces: columns differ from the shape");
    std::vector<std::string_view> pieces;
    for (const Column& column : columns)
        pieces.emplace_back(static_cast<const char*>(column.data), column_value_size(column.kind) * n);
    if (shape.state_values > 0) {
        if (states == nullptr) throw std::logic_error("chunk_pieces: saved states missing");
        pieces.emplace_back(static_cast<const char*>(states), shape.state_values * shape.real_size * n);
    }
    return pieces;
}

StoredChunk::StoredChunk(const ChunkShape& shape, std::size_t n) : shape_(shape), n_(n) {
    for (const Column& column : shape_.columns) sizes_.push_back(column_value_size(column.kind) * n);
    if (shape_.state_values > 0) sizes_.push_back(shape_.state_values * shape_.real_size * n);
    std::size_t words = 0;
    for (const std::size_t size : sizes_) {
        offsets_.push_back(words * sizeof(std::uint64_t));
        words += (size + sizeof(std::uint64_t) - 1) / sizeof(std::uint64_t);
    }
    storage_.resize(words);
}

std::vector<ChunkTarget> StoredChunk::targets() {
    std::vector<ChunkTarget> targets;
    char* base = reinterpret_cast<char*>(storage_.data());
    for (std::size_t k = 0; k < sizes_.size(); ++k) targets.push_back({base + offsets_[k], sizes_[k]});
    return targets;
}

ColumnSet StoredChunk::columns() const {
    ColumnSet columns = shape_.columns;
    const char* base = reinterpret_cast<const char*>(storage_.data());
    for (std::size_t k = 0; k < columns.size(); ++k) columns[k].data = base + offsets_[k];
    return columns;
}

const void* StoredChunk::states() const {
    if (shape_.state_values == 0) return nullptr;
    return reinterpret_cast<const char*>(storage_.data()) + offsets_.back();
}

}  // namespace geomint
