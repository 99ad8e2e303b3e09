#include "io/scene/face_triangulation.h"

#include <cmath>

namespace raystream {
namespace {

using Point = glm::dvec2;

double cross(const Point& a, const Point& b) {
  return a.x * b.y - a.y * b.x;
}

// The corners projected onto the coordinate plane the face lies closest to, and the sign of
// their winding there (+1 counter-clockwise, -1 clockwise, 0 no area).
struct Projection {
  std::vector<Point> points;
  double winding = 0.0;
};

Projection project(const std::vector<glm::vec3>& corners) {
  const std::size_t n = corners.size();
  glm::dvec3 normal(0.0);  // Newell's method
  for (std::size_t i = 0; i < n; ++i) {
    const glm::dvec3 a(corners[i]), b(corners[(i + 1) % n]);
    normal.x += (a.y - b.y) * (a.z + b.z);
    normal.y += (a.z - b.z) * (a.x + b.x);
    normal.z += (a.x - b.x) * (a.y + b.y);
  }
  const glm::dvec3 size = glm::abs(normal);
  // Drop the axis along which the normal is largest; the other two keep a right-handed order.
  int u = 0, v = 1, axis = 2;
  if (size.x >= size.y && size.x >= size.z) {
    u = 1, v = 2, axis = 0;
  } else if (size.y >= size.z) {
    u = 2, v = 0, axis = 1;
  }
  Projection p;
  p.points.reserve(n);
  for (const glm::vec3& c : corners) p.points.emplace_back(double(c[u]), double(c[v]));
  p.winding = normal[axis] > 0.0 ? 1.0 : normal[axis] < 0.0 ? -1.0 : 0.0;
  return p;
}

// True when the four corners of a quad all turn the face's way (or go straight on).
bool is_convex_quad(const Projection& p) {
  for (std::size_t i = 0; i < 4; ++i) {
    const Point& a = p.points[(i + 3) % 4];
    const Point& b = p.points[i];
    const Point& c = p.points[(i + 1) % 4];
    if (!(cross(b - a, c - b) * p.winding >= 0.0)) return false;  // also NaN
  }
  return p.winding != 0.0;
}

// True when the fan from the first corner splits the face: seen from the first corner, the
// others follow one another the face's way round, less than a full turn in all (the face is
// star-shaped about its first corner, as every convex face is). A step back of up to a
// thousandth of a radian is let pass: a circle of a hundred thousand segments, its corners
// rounded to floats, zigzags by about that much where they are close to the first.
bool fan_splits(const Projection& p) {
  constexpr double kSlack = 1e-3;
  const Point origin = p.points[0];
  double swept = 0.0;
  for (std::size_t i = 1; i + 1 < p.points.size(); ++i) {
    const Point a = p.points[i] - origin, b = p.points[i + 1] - origin;
    const double angle = std::atan2(cross(a, b) * p.winding, glm::dot(a, b));
    if (!(angle >= -kSlack)) return false;  // also NaN
    swept += angle;
  }
  return swept < 2.0 * 3.14159265358979323846 - kSlack;
}

// Ear clipping over a ring of corners: an ear is a corner that turns the face's way and whose
// triangle with its two neighbours holds no corner that does not (only those can lie inside it).
// Whether a corner is an ear changes only for the neighbours of a corner clipped, so each clip
// re-checks two corners: O(n^2) in all.
class EarClipper {
 public:
  EarClipper(const Projection& p, std::vector<FaceTriangle>& out)
      : p_(p.points), winding_(p.winding), out_(out) {
    const std::size_t n = p_.size();
    prev_.resize(n);
    next_.resize(n);
    removed_.assign(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      prev_[i] = (i + n - 1) % n;
      next_[i] = (i + 1) % n;
    }
    convex_.resize(n);
    for (std::size_t i = 0; i < n; ++i) convex_[i] = turn(i) > 0.0;
    remaining_ = n;
  }

