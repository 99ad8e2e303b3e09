// The light table and light sampling, on the CPU, on small scenes built in code: emissive
// triangles of different sizes and emissions (one- and two-sided), a uniformly scaled emissive
// sphere, rotated non-uniformly scaled emissive cubes, an emissive ellipsoid, and objects that do
// not emit.
//   a. the picker chooses lights as often as their pick probabilities say, and those follow power
//      (luminance x area x 2 when two-sided);
//   b. light_pdf of a sampled point is the density sample_light_point drew it with;
//   c. the light-sampling estimator is unbiased: the mean of 1 / pdf (the pick divided out, hidden
//      points counted as zero) is the solid angle the light subtends;
//   d. every emissive primitive knows its light, the others -1; no emitters, no lights;
//   e. the power heuristic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/rng.h"
#include "geometry/scene_acceleration.h"
#include "geometry/scene_object.h"
#include "lights/light.h"
#include "lights/light_table.h"
#include "materials/bsdf.h"
#include "render_test_scenes.h"
#include "scene/scene.h"
#include "statistics.h"

namespace raystream {
namespace {

constexpr double kPiD = 3.14159265358979323846;

using test::chi_square_critical;

Material emitting(glm::vec3 color, float emittance, bool two_sided) {
  Material m;
  m.type = MaterialType::emitting;
  m.color = color;
  m.emittance = emittance;
  m.two_sided = two_sided;
  return m;
}

Material surface(MaterialType type, glm::vec3 color, glm::vec3 emission = glm::vec3(0.0f),
                 bool two_sided = true) {
  Material m;
  m.type = type;
  m.color = color;
  m.emission = emission;
  m.two_sided = two_sided;
  return m;
}

Triangle triangle(glm::vec3 a, glm::vec3 b, glm::vec3 c, int material) {
  Triangle t;
  t.v[0] = a;
  t.v[1] = b;
  t.v[2] = c;
  const glm::vec3 cr = glm::cross(b - a, c - a);
  const glm::vec3 n = glm::length(cr) > 0.0f ? glm::normalize(cr) : glm::vec3(0.0f, 1.0f, 0.0f);
  t.n[0] = t.n[1] = t.n[2] = n;
  t.material = material;
  return t;
}

// Materials: 0 white, 1 lamp (Emitting, two-sided), 2 warm (diffuse with EMISSION, one-sided),
// 3 blue (Emitting, two-sided), 4 mirror, 5 dim (Emitting, one-sided).
Scene light_scene() {
  Scene s;
  s.path = "lights (test)";
  s.materials = {
      surface(MaterialType::diffuse, glm::vec3(0.8f)),
      emitting(glm::vec3(1.0f, 0.9f, 0.8f), 5.0f, true),
      surface(MaterialType::diffuse, glm::vec3(0.5f), glm::vec3(2.0f, 1.0f, 0.5f), false),
      emitting(glm::vec3(0.2f, 0.4f, 1.0f), 3.0f, true),
      surface(MaterialType::specular, glm::vec3(0.9f)),
      emitting(glm::vec3(1.0f), 0.5f, false)};
  s.triangles = {
      // A large ceiling lamp facing down (-y).
      triangle(glm::vec3(-2.0f, 4.0f, -2.0f), glm::vec3(2.0f, 4.0f, -2.0f),
               glm::vec3(0.0f, 4.0f, 2.0f), 1),
      // A small one-sided emitter.
      triangle(glm::vec3(1.0f, 0.5f, 1.0f), glm::vec3(1.5f, 0.5f, 1.0f),
               glm::vec3(1.0f, 1.0f, 1.2f), 2),
      // Not emissive.
      triangle(glm::vec3(-3.0f, -1.0f, -3.0f), glm::vec3(3.0f, -1.0f, -3.0f),
               glm::vec3(0.0f, -1.0f, 3.0f), 0),
      // Emissive but degenerate (collinear): no area, no light.
      triangle(glm::vec3(0.0f, 2.0f, 0.0f), glm::vec3(1.0f, 2.0f, 0.0f),
               glm::vec3(2.0f, 2.0f, 0.0f), 1),
      // A dim one-sided emitter, tilted.
      triangle(glm::vec3(-1.0f, 0.0f, 2.0f), glm::vec3(-2.0f, 0.5f, 2.5f),
               glm::vec3(-1.2f, 1.5f, 2.2f), 5),
  };
  s.objects = {
      // 0: a uniformly scaled (and turned) sphere: radius 0.6.
      test::make_object(ShapeType::sphere, 3, glm::vec3(3.0f, 1.0f, 0.0f),
                        glm::vec3(10.0f, 20.0f, 30.0f), glm::vec3(1.2f)),
      // 1: a turned, non-uniformly scaled one-sided cube.
      test::make_object(ShapeType::cube, 2, glm::vec3(-3.0f, 1.0f, 1.0f),
                        glm::vec3(20.0f, 35.0f, 10.0f), glm::vec3(1.0f, 0.4f, 0.7f)),
      // 2: an ellipsoid, two-sided.
      test::make_object(ShapeType::sphere, 1, glm::vec3(0.0f, 3.0f, -2.0f),
                        glm::vec3(0.0f, 0.0f, 30.0f), glm::vec3(1.5f, 0.6f, 0.9f)),
      // 3, 4: not emissive.
      test::make_object(ShapeType::sphere, 0, glm::vec3(-1.0f, -0.5f, -1.0f), glm::vec3(0.0f),
                        glm::vec3(1.0f)),
      test::make_object(ShapeType::cube, 4, glm::vec3(1.0f, -0.5f, -1.5f),
                        glm::vec3(0.0f, 15.0f, 0.0f), glm::vec3(0.8f)),
      // 5: a uniformly scaled one-sided sphere, radius 0.4.
      test::make_object(ShapeType::sphere, 2, glm::vec3(0.0f, -3.0f, 0.0f), glm::vec3(0.0f),
                        glm::vec3(0.8f)),
      // 6: a turned, non-uniformly scaled two-sided cube.
      test::make_object(ShapeType::cube, 3, glm::vec3(2.0f, -1.0f, 3.0f),
                        glm::vec3(0.0f, 45.0f, 30.0f), glm::vec3(0.5f, 1.0f, 0.3f)),
  };
  return s;
}

std::vector<MaterialData> material_data(const Scene& scene) {
  std::vector<MaterialData> out;
  std::vector<TextureBinding> bindings;
  for (const Material& m : scene.materials) out.push_back(make_material_data(m, bindings));
  return out;
}

// A scene with its acceleration structure, materials and light table, and the view of the table.
struct Built {
  Scene scene;
  SceneAcceleration acc;
  std::vector<MaterialData> materials;
  LightTable table;
  LightsView view() const { return host_lights_view(table); }
};

// An object light on a sphere of unequal scales: its area is a quadrature.
bool is_ellipsoid(const Built& b, const Light& l) {
  return l.kind == static_cast<int>(LightKind::object) &&
         b.table.objects.at(static_cast<std::size_t>(l.index)).shape ==
             static_cast<int>(ShapeType::sphere);
}

Built build(const Scene& scene, bool use_bvh, float environment = 0.0f) {
  Built b;
  b.scene = scene;
  b.acc = build_scene_acceleration(b.scene, use_bvh);
  b.materials = material_data(b.scene);
  b.table = build_light_table(b.scene, b.acc, b.materials, environment);
  return b;
}

double luminance_d(const glm::vec3& c) {
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

glm::dmat3 linear_part(const Object& o) {
  return glm::dmat3(glm::mat3(object_to_world(o)));
}

// World area of a transformed unit cube: its six faces, each spanned by two transformed edges.
double cube_area(const Object& o) {
  const glm::dmat3 l = linear_part(o);
  double area = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    const glm::dvec3 a = l[(axis + 1) % 3], b = l[(axis + 2) % 3];
    area += 2.0 * glm::length(glm::cross(a, b));
  }
  return area;
}

// World area of a transformed sphere of radius 0.5: the parametric surface's area element
// |dp/dtheta x dp/dphi| integrated by the midpoint rule.
double ellipsoid_area(const Object& o) {
  const glm::dmat3 l = linear_part(o);
  const int nt = 600, np = 1200;
  const double dt = kPiD / nt, dp = 2.0 * kPiD / np;
  double area = 0.0;
  for (int i = 0; i < nt; ++i) {
    const double t = (i + 0.5) * dt;
    for (int j = 0; j < np; ++j) {
      const double p = (j + 0.5) * dp;
      const glm::dvec3 d_t = l * (0.5 * glm::dvec3(std::cos(t) * std::cos(p),
                                                   std::cos(t) * std::sin(p), -std::sin(t)));
      const glm::dvec3 d_p =
          l * (0.5 * glm::dvec3(-std::sin(t) * std::sin(p), std::sin(t) * std::cos(p), 0.0));
      area += glm::length(glm::cross(d_t, d_p)) * dt * dp;
    }
  }
  return area;
}

// The light each primitive should be, by our own reckoning: power = luminance x area x (2 if
// two-sided); -1 where none.
struct ExpectedLight {
  bool triangle = false;
  int index = 0;  // triangle (in acc order) or object
  double power = 0.0;
};

std::vector<ExpectedLight> expected_lights(const Built& b) {
  std::vector<ExpectedLight> out;
  for (std::size_t t = 0; t < b.acc.triangles.size(); ++t) {
    const MaterialData& m = b.materials[b.acc.shading[t].material];
    const TriangleGeometry& g = b.acc.triangles[t];
    const double area = 0.5 * glm::length(glm::cross(glm::dvec3(g.e1), glm::dvec3(g.e2)));
    if (!is_emissive(m) || !(area > 0.0)) continue;
    out.push_back({true, int(t), luminance_d(m.emission) * area * (m.two_sided ? 2.0 : 1.0)});
  }
  for (std::size_t k = 0; k < b.scene.objects.size(); ++k) {
    const Object& o = b.scene.objects[k];
    const MaterialData& m = b.materials[o.material];
    if (!is_emissive(m)) continue;
    double area;
    if (o.shape == ShapeType::cube) {
      area = cube_area(o);
    } else if (o.scale.x == o.scale.y && o.scale.y == o.scale.z) {
      area = kPiD * double(o.scale.x) * o.scale.x;  // 4 pi (scale / 2)^2
    } else {
      area = ellipsoid_area(o);
    }
    out.push_back({false, int(k), luminance_d(m.emission) * area * (m.two_sided ? 2.0 : 1.0)});
  }
  return out;
}

int light_of(const Built& b, const ExpectedLight& e) {
  return e.triangle ? b.acc.shading[e.index].light : b.acc.objects[e.index].light;
}

// ---- d. Light indices ----------------------------------------------------------------------

TEST(LightTable, EveryEmitterKnowsItsLight) {
  for (const bool use_bvh : {false, true}) {
    SCOPED_TRACE(use_bvh ? "BVH" : "no BVH");
    const Built b = build(light_scene(), use_bvh);
    const std::vector<ExpectedLight> expected = expected_lights(b);
    // 3 triangles (the degenerate one has no area), spheres 0 and 5, cubes 1 and 6, ellipsoid 2.
    ASSERT_EQ(expected.size(), 8u);
    ASSERT_EQ(b.table.lights.size(), expected.size());
    EXPECT_EQ(b.table.environment, -1);
    std::vector<int> seen(b.table.lights.size(), 0);
    for (const ExpectedLight& e : expected) {
      const int k = light_of(b, e);
      ASSERT_GE(k, 0);
      ASSERT_LT(k, static_cast<int>(b.table.lights.size()));
      ++seen[k];
      const Light& l = b.table.lights[k];
      if (e.triangle) {
        ASSERT_EQ(l.kind, static_cast<int>(LightKind::triangle));
        const TriangleLight& t = b.table.triangles.at(static_cast<std::size_t>(l.index));
        EXPECT_EQ(t.p, b.acc.triangles[e.index].v0);
        EXPECT_EQ(t.e1, b.acc.triangles[e.index].e1);
        EXPECT_EQ(t.e2, b.acc.triangles[e.index].e2);
        EXPECT_EQ(l.emission, b.materials[b.acc.shading[e.index].material].emission);
      } else {
        const Object& o = b.scene.objects[e.index];
        const bool round =
            o.shape == ShapeType::sphere && o.scale.x == o.scale.y && o.scale.y == o.scale.z;
        ASSERT_EQ(l.kind, static_cast<int>(round ? LightKind::sphere : LightKind::object))
            << "object " << e.index;
        if (round) {
          const SphereLight& sphere = b.table.spheres.at(static_cast<std::size_t>(l.index));
          EXPECT_NEAR(glm::length(sphere.centre - o.translation), 0.0f, 1e-5f);
          EXPECT_NEAR(sphere.radius, 0.5f * o.scale.x, 1e-6f);
        } else {
          EXPECT_EQ(b.table.objects.at(static_cast<std::size_t>(l.index)).shape,
                    static_cast<int>(o.shape));
        }
        EXPECT_EQ(l.emission, b.materials[o.material].emission);
        EXPECT_EQ(l.two_sided, b.materials[o.material].two_sided);
      }
    }
    for (int count : seen) EXPECT_EQ(count, 1) << "each light belongs to one primitive";
    // The others: -1.
    for (std::size_t t = 0; t < b.acc.shading.size(); ++t) {
      const TriangleGeometry& g = b.acc.triangles[t];
      const bool degenerate = !(glm::length(glm::cross(g.e1, g.e2)) > 0.0f);
      if (!is_emissive(b.materials[b.acc.shading[t].material]) || degenerate) {
        EXPECT_EQ(b.acc.shading[t].light, -1) << "triangle " << t;
      }
    }
    for (int k : {3, 4}) EXPECT_EQ(b.acc.objects[k].light, -1) << "object " << k;
  }
}

TEST(LightTable, NoEmittersNoLights) {
  Scene s = light_scene();
  for (Material& m : s.materials) {
    if (m.type == MaterialType::emitting) m.type = MaterialType::diffuse;
    m.emission = glm::vec3(0.0f);
  }
  const Built b = build(s, true);
  EXPECT_TRUE(b.table.lights.empty());
  EXPECT_EQ(b.view().count, 0);
  EXPECT_EQ(b.table.environment, -1);
  for (const TriangleShading& t : b.acc.shading) EXPECT_EQ(t.light, -1);
  for (const SceneObject& o : b.acc.objects) EXPECT_EQ(o.light, -1);
  const LightSample ls = sample_light(b.view(), glm::vec3(0.0f), 0.5f, 0.5f, 0.5f, 0.5f);
  EXPECT_EQ(ls.pdf, 0.0f);
  EXPECT_EQ(ls.radiance, glm::vec3(0.0f));
  EXPECT_EQ(light_pdf(b.view(), 0, glm::vec3(0.0f), glm::vec3(1.0f), glm::vec3(0, 1, 0)), 0.0f);
  // An empty scene as well.
  const Built empty = build(Scene{}, true);
  EXPECT_TRUE(empty.table.lights.empty());
}

// ---- a. Picking by power ------------------------------------------------------------------------

TEST(LightTable, PicksFollowPower) {
  const Built b = build(light_scene(), true);
  const std::vector<ExpectedLight> expected = expected_lights(b);
  double total = 0.0;
  for (const ExpectedLight& e : expected) total += e.power;
  double pick_sum = 0.0;
  for (const ExpectedLight& e : expected) {
    const Light& l = b.table.lights[light_of(b, e)];
    const double want = e.power / total;
    // The table's ellipsoid area is a coarser quadrature than ours.
    const double tolerance = is_ellipsoid(b, l) ? 1e-3 : 1e-4;
    EXPECT_NEAR(l.pick, want, tolerance * want)
        << (e.triangle ? "triangle " : "object ") << e.index;
    pick_sum += l.pick;
  }
  EXPECT_NEAR(pick_sum, 1.0, 1e-5);
  // The CDF: 0, increasing by the picks, 1.
  const std::vector<float>& cdf = b.table.cdf;
  ASSERT_EQ(cdf.size(), b.table.lights.size() + 1);
  EXPECT_EQ(cdf.front(), 0.0f);
  EXPECT_EQ(cdf.back(), 1.0f);
  for (std::size_t k = 0; k < b.table.lights.size(); ++k) {
    EXPECT_NEAR(cdf[k + 1] - cdf[k], b.table.lights[k].pick, 1e-6f) << "light " << k;
  }
}

// Issue 34, item 1: a lamp of radiance 1e38 (a float) over a few square units has a power beyond
// the float range; summed in float the table's power was infinite, every pick NaN, and the lamp
// lit nothing. Powers are summed in double.
TEST(LightTable, PowersBeyondTheFloatRangeKeepFinitePicks) {
  Scene scene = light_scene();
  scene.materials[1] = emitting(glm::vec3(1.0f), 1e38f, true);  // the ceiling lamp, 8 units
  scene.materials[3] = emitting(glm::vec3(1.0f), 3e38f, true);  // two spheres, a cube
  const Built b = build(scene, true);
  ASSERT_FALSE(b.table.lights.empty());
  EXPECT_TRUE(std::isfinite(b.table.power)) << b.table.power;
  EXPECT_GT(b.table.power, 3.4e38);
  double pick_sum = 0.0;
  for (const Light& l : b.table.lights) {
    EXPECT_TRUE(std::isfinite(l.pick) && l.pick >= 0.0f) << l.pick;
    pick_sum += l.pick;
  }
  EXPECT_NEAR(pick_sum, 1.0, 1e-5);
  EXPECT_EQ(b.table.cdf.front(), 0.0f);
  EXPECT_EQ(b.table.cdf.back(), 1.0f);
  for (std::size_t k = 0; k + 1 < b.table.cdf.size(); ++k)
    EXPECT_LE(b.table.cdf[k], b.table.cdf[k + 1]) << k;
  // Each pick is the lamp's share of the power, as at any brightness.
  const std::vector<ExpectedLight> expected = expected_lights(b);
  double total = 0.0;
  for (const ExpectedLight& e : expected) total += e.power;
  for (const ExpectedLight& e : expected) {
    const Light& l = b.table.lights[light_of(b, e)];
    const double tolerance = is_ellipsoid(b, l) ? 1e-3 : 1e-4;
    EXPECT_NEAR(l.pick, e.power / total, tolerance * e.power / total + 1e-12);
  }
}

TEST(LightTable, PickerFrequenciesMatchPicks) {
  const Built b = build(light_scene(), false);
  const LightsView view = b.view();
  const int n = view.count;
  // Stratified u: each light gets its share of the strata, to within one stratum at each end.
  const int strata = 1000000;
  std::vector<double> counts(n, 0.0);
  for (int k = 0; k < strata; ++k) {
    const int picked = pick_light(view, (k + 0.5f) / strata);
    ASSERT_GE(picked, 0);
    ASSERT_LT(picked, n);
    counts[picked] += 1.0;
  }
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(counts[k], double(b.table.lights[k].pick) * strata, 2.0 + 1e-6 * strata)
        << "light " << k;
  }
  // Random u: chi-square of the frequencies against the picks.
  std::fill(counts.begin(), counts.end(), 0.0);
  Rng rng(1, 2, 3, 4);
  const int samples = 1000000;
  for (int k = 0; k < samples; ++k) counts[pick_light(view, rng.next_float())] += 1.0;
  double chi = 0.0;
  for (int k = 0; k < n; ++k) {
    const double e = double(b.table.lights[k].pick) * samples;
    ASSERT_GT(e, 5.0);
    chi += (counts[k] - e) * (counts[k] - e) / e;
  }
  EXPECT_LT(chi, chi_square_critical(n - 1));
  // The test can fail: against uniform picks.
  double chi_uniform = 0.0;
  for (int k = 0; k < n; ++k) {
    const double e = double(samples) / n;
    chi_uniform += (counts[k] - e) * (counts[k] - e) / e;
  }
  EXPECT_GT(chi_uniform, chi_square_critical(n - 1));
  // The ends of [0, 1).
  EXPECT_EQ(pick_light(view, 0.0f), 0);
  EXPECT_EQ(pick_light(view, 0.99999994f), n - 1);
}

TEST(LightTable, EnvironmentPickFollowsTheSceneBounds) {
  const float mean_luminance = 0.25f;
  const Built b = build(light_scene(), true, mean_luminance);
  ASSERT_EQ(b.table.environment, static_cast<int>(b.table.lights.size()) - 1);
  EXPECT_EQ(b.table.lights.back().kind, static_cast<int>(LightKind::environment));
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const Triangle& t : b.scene.triangles)
    for (const glm::vec3& v : t.v) {
      lo = glm::min(lo, v);
      hi = glm::max(hi, v);
    }
  for (const Object& o : b.scene.objects) {
    glm::vec3 olo, ohi;
    object_world_bounds(o, olo, ohi);
    lo = glm::min(lo, olo);
    hi = glm::max(hi, ohi);
  }
  const double radius = 0.5 * glm::length(glm::dvec3(hi - lo));
  double total = 0.0;
  for (const ExpectedLight& e : expected_lights(b)) total += e.power;
  // Emitters' powers carry pi x luminance x area; the environment's pi x luminance x 4 pi R^2.
  const double env = 4.0 * kPiD * radius * radius * mean_luminance;
  EXPECT_NEAR(b.table.lights.back().pick, env / (env + total), 1e-4 * env / (env + total));
}

