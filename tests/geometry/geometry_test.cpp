// Camera rays, ray-sphere and ray-cube intersection (from outside, from inside, grazing,
// transformed objects), on the CPU.
#include <gtest/gtest.h>

#include <cmath>

#include "core/rng.h"
#include "geometry/camera.h"
#include "geometry/scene_object.h"
#include "scene/scene.h"

namespace raystream {
namespace {

constexpr float kTol = 1e-4f;

void expect_vec_near(const glm::vec3& a, const glm::vec3& b, float tol = kTol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

Camera course_camera() {
  Camera c;  // EYE (0, 5, 10.5) looking at (0, 5, 0), up +y
  c.fovy_degrees = 45.0f;
  return c;
}

TEST(Camera, CentreRayLooksAtLookat) {
  const CameraFrame f = make_camera_frame(course_camera(), 100, 100);
  // Pixel (50, 50) at offset (0, 0) is the image centre.
  const Ray r = camera_ray(f, 50, 50, 0.0f, 0.0f, 0.5f, 0.5f);
  expect_vec_near(r.origin, glm::vec3(0.0f, 5.0f, 10.5f));
  expect_vec_near(r.direction, glm::vec3(0.0f, 0.0f, -1.0f));
}

TEST(Camera, FrameIsOrthonormalAndRightHanded) {
  Camera c = course_camera();
  c.eye = glm::vec3(3.0f, 2.0f, 1.0f);
  c.lookat = glm::vec3(-1.0f, 0.5f, -4.0f);
  c.up = glm::vec3(0.1f, 1.0f, 0.2f);  // not perpendicular to the view: the frame fixes it
  const CameraFrame f = make_camera_frame(c, 64, 48);
  EXPECT_NEAR(glm::length(f.view), 1.0f, kTol);
  EXPECT_NEAR(glm::length(f.right), 1.0f, kTol);
  EXPECT_NEAR(glm::length(f.up), 1.0f, kTol);
  EXPECT_NEAR(glm::dot(f.view, f.right), 0.0f, kTol);
  EXPECT_NEAR(glm::dot(f.view, f.up), 0.0f, kTol);
  EXPECT_NEAR(glm::dot(f.right, f.up), 0.0f, kTol);
  expect_vec_near(glm::cross(f.right, f.up), -f.view);  // right x up = backwards
  EXPECT_NEAR(f.focal_distance, glm::length(c.lookat - c.eye), kTol);
}

TEST(Camera, CornersFollowFovAndOrientation) {
  // Course convention: tan(FOVY) is the half height at distance 1. Row 0 is the top, column 0 the
  // left (-x for this camera).
  const CameraFrame f = make_camera_frame(course_camera(), 200, 100);
  const float half_h = std::tan(glm::radians(45.0f));
  const float half_w = half_h * 2.0f;
  const Ray top_left = camera_ray(f, 0, 0, 0.0f, 0.0f, 0.5f, 0.5f);
  expect_vec_near(top_left.direction, glm::normalize(glm::vec3(-half_w, half_h, -1.0f)));
  // The far corner of the last pixel, reached with offsets -> 1.
  const Ray bottom_right = camera_ray(f, 199, 99, 1.0f, 1.0f, 0.5f, 0.5f);
  expect_vec_near(bottom_right.direction, glm::normalize(glm::vec3(half_w, -half_h, -1.0f)));
}

TEST(Camera, JitterStaysInsideThePixel) {
  const CameraFrame f = make_camera_frame(course_camera(), 10, 10);
  const Ray a = camera_ray(f, 3, 7, 0.0f, 0.0f, 0.5f, 0.5f);
  const Ray b = camera_ray(f, 4, 8, 0.0f, 0.0f, 0.5f, 0.5f);  // next pixel's corner
  Rng rng(1, 2, 3, 4);
  for (int k = 0; k < 1000; ++k) {
    const Ray r = camera_ray(f, 3, 7, rng.next_float(), rng.next_float(), 0.5f, 0.5f);
    EXPECT_NEAR(glm::length(r.direction), 1.0f, kTol);
    // Project onto the image plane at distance 1: between the two corners.
    const glm::vec3 p = r.direction / glm::dot(r.direction, f.view);
    const glm::vec3 pa = a.direction / glm::dot(a.direction, f.view);
    const glm::vec3 pb = b.direction / glm::dot(b.direction, f.view);
    EXPECT_GE(p.x, pa.x - 1e-6f);
    EXPECT_LT(p.x, pb.x + 1e-6f);
    EXPECT_LE(p.y, pa.y + 1e-6f);
    EXPECT_GT(p.y, pb.y - 1e-6f);
  }
}

TEST(Camera, ThinLensRaysMeetOnThePlaneOfFocus) {
  Camera c = course_camera();
  c.lens_radius = 0.5f;
  c.focal_distance = 7.0f;
  const CameraFrame f = make_camera_frame(c, 32, 32);
  const Ray pinhole = camera_ray(f, 5, 20, 0.25f, 0.75f, 0.5f, 0.5f);  // lens centre
  const glm::vec3 focus =
      pinhole.origin + pinhole.direction * (7.0f / glm::dot(pinhole.direction, f.view));
  Rng rng(9, 9, 9, 9);
  bool moved = false;
  for (int k = 0; k < 200; ++k) {
    const Ray r = camera_ray(f, 5, 20, 0.25f, 0.75f, rng.next_float(), rng.next_float());
    // The origin lies on the lens disk around the eye, in the lens plane.
    const glm::vec3 offset = r.origin - c.eye;
    EXPECT_LE(glm::length(offset), 0.5f + kTol);
    EXPECT_NEAR(glm::dot(offset, f.view), 0.0f, kTol);
    moved = moved || glm::length(offset) > 0.1f;
    // The ray passes through the focus point.
    const float t = glm::dot(focus - r.origin, f.view) / glm::dot(r.direction, f.view);
    expect_vec_near(r.origin + t * r.direction, focus, 1e-3f);
  }
  EXPECT_TRUE(moved);
}

SceneObject object(ShapeType shape, glm::vec3 trans, glm::vec3 rot, glm::vec3 scale) {
  Object o;
  o.shape = shape;
  o.material = 3;
  o.translation = trans;
  o.rotation_degrees = rot;
  o.scale = scale;
  return make_scene_object(o);
}

Ray ray(glm::vec3 o, glm::vec3 d) {
  Ray r;
  r.origin = o;
  r.direction = d;
  return r;
}

TEST(Transform, CourseOrderTranslateRotateScale) {
  Object o;
  o.translation = glm::vec3(1.0f, 2.0f, 3.0f);
  o.rotation_degrees = glm::vec3(0.0f, 0.0f, 90.0f);
  o.scale = glm::vec3(2.0f, 1.0f, 1.0f);
  // Scale first (x doubled), then rotate 90 degrees about z (+x -> +y), then translate.
  const glm::vec4 p = object_to_world(o) * glm::vec4(0.5f, 0.0f, 0.0f, 1.0f);
  expect_vec_near(glm::vec3(p), glm::vec3(1.0f, 3.0f, 3.0f));
  // The matrix is rotateX * rotateY * rotateZ: a point turns about z first, then y, then x.
  Object r;
  r.rotation_degrees = glm::vec3(90.0f, 90.0f, 0.0f);
  const glm::vec4 q = object_to_world(r) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f);
  // rotateY(90): +z -> +x; then rotateX(90): +x stays +x.
  expect_vec_near(glm::vec3(q), glm::vec3(1.0f, 0.0f, 0.0f));
}

TEST(Sphere, HitFromOutside) {
  const SceneObject s = object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -5.0f), glm::vec3(0.0f),
                               glm::vec3(2.0f));  // radius 1
  const Hit h =
      intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f)), kMinHitDistance);
  EXPECT_NEAR(h.t, 4.0f, kTol);
  expect_vec_near(h.normal, glm::vec3(0.0f, 0.0f, 1.0f));
  EXPECT_EQ(h.material, 3);
}

