// The options of `geomint portrait` (see portrait_options.hpp).
#include "portrait_options.hpp"

#include <cmath>

#include "density_histogram.hpp"
#include "number_parsing.hpp"
#include "usage_error.hpp"

namespace geomint {

void add_portrait_options(CLI::App& cmd, PortraitOptions& o, bool pendulum) {
    cmd.add_option("--width", o.width, "image width in pixels, 1 to 16384 (default 1024)");
    cmd.add_option("--height", o.height,
                   pendulum ? "image height in pixels, 1 to 16384 (default 768)"
                            : "image height in pixels, 1 to 16384 (default: width / 2 for --plane sphere, "
                              "width for z-pair)");
    if (pendulum) {
        cmd.add_option("--q-range", o.q_range,
                       "LOW:HIGH of the horizontal axis (default -pi:pi for an angle; required otherwise)");
        cmd.add_option("--p-range", o.p_range,
                       "LOW:HIGH of the vertical axis (default +-1.05 max sqrt(2m(H0 - min V)) over the ensemble)");
    } else {
        cmd.add_option("--plane", o.plane,
                       "sphere (Lambert equal-area discs of spin --spin) or z-pair (s_I^z, s_I+1^z; chains)")
            ->capture_default_str();
        cmd.add_option("--spin", o.spin, "the spin I of the plane, 1 to d")->capture_default_str();
    }
    cmd.add_option("--skip-steps", o.skip_steps, "steps integrated before recording starts")->capture_default_str();
    cmd.add_option("--record-every", o.record_every, "record every K-th state from then on")->capture_default_str();
    cmd.add_option("--colour", o.colour,
                   "density (log visits, viridis) or energy (mean initial energy per visit; opacity: log visits)")
        ->capture_default_str();
    cmd.add_option("--energy-range", o.energy_range,
                   "LOW:HIGH of the --colour energy scale (default: the ensemble's initial energies); runs meant "
                   "to be added with `portrait add` need the same range; energies outside it take its end colours");
}

int parse_image_dimension(const std::string& text, const std::string& option, int fallback) {
    if (text.empty()) return fallback;
    const long long value = parse_nonnegative_integer(text, option);
    if (value < 1 || value > kMaxPortraitDimension)
        throw UsageError(option, "must be 1 to " + std::to_string(kMaxPortraitDimension) + " pixels, got " + text);
    return static_cast<int>(value);
}

std::optional<ValueRange> parse_value_range(const std::string& text, const std::string& option) {
    if (text.empty()) return std::nullopt;
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
        throw UsageError(option, "give LOW:HIGH, got '" + text + "'");
    const double low = parse_finite_real(text.substr(0, colon), option),
                 high = parse_finite_real(text.substr(colon + 1), option);
    if (!(low < high)) throw UsageError(option, "LOW:HIGH needs LOW < HIGH, got '" + text + "'");
    if (!std::isfinite(high - low)) throw UsageError(option, "HIGH - LOW overflows in '" + text + "'");
    return ValueRange{low, high};
}

portrait::RecordSchedule parse_record_schedule(const PortraitOptions& o, long long steps) {
    portrait::RecordSchedule schedule;
    schedule.skip = parse_nonnegative_integer(o.skip_steps, "--skip-steps");
    schedule.every = parse_nonnegative_integer(o.record_every, "--record-every");
    if (schedule.every < 1) throw UsageError("--record-every", "must be at least 1, got " + o.record_every);
    if (schedule.skip > steps)
        throw UsageError("--skip-steps",
                         o.skip_steps + " skips all " + std::to_string(steps) + " steps: nothing would be recorded");
    return schedule;
}

PortraitColouring parse_colouring(const std::string& text) {
    if (text == "density") return PortraitColouring::log_density;
    if (text == "energy") return PortraitColouring::mean_energy;
    throw UsageError("--colour", "unknown colouring '" + text + "' (valid: density, energy)");
}

std::optional<ValueRange> parse_energy_range(const PortraitOptions& o, PortraitColouring colouring) {
    const std::optional<ValueRange> range = parse_value_range(o.energy_range, "--energy-range");
    if (range && colouring != PortraitColouring::mean_energy)
        throw UsageError("--energy-range", "needs --colour energy (it sets the range of the energy colours)");
    return range;
}

}  // namespace geomint
