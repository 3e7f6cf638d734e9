// The portrait sink (see portrait_sink.hpp).
#include "portrait_sink.hpp"

#include <stdexcept>

#include "mpi_session.hpp"
#include "mpi_sum.hpp"

namespace geomint {

PortraitSink::PortraitSink(const PortraitSettings& settings, bool on_device, int threads, Write write)
    : settings_(settings), write_(std::move(write)) {
    if (on_device)
        device_ = std::make_unique<PortraitCudaHistogram>(settings.grid, settings.energy.has_value());
    else
        threads_.emplace(settings.grid, settings.energy.has_value(), threads);
}

PortraitTarget PortraitSink::target() {
    PortraitTarget target;
    target.settings = settings_;
    if (device_) {
        target.device_view = device_->device_view();
    } else {
        for (int t = 0; t < threads_->threads(); ++t) target.thread_views.push_back(threads_->view(t));
    }
    return target;
}

void PortraitSink::write_chunk(std::uint64_t, std::size_t n, const ColumnSet& columns, const void*) {
    // The visits were recorded while the chunk ran; what is left of it is how its trajectories ended.
    for_each_status(columns, n, [&](const char* name) { ++statuses_[name]; });
}

void PortraitSink::finish() {
    if (device_) {
        DensityHistogram histogram(settings_.grid, settings_.energy.has_value());
        device_->download(histogram.counts().data(), settings_.energy ? histogram.energy_sums().data() : nullptr);
        histogram_.emplace(std::move(histogram));
    } else {
        histogram_.emplace(threads_->merge());
    }
    // Split across MPI ranks (mpi_chunk_loop.hpp), each rank recorded the chunks it computed:
    // rank 0 adds them all up and alone writes the output.
    mpi::sum_on_rank0(histogram_->counts());
    if (settings_.energy) mpi::sum_on_rank0(histogram_->energy_sums());
    if (mpi::rank() != 0) return;
    if (write_) write_(*histogram_);
}

PortraitResult PortraitSink::take_result() {
    if (!histogram_) throw std::logic_error("portrait result asked before finish()");
    return {std::move(*histogram_), std::move(statuses_)};
}

}  // namespace geomint
