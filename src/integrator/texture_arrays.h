// The textures in the GPU's texture hardware: each texture's levels in a CUDA mipmapped array
// (8-bit RGBA, or float RGBA where the image needs more than 8 bits), and a texture object per
// binding whose sampler state is the binding's: wrap modes, bilinear or nearest, colour (decoded
// from sRGB by the hardware before it filters) or data. sample_texture reads a binding through its
// object on the GPU; the CPU executor reads the same levels in software (materials/texture.h).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "execution/buffer.h"
#include "materials/texture_storage.h"

namespace raystream {

class TextureArrays {
 public:
  TextureArrays() = default;
  // Copies each storage's levels into an array on the current device and makes an object for each
  // binding (its `object` set; a binding of an empty texture keeps 0 and reads white). Throws
  // std::runtime_error naming the texture where an array cannot be allocated or filled.
  TextureArrays(const std::vector<TextureStorage>& storages, std::vector<TextureBinding>& bindings,
                MemoryTally* tally);
  ~TextureArrays();
  TextureArrays(TextureArrays&& other) noexcept;
  TextureArrays& operator=(TextureArrays&& other) noexcept;
  TextureArrays(const TextureArrays&) = delete;
  TextureArrays& operator=(const TextureArrays&) = delete;

 private:
  void fill(const std::vector<TextureStorage>& storages, std::vector<TextureBinding>& bindings,
            MemoryTally* tally);
  void release();
  std::vector<cudaMipmappedArray_t> arrays_;
  std::vector<cudaTextureObject_t> objects_;
};

}  // namespace raystream