// ---- Geometry the tests below need, written out here --------------------------------------------

// Solid angle of the triangle (a, b, c) seen from x (Van Oosterom and Strackee).
double triangle_solid_angle(glm::dvec3 a, glm::dvec3 b, glm::dvec3 c, const glm::dvec3& x) {
  a -= x;
  b -= x;
  c -= x;
  const double la = glm::length(a), lb = glm::length(b), lc = glm::length(c);
  const double num = std::fabs(glm::dot(a, glm::cross(b, c)));
  const double den = la * lb * lc + glm::dot(a, b) * lc + glm::dot(a, c) * lb + glm::dot(b, c) * la;
  return 2.0 * std::atan2(num, den);
}

// Solid angle of a transformed unit cube seen from x outside it: its faces that face x.
double cube_solid_angle(const Object& o, const glm::dvec3& x) {
  const glm::dmat4 m(object_to_world(o));
  auto world = [&](double px, double py, double pz) {
    return glm::dvec3(m * glm::dvec4(px, py, pz, 1.0));
  };
  double omega = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    for (double sign : {-1.0, 1.0}) {
      glm::dvec3 corner[4];
      for (int k = 0; k < 4; ++k) {
        glm::dvec3 p(0.0);
        p[axis] = 0.5 * sign;
        p[(axis + 1) % 3] = (k == 1 || k == 2) ? 0.5 : -0.5;
        p[(axis + 2) % 3] = (k >= 2) ? 0.5 : -0.5;
        corner[k] = world(p.x, p.y, p.z);
      }
      const glm::dvec3 centre = 0.25 * (corner[0] + corner[1] + corner[2] + corner[3]);
      glm::dvec3 outward = glm::cross(corner[1] - corner[0], corner[3] - corner[0]);
      if (glm::dot(outward, centre - world(0.0, 0.0, 0.0)) < 0.0) outward = -outward;
      if (glm::dot(outward, x - centre) <= 0.0) continue;
      omega += triangle_solid_angle(corner[0], corner[1], corner[2], x) +
               triangle_solid_angle(corner[0], corner[2], corner[3], x);
    }
  }
  return omega;
}

