// A material at a hit: its textured parameters (material_eval.h), the normal map's shading normal
// and its side checks, and the alpha test of traversal (alpha_test.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrator/path/alpha_test.h"
#include "integrator/path/path_step.h"
#include "integrator/scene_upload.h"
#include "render_test_scenes.h"
#include "scene/scene.h"

namespace raystream {
namespace {

// The scene's textures as the shading code reads them, on the host.
struct HostMaterials {
  std::vector<TextureStorage> storages;
  std::vector<TextureView> views;
  std::vector<TextureBinding> bindings;
  std::vector<MaterialData> materials;
  explicit HostMaterials(const Scene& scene) {
    for (const Material& m : scene.materials) materials.push_back(make_material_data(m, bindings));
    storages = texture_storages(scene, bindings);
    for (const TextureStorage& t : storages) views.push_back(t.view(t.data()));
  }
  MaterialTextures textures() const { return MaterialTextures{views.data(), bindings.data()}; }
};

TexCoords at(float u, float v) {
  TexCoords tc;
  tc.uv0 = tc.uv1 = glm::vec2(u, v);
  tc.lod = -100.0f;
  return tc;
}

// A 2 x 1 texture: left texel, right texel (encoded values); lookups at the texel centres.
Scene two_texel_scene(glm::vec4 left, glm::vec4 right) {
  Scene s;
  s.textures.push_back(
      test::make_texture("two (test)", 2, 1, [&](int x, int) { return x == 0 ? left : right; }));
  return s;
}

TEST(MaterialEval, ScalarChannelsReadTheTexelsAsData) {
  // Metalness from B and roughness from G, as stored (no sRGB decoding); colours decoded.
  Scene s = two_texel_scene(glm::vec4(0.2f, 0.25f, 1.0f, 1.0f), glm::vec4(0.5f, 0.81f, 0.0f, 1.0f));
  Material m;
  m.type = MaterialType::pbr;
  m.color = glm::vec3(1.0f, 0.5f, 1.0f);
  m.metallic = 0.5f;
  m.roughness = 1.0f;
  m.metallic_texture.texture = 0;
  m.metallic_texture.channel = 2;
  m.roughness_texture.texture = 0;
  m.roughness_texture.channel = 1;
  m.texture.texture = 0;
  s.materials = {m};
  const HostMaterials host(s);
  const BsdfParams left = bsdf_params(host.materials[0], host.textures(), at(0.25f, 0.5f));
  const BsdfParams right = bsdf_params(host.materials[0], host.textures(), at(0.75f, 0.5f));
  // (The texels are whole steps of 1/255: 0.25 is 64 / 255, 0.81 is 207 / 255.)
  EXPECT_NEAR(left.metallic, 0.5f, 1e-5f);
  EXPECT_NEAR(right.metallic, 0.0f, 1e-5f);
  EXPECT_NEAR(left.alpha, (64.0f / 255) * (64.0f / 255), 1e-5f);
  EXPECT_NEAR(right.alpha, (207.0f / 255) * (207.0f / 255), 1e-5f);
  // sRGB 0.2 is linear 0.0331; the colour factor multiplies it.
  EXPECT_NEAR(left.albedo.x, 0.0331f, 2e-4f);
  EXPECT_NEAR(left.albedo.y, 0.5f * 0.0509f, 2e-4f);
  EXPECT_EQ(left.kind, static_cast<std::int32_t>(BsdfKind::kMetallicRoughness));
  // Without textures compiled in, the factors alone.
  const BsdfParams plain = bsdf_params<false>(host.materials[0], host.textures(), at(0.25f, 0.5f));
  EXPECT_EQ(plain.albedo, m.color);
  EXPECT_EQ(plain.metallic, 0.5f);
}

TEST(MaterialEval, TextureTransformAndSecondSet) {
  // KHR_texture_transform: offset by half the texture moves the left texel to the right; the
  // second set of coordinates is read where the slot says so.
  Scene s = two_texel_scene(glm::vec4(1.0f), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  Material m;
  m.type = MaterialType::diffuse;
  m.texture.texture = 0;
  m.texture.offset = glm::vec2(0.5f, 0.0f);
  m.texture.nearest = 1;
  s.materials = {m};
  m.texture.offset = glm::vec2(0.0f);
  m.texture.texcoord = 1;
  s.materials.push_back(m);
  const HostMaterials host(s);
  EXPECT_NEAR(albedo_at(host.materials[0], host.textures(), at(0.25f, 0.5f)).x, 0.0f, 1e-6f);
  EXPECT_NEAR(albedo_at(host.materials[0], host.textures(), at(0.75f, 0.5f)).x, 1.0f, 1e-6f);
  TexCoords tc = at(0.25f, 0.5f);
  tc.uv1 = glm::vec2(0.75f, 0.5f);
  EXPECT_NEAR(albedo_at(host.materials[1], host.textures(), tc).x, 0.0f, 1e-6f);
  EXPECT_NEAR(albedo_at(host.materials[0], host.textures(), tc).x, 0.0f, 1e-6f);
}

TEST(MaterialEval, EmissionAndOpacityTextures) {
  Scene s = two_texel_scene(glm::vec4(1.0f, 1.0f, 1.0f, 0.2f), glm::vec4(0.0f, 0.0f, 0.0f, 0.9f));
  Material m;
  m.type = MaterialType::pbr;
  m.emission = glm::vec3(3.0f);
  m.emission_texture.texture = 0;
  m.opacity = 0.5f;
  m.opacity_texture.texture = 0;
  m.opacity_texture.channel = 3;
  m.alpha_mode = AlphaMode::mask;
  s.materials = {m};
  const HostMaterials host(s);
  EXPECT_NEAR(emission_at(host.materials[0], host.textures(), at(0.25f, 0.5f)).x, 3.0f, 1e-5f);
  EXPECT_NEAR(emission_at(host.materials[0], host.textures(), at(0.75f, 0.5f)).x, 0.0f, 1e-5f);
  // (Whole steps of 1/255: 0.2 is 51 / 255, 0.9 is 230 / 255.)
  EXPECT_NEAR(opacity_at(host.materials[0], host.textures(), at(0.25f, 0.5f)), 0.1f, 1e-5f);
  EXPECT_NEAR(opacity_at(host.materials[0], host.textures(), at(0.75f, 0.5f)), 0.5f * 230 / 255,
              1e-5f);
  // An opaque material's opacity texture is not bound (nothing reads it).
  s.materials[0].alpha_mode = AlphaMode::opaque;
  const HostMaterials opaque(s);
  EXPECT_LT(opaque.materials[0].opacity_texture, 0);
}

SurfaceHit flat_hit() {
  SurfaceHit h;
  h.normal = h.geometric_normal = glm::vec3(0.0f, 0.0f, 1.0f);
  return h;
}

const glm::vec4 kTangent(1.0f, 0.0f, 0.0f, 1.0f);

// A camera ray's level of detail: its sample's cone (kSampleConeFraction of the pixel's angle)
// at the hit's distance, widened by the incidence, in the triangle's uv units; a bounce's: the
// camera's cone at the hit.
TEST(TextureLevelOfDetail, TheSampleConeAtTheHit) {
  SceneView scene;
  scene.camera.half_height = 0.5f;  // a pixel of 1/100 radian at 100 rows
  scene.camera.height = 100;
  PathSample p;
  p.direction = glm::vec3(0.0f, 0.0f, -1.0f);
  SurfaceHit hit;
  hit.uv = glm::vec2(0.25f, 0.75f);
  hit.geometric_normal = glm::vec3(0.0f, 0.0f, 1.0f);
  hit.distance = 8.0f;
  TextureDetails details;
  details.uv1 = glm::vec2(0.5f, 0.5f);
  details.texel_ratio = -1.0f;  // uv area a quarter of the world area
  TexCoords tc = tex_coords(scene, p, hit, details);
  EXPECT_EQ(tc.uv0, hit.uv);
  EXPECT_EQ(tc.uv1, details.uv1);
  // Width 8 x 0.01 x 1/8 = 0.01 world units: log2(0.01) - 1.
  EXPECT_NEAR(tc.lod, std::log2(8.0f * 0.01f * kSampleConeFraction) - 1.0f, 1e-5f);
  // At 60 degrees of incidence the footprint doubles: one level coarser.
  p.direction = glm::vec3(std::sqrt(3.0f) / 2.0f, 0.0f, -0.5f);
  EXPECT_NEAR(tex_coords(scene, p, hit, details).lod, tc.lod + 1.0f, 1e-5f);
  // After a bounce: the camera's cone at the hit's distance from the eye (2 here, not the 8 the
  // bounce ray travelled), over the cosine of the bounce's own incidence.
  p.depth = 1;
  scene.camera.eye = glm::vec3(0.0f, 0.0f, 2.0f);
  hit.point = glm::vec3(0.0f);
  EXPECT_NEAR(tex_coords(scene, p, hit, details).lod, tc.lod + 1.0f - 2.0f, 1e-5f);
  p.direction = glm::vec3(0.0f, 0.0f, -1.0f);
  EXPECT_NEAR(tex_coords(scene, p, hit, details).lod, tc.lod - 2.0f, 1e-5f);
  // On a surface without a uv ratio (objects): the finest level.
  p.depth = 0;
  details.texel_ratio = 0.0f;
  EXPECT_LT(tex_coords(scene, p, hit, details).lod, -50.0f);
}

TEST(NormalMaps, TheMapIsReadInTheTangentFrame) {
  const SurfaceHit h = flat_hit();
  const glm::vec3 wo = glm::normalize(glm::vec3(0.0f, 0.2f, 1.0f));
  // Unperturbed: the normal itself.
  EXPECT_LT(glm::length(mapped_normal(glm::vec3(0.0f, 0.0f, 1.0f), h, kTangent, wo) - h.normal), 1e-6f);
  // Tilted along the tangent (x) and the bitangent (y = w n x t).
  const glm::vec3 local = glm::normalize(glm::vec3(0.3f, -0.2f, 1.0f));
  EXPECT_LT(glm::length(mapped_normal(local, h, kTangent, wo) - local), 1e-5f);
  const glm::vec3 flipped = mapped_normal(local, h, glm::vec4(1.0f, 0.0f, 0.0f, -1.0f), wo);
  EXPECT_NEAR(flipped.y, -local.y, 1e-5f);
  EXPECT_NEAR(flipped.x, local.x, 1e-5f);
  // Seen from below, the frame turns with the surface: the result is the same normal.
  EXPECT_LT(glm::length(mapped_normal(local, h, kTangent, -wo) - local), 1e-5f);
}

TEST(NormalMaps, BentWhereTheReflectionWouldFallBelowTheSurface) {
  // A normal tilted 60 degrees away from a grazing view: its mirror direction of wo would go
  // into the surface; the bent normal reflects wo above it, and stays between the two normals.
  const SurfaceHit h = flat_hit();
  const glm::vec3 wo = glm::normalize(glm::vec3(-1.0f, 0.0f, 0.15f));
  const glm::vec3 tilted = glm::normalize(glm::vec3(0.87f, 0.0f, 0.5f));
  ASSERT_LT(glm::dot(2.0f * glm::dot(tilted, wo) * tilted - wo, h.geometric_normal), 0.0f);
  const glm::vec3 ns = mapped_normal(tilted, h, kTangent, wo);
  const glm::vec3 r = 2.0f * glm::dot(ns, wo) * ns - wo;
  EXPECT_GT(glm::dot(r, h.geometric_normal), 0.0f);
  EXPECT_GT(ns.x, 0.0f);
  EXPECT_LT(ns.x, tilted.x);
  EXPECT_NEAR(glm::length(ns), 1.0f, 1e-5f);
  // No tangent: some frame of the normal, still a unit normal on wo's side.
  const glm::vec3 slight = glm::normalize(glm::vec3(0.3f, 0.0f, 1.0f));
  const glm::vec3 any = mapped_normal(slight, h, glm::vec4(0.0f), glm::vec3(0.0f, 0.0f, 1.0f));
  EXPECT_NEAR(glm::length(any), 1.0f, 1e-5f);
  EXPECT_NEAR(any.z, slight.z, 1e-5f);
}

TEST(NormalMaps, SidesFollowTheGeometry) {
  const SurfaceHit h = flat_hit();
  const glm::vec3 ns = glm::normalize(glm::vec3(0.6f, 0.0f, 0.8f));
  const glm::vec3 wo = glm::normalize(glm::vec3(0.0f, 0.0f, 1.0f));
  // Above the shading normal's plane but below the geometry: no light through the surface.
  const glm::vec3 below = glm::normalize(glm::vec3(1.0f, 0.0f, -0.3f));
  ASSERT_GT(glm::dot(below, ns), 0.0f);
  EXPECT_FALSE(consistent_sides(h, ns, wo, below));
  EXPECT_TRUE(consistent_sides(h, ns, wo, glm::normalize(glm::vec3(0.2f, 0.1f, 1.0f))));
}

TEST(AlphaTest, MaskAndBlend) {
  // A triangle with uv (0, 0), (1, 0), (0, 1), its texture's left texel cut away (A 0).
  Scene s = two_texel_scene(glm::vec4(1.0f, 1.0f, 1.0f, 0.0f), glm::vec4(1.0f));
  Material mask;
  mask.alpha_mode = AlphaMode::mask;
  mask.opacity_texture.texture = 0;
  mask.opacity_texture.channel = 3;
  mask.opacity_texture.nearest = 1;
  Material blend;
  blend.alpha_mode = AlphaMode::blend;
  blend.opacity = 0.3f;
  Material opaque;
  opaque.opacity = 0.0f;  // opaque mode: opacity is not read
  s.materials = {mask, blend, opaque};
  const HostMaterials host(s);
  std::vector<TriangleShading> shading(3);
  for (int k = 0; k < 3; ++k) {
    shading[k].material = k;
    shading[k].uv0 = glm::vec2(0.0f, 0.0f);
    shading[k].uv1 = glm::vec2(1.0f, 0.0f);
    shading[k].uv2 = glm::vec2(0.0f, 1.0f);
  }
  AlphaTest alpha;
  alpha.shading = shading.data();
  alpha.materials = host.materials.data();
  alpha.textures = host.textures();
  const Ray ray{glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 1.0f)};
  // (u, v) barycentrics of the second and third corners: u = 0.1 is the left texel.
  EXPECT_FALSE(alpha(0, 0.1f, 0.2f, ray));
  EXPECT_TRUE(alpha(0, 0.8f, 0.1f, ray));
  EXPECT_TRUE(alpha(2, 0.1f, 0.2f, ray));
  EXPECT_TRUE(alpha(object_reference(0), 0.0f, 0.0f, ray));  // objects are opaque
  // Blend: the same path's ray meets the same decision; over many paths, the opacity's share.
  int seen = 0;
  const int n = 20000;
  for (int k = 0; k < n; ++k) {
    AlphaTest a = alpha;
    a.key = blend_key(std::uint32_t(k % 100), std::uint32_t(k / 100), 2, 7);
    const bool decision = a(1, 0.3f, 0.3f, ray);
    EXPECT_EQ(decision, a(1, 0.3f, 0.3f, ray));
    seen += decision;
  }
  EXPECT_NEAR(double(seen) / n, 0.3, 0.015);
  // Another seed decides anew: about 0.3 x 0.7 + 0.7 x 0.3 of the decisions differ.
  int differ = 0;
  for (int k = 0; k < n; ++k) {
    AlphaTest a = alpha, b = alpha;
    a.key = blend_key(std::uint32_t(k), 0, 0, 1);
    b.key = blend_key(std::uint32_t(k), 0, 0, 2);
    differ += a(1, 0.3f, 0.3f, ray) != b(1, 0.3f, 0.3f, ray);
  }
  EXPECT_NEAR(double(differ) / n, 0.42, 0.02);
  // A shadow ray passes a blended surface, keeping 1 - opacity of the light, and sees a blended
  // light with its opacity; masks still cut.
  float through = 1.0f;
  AlphaTest shadow = alpha;
  shadow.transmittance = &through;
  shadow.light = 2;
  EXPECT_FALSE(shadow(1, 0.3f, 0.3f, ray));
  EXPECT_NEAR(through, 0.7f, 1e-6f);
  EXPECT_FALSE(shadow(0, 0.1f, 0.2f, ray));
  EXPECT_TRUE(shadow(2, 0.1f, 0.2f, ray));  // opaque: sees it, nothing kept back
  EXPECT_NEAR(through, 0.7f, 1e-6f);
  shadow.light = 1;
  EXPECT_TRUE(shadow(1, 0.3f, 0.3f, ray));
  EXPECT_NEAR(through, 0.7f * 0.3f, 1e-6f);
}

}  // namespace
}  // namespace raystream
