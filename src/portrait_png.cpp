// A phase portrait's PNG: its text chunks, rendering and the atomic write.
#include "portrait_png.hpp"

#include <cstdio>
#include <stdexcept>

#include "portrait_image.hpp"

namespace geomint {

namespace {
std::string exact(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}
}  // namespace

std::string format_extent(const portrait::PlaneExtent& extent) {
    return exact(extent.xmin) + " " + exact(extent.xmax) + " " + exact(extent.ymin) + " " + exact(extent.ymax);
}

std::vector<PngText> portrait_texts(const DensityHistogram& histogram, const PortraitLabels& labels,
                                    PortraitColouring colouring, const EnergyScale* energy) {
    std::vector<PngText> texts{
        {"Software", "geomint"},
        {"Description", labels.description},
        {"geomint:x-axis", labels.x_axis},
        {"geomint:y-axis", labels.y_axis},
        {"geomint:extent", format_extent(histogram.grid().extent)},
        {"geomint:colour", colouring == PortraitColouring::log_density
                               ? "log-density viridis"
                               : "mean initial energy per visit viridis, log-density alpha"},
        {"geomint:max-count", std::to_string(histogram.max_count())},
    };
    if (colouring == PortraitColouring::mean_energy) {
        if (energy == nullptr) throw std::invalid_argument("energy colouring needs the run's energy range");
        texts.push_back({"geomint:energy-range", exact(energy->emin()) + " " + exact(energy->emax())});
    }
    return texts;
}

void write_portrait_png(AtomicOutputFile& out, const DensityHistogram& histogram, const PortraitLabels& labels,
                        PortraitColouring colouring, const EnergyScale* energy) {
    const auto texts = portrait_texts(histogram, labels, colouring, energy);
    const PngImage image =
        colouring == PortraitColouring::log_density ? render_log_density(histogram) : render_mean_energy(histogram);
    write_png(out, image, texts);
}

void write_portrait_png(const std::string& path, const std::string& option, const DensityHistogram& histogram,
                        const PortraitLabels& labels, PortraitColouring colouring, const EnergyScale* energy) {
    AtomicOutputFile out(path, option);
    write_portrait_png(out, histogram, labels, colouring, energy);
    out.commit();
}

}  // namespace geomint
