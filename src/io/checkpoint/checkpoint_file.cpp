#include "io/checkpoint/checkpoint_file.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/excerpt.h"
#include "core/hash.h"
#include "io/files/atomic_file.h"
#include "io/files/input_file.h"
#include "scene/scene_error.h"
#include "scene/scene_limits.h"

namespace raystream {
namespace {

// The layout's version: a file of another is refused rather than misread.
constexpr std::uint32_t kFormatVersion = 2;
constexpr std::uint32_t kSquaresLayer = 1u, kFirstHitsLayer = 2u;
constexpr std::uint32_t kMaxSettings = 256;
constexpr std::uint32_t kMaxShares = 65536;
// Bytes per pixel of the film with every layer: sums (3 floats), a count, squares (3 doubles),
// first hits.
constexpr std::uint64_t kMaxBytesPerPixel = 3 * sizeof(float) + sizeof(std::uint32_t) +
                                            3 * sizeof(double) + kFirstHitValues * sizeof(float);
// Largest checkpoint read: the largest image's film with every layer, and room for the header.
constexpr std::uint64_t kMaxCheckpointBytes =
    std::uint64_t(kMaxImagePixels) * kMaxBytesPerPixel + (1u << 20);
constexpr InputKind kCheckpointFile{"checkpoint", "a checkpoint", kMaxCheckpointBytes};
// The film's arrays go to the sink in pieces of this many bytes.
constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

// Writes values to a sink, hashing every byte on the way.
class Writer {
 public:
  explicit Writer(const ByteSink& sink) : sink_(sink) {}
  void bytes(const void* data, std::size_t n) {
    hash_.bytes(data, n);
    sink_(data, n);
  }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    bytes(&v, sizeof v);  // the host is little-endian (x86-64, Arm)
  }
  void text(const std::string& s) {
    value(std::uint32_t(s.size()));
    bytes(s.data(), s.size());
  }
  template <class T>
  void array(const std::vector<T>& v) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    const std::size_t total = v.size() * sizeof(T);
    for (std::size_t done = 0; done < total; done += kPieceBytes)
      bytes(p + done, std::min(kPieceBytes, total - done));
  }
  std::uint64_t hash() const { return hash_.get(); }

 private:
  const ByteSink& sink_;
  Hash hash_;
};

// Reads values from the file, hashing every byte on the way; a short read is a truncated file.
class Reader {
 public:
  Reader(InputStream& in, std::string path) : in_(in), path_(std::move(path)) {}
  [[noreturn]] void fail(const std::string& what) const { throw SceneError(path_ + ": " + what); }
  void bytes(void* data, std::size_t n) {
    if (in_.read(data, n) != n) fail("corrupt checkpoint: truncated");
    hash_.bytes(data, n);
    position_ += n;
  }
  template <class T>
  T value() {
    T v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string text(std::size_t max) {
    const std::uint32_t n = value<std::uint32_t>();
    if (n > max) fail("corrupt checkpoint: a name of " + std::to_string(n) + " bytes");
    std::string s(n, '\0');
    bytes(s.data(), n);
    return s;
  }
  template <class T>
  void array(std::vector<T>& v, std::size_t n) {
    v.resize(n);
    auto* p = reinterpret_cast<unsigned char*>(v.data());
    const std::size_t total = n * sizeof(T);
    for (std::size_t done = 0; done < total; done += kPieceBytes)
      bytes(p + done, std::min(kPieceBytes, total - done));
  }
  std::uint64_t hash() const { return hash_.get(); }
  std::uint64_t position() const { return position_; }

 private:
  InputStream& in_;
  std::string path_;
  Hash hash_;
  std::uint64_t position_ = 0;
};

std::string size_text(int width, int height) {
  return std::to_string(width) + "x" + std::to_string(height);
}

void write_film(Writer& w, const CheckpointKey& key, const FilmState& f,
                const std::vector<std::uint64_t>& next_samples) {
  w.bytes(kCheckpointMagic, sizeof kCheckpointMagic - 1);
  w.value(kFormatVersion);
  w.text(key.version);
  w.text(key.scene);
  w.value(key.scene_hash);
  w.value(std::uint32_t(key.settings.size()));
  for (const auto& [name, text] : key.settings) {
    w.text(name);
    w.text(text);
  }
  w.value(std::int32_t(key.process));
  w.value(std::int32_t(key.processes));
  w.value(std::int32_t(f.width));
  w.value(std::int32_t(f.height));
  w.value(std::uint32_t((f.squares.empty() ? 0u : kSquaresLayer) |
                        (f.first_hits.empty() ? 0u : kFirstHitsLayer)));
  w.value(std::uint32_t(next_samples.size()));
  for (std::uint64_t next : next_samples) w.value(next);
  w.array(f.sums);
  w.array(f.counts);
  w.array(f.squares);
  w.array(f.first_hits);
}

// The key, up to the film's size.
void read_key(Reader& r, CheckpointKey& key) {
  key.version = r.text(256);
  key.scene = r.text(1u << 16);
  key.scene_hash = r.value<std::uint64_t>();
  const std::uint32_t settings = r.value<std::uint32_t>();
  if (settings > kMaxSettings)
    r.fail("corrupt checkpoint: " + std::to_string(settings) + " settings");
  for (std::uint32_t k = 0; k < settings; ++k) {
    std::string name = r.text(256);
    std::string text = r.text(256);
    key.settings.emplace_back(std::move(name), std::move(text));
  }
  key.process = r.value<std::int32_t>();
  key.processes = r.value<std::int32_t>();
}

}  // namespace