  void run() {
    std::vector<std::size_t> candidates;
    for (std::size_t i = p_.size(); i-- > 0;)
      if (is_ear(i)) candidates.push_back(i);
    std::size_t head = 0;  // a corner still in the ring
    while (remaining_ > 3) {
      std::size_t ear = p_.size();
      while (!candidates.empty()) {
        const std::size_t c = candidates.back();
        candidates.pop_back();
        if (!removed_[c] && is_ear(c)) {
          ear = c;
          break;
        }
      }
      if (ear == p_.size()) ear = forced(head);  // no ear: the face crosses itself
      const std::size_t a = prev_[ear], b = next_[ear];
      clip(ear);
      head = a;
      if (is_ear(a)) candidates.push_back(a);
      if (is_ear(b)) candidates.push_back(b);
    }
    const std::size_t b = next_[head];
    emit(head, b, next_[b]);
  }

 private:
  double turn(std::size_t i) const {
    return cross(p_[i] - p_[prev_[i]], p_[next_[i]] - p_[i]) * winding_;
  }

  bool inside(const Point& q, const Point& a, const Point& b, const Point& c) const {
    return cross(b - a, q - a) * winding_ >= 0.0 && cross(c - b, q - b) * winding_ >= 0.0 &&
           cross(a - c, q - c) * winding_ >= 0.0;
  }

  bool is_ear(std::size_t i) const {
    if (remaining_ <= 3) return true;
    if (!convex_[i]) return false;
    const std::size_t a = prev_[i], c = next_[i];
    for (std::size_t j = next_[c]; j != a; j = next_[j]) {
      if (convex_[j]) continue;
      const Point& q = p_[j];
      // A corner at the place of the triangle's own (a face that touches itself) does not stop it.
      if (q == p_[a] || q == p_[i] || q == p_[c]) continue;
      if (inside(q, p_[a], p_[i], p_[c])) return false;
    }
    return true;
  }

  // The corner to clip when none is an ear: one that goes straight on (its triangle has no
  // area), else one that turns the face's way, else `head`.
  std::size_t forced(std::size_t head) const {
    std::size_t convex = p_.size();
    std::size_t i = head;
    do {
      const double t = turn(i);
      if (t == 0.0) return i;
      if (t > 0.0 && convex == p_.size()) convex = i;
      i = next_[i];
    } while (i != head);
    return convex != p_.size() ? convex : head;
  }

  void clip(std::size_t i) {
    const std::size_t a = prev_[i], b = next_[i];
    emit(a, i, b);
    next_[a] = b;
    prev_[b] = a;
    removed_[i] = true;
    --remaining_;
    convex_[a] = turn(a) > 0.0;
    convex_[b] = turn(b) > 0.0;
  }

  void emit(std::size_t a, std::size_t b, std::size_t c) {
    out_.push_back({std::uint32_t(a), std::uint32_t(b), std::uint32_t(c)});
  }

  const std::vector<Point>& p_;
  double winding_;
  std::vector<FaceTriangle>& out_;
  std::vector<std::size_t> prev_, next_;
  std::vector<bool> removed_;
  std::vector<bool> convex_;  // turns the face's way (only the others can block an ear)
  std::size_t remaining_ = 0;
};

}  // namespace

bool triangulate_face(const std::vector<glm::vec3>& corners, std::vector<FaceTriangle>& triangles) {
  const std::size_t n = corners.size();
  if (n < 3) return true;
  if (n == 3) {
    triangles.push_back({0, 1, 2});
    return true;
  }
  const Projection p = project(corners);
  if (p.winding == 0.0) {
    // No area (every corner on a line): any split will do; its triangles are dropped.
    for (std::uint32_t i = 1; i + 1 < n; ++i) triangles.push_back({0, i, i + 1});
    return true;
  }
  if (n == 4 && is_convex_quad(p)) {
    const glm::vec3 d02 = corners[2] - corners[0], d13 = corners[3] - corners[1];
    if (glm::dot(d02, d02) < glm::dot(d13, d13)) {
      triangles.push_back({0, 1, 2});
      triangles.push_back({0, 2, 3});
    } else {
      triangles.push_back({0, 1, 3});
      triangles.push_back({1, 2, 3});
    }
    return true;
  }
  if (n > 4 && fan_splits(p)) {
    for (std::uint32_t i = 1; i + 1 < n; ++i) triangles.push_back({0, i, i + 1});
    return true;
  }
  if (n > kMaxNonConvexFaceCorners) return false;
  EarClipper(p, triangles).run();
  return true;
}

}  // namespace raystream