// Solid angle of an object seen from x, by stratified directions (jittered (z, phi) grid) and the
// renderer's own ray-object test.
double object_solid_angle_by_rays(const SceneObject& o, const glm::vec3& x, int n) {
  Rng rng(9, 9, 9, 9);
  int hits = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 2 * n; ++j) {
      const double z = -1.0 + 2.0 * (i + rng.next_float()) / n;
      const double phi = 2.0 * kPiD * (j + rng.next_float()) / (2 * n);
      const double r = std::sqrt(std::max(0.0, 1.0 - z * z));
      Ray ray;
      ray.origin = x;
      ray.direction = glm::vec3(float(r * std::cos(phi)), float(r * std::sin(phi)), float(z));
      hits += intersect_object(o, ray, kMinHitDistance).t < kNoHit;
    }
  return 4.0 * kPiD * hits / (2.0 * n * n);
}

bool inside_object(const Object& o, const glm::vec3& x) {
  const glm::vec3 p(glm::inverse(object_to_world(o)) * glm::vec4(x, 1.0f));
  if (o.shape == ShapeType::cube)
    return std::fabs(p.x) < 0.5f && std::fabs(p.y) < 0.5f && std::fabs(p.z) < 0.5f;
  return glm::length(p) < 0.5f;
}

// The outside shading points every light is seen from.
const glm::vec3 kPoints[] = {glm::vec3(0.0f, 0.0f, 0.0f),  glm::vec3(0.5f, 2.0f, 1.0f),
                             glm::vec3(-1.0f, 1.5f, 3.0f), glm::vec3(4.0f, 3.0f, 2.5f),
                             glm::vec3(0.3f, 6.0f, 0.2f),  glm::vec3(1.3f, 0.2f, 0.5f)};

