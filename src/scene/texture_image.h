// An image texture as loaded (host, plain data): linear RGBA texels. io/image/image_reader.h reads
// them from files; the shading code reads them through a TextureView (materials/texture.h).
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace raystream {

// Largest texture accepted: larger ones are refused as absurd rather than decoded (16 bytes a
// texel: the largest takes 1 GiB).
inline constexpr int kMaxTextureSide = 16384;
inline constexpr long long kMaxTextureTexels = 1LL << 26;

struct TextureImage {
  std::string path;  // the file it came from, for messages
  int width = 0, height = 0;
  std::vector<glm::vec4> texels;  // linear RGBA, width * height, row 0 = the top of the image
};
// Which fields change the image (scene/scene.h says why the lists).
#define RAYSTREAM_TEXTURE_IMAGE_FIELDS(X) X(width) X(height) X(texels)
#define RAYSTREAM_TEXTURE_OTHER_FIELDS(X) X(path)

}  // namespace raystream