TEST(Sphere, UnnormalizedDirectionKeepsWorldParameter) {
  const SceneObject s =
      object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -5.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  const Hit h =
      intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -2.0f)), kMinHitDistance);
  EXPECT_NEAR(h.t, 2.0f, kTol);  // origin + 2 * (0, 0, -2) = (0, 0, -4)
}

TEST(Sphere, HitFromInsideReturnsFarSideWithOutwardNormal) {
  const SceneObject s = object(ShapeType::sphere, glm::vec3(1.0f, 1.0f, 1.0f), glm::vec3(0.0f),
                               glm::vec3(4.0f));  // radius 2
  const Hit h = intersect_object(s, ray(glm::vec3(1.0f, 1.0f, 1.0f), glm::vec3(1.0f, 0.0f, 0.0f)),
                                 kMinHitDistance);
  EXPECT_NEAR(h.t, 2.0f, kTol);
  expect_vec_near(h.normal, glm::vec3(1.0f, 0.0f, 0.0f));
}

TEST(Sphere, MissesBehindAndBeside) {
  const SceneObject s =
      object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -5.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  EXPECT_EQ(
      intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 1.0f)), kMinHitDistance).t,
      kNoHit);
  EXPECT_EQ(
      intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 1.0f, 0.0f)), kMinHitDistance).t,
      kNoHit);
  EXPECT_EQ(intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f)), kMinHitDistance)
                .material,
            3);
}