// A shading point and the light it looks at (uniform spheres also from inside).
struct View {
  int light;
  glm::vec3 x;
  std::string name;
};

std::vector<View> views(const Built& b) {
  std::vector<View> out;
  for (const ExpectedLight& e : expected_lights(b)) {
    const int k = light_of(b, e);
    const std::string what = (e.triangle ? "triangle " : "object ") + std::to_string(e.index);
    for (const glm::vec3& x : kPoints) {
      if (!e.triangle && inside_object(b.scene.objects[e.index], x)) continue;
      out.push_back({k, x,
                     what + " from (" + std::to_string(x.x) + ", " + std::to_string(x.y) + ", " +
                         std::to_string(x.z) + ")"});
    }
    if (!e.triangle && b.table.lights[k].kind == static_cast<int>(LightKind::sphere)) {
      const Object& o = b.scene.objects[e.index];
      for (const glm::vec3 offset : {glm::vec3(0.0f), glm::vec3(0.1f, -0.05f, 0.2f)})
        out.push_back({k, o.translation + offset * o.scale.x, what + " from inside"});
    }
  }
  return out;
}

// A light's shape, stored by kind.
const TriangleLight& triangle_of(const Built& b, const Light& l) {
  return b.table.triangles.at(static_cast<std::size_t>(l.index));
}
const SphereLight& sphere_of(const Built& b, const Light& l) {
  return b.table.spheres.at(static_cast<std::size_t>(l.index));
}

