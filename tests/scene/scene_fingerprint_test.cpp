// The scene's fingerprint from the field lists of scene.h: a change to a field that changes the
// image changes it, one to a name, a path or a default the settings override does not.
#include "scene/scene_fingerprint.h"

#include <gtest/gtest.h>

#include "perturb.h"

namespace raystream {
namespace {

using test::perturb;
void perturb(Camera& c) {
  c.width += 1;
}
void perturb(Environment& e) {
  e.present = !e.present;
}

// A small scene with one of everything, so that a change anywhere has something to change.
Scene one_of_each() {
  Scene s;
  s.path = "scene.json";
  s.materials.resize(2);
  s.materials[1].name = "light";
  s.objects.resize(1);
  s.triangles.resize(1);
  s.textures.resize(1);
  s.textures[0].width = s.textures[0].height = 1;
  s.textures[0].texels.assign(1, glm::vec4(0.5f));
  s.environment.present = true;
  s.environment.width = 2;
  s.environment.height = 1;
  s.environment.texels.assign(2, glm::vec3(1.0f));
  return s;
}

// Each field of a list changed in one copy of the scene, reached through `part` (the scene
// itself, one of its materials...).
#define RAYSTREAM_EXPECT_FIELDS(LIST, part, compare) \
  {                                                  \
    const Scene base = one_of_each();                \
    const std::uint64_t h = scene_fingerprint(base); \
    LIST(RAYSTREAM_CHECK_FIELD_##compare)            \
  }
#define RAYSTREAM_CHECK_FIELD_CHANGES(field)                           \
  {                                                                    \
    Scene s = one_of_each();                                           \
    perturb(PART(s).field);                                            \
    EXPECT_NE(scene_fingerprint(s), h) << #field " changes the image"; \
  }
#define RAYSTREAM_CHECK_FIELD_KEEPS(field)                                               \
  {                                                                                      \
    Scene s = one_of_each();                                                             \
    perturb(PART(s).field);                                                              \
    EXPECT_EQ(scene_fingerprint(s), h) << #field " is listed as not changing the image"; \
  }

TEST(SceneFingerprint, SceneFields){
#define PART(s) s
    RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_SCENE_IMAGE_FIELDS, s, CHANGES)
        RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_SCENE_OTHER_FIELDS, s, KEEPS)
#undef PART
}

TEST(SceneFingerprint, MaterialFields){
#define PART(s) s.materials[1]
    RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_MATERIAL_IMAGE_FIELDS, s, CHANGES)
        RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_MATERIAL_OTHER_FIELDS, s, KEEPS)
#undef PART
}

TEST(SceneFingerprint, ObjectAndCameraFields){
#define PART(s) s.objects[0]
    RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_OBJECT_IMAGE_FIELDS, s, CHANGES)
#undef PART
#define PART(s) s.camera
        RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_CAMERA_IMAGE_FIELDS, s, CHANGES)
#undef PART
}

TEST(SceneFingerprint, EnvironmentAndTextureFields){
#define PART(s) s.environment
    RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_ENVIRONMENT_IMAGE_FIELDS, s, CHANGES)
        RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_ENVIRONMENT_OTHER_FIELDS, s, KEEPS)
#undef PART
#define PART(s) s.textures[0]
            RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_TEXTURE_IMAGE_FIELDS, s, CHANGES)
                RAYSTREAM_EXPECT_FIELDS(RAYSTREAM_TEXTURE_OTHER_FIELDS, s, KEEPS)
#undef PART
}

TEST(SceneFingerprint, TrianglesByTheirBytes) {
  Scene a = one_of_each(), b = one_of_each();
  b.triangles[0].uv[2].y = 0.25f;
  EXPECT_NE(scene_fingerprint(a), scene_fingerprint(b));
}

}  // namespace
}  // namespace raystream