TEST(Sphere, GrazingRays) {
  const SceneObject s =
      object(ShapeType::sphere, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  // Parallel to z at height y: a hit just inside the silhouette, a miss just outside.
  const Hit inside = intersect_object(
      s, ray(glm::vec3(0.0f, 0.999f, 10.0f), glm::vec3(0.0f, 0.0f, -1.0f)), kMinHitDistance);
  ASSERT_LT(inside.t, kNoHit);
  EXPECT_NEAR(inside.t, 10.0f - std::sqrt(1.0f - 0.999f * 0.999f), 1e-3f);
  EXPECT_GT(inside.normal.y, 0.99f);  // nearly perpendicular to the ray
  const Hit outside = intersect_object(
      s, ray(glm::vec3(0.0f, 1.001f, 10.0f), glm::vec3(0.0f, 0.0f, -1.0f)), kMinHitDistance);
  EXPECT_EQ(outside.t, kNoHit);
}

TEST(Sphere, NonUniformScaleNormalByInverseTranspose) {
  // Ellipsoid with semi-axes (2, 0.5, 0.5): at the surface point (sqrt(2), sqrt(0.125), 0) the
  // normal is along (x / 4, y / 0.25, 0), not along the position.
  const SceneObject s =
      object(ShapeType::sphere, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(4.0f, 1.0f, 1.0f));
  const glm::vec3 p(std::sqrt(2.0f), std::sqrt(0.125f), 0.0f);
  const glm::vec3 n = glm::normalize(glm::vec3(p.x / 4.0f, p.y / 0.25f, 0.0f));
  // Come in along the true normal: the convex surface is met at p, after distance 3.
  const Hit h = intersect_object(s, ray(p + 3.0f * n, -n), kMinHitDistance);
  ASSERT_LT(h.t, kNoHit);
  EXPECT_NEAR(h.t, 3.0f, 1e-3f);
  expect_vec_near(h.normal, n, 1e-3f);
  EXPECT_GT(glm::length(n - glm::normalize(p)), 0.1f);  // the position would be wrong
}

TEST(Cube, HitFromOutsideEveryFace) {
  const SceneObject c = object(ShapeType::cube, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  const glm::vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const glm::vec3& a : axes) {
    const Hit h = intersect_object(
        c, ray(5.0f * a + glm::vec3(0.1f, 0.2f, 0.3f) * (glm::vec3(1.0f) - glm::abs(a)), -a),
        kMinHitDistance);
    EXPECT_NEAR(h.t, 4.0f, kTol);
    expect_vec_near(h.normal, a);
  }
}

TEST(Cube, HitFromInsideReturnsExitFace) {
  const SceneObject c = object(ShapeType::cube, glm::vec3(0.0f, 5.0f, 0.0f), glm::vec3(0.0f),
                               glm::vec3(10.0f));  // the course's room
  const Hit h = intersect_object(c, ray(glm::vec3(1.0f, 5.0f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f)),
                                 kMinHitDistance);
  EXPECT_NEAR(h.t, 5.0f, kTol);
  expect_vec_near(h.normal, glm::vec3(0.0f, -1.0f, 0.0f));
}

TEST(Cube, RotatedAndTranslated) {
  // A unit cube turned 45 degrees about y: its edge points towards +z at distance sqrt(0.5).
  const SceneObject c = object(ShapeType::cube, glm::vec3(2.0f, 0.0f, 0.0f),
                               glm::vec3(0.0f, 45.0f, 0.0f), glm::vec3(1.0f));
  const Hit h = intersect_object(c, ray(glm::vec3(2.1f, 0.0f, 5.0f), glm::vec3(0.0f, 0.0f, -1.0f)),
                                 kMinHitDistance);
  ASSERT_LT(h.t, kNoHit);
  EXPECT_NEAR(h.t, 5.0f - (std::sqrt(0.5f) - 0.1f), 1e-3f);
  // The face hit is the one facing +x+z.
  expect_vec_near(h.normal, glm::normalize(glm::vec3(1.0f, 0.0f, 1.0f)), 1e-3f);
}

TEST(Cube, GrazingAndParallelRays) {
  const SceneObject c = object(ShapeType::cube, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(1.0f));
  // Parallel to the x faces, just inside and just outside the y extent.
  EXPECT_LT(intersect_object(c, ray(glm::vec3(-5.0f, 0.4999f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)),
                             kMinHitDistance)
                .t,
            kNoHit);
  EXPECT_EQ(intersect_object(c, ray(glm::vec3(-5.0f, 0.5001f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)),
                             kMinHitDistance)
                .t,
            kNoHit);
  // A diagonal ray that passes beside a corner misses; through it, hits.
  EXPECT_EQ(intersect_object(c, ray(glm::vec3(-1.1f, 0.0f, 0.0f), glm::vec3(1.0f, 1.0f, 0.0f)),
                             kMinHitDistance)
                .t,
            kNoHit);
  EXPECT_LT(intersect_object(c, ray(glm::vec3(-0.9f, -0.3f, 0.0f), glm::vec3(1.0f, 1.0f, 0.0f)),
                             kMinHitDistance)
                .t,
            kNoHit);
}

TEST(Cube, ThinSlabFromTheCourseScenes) {
  // A wall: scale (0.01, 10, 10) at x = -5, hit head on from the room.
  const SceneObject w = object(ShapeType::cube, glm::vec3(-5.0f, 5.0f, 0.0f), glm::vec3(0.0f),
                               glm::vec3(0.01f, 10.0f, 10.0f));
  const Hit h = intersect_object(w, ray(glm::vec3(0.0f, 5.0f, 0.0f), glm::vec3(-1.0f, 0.0f, 0.0f)),
                                 kMinHitDistance);
  EXPECT_NEAR(h.t, 5.0f - 0.005f, kTol);
  expect_vec_near(h.normal, glm::vec3(1.0f, 0.0f, 0.0f));
}

TEST(Scene, ClosestHitPicksNearestObject) {
  const SceneObject objects[3] = {
      object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -10.0f), glm::vec3(0.0f), glm::vec3(1.0f)),
      object(ShapeType::cube, glm::vec3(0.0f, 0.0f, -4.0f), glm::vec3(0.0f), glm::vec3(1.0f)),
      object(ShapeType::sphere, glm::vec3(0.0f, 3.0f, -2.0f), glm::vec3(0.0f), glm::vec3(1.0f))};
  SceneObject tagged[3] = {objects[0], objects[1], objects[2]};
  for (int k = 0; k < 3; ++k) tagged[k].material = k;
  const Hit h = closest_hit(tagged, 3, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f)));
  EXPECT_EQ(h.material, 1);
  EXPECT_NEAR(h.t, 3.5f, kTol);
  EXPECT_EQ(closest_hit(tagged, 3, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, 1.0f))).material, -1);
  EXPECT_EQ(closest_hit(tagged, 0, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f))).t, kNoHit);
}

