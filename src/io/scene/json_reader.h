// The JSON machinery of the readers: parsing with comments, a duplicate-key check, a nesting
// limit and messages that give the line and column; and JsonReader, which reads typed values
// with key paths for messages. The scene rules live in io/scene/scene_loader.cpp.
#pragma once

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <glm/glm.hpp>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/excerpt.h"
#include "scene/scene_error.h"

namespace raystream {

// Objects as std::map: nlohmann::ordered_json keeps the file's order but inserts in linear time,
// so an object of n keys took n^2 / 2 comparisons (22 s for a 1.3 MB file of 100000 keys). The
// one order that matters, that of the materials (their ids follow it), is recorded by
// DuplicateKeyCheck as the file is read.
using Json = nlohmann::json;

// Deepest nesting of arrays and objects accepted in a document.
inline constexpr int kMaxJsonNesting = 64;

// Parses `text` (read from `path`, for messages; // and /* */ comments allowed). The keys of the
// top-level object named `ordered_object` are appended to `ordered_keys` in the file's order
// (nlohmann's objects forget it). Throws SceneError naming the file, the line and column where it
// can, and the problem: malformed JSON, a key that appears twice in one object, nesting deeper
// than kMaxJsonNesting, a number out of range.
Json parse_json(const std::string& text, const std::string& path, const std::string& ordered_object,
                std::vector<std::string>& ordered_keys);

// "an integer", "a string"... for messages.
std::string json_type_name(const Json& j);

// Lower case (ASCII), for keys and names that are matched without case.
std::string lower(std::string s);

// Walks a parsed document, building key paths for messages: every read checks the value's type
// and range and throws SceneError naming the file, the key path and what was expected.
class JsonReader {
 public:
  JsonReader(std::string path, std::vector<std::string>& warnings)
      : path_(std::move(path)), warnings_(warnings) {}

  [[noreturn]] void fail(const std::string& key, const std::string& message) const {
    throw SceneError(path_ + ": " + (key.empty() ? "" : key + ": ") + message);
  }
  void warn(const std::string& key, const std::string& message) {
    warnings_.push_back(
        excerpt(path_ + ": " + (key.empty() ? "" : key + ": ") + message, kMaxMessage));
  }

  const Json& require(const Json& parent, const std::string& parent_key, const char* key) const {
    const auto it = parent.find(key);
    if (it == parent.end()) {
      fail(join(parent_key, key), "missing required key");
    }
    return *it;
  }

  // Warns about keys not in `known`; keys in `ignored` are accepted silently.
  void check_keys(const Json& object, const std::string& key,
                  std::initializer_list<const char*> known,
                  std::initializer_list<const char*> ignored = {}) {
    for (const auto& item : object.items()) {
      const auto matches = [&](const char* k) { return item.key() == k; };
      if (std::any_of(known.begin(), known.end(), matches)) continue;
      if (std::any_of(ignored.begin(), ignored.end(), matches)) continue;
      warn(join(key, excerpt(item.key())), "unknown key, ignored");
    }
  }

  const Json& object(const Json& j, const std::string& key) const {
    if (!j.is_object()) fail(key, "expected an object, got " + json_type_name(j));
    return j;
  }

  double number(const Json& j, const std::string& key) const {
    if (!j.is_number()) fail(key, "expected a number, got " + json_type_name(j));
    const double v = j.get<double>();
    if (!std::isfinite(v)) fail(key, "expected a finite number, got " + j.dump());
    if (std::fabs(v) > static_cast<double>(FLT_MAX)) {
      fail(key, "value " + j.dump() + " is too large (it overflows a float)");
    }
    return v;
  }

  float real(const Json& j, const std::string& key) const {
    return static_cast<float>(number(j, key));
  }

  // A positive integer no larger than `max`.
  int positive_int(const Json& j, const std::string& key, long long max) const {
    const double v = number(j, key);
    if (v != std::floor(v)) fail(key, "expected an integer, got " + j.dump());
    if (v <= 0) fail(key, "expected a positive integer, got " + j.dump());
    if (v > static_cast<double>(max)) {
      fail(key, "value " + j.dump() + " is too large (at most " + std::to_string(max) + ")");
    }
    return static_cast<int>(v);
  }

  std::string string(const Json& j, const std::string& key) const {
    if (!j.is_string()) fail(key, "expected a string, got " + json_type_name(j));
    return j.get<std::string>();
  }

  // A path or file name (TEXTURE, FILE keys): a non-empty string without NUL characters (the
  // file system would cut the name there).
  std::string path(const Json& j, const std::string& key, const std::string& what) const {
    const std::string text = string(j, key);
    if (text.empty()) fail(key, "expected a non-empty " + what);
    if (text.find('\0') != std::string::npos) fail(key, "the path holds a NUL character");
    return text;
  }

  glm::vec3 vec3(const Json& j, const std::string& key) const {
    if (!j.is_array() || j.size() != 3) fail(key, "expected an array of 3 numbers");
    glm::vec3 v;
    for (int i = 0; i < 3; ++i) v[i] = real(j[i], key + "[" + std::to_string(i) + "]");
    return v;
  }

  static std::string join(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
  }

 private:
  std::string path_;
  std::vector<std::string>& warnings_;
};

}  // namespace raystream
