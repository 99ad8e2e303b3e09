// The tangent generator for normal maps (io/scene/tangents.h): a flat quad's tangents follow its
// texture coordinates, mirrored coordinates turn the handedness, degenerate ones fall back to a
// finite tangent perpendicular to the normal, and a triangle soup's corners are joined again.
#include "io/scene/tangents.h"

#include <gtest/gtest.h>

#include <cmath>

namespace raystream {
namespace {

void expect_unit_perpendicular(const glm::vec4& t, const glm::vec3& n) {
  EXPECT_TRUE(std::isfinite(t.x) && std::isfinite(t.y) && std::isfinite(t.z));
  EXPECT_NEAR(glm::length(glm::vec3(t)), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::dot(glm::vec3(t), n), 0.0f, 1e-5f);
  EXPECT_TRUE(t.w == 1.0f || t.w == -1.0f);
}

// A unit quad in z = 0 facing +z, two triangles sharing the diagonal.
const std::vector<glm::vec3> kQuad = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
const std::vector<glm::vec3> kUp(4, glm::vec3(0, 0, 1));
const std::vector<std::uint32_t> kIndices = {0, 1, 2, 0, 2, 3};

TEST(Tangents, AFlatQuadFollowsItsTextureCoordinates) {
  // u along +x, v along +y: tangent +x, bitangent cross(n, t) = +y, so w = +1.
  std::vector<glm::vec4> t =
      generate_tangents(kIndices, kQuad, kUp, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  for (const glm::vec4& v : t) {
    EXPECT_NEAR(v.x, 1.0f, 1e-6f);
    EXPECT_NEAR(v.y, 0.0f, 1e-6f);
    EXPECT_EQ(v.w, 1.0f);
  }
  // u along +y, v along -x: tangent +y, cross(n, t) = -x = the bitangent: w = +1.
  t = generate_tangents(kIndices, kQuad, kUp, {{0, 1}, {0, 0}, {1, 0}, {1, 1}});
  for (const glm::vec4& v : t) {
    EXPECT_NEAR(v.y, 1.0f, 1e-6f);
    EXPECT_EQ(v.w, 1.0f);
  }
}

TEST(Tangents, MirroredCoordinatesTurnTheHandedness) {
  // v runs along -y: the bitangent is -y, opposite cross(n, t) = +y.
  const std::vector<glm::vec4> t =
      generate_tangents(kIndices, kQuad, kUp, {{0, 1}, {1, 1}, {1, 0}, {0, 0}});
  for (const glm::vec4& v : t) {
    EXPECT_NEAR(v.x, 1.0f, 1e-6f);
    EXPECT_EQ(v.w, -1.0f);
  }
  // u running along -x: tangent -x, and v along +y is then on the other side too.
  const std::vector<glm::vec4> u =
      generate_tangents(kIndices, kQuad, kUp, {{1, 0}, {0, 0}, {0, 1}, {1, 1}});
  for (const glm::vec4& v : u) {
    EXPECT_NEAR(v.x, -1.0f, 1e-6f);
    EXPECT_EQ(v.w, -1.0f);
  }
}

TEST(Tangents, DegenerateCoordinatesFallBackToAPerpendicularTangent) {
  // Every corner at the same uv, and uvs along a line: no area, no direction.
  for (const std::vector<glm::vec2>& uvs :
       {std::vector<glm::vec2>(4, glm::vec2(0.5f)),
        std::vector<glm::vec2>{{0, 0}, {1, 0}, {2, 0}, {3, 0}}}) {
    const std::vector<glm::vec4> t = generate_tangents(kIndices, kQuad, kUp, uvs);
    for (const glm::vec4& v : t) expect_unit_perpendicular(v, glm::vec3(0, 0, 1));
  }
  // A zero normal, and non-finite uvs.
  const std::vector<glm::vec4> t =
      generate_tangents(kIndices, kQuad, std::vector<glm::vec3>(4, glm::vec3(0)),
                        {{NAN, 0}, {1, 0}, {1, INFINITY}, {0, 1}});
  for (const glm::vec4& v : t)
    EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) &&
                glm::length(glm::vec3(v)) > 0.99f);
  for (const glm::vec3& n : {glm::vec3(0, 0, 1), glm::vec3(1, 0, 0), glm::vec3(0.3f, -2, 7)})
    expect_unit_perpendicular(fallback_tangent(n), glm::normalize(n));
}

TEST(Tangents, CurvedSurfacesStayPerpendicularToTheirNormals) {
  // The quad's normals tilted apart: each tangent is made perpendicular to its own.
  const std::vector<glm::vec3> normals = {
      glm::normalize(glm::vec3(-1, 0, 2)), glm::normalize(glm::vec3(1, 0, 2)),
      glm::normalize(glm::vec3(1, 1, 2)), glm::normalize(glm::vec3(-1, 1, 2))};
  const std::vector<glm::vec4> t =
      generate_tangents(kIndices, kQuad, normals, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  for (std::size_t i = 0; i < 4; ++i) {
    expect_unit_perpendicular(t[i], normals[i]);
    EXPECT_GT(t[i].x, 0.8f);
    EXPECT_EQ(t[i].w, 1.0f);
  }
}

TEST(Tangents, ASoupsCornersAreJoinedAgain) {
  std::vector<Triangle> soup(3);
  const glm::vec2 uv[4] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int f = 0; f < 2; ++f)
    for (int j = 0; j < 3; ++j) {
      const std::uint32_t k = kIndices[std::size_t(3 * f + j)];
      soup[std::size_t(f)].v[j] = kQuad[k];
      soup[std::size_t(f)].n[j] = glm::vec3(0, 0, 1);
      soup[std::size_t(f)].uv[j] = uv[k];
      soup[std::size_t(f)].uv1[j] = glm::vec2(uv[k].y, uv[k].x);  // u and v swapped
    }
  soup[2] = soup[0];
  soup[2].material = 1;  // not wanted: left alone
  generate_triangle_tangents(soup, [](const Triangle& t) { return t.material == 0; });
  for (int f = 0; f < 2; ++f)
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(soup[std::size_t(f)].t[j].x, 1.0f, 1e-6f);
      EXPECT_EQ(soup[std::size_t(f)].t[j].w, 1.0f);
    }
  EXPECT_EQ(soup[2].t[0], glm::vec4(0.0f));
  // The second set: u along +y, v along +x, a mirror.
  generate_triangle_tangents(
      soup, [](const Triangle& t) { return t.material == 0; }, 1);
  EXPECT_NEAR(soup[0].t[0].y, 1.0f, 1e-6f);
  EXPECT_EQ(soup[0].t[0].w, -1.0f);
}

}  // namespace
}  // namespace raystream