void expect_uv_near(const glm::vec2& a, const glm::vec2& b, float tol = kTol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
}

TEST(ObjectUv, SphereLongitudeAndLatitude) {
  // The image's centre faces +z, u grows towards +x, v = 1 at the top (+y) pole.
  expect_uv_near(UnitSphere::uv(glm::vec3(0.0f, 0.0f, 0.5f)), glm::vec2(0.5f, 0.5f));
  expect_uv_near(UnitSphere::uv(glm::vec3(0.5f, 0.0f, 0.0f)), glm::vec2(0.75f, 0.5f));
  expect_uv_near(UnitSphere::uv(glm::vec3(-0.5f, 0.0f, 0.0f)), glm::vec2(0.25f, 0.5f));
  expect_uv_near(UnitSphere::uv(glm::vec3(0.0f, 0.5f, 0.0f)), glm::vec2(0.5f, 1.0f));
  expect_uv_near(UnitSphere::uv(glm::vec3(0.0f, -0.5f, 0.0f)), glm::vec2(0.5f, 0.0f));
  // 45 degrees up from +z: v = 0.75; only the direction counts.
  expect_uv_near(UnitSphere::uv(glm::vec3(0.0f, 3.0f, 3.0f)), glm::vec2(0.5f, 0.75f));
  // The seam at -z: u = 0 or 1 (the same place for a repeating texture).
  const float u = UnitSphere::uv(glm::vec3(0.0f, 0.0f, -0.5f)).x;
  EXPECT_TRUE(std::fabs(u) < kTol || std::fabs(u - 1.0f) < kTol) << u;
  expect_uv_near(UnitSphere::uv(glm::vec3(0.0f)), glm::vec2(0.5f));  // no direction: finite
}