// The point a light sample chose, and the light's outward unit normal there; false when the point
// is not on the light's surface (which fails the test).
bool sampled_point(const Built& b, int k, const glm::vec3& x, const LightSample& s, glm::vec3& q,
                   glm::vec3& n) {
  const Light& l = b.table.lights[k];
  q = x + s.wi * s.distance;
  switch (static_cast<LightKind>(l.kind)) {
    case LightKind::triangle: {
      const TriangleLight& t = triangle_of(b, l);
      n = glm::normalize(glm::cross(t.e1, t.e2));
      TriangleGeometry g{t.p, t.e1, t.e2};
      float u, v;
      const float hit = intersect_triangle(g, x, s.wi, 0.0f, kNoHit, u, v);
      return std::fabs(hit - s.distance) <= 1e-4f * s.distance;
    }
    case LightKind::sphere: {
      const SphereLight& sphere = sphere_of(b, l);
      n = glm::normalize(q - sphere.centre);
      return std::fabs(glm::length(q - sphere.centre) - sphere.radius) <=
             1e-4f * (sphere.radius + s.distance);
    }
    case LightKind::object: {
      // The object this light is. On its surface: the object-space point on the unit shape. The
      // normal: the unit shape's gradient there, carried to world space by M^-T.
      for (std::size_t o = 0; o < b.acc.objects.size(); ++o) {
        if (b.acc.objects[o].light != k) continue;
        const glm::dmat4 m(object_to_world(b.scene.objects[o]));
        const glm::dvec3 p(glm::inverse(m) * glm::dvec4(glm::dvec3(q), 1.0));
        glm::dvec3 gradient = p;
        double size = glm::length(p);  // 0.5 on the sphere
        if (b.scene.objects[o].shape == ShapeType::cube) {
          const glm::dvec3 a = glm::abs(p);
          const int axis = a.x >= a.y && a.x >= a.z ? 0 : (a.y >= a.z ? 1 : 2);
          gradient = glm::dvec3(0.0);
          gradient[axis] = p[axis] > 0.0 ? 1.0 : -1.0;
          size = a[axis];  // 0.5 on the cube
        }
        n = glm::vec3(glm::normalize(glm::transpose(glm::inverse(glm::dmat3(m))) * gradient));
        return std::fabs(size - 0.5) <= 1e-4 * (1.0 + s.distance);
      }
      return false;
    }
    default:
      return false;
  }
}

