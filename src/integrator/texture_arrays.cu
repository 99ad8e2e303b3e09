#include <stdexcept>
#include <string>
#include <utility>

#include "integrator/texture_arrays.h"

namespace raystream {

namespace {

void check(cudaError_t status, std::size_t texture, const TextureStorage& t, const char* what) {
  if (status == cudaSuccess) return;
  cudaGetLastError();  // cleared, so that later calls do not report it again
  const std::size_t mib = (t.bytes() + (1u << 20) - 1) >> 20;
  throw std::runtime_error(
      std::string(status == cudaErrorMemoryAllocation ? "out of GPU memory" : "CUDA error") +
      " in " + what + " of texture " + std::to_string(texture) + " (" + std::to_string(t.width) +
      " x " + std::to_string(t.height) + ", " + std::to_string(t.levels) + " levels, " +
      std::to_string(mib) + " MiB): " + cudaGetErrorString(status));
}

cudaTextureAddressMode address_mode(std::int32_t wrap) {
  return wrap == 1 ? cudaAddressModeClamp
                   : (wrap == 2 ? cudaAddressModeMirror : cudaAddressModeWrap);
}

}  // namespace

TextureArrays::TextureArrays(const std::vector<TextureStorage>& storages,
                             std::vector<TextureBinding>& bindings, MemoryTally* tally) {
  try {
    fill(storages, bindings, tally);
  } catch (...) {
    release();  // the destructor of an object whose constructor throws does not run
    throw;
  }
}

void TextureArrays::fill(const std::vector<TextureStorage>& storages,
                         std::vector<TextureBinding>& bindings, MemoryTally* tally) {
  arrays_.assign(storages.size(), nullptr);
  for (std::size_t k = 0; k < storages.size(); ++k) {
    const TextureStorage& t = storages[k];
    if (t.width <= 0 || t.height <= 0 || t.levels <= 0) continue;
    const bool bytes8 = t.format == 0;
    const std::size_t texel = bytes8 ? 4 : 16;
    const cudaChannelFormatDesc format =
        bytes8 ? cudaCreateChannelDesc<uchar4>() : cudaCreateChannelDesc<float4>();
    check(cudaMallocMipmappedArray(&arrays_[k], &format, make_cudaExtent(t.width, t.height, 0),
                                   t.levels),
          k, t, "allocating the levels");
    if (tally) tally->bytes += t.bytes();
    const auto* base = static_cast<const unsigned char*>(t.data());
    for (int level = 0; level < t.levels; ++level) {
      cudaArray_t array = nullptr;
      check(cudaGetMipmappedArrayLevel(&array, arrays_[k], level), k, t, "a level");
      const std::size_t w = std::max(1, t.width >> level), h = std::max(1, t.height >> level);
      check(cudaMemcpy2DToArray(array, 0, 0, base + std::size_t(t.offset[level]) * texel, w * texel,
                                w * texel, h, cudaMemcpyHostToDevice),
            k, t, "copying a level");
    }
  }
  objects_.reserve(bindings.size());
  for (TextureBinding& b : bindings) {
    if (b.texture < 0 || std::size_t(b.texture) >= storages.size() || !arrays_[b.texture]) continue;
    const TextureStorage& t = storages[b.texture];
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeMipmappedArray;
    resource.res.mipmap.mipmap = arrays_[b.texture];
    cudaTextureDesc sampler{};
    sampler.addressMode[0] = address_mode(b.wrap_u);
    sampler.addressMode[1] = address_mode(b.wrap_v);
    sampler.filterMode = b.nearest ? cudaFilterModePoint : cudaFilterModeLinear;
    sampler.mipmapFilterMode = sampler.filterMode;
    sampler.readMode = t.format == 0 ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    sampler.sRGB = t.format == 0 && b.srgb;  // float texels are linear already
    sampler.normalizedCoords = 1;
    sampler.maxAnisotropy = 1;
    sampler.minMipmapLevelClamp = 0.0f;
    sampler.maxMipmapLevelClamp = static_cast<float>(t.levels - 1);
    cudaTextureObject_t object = 0;
    check(cudaCreateTextureObject(&object, &resource, &sampler, nullptr), b.texture, t,
          "making a texture object");
    objects_.push_back(object);
    b.object = object;
  }
}

TextureArrays::~TextureArrays() {
  release();
}

TextureArrays::TextureArrays(TextureArrays&& other) noexcept
    : arrays_(std::exchange(other.arrays_, {})), objects_(std::exchange(other.objects_, {})) {}

TextureArrays& TextureArrays::operator=(TextureArrays&& other) noexcept {
  if (this != &other) {
    release();
    arrays_ = std::exchange(other.arrays_, {});
    objects_ = std::exchange(other.objects_, {});
  }
  return *this;
}

// In a destructor: nothing sensible to do with a failure.
void TextureArrays::release() {
  for (cudaTextureObject_t object : objects_) cudaDestroyTextureObject(object);
  for (cudaMipmappedArray_t array : arrays_)
    if (array) cudaFreeMipmappedArray(array);
  objects_.clear();
  arrays_.clear();
}

}  // namespace raystream
