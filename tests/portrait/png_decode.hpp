// Decoding a PNG with libpng's read API for the portrait tests: size, format, pixels and text chunks.
#pragma once

#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace geomint_test {

struct Decoded {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, colour_type = 0, channels = 0;
    std::vector<std::uint8_t> pixels;
    std::map<std::string, std::string> texts;
};

// libpng's read API with setjmp: only trivially destructible locals in the function that calls it.
inline bool read_into(FILE* file, png_structp png, png_infop info, Decoded* out) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_init_io(png, file);
    png_read_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
    out->width = png_get_image_width(png, info);
    out->height = png_get_image_height(png, info);
    out->bit_depth = png_get_bit_depth(png, info);
    out->colour_type = png_get_color_type(png, info);
    out->channels = png_get_channels(png, info);
    png_bytepp rows = png_get_rows(png, info);
    const std::size_t row_bytes = png_get_rowbytes(png, info);
    out->pixels.resize(row_bytes * out->height);
    for (png_uint_32 r = 0; r < out->height; ++r) std::copy(rows[r], rows[r] + row_bytes, &out->pixels[r * row_bytes]);
    png_textp texts = nullptr;
    const int count = png_get_text(png, info, &texts, nullptr);
    for (int k = 0; k < count; ++k) {
        const std::size_t length =
            texts[k].compression >= PNG_ITXT_COMPRESSION_NONE ? texts[k].itxt_length : texts[k].text_length;
        out->texts[texts[k].key] = std::string(texts[k].text, length);
    }
    return true;
}

inline Decoded decode(const std::string& path) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) throw std::runtime_error("cannot open " + path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    Decoded decoded;
    const bool ok = read_into(file, png, info, &decoded);
    png_destroy_read_struct(&png, &info, nullptr);
    std::fclose(file);
    if (!ok) throw std::runtime_error("libpng could not decode " + path);
    return decoded;
}

}  // namespace geomint_test