// ---- b. light_pdf against the sampling density
// ----------------------------------------------------

TEST(LightSampling, LightPdfIsTheSamplingDensity) {
  const Built b = build(light_scene(), true);
  const LightsView view = b.view();
  for (const View& v : views(b)) {
    SCOPED_TRACE(v.name);
    const Light& l = b.table.lights[v.light];
    Rng rng(static_cast<std::uint32_t>(v.light), 5, 0, 31);
    int compared = 0;
    for (int j = 0; j < 4000; ++j) {
      const float u0 = rng.next_float(), u1 = rng.next_float(), u2 = rng.next_float();
      const LightSample s = sample_light_point(view, v.light, v.x, u0, u1, u2);
      ASSERT_TRUE(std::isfinite(s.pdf) && s.pdf >= 0.0f);
      if (!(s.pdf > 0.0f)) {
        EXPECT_EQ(s.radiance, glm::vec3(0.0f));
        if (s.distance > 0.0f) {
          glm::vec3 q, n;
          ASSERT_TRUE(sampled_point(b, v.light, v.x, s, q, n)) << "not on the light";
          EXPECT_EQ(light_pdf(view, v.light, v.x, q, n), 0.0f) << "a point never sampled";
        }
        continue;
      }
      ASSERT_NEAR(glm::length(s.wi), 1.0f, 1e-5f);
      ASSERT_GT(s.distance, 0.0f);
      EXPECT_EQ(s.radiance, l.emission);
      glm::vec3 q, n;
      ASSERT_TRUE(sampled_point(b, v.light, v.x, s, q, n)) << "the point is not on the light";
      // Grazing the light, the solid-angle density d^2 / |cos| turns on rounding in the normal.
      if (std::fabs(glm::dot(n, s.wi)) < 0.02f) continue;
      const float pdf = light_pdf(view, v.light, v.x, q, n);
      ASSERT_NEAR(pdf, s.pdf, 1e-3f * s.pdf) << "sample " << j;
      ++compared;
    }
    // One-sided lights seen from behind are never sampled; every other view is.
    const bool is_triangle = l.kind == static_cast<int>(LightKind::triangle);
    const TriangleLight t = is_triangle ? triangle_of(b, l) : TriangleLight{};
    const glm::vec3 centre = is_triangle ? t.p + (t.e1 + t.e2) / 3.0f : glm::vec3(0.0f);
    const bool behind =
        is_triangle && !l.two_sided && glm::dot(glm::cross(t.e1, t.e2), v.x - centre) <= 0.0f;
    const bool inside = v.name.find("inside") != std::string::npos;
    if (behind || (inside && !l.two_sided)) {
      EXPECT_EQ(compared, 0);
    } else {
      EXPECT_GT(compared, 500);
    }
  }
  // sample_light picks by uc and reports the pick times the point's density.
  Rng rng(8, 8, 8, 8);
  const glm::vec3 x(0.5f, 2.0f, 1.0f);
  for (int j = 0; j < 2000; ++j) {
    const float uc = rng.next_float(), u0 = rng.next_float(), u1 = rng.next_float(),
                u2 = rng.next_float();
    const LightSample a = sample_light(view, x, uc, u0, u1, u2);
    const LightSample c = sample_light_point(view, pick_light(view, uc), x, u0, u1, u2);
    ASSERT_EQ(a.pdf, c.pdf);
    ASSERT_EQ(a.wi, c.wi);
  }
}

