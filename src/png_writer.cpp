// PNG output with libpng through AtomicOutputFile. libpng reports errors by longjmp from
// png_error; the only function that calls setjmp (encode) holds no object with a destructor, and
// the callbacks catch every C++ exception before calling png_error, so no longjmp skips a
// destructor and no exception unwinds through libpng's C frames.
#include "png_writer.hpp"

#include <png.h>

#include <csetjmp>
#include <cstdio>
#include <exception>
#include <stdexcept>

namespace geomint {

namespace {

constexpr std::size_t kBlockSize = std::size_t{1} << 20;

// What the callbacks share: the output, a block buffer, and the first failure.
struct WriteContext {
    AtomicOutputFile* out;
    std::string block;
    std::exception_ptr failure;  // a C++ exception from the output, rethrown after libpng returns
    char libpng_message[256] = {};

    // Never throws: a failure is kept for later and false returned.
    bool append(const png_byte* data, std::size_t length) noexcept {
        try {
            block.append(reinterpret_cast<const char*>(data), length);
            if (block.size() >= kBlockSize) flush();
            return true;
        } catch (...) {
            failure = std::current_exception();
            return false;
        }
    }
    bool flush_noexcept() noexcept {
        try {
            flush();
            return true;
        } catch (...) {
            failure = std::current_exception();
            return false;
        }
    }
    void flush() {
        if (block.empty()) return;
        out->write(block);
        block.clear();
    }
};

WriteContext& context_of(png_structp png) { return *static_cast<WriteContext*>(png_get_io_ptr(png)); }

void write_callback(png_structp png, png_bytep data, png_size_t length) {
    if (!context_of(png).append(data, length)) png_error(png, "the output failed");
}

void flush_callback(png_structp png) {
    if (!context_of(png).flush_noexcept()) png_error(png, "the output failed");
}

[[noreturn]] void error_callback(png_structp png, png_const_charp message) {
    auto* context = static_cast<WriteContext*>(png_get_error_ptr(png));
    std::snprintf(context->libpng_message, sizeof context->libpng_message, "%s", message);
    png_longjmp(png, 1);
}

// Warnings (e.g. an ancillary chunk libpng skips) are not the user's concern: the image is valid.
void warning_callback(png_structp, png_const_charp) {}

// Runs libpng's writing sequence; false when png_error was called. Only trivially destructible
// locals here, so the longjmp back to setjmp is well-defined.
bool encode(png_structp png, png_infop info, const PngImage& image, png_bytepp rows, png_textp texts, int text_count) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), 8,
                 image.channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (text_count > 0) png_set_text(png, info, texts, text_count);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    return true;
}

void check_key(const std::string& key) {
    bool ok = !key.empty() && key.size() <= 79 && key.front() != ' ' && key.back() != ' ' &&
              key.find("  ") == std::string::npos;
    for (const char c : key) ok = ok && c >= 0x20 && c < 0x7f;
    if (!ok) throw std::invalid_argument("PNG text key '" + key + "': needs 1 to 79 printable ASCII characters");
}

bool is_ascii(const std::string& text) {
    for (const char c : text) {
        if (static_cast<unsigned char>(c) >= 0x80) return false;
    }
    return true;
}

void check_image(const PngImage& image) {
    if (image.width < 1 || image.height < 1) throw std::invalid_argument("PNG image: width and height must be >= 1");
    if (image.channels != 3 && image.channels != 4) throw std::invalid_argument("PNG image: 3 or 4 channels");
    const std::size_t expected =
        static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * image.channels;
    if (image.pixels.size() != expected) throw std::invalid_argument("PNG image: pixel buffer of the wrong size");
}

// libpng's structures, destroyed however write_png ends.
struct PngHandles {
    png_structp png = nullptr;
    png_infop info = nullptr;
    ~PngHandles() { png_destroy_write_struct(&png, &info); }
};

}  // namespace

void write_png(AtomicOutputFile& out, const PngImage& image, const std::vector<PngText>& texts) {
    check_image(image);
    std::vector<png_text> chunks(texts.size());
    for (std::size_t k = 0; k < texts.size(); ++k) {
        check_key(texts[k].key);
        if (texts[k].text.find('\0') != std::string::npos) {
            throw std::invalid_argument("PNG text '" + texts[k].key + "': contains a NUL byte");
        }
        png_text& chunk = chunks[k];
        chunk = png_text{};
        chunk.key = const_cast<char*>(texts[k].key.c_str());  // libpng copies; the API is not const
        chunk.text = const_cast<char*>(texts[k].text.c_str());
        if (is_ascii(texts[k].text)) {
            chunk.compression = PNG_TEXT_COMPRESSION_NONE;
            chunk.text_length = texts[k].text.size();
        } else {
            chunk.compression = PNG_ITXT_COMPRESSION_NONE;
            chunk.itxt_length = texts[k].text.size();
            chunk.lang = const_cast<char*>("");
            chunk.lang_key = const_cast<char*>("");
        }
    }
    const std::size_t row_bytes = static_cast<std::size_t>(image.width) * image.channels;
    std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        rows[r] = const_cast<png_bytep>(image.pixels.data() + r * row_bytes);  // libpng only reads them
    }

    WriteContext context{&out, {}, nullptr};
    context.block.reserve(kBlockSize + 65536);
    PngHandles handles;
    handles.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, error_callback, warning_callback);
    if (handles.png == nullptr)
        throw std::runtime_error("writing PNG '" + out.description() + "' failed: libpng: out of memory");
    handles.info = png_create_info_struct(handles.png);
    if (handles.info == nullptr)
        throw std::runtime_error("writing PNG '" + out.description() + "' failed: libpng: out of memory");
    png_set_write_fn(handles.png, &context, write_callback, flush_callback);

    const bool encoded =
        encode(handles.png, handles.info, image, rows.data(), chunks.data(), static_cast<int>(chunks.size()));
    if (context.failure) std::rethrow_exception(context.failure);
    if (!encoded) {
        throw std::runtime_error("writing PNG '" + out.description() + "' failed: libpng: " + context.libpng_message);
    }
    context.flush();
}

void write_png_file(const std::string& path, const std::string& option, const PngImage& image,
                    const std::vector<PngText>& texts) {
    AtomicOutputFile out(path, option);
    write_png(out, image, texts);
    out.commit();
}

}  // namespace geomint
