// Rendering a density histogram into 8-bit pixels with the portrait colour mappings.
#include "portrait_image.hpp"

#include <stdexcept>

#include "colour_map.hpp"

namespace geomint {

namespace {
PngImage blank_image(const DensityHistogram& histogram, int channels) {
    PngImage image;
    image.width = histogram.grid().width;
    image.height = histogram.grid().height;
    image.channels = channels;
    image.pixels.assign(histogram.pixels() * static_cast<std::size_t>(channels), 0);
    return image;
}
}  // namespace

PngImage render_log_density(const DensityHistogram& histogram) {
    PngImage image = blank_image(histogram, 3);
    const auto counts = histogram.counts();
    const auto max_count = histogram.max_count();
    for (std::size_t k = 0; k < counts.size(); ++k) {
        const int level = log_density_level(counts[k], max_count);
        const Rgb8 colour = level < 0 ? kEmptyPixel : viridis(level);
        image.pixels[3 * k] = colour.r;
        image.pixels[3 * k + 1] = colour.g;
        image.pixels[3 * k + 2] = colour.b;
    }
    return image;
}

PngImage render_mean_energy(const DensityHistogram& histogram) {
    if (!histogram.with_energy()) throw std::invalid_argument("energy colouring needs a histogram with energy sums");
    PngImage image = blank_image(histogram, 4);
    const auto counts = histogram.counts();
    const auto sums = histogram.energy_sums();
    const auto max_count = histogram.max_count();
    for (std::size_t k = 0; k < counts.size(); ++k) {
        if (counts[k] == 0) continue;  // transparent black
        const Rgb8 colour = viridis(energy_level(sums[k], counts[k]));
        image.pixels[4 * k] = colour.r;
        image.pixels[4 * k + 1] = colour.g;
        image.pixels[4 * k + 2] = colour.b;
        image.pixels[4 * k + 3] = density_alpha(log_density_level(counts[k], max_count));
    }
    return image;
}

}  // namespace geomint
