// A phase portrait as a result sink of the run pipeline: it owns the density histogram the
// ensemble's bodies record into while they run (one per CPU thread, or one in device memory for
// the CUDA portrait kernels), hands the ensemble that target, counts the trajectories' statuses
// chunk by chunk, and at finish() adds the parts up (or downloads them) and writes the output
// (the PNG or the counts file) through `write`. No trajectory is stored.
#pragma once

#include <functional>
#include <memory>
#include <optional>

#include "ensemble_pipeline.hpp"
#include "portrait_cpu_accumulator.hpp"
#include "portrait_cuda.hpp"
#include "portrait_run.hpp"

namespace geomint {

class PortraitSink final : public ResultSink {
public:
    using Write = std::function<void(const DensityHistogram&)>;

    // With `on_device`, one zeroed device histogram; otherwise one per CPU thread (`threads`, 0:
    // all cores, as the batch loop counts them). `write` (may be empty) writes the finished
    // histogram out.
    PortraitSink(const PortraitSettings& settings, bool on_device, int threads, Write write = {});

    // Where the ensemble's bodies record (the caller adds the family's plane and energy codes).
    // Valid while the sink lives.
    PortraitTarget target();

    void write_chunk(std::uint64_t begin, std::size_t n, const ColumnSet& columns, const void* states) override;
    // Adds the per-thread parts (or downloads the device's), then writes.
    void finish() override;

    // After finish(): the histogram and the statuses (status name -> trajectories).
    PortraitResult take_result();

private:
    PortraitSettings settings_;
    std::optional<PerThreadHistograms> threads_;
    std::unique_ptr<PortraitCudaHistogram> device_;
    Write write_;
    std::map<std::string, std::uint64_t> statuses_;
    std::optional<DensityHistogram> histogram_;
};

}  // namespace geomint