// ---- c. Unbiasedness: the mean of 1 / pdf is the solid angle ----------------------------------

TEST(LightSampling, EstimatorIsUnbiased) {
  const Built b = build(light_scene(), true);
  const LightsView view = b.view();
  const int samples = 400000;
  int checked = 0;
  for (const View& v : views(b)) {
    SCOPED_TRACE(v.name);
    const Light& l = b.table.lights[v.light];
    const bool inside = v.name.find("inside") != std::string::npos;
    int object_index = -1;
    for (std::size_t o = 0; o < b.acc.objects.size(); ++o)
      if (b.acc.objects[o].light == v.light) object_index = static_cast<int>(o);
    // The reference: the solid angle of what emits towards x.
    double omega = 0.0, reference_tolerance = 0.0;
    switch (static_cast<LightKind>(l.kind)) {
      case LightKind::triangle: {
        const TriangleLight& t = triangle_of(b, l);
        const glm::dvec3 a(t.p), e1(t.e1), e2(t.e2), x(v.x);
        const bool front = glm::dot(glm::cross(e1, e2), x - a) > 0.0;
        omega = l.two_sided || front ? triangle_solid_angle(a, a + e1, a + e2, x) : 0.0;
        break;
      }
      case LightKind::sphere: {
        if (inside) {
          omega = l.two_sided ? 4.0 * kPiD : 0.0;
        } else {
          const SphereLight& sphere = sphere_of(b, l);
          const double d = glm::length(glm::dvec3(v.x) - glm::dvec3(sphere.centre)),
                       r = sphere.radius;
          omega = 2.0 * kPiD * (1.0 - std::sqrt(1.0 - r * r / (d * d)));
        }
        break;
      }
      case LightKind::object: {
        const Object& o = b.scene.objects[object_index];
        // By rays (the stratified estimate is good to a few 1e-3 of itself); for cubes also
        // exactly, and the two must agree.
        omega = object_solid_angle_by_rays(b.acc.objects[object_index], v.x, 1000);
        if (o.shape == ShapeType::cube) {
          EXPECT_NEAR(cube_solid_angle(o, glm::dvec3(v.x)), omega, 5e-3 * omega + 1e-5);
          omega = cube_solid_angle(o, glm::dvec3(v.x));
        } else {
          reference_tolerance = 3e-3 * omega;
        }
        break;
      }
      default:
        FAIL();
    }
    // The estimate of the solid angle, hidden points counted as zero. The sampler offers no point
    // on the far side of a convex object seen from outside (its near side hides it, and the
    // shadow test does not count the light's own primitive as an occluder): the hidden points
    // left are near-side points at the silhouette, where this test's own ray misses by rounding.
    Rng rng(static_cast<std::uint32_t>(v.light), 6, 0, 57);
    double sum = 0.0, sq = 0.0;
    int far_side = 0;
    for (int j = 0; j < samples; ++j) {
      const float u0 = rng.next_float(), u1 = rng.next_float(), u2 = rng.next_float();
      const LightSample s = sample_light_point(view, v.light, v.x, u0, u1, u2);
      if (!(s.pdf > 0.0f)) continue;
      const double value = double(l.pick) / s.pdf;
      bool visible = true;
      if (object_index >= 0) {
        Ray ray;
        ray.origin = v.x;
        ray.direction = s.wi;
        const Hit hit = intersect_object(b.acc.objects[object_index], ray, kMinHitDistance);
        visible = hit.t >= s.distance * (1.0f - 1e-4f);
      }
      if (object_index >= 0 && !inside) {
        glm::vec3 q, n;
        sampled_point(b, v.light, v.x, s, q, n);
        if (glm::dot(n, s.wi) > 1e-4f) ++far_side;
      }
      if (!visible) continue;
      sum += value;
      sq += value * value;
    }
    const double mean = sum / samples;
    const double error = std::sqrt(std::max(sq / samples - mean * mean, 0.0) / samples);
    std::printf("  %-44s  solid angle %.5f, estimate %.5f +- %.5f\n", v.name.c_str(), omega, mean,
                error);
    EXPECT_NEAR(mean, omega, 3.0 * error + 2e-3 * omega + reference_tolerance + 1e-6);
    // (A sample on a cube's edge, where a number drawn is exactly 0, has the normals of two
    // faces; this test takes one of them.)
    EXPECT_LE(far_side, samples / 100000);
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

// The test above can fail: the ellipsoid's points weighed by a uniform density over its world
// area (ignoring that the object-space sampler is not uniform there) give a biased estimate.
TEST(LightSampling, UnbiasednessTestDetectsAWrongDensity) {
  const Built b = build(light_scene(), true);
  const LightsView view = b.view();
  const int k = b.acc.objects[2].light;
  ASSERT_GE(k, 0);
  const double area = ellipsoid_area(b.scene.objects[2]);
  const glm::vec3 x(0.0f);
  const double omega = object_solid_angle_by_rays(b.acc.objects[2], x, 1000);
  Rng rng(1, 1, 1, 1);
  const int samples = 400000;
  double sum = 0.0, sq = 0.0;
  for (int j = 0; j < samples; ++j) {
    const float u0 = rng.next_float(), u1 = rng.next_float(), u2 = rng.next_float();
    const LightSample s = sample_light_point(view, k, x, u0, u1, u2);
    if (!(s.pdf > 0.0f)) continue;
    glm::vec3 q, n;
    ASSERT_TRUE(sampled_point(b, k, x, s, q, n));
    Ray ray;
    ray.origin = x;
    ray.direction = s.wi;
    if (intersect_object(b.acc.objects[2], ray, kMinHitDistance).t < s.distance * (1.0f - 1e-4f))
      continue;  // the far side
    const double c = std::fabs(glm::dot(n, s.wi));
    if (!(c > 0.0)) continue;
    const double wrong_pdf = double(s.distance) * s.distance / (c * area);
    sum += 1.0 / wrong_pdf;
    sq += 1.0 / (wrong_pdf * wrong_pdf);
  }
  const double mean = sum / samples;
  const double error = std::sqrt(std::max(sq / samples - mean * mean, 0.0) / samples);
  std::printf("  ellipsoid by a uniform area density: %.5f +- %.5f, solid angle %.5f\n", mean,
              error, omega);
  EXPECT_GT(std::fabs(mean - omega), 5.0 * error + 5e-3 * omega);
}

// ---- e. The power heuristic --------------------------------------------------------------------

TEST(LightSampling, PowerHeuristic) {
  EXPECT_FLOAT_EQ(power_heuristic(1.0f, 1.0f), 0.5f);
  EXPECT_FLOAT_EQ(power_heuristic(2.0f, 1.0f), 0.8f);
  EXPECT_FLOAT_EQ(power_heuristic(1.0f, 2.0f), 0.2f);
  EXPECT_FLOAT_EQ(power_heuristic(3.0f, 4.0f), 9.0f / 25.0f);
  EXPECT_EQ(power_heuristic(5.0f, 0.0f), 1.0f);
  EXPECT_EQ(power_heuristic(0.0f, 5.0f), 0.0f);
  EXPECT_EQ(power_heuristic(0.0f, 0.0f), 0.0f);
  Rng rng(4, 4, 4, 4);
  for (int k = 0; k < 10000; ++k) {
    const float a = std::exp(20.0f * (rng.next_float() - 0.5f));
    const float b = std::exp(20.0f * (rng.next_float() - 0.5f));
    const float wa = power_heuristic(a, b), wb = power_heuristic(b, a);
    ASSERT_GE(wa, 0.0f);
    ASSERT_LE(wa, 1.0f);
    ASSERT_NEAR(wa + wb, 1.0f, 1e-6f) << a << " " << b;
  }
}

}  // namespace
}  // namespace raystream
