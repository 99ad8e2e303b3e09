#include "scene/scene_fingerprint.h"

#include <type_traits>
#include <vector>

#include "core/field_count.h"
#include "core/hash.h"

namespace raystream {
namespace {

#define RAYSTREAM_COUNT_FIELD(field) +1
// Every field of `Struct` is in its IMAGE or its OTHER list.
#define RAYSTREAM_CHECK_FIELD_LISTS(Struct, LIST)                               \
  static_assert(field_count<Struct>() ==                                        \
                    0 RAYSTREAM_##LIST##_IMAGE_FIELDS(RAYSTREAM_COUNT_FIELD)    \
                        RAYSTREAM_##LIST##_OTHER_FIELDS(RAYSTREAM_COUNT_FIELD), \
                "a field of " #Struct                                           \
                " is in neither list of scene.h: add it to the "                \
                "one that says whether it changes the image");
RAYSTREAM_CHECK_FIELD_LISTS(Material, MATERIAL)
RAYSTREAM_CHECK_FIELD_LISTS(Object, OBJECT)
RAYSTREAM_CHECK_FIELD_LISTS(Camera, CAMERA)
RAYSTREAM_CHECK_FIELD_LISTS(Environment, ENVIRONMENT)
RAYSTREAM_CHECK_FIELD_LISTS(TextureImage, TEXTURE)
RAYSTREAM_CHECK_FIELD_LISTS(Scene, SCENE)
#undef RAYSTREAM_CHECK_FIELD_LISTS
#undef RAYSTREAM_COUNT_FIELD

// Triangles are hashed as bytes: no padding may hide between their fields.
static_assert(sizeof(Triangle) == sizeof(Triangle::v) + sizeof(Triangle::n) + sizeof(int) +
                                      sizeof(Triangle::uv) + sizeof(Triangle::uv1) +
                                      sizeof(Triangle::t));
// Texture slots too.
static_assert(sizeof(TextureSlot) == 11 * 4);

void add(Hash& h, const Material& m);
void add(Hash& h, const Object& o);
void add(Hash& h, const Camera& c);
void add(Hash& h, const Environment& e);
void add(Hash& h, const TextureImage& t);
template <class T>
void add(Hash& h, const T& value) {
  h.value(value);
}
// The structs whose fields scene.h lists are hashed by their lists, field by field.
template <class T>
constexpr bool kListed =
    std::is_same_v<T, Material> || std::is_same_v<T, Object> || std::is_same_v<T, TextureImage>;
template <class T>
void add(Hash& h, const std::vector<T>& values) {
  if constexpr (std::is_trivially_copyable_v<T> && !kListed<T>) {
    h.value(values);  // texels, triangles: their bytes at once
  } else {
    h.value(values.size());
    for (const T& v : values) add(h, v);
  }
}

#define RAYSTREAM_HASH_FIELD(field) add(h, s.field);
void add(Hash& h, const Material& s) {
  RAYSTREAM_MATERIAL_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
}
void add(Hash& h, const Object& s) {
  RAYSTREAM_OBJECT_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
}
void add(Hash& h, const Camera& s) {
  RAYSTREAM_CAMERA_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
}
void add(Hash& h, const Environment& s) {
  RAYSTREAM_ENVIRONMENT_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
}
void add(Hash& h, const TextureImage& s) {
  RAYSTREAM_TEXTURE_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
}

}  // namespace

std::uint64_t scene_fingerprint(const Scene& s) {
  Hash h;
  RAYSTREAM_SCENE_IMAGE_FIELDS(RAYSTREAM_HASH_FIELD)
  return h.get();
}
#undef RAYSTREAM_HASH_FIELD

}  // namespace raystream
