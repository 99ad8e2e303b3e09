#include "io/image/exr_image.h"

#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfVersion.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "scene/scene_error.h"

namespace raystream {
namespace {

// The library reads from the file's bytes, already read under the input file cap.
class MemoryIn : public Imf::IStream {
 public:
  MemoryIn(const std::string& bytes, const std::string& path)
      : Imf::IStream(path.c_str()), bytes_(bytes) {}
  bool read(char c[], int n) override {
    if (n < 0 || position_ > bytes_.size() || bytes_.size() - position_ < std::size_t(n))
      throw std::runtime_error("unexpected end of file");
    std::memcpy(c, bytes_.data() + position_, std::size_t(n));
    position_ += std::size_t(n);
    return position_ < bytes_.size();
  }
  std::uint64_t tellg() override { return position_; }
  void seekg(std::uint64_t pos) override { position_ = pos; }

 private:
  const std::string& bytes_;
  std::size_t position_ = 0;
};

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

}  // namespace

bool is_exr(const std::string& bytes) {
  return bytes.size() >= 4 && Imf::isImfMagic(bytes.data());
}

namespace {

// The header's data window, checked: its size within the limits (and an int's range).
struct Window {
  int x0 = 0, y0 = 0, width = 0, height = 0;
};

Window checked_window(const Imf::Header& header, const std::string& path, int max_width,
                      int max_height) {
  const Imath::Box2i& box = header.dataWindow();
  const std::int64_t w = std::int64_t(box.max.x) - box.min.x + 1;
  const std::int64_t h = std::int64_t(box.max.y) - box.min.y + 1;
  if (w <= 0 || h <= 0) fail(path, "corrupt EXR: an empty data window");
  if (w > max_width || h > max_height)
    fail(path, std::to_string(w) + " x " + std::to_string(h) + " pixels is too large (at most " +
                   std::to_string(max_width) + " x " + std::to_string(max_height) + ")");
  return {box.min.x, box.min.y, int(w), int(h)};
}

}  // namespace

ExrRgb decode_exr_rgb(const std::string& bytes, const std::string& path, int max_width,
                      int max_height) {
  if (!is_exr(bytes)) fail(path, "not an OpenEXR (.exr) image");
  ExrRgb image;
  try {
    MemoryIn in(bytes, path);
    Imf::InputFile file(in, 1);
    const Imf::Header& header = file.header();
    const Window window = checked_window(header, path, max_width, max_height);
    const Imf::ChannelList& channels = header.channels();
    const auto has = [&](const char* name) { return channels.findChannel(name) != nullptr; };
    const bool rgb = has("R") && has("G") && has("B");
    if (!rgb && !has("Y"))
      fail(path, "no R, G and B (or Y) channels: the EXR's colour is not in its unnamed layer");
    for (auto it = channels.begin(); it != channels.end(); ++it)
      if (it.channel().xSampling != 1 || it.channel().ySampling != 1)
        fail(path, std::string("channel ") + it.name() + " is subsampled (not read here)");
    image.width = window.width;
    image.height = window.height;
    image.rgb.assign(std::size_t(window.width) * std::size_t(window.height) * 3, 0.0f);
    Imf::FrameBuffer frame;
    const Imath::V2i origin(window.x0, window.y0);
    const char* names[3] = {"R", "G", "B"};
    for (int c = 0; c < 3; ++c) {
      frame.insert(
          rgb ? names[c] : "Y",
          Imf::Slice::Make(Imf::FLOAT, image.rgb.data() + c, origin, window.width, window.height,
                           3 * sizeof(float), 3 * sizeof(float) * std::size_t(window.width)));
      if (!rgb) break;  // Y: one slice, copied to G and B below
    }
    file.setFrameBuffer(frame);
    file.readPixels(header.dataWindow().min.y, header.dataWindow().max.y);
    if (!rgb)
      for (std::size_t p = 0; p < image.rgb.size(); p += 3)
        image.rgb[p + 1] = image.rgb[p + 2] = image.rgb[p];
  } catch (const SceneError&) {
    throw;
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt EXR: ") + e.what());
  }
  return image;
}

std::vector<std::string> exr_channel_names(const std::string& bytes, const std::string& path) {
  if (!is_exr(bytes)) fail(path, "not an OpenEXR (.exr) image");
  std::vector<std::string> names;
  try {
    MemoryIn in(bytes, path);
    Imf::InputFile file(in, 1);
    const Imf::ChannelList& channels = file.header().channels();
    for (auto it = channels.begin(); it != channels.end(); ++it) names.push_back(it.name());
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt EXR: ") + e.what());
  }
  return names;
}

}  // namespace raystream
