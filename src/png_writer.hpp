// PNG output with libpng: an 8-bit RGB or RGBA image and text chunks, written through
// AtomicOutputFile so a PNG appears complete under its name or not at all. libpng's errors
// (png_error's longjmp) never cross C++ frames: they end the encoding and become one exception.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "atomic_output_file.hpp"

namespace geomint {

struct PngImage {
    int width = 0, height = 0;
    int channels = 3;                  // 3: RGB, 4: RGBA (not premultiplied), 8 bits each
    std::vector<std::uint8_t> pixels;  // rows top to bottom, width * channels bytes each
};

// A text chunk. Keys: 1 to 79 printable ASCII characters, no leading, trailing or double spaces
// (the PNG rules for keywords, ASCII only). Text: any bytes but NUL; written as tEXt when ASCII,
// as uncompressed iTXt (UTF-8) otherwise.
struct PngText {
    std::string key, text;
};

// Encodes the image and its texts and hands the bytes to `out` (in blocks of up to 1 MiB); the
// caller commits. Throws std::invalid_argument for an inconsistent image or a bad key or text
// (before anything is written), the output's own std::runtime_error when a write fails, and
// std::runtime_error("writing PNG 'DESTINATION' failed: libpng: MESSAGE") when libpng fails.
void write_png(AtomicOutputFile& out, const PngImage& image, const std::vector<PngText>& texts);

// The same to a new AtomicOutputFile(path, option), committed: on any error the exception
// propagates and nothing new is left under `path`.
void write_png_file(const std::string& path, const std::string& option, const PngImage& image,
                    const std::vector<PngText>& texts);

}  // namespace geomint