TEST(ObjectUv, CubeFacesShowTheImageUnmirrored) {
  // Each face's centre is the image's centre.
  const glm::vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (const glm::vec3& a : axes) expect_uv_near(UnitCube::uv(0.5f * a), glm::vec2(0.5f));
  // Offsets of (0.2 right, 0.3 up) as seen from outside, the side faces upright.
  expect_uv_near(UnitCube::uv(glm::vec3(0.2f, 0.3f, 0.5f)), glm::vec2(0.7f, 0.8f));    // +z
  expect_uv_near(UnitCube::uv(glm::vec3(-0.2f, 0.3f, -0.5f)), glm::vec2(0.7f, 0.8f));  // -z
  expect_uv_near(UnitCube::uv(glm::vec3(0.5f, 0.3f, -0.2f)), glm::vec2(0.7f, 0.8f));   // +x
  expect_uv_near(UnitCube::uv(glm::vec3(-0.5f, 0.3f, 0.2f)), glm::vec2(0.7f, 0.8f));   // -x
  // The top seen from above with -z up the screen, the bottom from below with +z up.
  expect_uv_near(UnitCube::uv(glm::vec3(0.2f, 0.5f, -0.3f)), glm::vec2(0.7f, 0.8f));
  expect_uv_near(UnitCube::uv(glm::vec3(0.2f, -0.5f, 0.3f)), glm::vec2(0.7f, 0.8f));
}

