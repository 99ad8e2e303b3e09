// EXR files read back by OpenEXR's own reader, for the tests of raystream's EXR writer: every
// channel as floats with its type, and the values of the layers written that the file does not
// hold exactly.
#pragma once

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "io/image/exr_image.h"

namespace raystream::test {

// Every channel of an EXR file as OpenEXR's own reader gives it, as floats, and its type.
struct ReadBack {
  int width = 0, height = 0;
  std::map<std::string, std::vector<float>> channels;
  std::map<std::string, Imf::PixelType> types;
};

inline ReadBack read_back(const std::string& file) {
  Imf::InputFile in(file.c_str());
  const Imath::Box2i box = in.header().dataWindow();
  ReadBack r;
  r.width = box.max.x - box.min.x + 1;
  r.height = box.max.y - box.min.y + 1;
  Imf::FrameBuffer frame;
  for (auto it = in.header().channels().begin(); it != in.header().channels().end(); ++it) {
    std::vector<float>& values = r.channels[it.name()];
    values.assign(std::size_t(r.width) * r.height, -1.0f);
    r.types[it.name()] = it.channel().type;
    frame.insert(it.name(), Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(values.data()),
                                       sizeof(float), sizeof(float) * r.width));
  }
  in.setFrameBuffer(frame);
  in.readPixels(box.min.y, box.max.y);
  return r;
}

// The values of the views (of `pixels` pixels) that the file does not hold exactly (half layers:
// as half rounds them), the first few reported; a channel of the wrong type fails too.
inline std::size_t wrong_values(const ReadBack& r, const std::vector<ExrLayerView>& layers,
                                std::size_t pixels) {
  std::size_t wrong = 0;
  for (const ExrLayerView& layer : layers) {
    const std::size_t n = layer.channels.size();
    for (std::size_t k = 0; k < n; ++k) {
      const std::string name =
          layer.name.empty() ? layer.channels[k] : layer.name + "." + layer.channels[k];
      EXPECT_EQ(r.types.at(name), layer.half ? Imf::HALF : Imf::FLOAT) << name;
      const std::vector<float>& got = r.channels.at(name);
      for (std::size_t p = 0; p < pixels; ++p) {
        const float v = layer.values[p * n + k];
        const float expected = layer.half ? float(Imath::half(v)) : v;
        if (got[p] != expected && ++wrong < 5)
          ADD_FAILURE() << name << " at " << p << ": " << got[p] << ", expected " << expected;
      }
    }
  }
  return wrong;
}

inline std::size_t wrong_values(const ReadBack& r, const std::vector<ExrLayer>& layers,
                                std::size_t pixels) {
  std::vector<ExrLayerView> views;
  for (const ExrLayer& layer : layers)
    views.push_back({layer.name, layer.channels, layer.values.data(), layer.half});
  return wrong_values(r, views, pixels);
}

}  // namespace raystream::test
