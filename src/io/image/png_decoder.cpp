// PNG files decoded by libspng, which checks every chunk's CRC and the image data's zlib stream
// as it decodes; the chunks after the image data are read too, up to IEND.
#include <spng.h>

#include <memory>

#include "io/image/image_decoders.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

// IEND's length, type and CRC (a constant: the chunk holds no data).
const std::string kIend("\0\0\0\0IEND\xAE\x42\x60\x82", 12);

[[noreturn]] void corrupt(const std::string& path, int error) {
  std::string reason;
  if (error == SPNG_IO_EOF)
    reason = "truncated (the file ends before its IEND chunk)";
  else if (error == SPNG_ECHUNK_CRC)
    reason = "a chunk's CRC does not match (a damaged file)";
  else
    reason = spng_strerror(error);
  throw SceneError(path + ": corrupt PNG: " + reason);
}

}  // namespace

Rgba8Image decode_png_rgba8(const std::string& bytes, const std::string& path,
                            const ImageSizeCheck& check_size) {
  const std::unique_ptr<spng_ctx, void (*)(spng_ctx*)> owner(spng_ctx_new(0), spng_ctx_free);
  spng_ctx* ctx = owner.get();
  if (ctx == nullptr) throw std::bad_alloc();
  // A CRC that does not match is an error in every chunk (by default libspng skips an ancillary
  // chunk whose CRC is wrong); a chunk other than the image data, and all the ancillary chunks it
  // keeps (text...), hold at most 64 MiB.
  const std::size_t limit = std::size_t(64) << 20;
  int error = spng_set_crc_action(ctx, SPNG_CRC_ERROR, SPNG_CRC_ERROR);
  if (!error) error = spng_set_chunk_limits(ctx, limit, limit);
  if (!error) error = spng_set_png_buffer(ctx, bytes.data(), bytes.size());
  spng_ihdr ihdr{};
  if (!error) error = spng_get_ihdr(ctx, &ihdr);
  if (error) corrupt(path, error);
  check_size(ihdr.width, ihdr.height);
  Rgba8Image image;
  std::size_t size = 0;
  error = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size);
  if (error) corrupt(path, error);
  image.rgba.resize(size);
  error = spng_decode_image(ctx, image.rgba.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
  // The chunks after the image data, to IEND; libspng reads IEND's type but not its CRC.
  if (!error) error = spng_decode_chunks(ctx);
  if (!error && bytes.rfind(kIend) == std::string::npos) error = SPNG_IO_EOF;
  if (error) corrupt(path, error);
  image.width = int(ihdr.width);
  image.height = int(ihdr.height);
  return image;
}

}  // namespace raystream
