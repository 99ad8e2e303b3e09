// JPEG files decoded by libjpeg-turbo (libjpeg's API). Its errors return by longjmp to the one
// frame that holds no object with a destructor; a warning that the data ended early (libjpeg
// would decode the rest as grey) is an error too.
#include <csetjmp>
#include <cstdio>
#include <cstring>

// After <cstdio>: libjpeg's headers use FILE and size_t.
#include <jerror.h>
#include <jpeglib.h>

#include "io/image/image_decoders.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

struct ErrorManager {
  jpeg_error_mgr library;  // first: libjpeg sees a pointer to it
  std::jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
  bool truncated;
};

[[noreturn]] void on_error(j_common_ptr cinfo) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Warnings (level -1) of a premature end stop the decoding; other warnings and trace messages
// are ignored, as libjpeg's own decoders print and ignore them.
void on_message(j_common_ptr cinfo, int level) {
  auto* err = reinterpret_cast<ErrorManager*>(cinfo->err);
  const int code = cinfo->err->msg_code;
  if (level >= 0 || (code != JWRN_JPEG_EOF && code != JWRN_HIT_MARKER)) return;
  err->truncated = code == JWRN_JPEG_EOF;
  (*cinfo->err->format_message)(cinfo, err->message);
  std::longjmp(err->jump, 1);
}

// Adobe's CMYK, stored inverted: the colour is (C x K, M x K, Y x K) / 255 of the stored values.
void cmyk_to_rgba(std::vector<std::uint8_t>& pixels) {
  for (std::size_t i = 0; i < pixels.size(); i += 4) {
    const unsigned k = pixels[i + 3];
    for (int c = 0; c < 3; ++c) pixels[i + c] = std::uint8_t((pixels[i + c] * k + 127) / 255);
    pixels[i + 3] = 255;
  }
}

// The decoding proper. False when libjpeg stopped it (err.message says why); the size check's
// exception leaves as any exception does (through no libjpeg frame).
bool decode(jpeg_decompress_struct& cinfo, ErrorManager& err, const std::string& bytes,
            const ImageSizeCheck& check_size, Rgba8Image& image) {
  if (setjmp(err.jump)) return false;
  jpeg_create_decompress(&cinfo);
  jpeg_mem_src(&cinfo, reinterpret_cast<const unsigned char*>(bytes.data()),
               static_cast<unsigned long>(bytes.size()));
  jpeg_read_header(&cinfo, TRUE);
  check_size(cinfo.image_width, cinfo.image_height);
  const bool cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
  cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  jpeg_start_decompress(&cinfo);
  image.width = int(cinfo.output_width);
  image.height = int(cinfo.output_height);
  const std::size_t row = std::size_t(image.width) * 4;
  image.rgba.resize(row * std::size_t(image.height));
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW rows[1] = {image.rgba.data() + row * cinfo.output_scanline};
    jpeg_read_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_decompress(&cinfo);  // reads on to the end-of-image marker
  if (cmyk) cmyk_to_rgba(image.rgba);
  return true;
}

}  // namespace

Rgba8Image decode_jpeg_rgba8(const std::string& bytes, const std::string& path,
                             const ImageSizeCheck& check_size) {
  ErrorManager err{};
  jpeg_decompress_struct cinfo{};
  cinfo.err = jpeg_std_error(&err.library);
  err.library.error_exit = on_error;
  err.library.emit_message = on_message;
  struct Destroy {  // safe on a structure never created: its memory manager is null
    jpeg_decompress_struct* cinfo;
    ~Destroy() { jpeg_destroy_decompress(cinfo); }
  } destroy{&cinfo};
  Rgba8Image image;
  if (!decode(cinfo, err, bytes, check_size, image)) {
    throw SceneError(path + ": corrupt JPEG: " +
                     (err.truncated ? "truncated (the file ends before its end-of-image marker)"
                                    : std::string(err.message)));
  }
  return image;
}

}  // namespace raystream
