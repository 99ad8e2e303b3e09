// utf8: UTF-8 <-> UTF-32LE on the GPU.
//
//   utf8 decode   IN OUT   UTF-8 -> UTF-32LE (U+FFFD per maximal invalid subpart)
//   utf8 encode   IN OUT   UTF-32LE -> UTF-8 (U+FFFD for values that are not scalar values)
//   utf8 validate IN       prints OK, or the offset of the first invalid byte
//
// Exit status: 0 done; 1 the input is invalid (validate, or --on-invalid=report); 2 usage, file or
// device error. OUT is written to a temporary file in its folder and renamed, so a failed run
// leaves no partial output.
#include <cuda_runtime.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "primitives/device_info.h"
#include "primitives/error.h"
#include "utf8_gpu.h"

using utf8::DeviceBuffer;

namespace {

const char* kUsage =
    "usage: utf8 decode|encode IN OUT [options]\n"
    "       utf8 validate IN [options]\n"
    "  decode    UTF-8 -> UTF-32LE (no BOM); ill-formed input becomes U+FFFD per maximal subpart\n"
    "  encode    UTF-32LE -> UTF-8; values that are not Unicode scalar values become U+FFFD\n"
    "  validate  prints OK (exit 0) or the offset of the first invalid byte (exit 1)\n"
    "options:\n"
    "  --on-invalid=replace|report  report: fail on the first invalid input, no OUT (default "
    "replace)\n"
    "  --method=tiled|compact       tiled: count, scan tile sizes, write (default);\n"
    "                               compact: per-item output, then the library's compact_if\n"
    "  --scan=NAME                  scan variant of the primitives (default: the library's)\n"
    "  --compact=NAME               compaction variant of the primitives (default: the library's)\n"
    "A throughput line goes to stderr.\n";

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct InputError : std::runtime_error {  // a file that cannot be read or written
  using std::runtime_error::runtime_error;
};

std::vector<std::uint8_t> read_file(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  std::vector<std::uint8_t> data;
  if (std::fseek(f, 0, SEEK_END) == 0) {  // a regular file: take its size at once
    const long size = std::ftell(f);
    if (size > 0) data.reserve(static_cast<std::size_t>(size));
    std::rewind(f);
  }
  std::uint8_t chunk[1 << 16];
  std::size_t got;
  while ((got = std::fread(chunk, 1, sizeof(chunk), f)) > 0)
    data.insert(data.end(), chunk, chunk + got);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw InputError("cannot read '" + path + "'");
  return data;
}

// Writes to OUT.tmp.XXXXXX in OUT's folder, then renames: OUT is either complete or untouched.
void write_file_atomically(const std::string& path, const void* data, std::size_t bytes) {
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0)
    throw InputError("cannot create a temporary file for '" + path + "': " + std::strerror(errno));
  const char* p = static_cast<const char*>(data);
  std::size_t left = bytes;
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      throw InputError("cannot write '" + path + "': " + why);
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw InputError("cannot write '" + path + "': " + why);
  }
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::chmod(tmp.c_str(), 0666 & ~mask);  // mkstemp made it 0600
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw InputError("cannot write '" + path + "': " + why);
  }
}

struct Args {
  std::string command, in, out;
  bool report = false;
  utf8::Options options;
};

Args parse_args(int argc, char** argv) {
  Args a;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* key) -> const char* {
      const std::size_t k = std::strlen(key);
      return arg.compare(0, k, key) == 0 ? argv[i] + k : nullptr;
    };
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (const char* v = value("--on-invalid=")) {
      if (std::strcmp(v, "replace") == 0) {
        a.report = false;
      } else if (std::strcmp(v, "report") == 0) {
        a.report = true;
      } else {
        throw UsageError(std::string("unknown --on-invalid value '") + v + "' (replace or report)");
      }
    } else if (const char* v = value("--method=")) {
      a.options.decode_method = a.options.encode_method = utf8::parse_method(v);
    } else if (const char* v = value("--scan=")) {
      a.options.scan.algorithm = prim::classic::parse_scan_algorithm(v);
      a.options.compact.scan.algorithm = a.options.scan.algorithm;
    } else if (const char* v = value("--compact=")) {
      a.options.compact.algorithm = prim::classic::parse_compact_algorithm(v);
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError("unknown option '" + arg + "'");
    } else {
      positional.push_back(arg);
    }
  }
  if (positional.empty()) throw UsageError("missing command");
  a.command = positional[0];
  const bool needs_out = a.command == "decode" || a.command == "encode";
  if (!needs_out && a.command != "validate")
    throw UsageError("unknown command '" + a.command + "'");
  const std::size_t expected = needs_out ? 3 : 2;
  if (positional.size() < expected) {
    throw UsageError(needs_out ? "missing IN or OUT" : "missing IN");
  }
  if (positional.size() > expected) throw UsageError("too many arguments");
  a.in = positional[1];
  if (needs_out) a.out = positional[2];
  return a;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_throughput(const char* what, std::size_t utf8_bytes, float kernel_ms, double e2e_s) {
  const double gb = utf8_bytes / 1e9;
  std::fprintf(stderr,
               "utf8 %s: %zu UTF-8 bytes | GPU kernels %.3f ms, %.2f GB/s | end to end (copy in, "
               "kernels, copy out) %.3f ms, %.2f GB/s\n",
               what, utf8_bytes, kernel_ms, kernel_ms > 0 ? gb / (kernel_ms * 1e-3) : 0.0,
               e2e_s * 1e3, e2e_s > 0 ? gb / e2e_s : 0.0);
}

