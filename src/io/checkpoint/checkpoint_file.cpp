#include "io/checkpoint/checkpoint_file.h"

#include <cstring>
#include <type_traits>

#include "integrator/render.h"
#include "io/files/input_file.h"
#include "io/scene/scene_loader.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

// The layout's version: a file of another is refused rather than misread.
constexpr std::uint32_t kFormatVersion = 1;
constexpr std::uint32_t kSquaresLayer = 1u, kFirstHitsLayer = 2u;
// Largest checkpoint read: the largest image's film with every layer (16 floats and a count
// per pixel), and room for the header.
constexpr std::uint64_t kMaxCheckpointBytes =
    std::uint64_t(kMaxImagePixels) * (15 * sizeof(float) + sizeof(std::uint32_t)) + (1u << 20);
constexpr InputKind kCheckpointFile{"checkpoint", "a checkpoint", kMaxCheckpointBytes};

// A 64-bit hash over 8-byte words (FNV-1a's constants): checks a file's integrity and tells
// scenes apart; not meant to resist a forger.
class Hash {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (; n >= 8; n -= 8, p += 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      mix(word);
    }
    std::uint64_t tail = n;
    for (std::size_t i = 0; i < n; ++i) tail = (tail << 8) | p[i];
    mix(tail);
  }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    bytes(&v, sizeof v);
  }
  template <class T>
  void values(const std::vector<T>& v) {
    value(v.size());
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  std::uint64_t get() const { return h_; }

 private:
  void mix(std::uint64_t word) {
    h_ ^= word;
    h_ *= 0x100000001b3ull;
    h_ ^= h_ >> 29;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

class Writer {
 public:
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    const auto* p = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), p, p + sizeof v);  // the host is little-endian (x86-64, Arm)
  }
  void text(const std::string& s) {
    value(std::uint32_t(s.size()));
    out.insert(out.end(), s.begin(), s.end());
  }
  template <class T>
  void array(const std::vector<T>& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    out.insert(out.end(), p, p + v.size() * sizeof(T));
  }
  std::vector<unsigned char> out;
};

class Reader {
 public:
  Reader(const std::string& bytes, std::string path) : bytes_(bytes), path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& what) const { throw SceneError(path_ + ": " + what); }
  void need(std::size_t n) const {
    if (bytes_.size() - pos_ < n) fail("corrupt checkpoint: truncated");
  }
  template <class T>
  T value() {
    need(sizeof(T));
    T v;
    std::memcpy(&v, bytes_.data() + pos_, sizeof v);
    pos_ += sizeof v;
    return v;
  }
  std::string text(std::size_t max) {
    const std::uint32_t n = value<std::uint32_t>();
    if (n > max) fail("corrupt checkpoint: a name of " + std::to_string(n) + " bytes");
    need(n);
    std::string s = bytes_.substr(pos_, n);
    pos_ += n;
    return s;
  }
  template <class T>
  void array(std::vector<T>& v, std::size_t n) {
    if (n > (bytes_.size() - pos_) / sizeof(T)) fail("corrupt checkpoint: truncated");
    v.resize(n);
    if (n) std::memcpy(v.data(), bytes_.data() + pos_, n * sizeof(T));
    pos_ += n * sizeof(T);
  }
  std::size_t position() const { return pos_; }

 private:
  const std::string& bytes_;
  std::string path_;
  std::size_t pos_ = 0;
};

std::string size_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