void write_checkpoint(const std::string& path, const CheckpointKey& key, const FilmState& film,
                      const std::vector<std::uint64_t>& next_samples) {
  std::vector<OutputFile> files(1);
  files[0].path = path;
  files[0].stream = [&](const ByteSink& sink) {
    Writer w(sink);
    write_film(w, key, film, next_samples);
    const std::uint64_t checksum = w.hash();
    sink(&checksum, sizeof checksum);
  };
  write_files_atomically(files);
}

Checkpoint read_checkpoint(const std::string& path) {
  InputStream in(path, kCheckpointFile);
  Reader r(in, path);
  char magic[sizeof kCheckpointMagic - 1];
  if (in.size() < sizeof magic + 4) r.fail("not a raystream checkpoint");
  r.bytes(magic, sizeof magic);
  if (std::memcmp(magic, kCheckpointMagic, sizeof magic) != 0) r.fail("not a raystream checkpoint");
  const std::uint32_t format = r.value<std::uint32_t>();
  if (format != kFormatVersion)
    r.fail("a checkpoint of format " + std::to_string(format) + " (this raystream reads format " +
           std::to_string(kFormatVersion) + ")");

  Checkpoint c;
  read_key(r, c.key);
  FilmState& f = c.film;
  f.width = r.value<std::int32_t>();
  f.height = r.value<std::int32_t>();
  if (f.width <= 0 || f.height <= 0 || f.width > kMaxImageSide || f.height > kMaxImageSide ||
      std::int64_t(f.width) * f.height > kMaxImagePixels)
    r.fail("corrupt checkpoint: a film of " + size_text(f.width, f.height));
  const std::uint32_t layers = r.value<std::uint32_t>();
  const std::uint32_t shares = r.value<std::uint32_t>();
  if (shares == 0 || shares > kMaxShares)
    r.fail("corrupt checkpoint: " + std::to_string(shares) + " shares");
  for (std::uint32_t k = 0; k < shares; ++k) c.next_samples.push_back(r.value<std::uint64_t>());
  const std::size_t n = f.pixels();
  const std::size_t squares = (layers & kSquaresLayer) ? 3 * n : 0;
  const std::size_t first_hits = (layers & kFirstHitsLayer) ? kFirstHitValues * n : 0;
  // The file's size is known before the film is allocated: a truncated or padded file is refused
  // before its film takes memory.
  const std::uint64_t film_bytes =
      (3 * n + first_hits) * sizeof(float) + n * sizeof(std::uint32_t) + squares * sizeof(double);
  if (r.position() + film_bytes + 8 > in.size()) r.fail("corrupt checkpoint: truncated");
  if (r.position() + film_bytes + 8 < in.size()) r.fail("corrupt checkpoint: its sizes disagree");
  r.array(f.sums, 3 * n);
  r.array(f.counts, n);
  r.array(f.squares, squares);
  r.array(f.first_hits, first_hits);
  const std::uint64_t expected = r.hash();
  if (r.value<std::uint64_t>() != expected)
    r.fail("corrupt checkpoint: the checksum does not match (truncated?)");
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
  for (std::size_t i = 0; i < e.settings.size(); ++i) {
    const auto& [name, text] = e.settings[i];
    const std::string theirs = i < k.settings.size() && k.settings[i].first == name
                                   ? k.settings[i].second
                                   : std::string("(none)");
    if (theirs != text)
      refuse("a checkpoint of " + name + " " + excerpt(theirs, 64) + " (this render's is " + text +
             ")");
  }
  if (k.settings.size() != e.settings.size())
    refuse("a checkpoint of other settings (" + std::to_string(k.settings.size()) +
           " of them; this render has " + std::to_string(e.settings.size()) + ")");
  if (k.process != e.process || k.processes != e.processes)
    refuse("a checkpoint of process " + std::to_string(k.process) + " of " +
           std::to_string(k.processes) + " (this is process " + std::to_string(e.process) + " of " +
           std::to_string(e.processes) + ")");
}

}  // namespace raystream