// Timing of the codec's work on the GPU by CUDA events.
class EventTimer {
 public:
  EventTimer() {
    PRIM_CUDA_CHECK(cudaEventCreate(&start_));
    PRIM_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  void start() { PRIM_CUDA_CHECK(cudaEventRecord(start_)); }
  void stop() { PRIM_CUDA_CHECK(cudaEventRecord(stop_)); }
  float ms() {
    PRIM_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    PRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_, stop_;
};

int run(const Args& a) {
  const std::vector<std::uint8_t> input = read_file(a.in);
  if (!prim::cuda_device_available()) throw std::runtime_error("no CUDA device is available");
  EventTimer timer;

  if (a.command == "decode" || a.command == "validate") {
    const std::size_t n = input.size();
    if (n > utf8::kMaxUtf8Bytes) {
      throw InputError("'" + a.in + "' is " + std::to_string(n) + " bytes; the limit is 2^32 - 1");
    }
    utf8::Codec codec({n, 0}, a.options);
    DeviceBuffer d_in(n);
    DeviceBuffer d_out(a.command == "decode" ? 4 * n : 0);
    const auto t0 = std::chrono::steady_clock::now();
    PRIM_CUDA_CHECK(cudaMemcpy(d_in.as<void>(), input.data(), n, cudaMemcpyHostToDevice));
    timer.start();
    if (a.command == "decode") {
      codec.decode(d_in.as<std::uint8_t>(), n, d_out.as<std::uint32_t>());
    } else {
      codec.validate(d_in.as<std::uint8_t>(), n);
    }
    timer.stop();
    const utf8::Result r = codec.result();
    std::vector<std::uint32_t> decoded;
    const bool refuse = a.report && r.first_invalid != utf8::kNone;
    if (a.command == "decode" && !refuse && r.count > 0) {
      decoded.resize(r.count);
      PRIM_CUDA_CHECK(
          cudaMemcpy(decoded.data(), d_out.as<void>(), 4 * r.count, cudaMemcpyDeviceToHost));
    }
    const double e2e = seconds_since(t0);
    print_throughput(a.command.c_str(), n, timer.ms(), e2e);
    if (a.command == "validate") {
      if (r.first_invalid == utf8::kNone) {
        std::printf("OK\n");
        return 0;
      }
      std::printf("invalid UTF-8 at byte offset %zu\n", r.first_invalid);
      return 1;
    }
    if (refuse) {
      std::fprintf(stderr, "utf8: '%s': invalid UTF-8 at byte offset %zu; '%s' not written\n",
                   a.in.c_str(), r.first_invalid, a.out.c_str());
      return 1;
    }
    write_file_atomically(a.out, decoded.data(), 4 * decoded.size());
    return 0;
  }

  // encode
  if (input.size() % 4 != 0) {
    throw InputError("'" + a.in + "' is " + std::to_string(input.size()) +
                     " bytes, not a whole number of UTF-32 code points (4 bytes each)");
  }
  const std::size_t n = input.size() / 4;
  if (n > utf8::kMaxCodePoints) {
    throw InputError("'" + a.in + "' holds " + std::to_string(n) +
                     " code points; the limit is 2^30 - 1");
  }
  utf8::Codec codec({0, n}, a.options);
  DeviceBuffer d_in(4 * n);
  DeviceBuffer d_out(4 * n);
  const auto t0 = std::chrono::steady_clock::now();
  PRIM_CUDA_CHECK(cudaMemcpy(d_in.as<void>(), input.data(), 4 * n, cudaMemcpyHostToDevice));
  timer.start();
  codec.encode(d_in.as<std::uint32_t>(), n, d_out.as<std::uint8_t>());
  timer.stop();
  const utf8::Result r = codec.result();
  const bool refuse = a.report && r.first_invalid != utf8::kNone;
  std::vector<std::uint8_t> encoded(refuse ? 0 : r.count);
  if (!refuse && r.count > 0) {
    PRIM_CUDA_CHECK(cudaMemcpy(encoded.data(), d_out.as<void>(), r.count, cudaMemcpyDeviceToHost));
  }
  print_throughput("encode", r.count, timer.ms(), seconds_since(t0));
  if (refuse) {
    std::uint32_t c;
    std::memcpy(&c, input.data() + 4 * r.first_invalid, 4);
    std::fprintf(stderr,
                 "utf8: '%s': code point %zu (0x%X) is not a Unicode scalar value; '%s' not "
                 "written\n",
                 a.in.c_str(), r.first_invalid, c, a.out.c_str());
    return 1;
  }
  write_file_atomically(a.out, encoded.data(), encoded.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse_args(argc, argv));
  } catch (const UsageError& e) {
    std::fprintf(stderr, "utf8: %s\n%s", e.what(), kUsage);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8: %s\n", e.what());
  }
  return 2;
}
