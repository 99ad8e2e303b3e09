// Textures as the lookups store them (materials/texture.h): 8-bit RGBA where the image's values
// are what an 8-bit file holds (4 bytes a texel), float RGBA where they need more, each with its
// mip chain built at upload (4/3 of the base level: 5.33 bytes a texel for 8-bit images).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "materials/texture.h"
#include "scene/texture_image.h"

namespace raystream {

struct TextureStorage {
  int width = 0, height = 0, levels = 0;
  int format = 0;  // TextureView::format
  std::uint32_t offset[kMaxTextureLevels] = {};
  std::vector<std::uint32_t> rgba8;  // format 0: every level, R in the low byte
  std::vector<glm::vec4> rgba32f;    // format 1
  const void* data() const {
    return format == 0 ? static_cast<const void*>(rgba8.data())
                       : static_cast<const void*>(rgba32f.data());
  }
  std::size_t bytes() const {
    return rgba8.size() * sizeof(std::uint32_t) + rgba32f.size() * sizeof(glm::vec4);
  }
  // A view of the texels at `texels` (this storage's, or a copy of them elsewhere).
  TextureView view(const void* texels) const;
};

// The image's storage and mip chain. `colour`: the image is read as a colour (its levels average
// linear values); else as data (normal maps, metalness: the stored values average). The image's
// texels are linear, as the image readers decode them (8-bit files sRGB-decoded).
TextureStorage make_texture_storage(const TextureImage& image, bool colour);

}  // namespace raystream
