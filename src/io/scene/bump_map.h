// Bump (height) maps turned into tangent-space normal maps at load, so that the renderer has one
// kind of surface detail map. docs/scene-format.md ("Meshes") gives the formula. Host only.
#pragma once

#include "scene/texture_image.h"

namespace raystream {

// The normal map of a height map: each texel's height h is its encoded value (the sRGB encoding
// of its decoded RGB, averaged: the grey level as the file stores it, in [0, 1]); the slopes are
// central differences between the neighbouring texels (wrapping around the edges, as a repeating
// texture does), dx = (h[x+1] - h[x-1]) / 2 along the image's rows and dy = (h[y-1] - h[y+1]) / 2
// up its columns (the renderer's +v); the normal is normalize(-scale dx, -scale dy, 1), stored as
// n / 2 + 1/2 in RGB (values as the normal map reads them, not colours), A = 1. `path` names the
// result ("<height map>#normals").
TextureImage normal_map_from_heights(const TextureImage& heights, float scale);

}  // namespace raystream