// How check_checkpoint words a difference in each setting of RAYSTREAM_CHECKPOINT_SETTINGS,
// between the checkpoint's key `k` and the render's `e`.
std::string size_refusal(const CheckpointKey& k, const CheckpointKey& e) {
  return "a checkpoint of a " + size_text(k.width, k.height) + " render (this one is " +
         size_text(e.width, e.height) + ")";
}
std::string depth_refusal(const CheckpointKey& k, const CheckpointKey& e) {
  return "a checkpoint of depth " + std::to_string(k.depth) + " (this render's is " +
         std::to_string(e.depth) + ")";
}
std::string spp_refusal(const CheckpointKey& k, const CheckpointKey& e) {
  return "a checkpoint of " + std::to_string(k.spp) + " samples per pixel (this render has " +
         std::to_string(e.spp) + ")";
}
std::string seed_refusal(const CheckpointKey& k, const CheckpointKey& e) {
  return "a checkpoint of seed " + std::to_string(k.seed) + " (this render's is " +
         std::to_string(e.seed) + ")";
}
std::string integrator_refusal(const CheckpointKey& k, const CheckpointKey& e) {
  return std::string("a checkpoint of --integrator ") + integrator_name(k.nee) +
         " (this render's is " + integrator_name(e.nee) + ")";
}

}  // namespace

std::uint64_t scene_fingerprint(const Scene& scene) {
  Hash h;
  h.value(scene.materials.size());
  for (const Material& m : scene.materials) {
    h.value(m.type);
    h.value(m.color);
    h.value(m.emittance);
    h.value(m.ior);
    h.value(m.roughness);
    h.value(m.emission);
    h.value(m.two_sided);
    h.value(m.texture);
  }
  h.value(scene.objects.size());
  for (const Object& o : scene.objects) {
    h.value(o.shape);
    h.value(o.material);
    h.value(o.translation);
    h.value(o.rotation_degrees);
    h.value(o.scale);
  }
  h.values(scene.triangles);
  const Camera& c = scene.camera;
  h.value(c.width);
  h.value(c.height);
  h.value(c.fovy_degrees);
  h.value(c.eye);
  h.value(c.lookat);
  h.value(c.up);
  h.value(c.lens_radius);
  h.value(c.focal_distance);
  h.value(c.near_distance);
  const Environment& e = scene.environment;
  h.value(e.present);
  h.value(e.constant);
  h.value(e.rotate_degrees);
  h.value(e.width);
  h.value(e.height);
  h.values(e.texels);
  h.value(scene.textures.size());
  for (const TextureImage& t : scene.textures) {
    h.value(t.width);
    h.value(t.height);
    h.values(t.texels);
  }
  return h.get();
}

std::vector<unsigned char> encode_checkpoint(const Checkpoint& c) {
  Writer w;
  w.out.assign(kCheckpointMagic, kCheckpointMagic + sizeof kCheckpointMagic - 1);
  w.value(kFormatVersion);
  w.text(c.key.version);
  w.text(c.key.scene);
  w.value(c.key.scene_hash);
#define RAYSTREAM_WRITE_SETTING(field, type, file_type, init, words) \
  w.value(static_cast<file_type>(c.key.field));
  RAYSTREAM_CHECKPOINT_SETTINGS(RAYSTREAM_WRITE_SETTING)
#undef RAYSTREAM_WRITE_SETTING
  w.value(std::int32_t(c.key.process));
  w.value(std::int32_t(c.key.processes));
  const FilmState& f = c.film;
  w.value(std::int32_t(f.width));
  w.value(std::int32_t(f.height));
  w.value(std::uint32_t((f.squares.empty() ? 0u : kSquaresLayer) |
                        (f.first_hits.empty() ? 0u : kFirstHitsLayer)));
  w.value(std::uint32_t(c.next_samples.size()));
  for (std::uint64_t next : c.next_samples) w.value(next);
  w.array(f.sums);
  w.array(f.counts);
  w.array(f.squares);
  w.array(f.first_hits);
  Hash h;
  h.bytes(w.out.data(), w.out.size());
  w.value(h.get());
  return std::move(w.out);
}