TEST(ObjectUv, HitsReportTheObjectSpaceUv) {
  // A sphere of radius 1 at (0, 0, -5), hit on its +z side: the image's centre.
  const SceneObject s =
      object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -5.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  ASSERT_TRUE(s.axis_aligned);
  Hit h = intersect_object(s, ray(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f)), kMinHitDistance);
  expect_uv_near(h.uv, glm::vec2(0.5f, 0.5f));
  // Turned 90 degrees about y (still the axis-aligned form): its +z side now faces +x, and the
  // uv follows the sphere.
  const SceneObject turned = object(ShapeType::sphere, glm::vec3(0.0f, 0.0f, -5.0f),
                                    glm::vec3(0.0f, 90.0f, 0.0f), glm::vec3(2.0f));
  ASSERT_TRUE(turned.axis_aligned);
  h = intersect_object(turned, ray(glm::vec3(5.0f, 0.0f, -5.0f), glm::vec3(-1.0f, 0.0f, 0.0f)),
                       kMinHitDistance);
  ASSERT_LT(h.t, kNoHit);
  expect_uv_near(h.uv, glm::vec2(0.5f, 0.5f));
  // A stretched sphere (the matrix form): the top pole.
  const SceneObject egg =
      object(ShapeType::sphere, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(1.0f, 3.0f, 1.0f));
  ASSERT_FALSE(egg.axis_aligned);
  h = intersect_object(egg, ray(glm::vec3(0.0f, 5.0f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f)),
                       kMinHitDistance);
  EXPECT_NEAR(h.uv.y, 1.0f, kTol);

  // A cube of side 2 at the origin, hit at (0.4, 0.6) on its +z face: object (0.2, 0.3, 0.5).
  const SceneObject c = object(ShapeType::cube, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(2.0f));
  h = intersect_object(c, ray(glm::vec3(0.4f, 0.6f, 5.0f), glm::vec3(0.0f, 0.0f, -1.0f)),
                       kMinHitDistance);
  expect_uv_near(h.uv, glm::vec2(0.7f, 0.8f));
  // Turned 90 degrees about y: the world +x face is the object's +z face.
  const SceneObject cube_turned =
      object(ShapeType::cube, glm::vec3(0.0f), glm::vec3(0.0f, 90.0f, 0.0f), glm::vec3(2.0f));
  ASSERT_TRUE(cube_turned.axis_aligned);
  // Object (0.2, 0.3, 0.5) is world (0.5, 0.3, -0.2) * 2.
  h = intersect_object(cube_turned, ray(glm::vec3(5.0f, 0.6f, -0.4f), glm::vec3(-1.0f, 0.0f, 0.0f)),
                       kMinHitDistance);
  ASSERT_LT(h.t, kNoHit);
  expect_uv_near(h.uv, glm::vec2(0.7f, 0.8f));
  // Turned 45 degrees (the matrix form), hit through the same object point.
  const SceneObject cube_45 =
      object(ShapeType::cube, glm::vec3(0.0f), glm::vec3(0.0f, 45.0f, 0.0f), glm::vec3(2.0f));
  ASSERT_FALSE(cube_45.axis_aligned);
  Object o45;
  o45.shape = ShapeType::cube;
  o45.rotation_degrees = glm::vec3(0.0f, 45.0f, 0.0f);
  o45.scale = glm::vec3(2.0f);
  const glm::vec3 target(object_to_world(o45) * glm::vec4(0.2f, 0.3f, 0.5f, 1.0f));
  const glm::vec3 normal(object_to_world(o45) * glm::vec4(0.0f, 0.0f, 1.0f, 0.0f));
  h = intersect_object(cube_45, ray(target + 3.0f * normal, -normal), kMinHitDistance);
  ASSERT_LT(h.t, kNoHit);
  expect_uv_near(h.uv, glm::vec2(0.7f, 0.8f));
}

}  // namespace
}  // namespace raystream