Checkpoint read_checkpoint(const std::string& path) {
  const std::string bytes = read_input_file(path, kCheckpointFile);
  Reader r(bytes, path);
  const std::size_t magic = sizeof kCheckpointMagic - 1;
  if (bytes.compare(0, magic, kCheckpointMagic) != 0) r.fail("not a raystream checkpoint");
  if (bytes.size() < magic + 8) r.fail("corrupt checkpoint: truncated");
  for (std::size_t k = 0; k < magic; ++k) r.value<char>();
  const std::uint32_t format = r.value<std::uint32_t>();
  if (format != kFormatVersion)
    r.fail("a checkpoint of format " + std::to_string(format) + " (this raystream reads format " +
           std::to_string(kFormatVersion) + ")");
  // The checksum first: the rest is read only from bytes known to be whole.
  Hash h;
  h.bytes(bytes.data(), bytes.size() - 8);
  std::uint64_t stored;
  std::memcpy(&stored, bytes.data() + bytes.size() - 8, 8);
  if (stored != h.get()) r.fail("corrupt checkpoint: the checksum does not match (truncated?)");

  Checkpoint c;
  c.key.version = r.text(256);
  c.key.scene = r.text(1u << 16);
  c.key.scene_hash = r.value<std::uint64_t>();
#define RAYSTREAM_READ_SETTING(field, type, file_type, init, words) \
  c.key.field = static_cast<type>(r.value<file_type>());
  RAYSTREAM_CHECKPOINT_SETTINGS(RAYSTREAM_READ_SETTING)
#undef RAYSTREAM_READ_SETTING
  c.key.process = r.value<std::int32_t>();
  c.key.processes = r.value<std::int32_t>();
  FilmState& f = c.film;
  f.width = r.value<std::int32_t>();
  f.height = r.value<std::int32_t>();
  if (f.width <= 0 || f.height <= 0 || f.width > kMaxImageSide || f.height > kMaxImageSide ||
      std::int64_t(f.width) * f.height > kMaxImagePixels || f.width != c.key.width ||
      f.height != c.key.height)
    r.fail("corrupt checkpoint: a film of " + size_text(f.width, f.height));
  const std::uint32_t layers = r.value<std::uint32_t>();
  const std::uint32_t shares = r.value<std::uint32_t>();
  if (shares == 0 || shares > 65536)
    r.fail("corrupt checkpoint: " + std::to_string(shares) + " shares");
  for (std::uint32_t k = 0; k < shares; ++k) c.next_samples.push_back(r.value<std::uint64_t>());
  const std::size_t n = f.pixels();
  r.array(f.sums, 3 * n);
  r.array(f.counts, n);
  r.array(f.squares, (layers & kSquaresLayer) ? 3 * n : 0);
  r.array(f.first_hits, (layers & kFirstHitsLayer) ? kFirstHitValues * n : 0);
  if (r.position() + 8 != bytes.size()) r.fail("corrupt checkpoint: its sizes disagree");
  return c;
}

void check_checkpoint(const Checkpoint& c, const CheckpointKey& e, const std::string& path) {
  const CheckpointKey& k = c.key;
  const auto refuse = [&](const std::string& what) {
    throw SceneError(path + ": " + what + "; it resumes only the render that wrote it");
  };
  if (k.version != e.version)
    refuse("a checkpoint of raystream " + k.version + " (this is " + e.version + ")");
  if (k.scene_hash != e.scene_hash)
    refuse(k.scene == e.scene
               ? "the scene " + excerpt(k.scene) +
                     " changed since the checkpoint was written (its content differs)"
               : "a checkpoint of another scene (written for " + excerpt(k.scene) + ")");
#define RAYSTREAM_CHECK_SETTING(field, type, file_type, init, words) \
  if (k.field != e.field) refuse(words##_refusal(k, e));
  RAYSTREAM_CHECKPOINT_SETTINGS(RAYSTREAM_CHECK_SETTING)
#undef RAYSTREAM_CHECK_SETTING
  if (k.process != e.process || k.processes != e.processes)
    refuse("a checkpoint of process " + std::to_string(k.process) + " of " +
           std::to_string(k.processes) + " (this is process " + std::to_string(e.process) + " of " +
           std::to_string(e.processes) + ")");
}

}  // namespace raystream
